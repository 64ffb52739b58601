// Loading one tree the way the stock game does (Scr_CreateAnimationTree and the XAnim builder):
// parse with pruning, lay out the compact tree, bind the script references, resolve the leaf
// assets, run the sync setup, then report references no node defines (cod-animtrees.txt,
// "Pruning and placeholders", "Sync groups", "Script integration", "Diagnostics").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "animkit/call_of_duty/assets.h"
#include "animkit/call_of_duty/atr_parser.h"
#include "animkit/call_of_duty/diagnostic.h"
#include "animkit/call_of_duty/xanim_tree.h"

namespace animkit::call_of_duty {

// A `%name` reference to the tree, and where it was made (for `not defined` diagnostics).
struct Reference {
  std::string name;  // lower-cased by load_anim_tree
  std::string file;
  int line = 0, column = 0;
  uint64_t offset = 0;
};

struct LoadOptions {
  std::string tree_name;              // e.g. "generic_human" (messages say 'animtrees/<name>.atr')
  std::string file;                   // for diagnostics
  std::vector<Reference> references;  // what the scripts reference
  bool anim_check = false;            // com_animCheck (stock default 0)
  bool keep_going = false;            // record every error and recover
  const AssetResolver* assets = nullptr;  // nullptr: every asset exists, nothing more is known
  uint32_t checksum_seed = 0;             // the running checksum the fold starts from
};

struct LoadResult {
  std::string tree_name;
  // Absent when the parse failed and the loader stopped. The parse itself is not kept: the tree
  // holds the names and places the outputs need (issue 26: a 2 M-node tree held once).
  std::optional<XAnim> anim;
  // Referenced name -> node index of the node that bound it (the first in build order).
  std::unordered_map<std::string, int32_t> bindings;
  std::vector<Diagnostic> diagnostics;  // parse, then build, then the references check

  bool loaded() const { return !has_error(diagnostics); }
  // The node index a reference binds to, or nullopt.
  std::optional<int32_t> find(std::string_view name) const;
};

// The largest node index a packed reference holds (cod-animtrees.txt, "Script integration":
// "(treeIndex << 16) | nodeIndex", the low 16 bits). A referenced node beyond it is an error.
// (XANIM_POOL_NODE_COUNT, 2048, holds runtime animation state, not tree nodes: "not a per-file
// syntax rule", so it is not checked.)
inline constexpr int32_t kMaxPackedNodeIndex = 0xFFFF;

// A leaf's asset path `xanim/<name>` must fit MAX_QPATH (64 bytes, with its NUL): names of at
// most 57 bytes ("Limits": "A leaf name is also an xanim asset name").
inline constexpr size_t kMaxQPath = 64;
inline constexpr size_t kMaxLeafNameLength = kMaxQPath - 6 - 1;

LoadResult load_anim_tree(std::string_view text, const LoadOptions& options);

}  // namespace animkit::call_of_duty
