#include "animkit/monster_hunter/records.h"

namespace animkit::monster_hunter {

std::map<int, int> record_to_bone(int n_records, int n_bones, int offset,
                                  const std::set<int>& skip) {
  std::map<int, int> out;
  int bone = offset;
  for (int r = 0; r < n_records; ++r) {
    while (skip.count(bone) != 0) ++bone;
    if (bone >= n_bones) break;
    out[r] = bone;
    ++bone;
  }
  return out;
}

std::map<int, int> bone_to_record(int n_records, int n_bones, int offset,
                                  const std::set<int>& skip) {
  std::map<int, int> out;
  for (const auto& [r, b] : record_to_bone(n_records, n_bones, offset, skip)) out[b] = r;
  return out;
}

int record_offset(std::optional<int> em) {
  if (em && (*em == 40 || *em == 58)) return 0;  // OFFSET = {40: 0, 58: 0}
  return 2;                                      // DEFAULT_OFFSET
}

std::set<int> record_skip(std::optional<int> em) {
  if (!em) return {};
  switch (*em) {
    case 1:
    case 2:
    case 15:
    case 18:
      return {8, 15, 25};
    case 7:
      return {21, 22};
    case 16:
    case 56:
      return {22, 23, 24};
    case 22:
      return {8};
    case 47:
      return {17};
    case 40:
      return {9, 10, 16, 17, 24, 31, 37, 38, 42, 47};
    case 41:
      return {8, 9, 15, 16, 25, 27, 30, 31, 32, 34, 43, 48};
    default:
      return {};
  }
}

std::map<int, int> for_monster(std::optional<int> em, int n_records, int n_bones,
                               std::optional<int> offset, std::optional<std::set<int>> skip) {
  return bone_to_record(n_records, n_bones, offset.value_or(record_offset(em)),
                        skip.value_or(record_skip(em)));
}

int body_fork(std::span<const int> parents) {
  std::map<int, int> children;
  for (int p : parents)
    if (p >= 0) ++children[p];
  for (const auto& [joint, count] : children)
    if (count > 1) return joint;
  return 0;
}

std::vector<int> loc_below_fork(std::span<const int> parents, const std::set<int>& bones) {
  std::set<int> above;
  int j = body_fork(parents);
  const int n = static_cast<int>(parents.size());
  for (int guard = 0; j >= 0 && j < n && guard <= n; ++guard) {
    above.insert(j);
    j = parents[j];
  }
  std::vector<int> out;
  for (int b : bones)
    if (b >= 0 && above.count(b) == 0) out.push_back(b);
  return out;
}

}  // namespace animkit::monster_hunter
