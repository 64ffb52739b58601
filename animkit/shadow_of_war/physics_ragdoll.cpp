#include "animkit/shadow_of_war/physics_ragdoll.h"

#include <fmt/format.h>

#include "animkit/core/error.h"

namespace animkit::shadow_of_war {

PhysicsRagdoll::PhysicsRagdoll(int32_t body_count)
    : bodies(body_count), joints(body_count > 0 ? body_count - 1 : 0) {}

void set_axis_limits_degrees(RagdollJoint& j, int axis, double lo, double hi) {
  j.limits[2 * axis] = static_cast<float>(lo * kPi / 180.0);
  j.limits[2 * axis + 1] = static_cast<float>(hi * kPi / 180.0);
}

void setup_joints(PhysicsRagdoll& r, const std::vector<RagdollConstraint>& constraints,
                  std::vector<int32_t>* skipped) {
  for (const RagdollConstraint& c : constraints) {
    if (c.Index < 0 || static_cast<size_t>(c.Index) >= r.joints.size()) {
      if (skipped) skipped->push_back(c.Index);
      continue;
    }
    RagdollJoint& j = r.joints[c.Index];
    j.motor_disabled = c.Powered ? 0 : 1;
    const ConstraintAxisData* axes[3] = {&c.pitch, &c.yaw, &c.roll};
    for (int a = 0; a < 3; ++a) {
      set_axis_limits_degrees(j, a, axes[a]->MinPoweredAngle, axes[a]->MaxPoweredAngle);
      j.mirror[a] = axes[a]->Mirror ? 1 : 0;
    }
    j.configured = true;
  }
}

std::vector<RagdollConstraint> constraints_from_json(const Json& j) {
  std::vector<RagdollConstraint> out;
  if (!j.is_array()) throw Error("ragdoll config: 'Constraints' must be an array");
  try {
    for (const Json& c : j) {
      RagdollConstraint k;
      k.Index = c.at("Index").get<int32_t>();
      k.Powered = c.value("Powered", false);
      const std::pair<const char*, ConstraintAxisData*> axes[] = {
          {"Pitch", &k.pitch}, {"Yaw", &k.yaw}, {"Roll", &k.roll}};
      for (const auto& [name, axis] : axes) {
        if (!c.contains(name)) continue;
        const Json& a = c[name];
        axis->MinPoweredAngle = a.value("MinPoweredAngle", -180.0);
        axis->MaxPoweredAngle = a.value("MaxPoweredAngle", 180.0);
        axis->Mirror = a.value("Mirror", false);
      }
      out.push_back(k);
    }
  } catch (const Json::exception& e) {
    throw Error(fmt::format("ragdoll config: Constraints: {}", e.what()));
  }
  return out;
}

Json to_json(const RagdollJoint& j) {
  Json limits = Json::array();
  for (float v : j.limits) limits.push_back(json_float(v));
  return {{"limits", limits},
          {"mirror", {j.mirror[0], j.mirror[1], j.mirror[2]}},
          {"motor_disabled", j.motor_disabled}};
}

}  // namespace animkit::shadow_of_war
