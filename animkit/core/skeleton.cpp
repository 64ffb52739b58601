#include "animkit/core/skeleton.h"

#include <fmt/format.h>

namespace animkit {

int Skeleton::add_joint(std::string name, int parent, const Transform& rest_local) {
  names.push_back(std::move(name));
  parents.push_back(static_cast<int16_t>(parent));
  rest.push_back(rest_local);
  return static_cast<int>(parents.size()) - 1;
}

std::string Skeleton::validate() const {
  if (names.size() != parents.size() || rest.size() != parents.size()) {
    return fmt::format("skeleton has {} names, {} parents and {} rest transforms", names.size(),
                       parents.size(), rest.size());
  }
  if (parents.size() > 32767) return fmt::format("skeleton has {} joints", parents.size());
  for (size_t i = 0; i < parents.size(); ++i) {
    const int p = parents[i];
    if (p < -1 || p >= static_cast<int>(i)) {
      return fmt::format("joint {} ('{}') has parent {}: parents must come before children", i,
                         names[i], p);
    }
  }
  return {};
}

std::optional<int> Skeleton::find(std::string_view name) const {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return std::nullopt;
}

bool Skeleton::is_in_subtree(int joint, int ancestor) const {
  for (int j = joint; j >= 0 && j < static_cast<int>(parents.size()); j = parents[j]) {
    if (j == ancestor) return true;
  }
  return false;
}

std::vector<uint8_t> Skeleton::subtree_mask(int root) const {
  std::vector<uint8_t> mask(parents.size(), 0);
  if (root < 0 || root >= static_cast<int>(parents.size())) return mask;
  mask[root] = 1;
  // Parents come before children, so one forward pass suffices.
  for (size_t i = root + 1; i < parents.size(); ++i) {
    if (parents[i] >= 0 && mask[parents[i]]) mask[i] = 1;
  }
  return mask;
}

std::vector<int> Skeleton::children(int joint) const {
  std::vector<int> out;
  for (size_t i = 0; i < parents.size(); ++i) {
    if (parents[i] == joint) out.push_back(static_cast<int>(i));
  }
  return out;
}

}  // namespace animkit
