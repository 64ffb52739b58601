// MHP3rd records (monster-hunter.txt, "MHP3rd: clip sets and records"; notes 3): record i of a
// clip drives the i-th bone counted from a per-monster offset, stepping over skipped bones; the
// offset follows the body-fork rule.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <span>
#include <vector>

namespace animkit::monster_hunter {

// records.record_to_bone: record -> bone (records past the bones stay unmapped).
std::map<int, int> record_to_bone(int n_records, int n_bones, int offset,
                                  const std::set<int>& skip);
// The inverse: bone -> record (a bone missing from it rests).
std::map<int, int> bone_to_record(int n_records, int n_bones, int offset,
                                  const std::set<int>& skip);
// records.OFFSET / SKIPPED (DEFAULT_OFFSET 2, no skip) for a species.
int record_offset(std::optional<int> em);
std::set<int> record_skip(std::optional<int> em);
// records.for_monster: bone -> record (bone_to_record) with the species' offset and skip unless
// given (notes 3: for_monster(None, 2, 20) = {2: 0, 3: 1}).
std::map<int, int> for_monster(std::optional<int> em, int n_records, int n_bones,
                               std::optional<int> offset = {},
                               std::optional<std::set<int>> skip = {});
// records.body_fork: the lowest joint with more than one child; 0 if none.
int body_fork(std::span<const int> parents);
// records.loc_below_fork: the bones (>= 0, sorted) not in {fork and its ancestors}.
std::vector<int> loc_below_fork(std::span<const int> parents, const std::set<int>& bones);

}  // namespace animkit::monster_hunter
