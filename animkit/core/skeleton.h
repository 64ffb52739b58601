// The neutral skeleton: joint names, parent indices (-1 for a root, parents before children) and
// the rest (bind) local transform of each joint.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animkit/core/math.h"

namespace animkit {

struct Skeleton {
  std::vector<std::string> names;
  std::vector<int16_t> parents;
  std::vector<Transform> rest;

  size_t num_joints() const { return parents.size(); }
  // Adds a joint and returns its index.
  int add_joint(std::string name, int parent, const Transform& rest_local);
  // Empty when well formed; else what is wrong (sizes differ, a parent after its child, ...).
  std::string validate() const;
  std::optional<int> find(std::string_view name) const;
  // True when `joint` is `ancestor` or lies below it.
  bool is_in_subtree(int joint, int ancestor) const;
  // One flag per joint: set for `root` and everything below it.
  std::vector<uint8_t> subtree_mask(int root) const;
  std::vector<int> children(int joint) const;
};

}  // namespace animkit
