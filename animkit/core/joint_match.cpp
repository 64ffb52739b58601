#include "animkit/core/joint_match.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "animkit/core/error.h"
#include "animkit/core/rotation_angle.h"

namespace animkit {

namespace {

std::string name_list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < 8; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > 8) s += fmt::format(" and {} more", names.size() - 8);
  return s;
}

// The angle between two rotations, in radians (either sign of either quaternion): the core's one
// measure (issue 32, item 4).
float angle_between(Quat a, Quat b) { return static_cast<float>(rotation_angle(a, b)); }

}  // namespace

JointMatch match_joints(const Animated& source, const Skeleton& target, float rest_tolerance) {
  const Skeleton& from = source.skeleton;
  std::vector<std::string> extra, missing, reparented;
  std::vector<int> target_of(from.num_joints(), -1);
  for (size_t i = 0; i < from.num_joints(); ++i) {
    const std::optional<int> t = target.find(from.names[i]);
    if (!t) {
      extra.push_back(from.names[i]);
      continue;
    }
    target_of[i] = *t;
  }
  for (size_t t = 0; t < target.num_joints(); ++t) {
    if (!from.find(target.names[t])) missing.push_back(target.names[t]);
  }
  if (!extra.empty() || !missing.empty()) {
    std::string what;
    if (!missing.empty()) what += fmt::format("missing {} joint(s) of the target: {}", missing.size(), name_list(missing));
    if (!extra.empty()) {
      what += fmt::format("{}{} joint(s) the target does not have: {}", what.empty() ? "" : "; ",
                          extra.size(), name_list(extra));
    }
    throw Error("the glTF skeleton does not match the template's (by joint name): " + what);
  }
  JointMatch out;
  for (size_t i = 0; i < from.num_joints(); ++i) {
    const int t = target_of[i];
    const int sp = from.parents[i];
    const int tp = target.parents[t];
    const std::string sparent = sp < 0 ? "" : from.names[sp];
    const std::string tparent = tp < 0 ? "" : target.names[tp];
    if (sparent != tparent) {
      reparented.push_back(fmt::format("{} (under '{}', the target has it under '{}')", from.names[i],
                                       sparent, tparent));
    }
    const Transform& a = from.rest[i];
    const Transform& b = target.rest[t];
    const float dt = length(a.translation - b.translation);
    const float dr = angle_between(a.rotation, b.rotation);
    if (dt > rest_tolerance || dr > rest_tolerance) {
      out.notes.push_back(fmt::format("joint '{}': rest pose differs from the template's "
                                      "(translation by {:.6g}, rotation by {:.6g} rad); the clip "
                                      "is written as authored, not re-targeted",
                                      from.names[i], dt, dr));
    }
  }
  if (!reparented.empty()) {
    throw Error("the glTF skeleton does not match the template's: joint(s) under another parent: " +
                name_list(reparented));
  }
  for (const Clip& c : source.clips) {
    Clip m = c;
    m.joints.assign(target.num_joints(), JointTracks{});
    for (size_t i = 0; i < c.joints.size() && i < target_of.size(); ++i) m.joints[target_of[i]] = c.joints[i];
    out.clips.push_back(std::move(m));
  }
  return out;
}

}  // namespace animkit
