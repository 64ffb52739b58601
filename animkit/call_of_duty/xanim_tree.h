// The compact runtime tree, XAnim, in the stock node order, with the checksum the loader folds
// while it builds it (cod-animtrees-loader.md, "The compact tree (XAnim)"; cod-animtrees.txt,
// "Runtime representation").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "animkit/call_of_duty/assets.h"
#include "animkit/call_of_duty/atr_parser.h"

namespace animkit::call_of_duty {

struct XAnimEntry {
  std::string name;         // node name; node 0 is `root`
  int32_t parent = -1;      // parent index; -1 for the root
  int32_t first_child = 0;  // parents: the first of a contiguous range of children
  int32_t child_count = 0;  // parents
  uint8_t flags = 0;        // parents: kLoopSync | kNonLoopSync | kComplete
  bool leaf = false;
  std::optional<XAnimAsset> asset;  // leaves: the resolved xanim/<name> (nullopt: not found)
  int source = -1;                  // the AtrNode this entry came from (-1: the root)
};

struct XAnim {
  std::string name;
  uint32_t node_count = 0;
  std::vector<XAnimEntry> entries;  // by node index
  uint32_t checksum = 0;
  std::vector<int32_t> visit_order;  // node indices in the order the builder visits them
};

// "The checksum fold": c = c*31 + v, 32-bit unsigned.
inline uint32_t fold(uint32_t c, uint32_t v) { return c * 31u + v; }

// Lays out the parsed tree: node 0 the root, children newest first (the reverse of file order),
// child ranges handed out depth-first; folds the checksum from `seed`. Leaves get no asset here.
XAnim build_xanim(const AnimTreeFile& file, const std::string& name, uint32_t seed = 0);

}  // namespace animkit::call_of_duty
