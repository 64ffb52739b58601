// The compact runtime tree, XAnim, in the stock node order, with the checksum the loader folds
// while it builds it (cod-animtrees-loader.md, "The compact tree (XAnim)"; cod-animtrees.txt,
// "Runtime representation").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animkit/call_of_duty/assets.h"
#include "animkit/call_of_duty/atr_parser.h"

namespace animkit::call_of_duty {

// One node, 32 bytes with no allocation of its own (issue 26: a 2 M-node tree is 64 MB of
// entries). Its name is XAnim::node_name(index); its asset is asset().
struct XAnimEntry {
  uint32_t name_offset = 0;  // in XAnim::names
  uint16_t name_size = 0;
  uint8_t flags = 0;  // parents: kLoopSync | kNonLoopSync | kComplete
  bool leaf : 1 = false;
  bool synthetic : 1 = false;  // an inserted `void` / `void_loop`
  // The resolved xanim/<name> of a leaf, packed (asset()).
  bool has_asset : 1 = false;
  bool looping_known : 1 = false;
  bool looping : 1 = false;
  bool length_known : 1 = false;
  int32_t parent = -1;      // parent index; -1 for the root
  int32_t first_child = 0;  // parents: the first of a contiguous range of children
  int32_t child_count = 0;  // parents
  int32_t line = 0, column = 0;  // the node's place in the file (a void: its `}`); 0: the root
  float length = 0;              // with length_known

  // Leaves: the resolved xanim/<name> (nullopt: not found; the loader sets it).
  std::optional<XAnimAsset> asset() const;
  void set_asset(const std::optional<XAnimAsset>& asset);
};

struct XAnim {
  std::string name;
  uint32_t node_count = 0;
  std::vector<XAnimEntry> entries;  // by node index
  uint32_t checksum = 0;
  std::string names;  // the nodes' names, back to back (XAnimEntry::name_offset)

  std::string_view node_name(size_t index) const {
    const XAnimEntry& e = entries[index];
    return std::string_view(names).substr(e.name_offset, e.name_size);
  }
};

// "The checksum fold": c = c*31 + v, 32-bit unsigned.
inline uint32_t fold(uint32_t c, uint32_t v) { return c * 31u + v; }

// Lays out the parsed tree: node 0 the root, children newest first (the reverse of file order),
// child ranges handed out depth-first; folds the checksum from `seed`. Leaves get no asset here.
// The parse is consumed: its names move into the tree and its nodes are freed, so a large tree
// is never held twice for longer than the build.
XAnim build_xanim(AnimTreeFile&& file, const std::string& name, uint32_t seed = 0);

// Calls f(index) for every node in the order the builder visits them: a parent, then each of its
// children in order, recursing into a child parent when it is reached (the order of the checksum
// fold, of binding and of the sync setup).
template <class F>
void for_each_in_build_order(const XAnim& a, F&& f) {
  if (a.entries.empty()) return;
  struct Open {
    int32_t parent, next;
  };
  std::vector<Open> open{{0, 0}};
  f(int32_t{0});
  while (!open.empty()) {
    Open& o = open.back();
    const XAnimEntry& p = a.entries[o.parent];
    if (o.next == p.child_count) {
      open.pop_back();
      continue;
    }
    const int32_t c = p.first_child + o.next++;
    f(c);
    if (!a.entries[c].leaf) open.push_back({c, 0});
  }
}

// The same order as a list.
std::vector<int32_t> build_order(const XAnim& a);

}  // namespace animkit::call_of_duty
