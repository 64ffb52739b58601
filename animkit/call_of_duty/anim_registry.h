// The tree registry (cod-animtrees.txt, "Limits", "Script integration"): tree names canonicalised
// like script file names (case does not matter), registry indices from 1 (0 is reserved), 127
// names per registration slot and two slots, the 49-byte name limit of animtrees/<name>.atr in a
// MAX_QPATH buffer. And the packed animation value (treeIndex << 16) | nodeIndex.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace animkit::call_of_duty {

class AnimTreeRegistry {
 public:
  static constexpr int kMaxTreeCount = 127;  // names per slot
  static constexpr int kSlotCount = 2;
  static constexpr size_t kMaxQPath = 64;  // MAX_QPATH
  // "animtrees/" + name + ".atr" + NUL must fit MAX_QPATH: 64 - 10 - 4 - 1.
  static constexpr size_t kMaxTreeNameLength = kMaxQPath - 15;

  // The index (from 1) of the tree in `slot`, registering it on first use. Throws animkit::Error
  // with the stock message `animation tree path is too long` or
  // `maximum animation tree count exceeded (%i)`.
  int register_tree(std::string_view name, int slot = 0);
  // The index of a registered tree, or nullopt.
  std::optional<int> find(std::string_view name, int slot = 0) const;
  // Canonical names of a slot, by index - 1.
  const std::vector<std::string>& names(int slot = 0) const;

 private:
  std::vector<std::string> slots_[kSlotCount];
};

// The script filename canonicalisation as it applies to a tree name: lower case, '\' as '/'.
std::string canonical_tree_name(std::string_view name);

// scr_anim_t: the low 16 bits hold the node index, the high 16 the tree registry index.
inline uint32_t pack_anim(int tree_index, int node_index) {
  return (static_cast<uint32_t>(tree_index) << 16) | (static_cast<uint32_t>(node_index) & 0xFFFFu);
}

}  // namespace animkit::call_of_duty
