// Porting an MHP3rd moveset onto an MHFU monster (notes 2, "Port packer"; notes 3, records):
// the donor's clips by id (motion.moveset), every clip the same track count (for_moveset), the
// record -> bone map of the donor species (for_monster), the packer's entry for each donor id
// (layout.plan), each clip rebuilt over the target rig (motion.build: bits in 0x1FF sorted by
// bit, an unmapped joint or an empty track holding still with motion.rest) and split into the
// target's parts.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/skeleton.h"

namespace animkit::monster_hunter {

// motion.moveset: {clip id: clip} over every stream of an MHP3rd pack (slots past 99 are an
// error, motion.clip_id).
std::map<int, const Clip*> moveset(const AnimPack& donor);
// for_moveset: the one track count of every clip; throws when they differ (or there are none).
int moveset_records(const std::map<int, const Clip*>& clips);

// layout.plan, no manifest pins: each donor id under the capacity and not head-only goes to the
// entry of that id; the rest, by ascending id, to the free entries, host-filled ones first
// (ascending), then the others ascending. Ids left without a free entry are `dropped`.
struct LayoutPlan {
  int capacity = 0;
  std::set<int> head_only, host_filled;
  std::map<int, int> entries;  // entry -> donor id
  std::vector<int> dropped;
};
LayoutPlan plan_layout(const std::vector<int>& donor_ids, int capacity,
                       const std::set<int>& host_filled, const std::set<int>& head_only);

// motion.build: one track per target bone; a bone mapped to record r gets donor track r keeping
// only bits in 0x1FF, sorted by bit; an unmapped bone (or one left with no channel) gets
// rest(frames or 2). loop and loop_start are the donor's.
Clip build_clip(const Clip& donor, const std::map<int, int>& bone_to_record, size_t bones);

struct PortOptions {
  std::optional<int> donor_em;  // records: the donor species' offset and skipped bones
  std::optional<int> host_em;   // capacity: the host species' entry count
};
struct PortResult {
  AnimPack pack;  // the host pack with the donor's clips in their entries
  LayoutPlan plan;
  int records = 0;
  std::map<int, int> bone_to_record;
  int fork = 0;
  std::vector<int> loc_below_fork;  // bones with location records below the body fork
};
// Throws animkit::Error when the donor is not MHP3rd, the host not MHFU, or the clips disagree.
PortResult port(const AnimPack& donor, const Skeleton& target, const AnimPack& host,
                const PortOptions& options);
Json to_json(const PortResult& result);

// notes 3, EM_BY_MODEL: the donor species of an MHP3rd model file number (5248 -> 58, 5339 ->
// 40); the moveset is file model + 2, so that number is accepted too.
std::optional<int> em_by_model(int file_number);
// The host species of a native MHFU model PAC number (file_0{em + 6110}).
std::optional<int> em_of_model_pac(int file_number);

}  // namespace animkit::monster_hunter
