// The physics ragdoll of a character model (spec: "The physics ragdoll") and the joint setup of
// the dead-body step (0x64D4A4 -> 0x64D4B8): one body more than joints; a joint keeps the powered
// angle limits of its pitch, yaw and roll axes in radians, mirror bytes and a motor-disabled
// byte. Living characters hold unconfigured joints (±565.49, 180 × π); the config's
// Ragdoll/Constraints reach the physics only at death.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"

namespace animkit::shadow_of_war {

inline constexpr double kPi = 3.14159265358979323846;
// An unconfigured joint's limit, as read on living characters: ±565.49 = 180 × π.
inline constexpr float kUnconfiguredLimit = static_cast<float>(180.0 * kPi);

// ConstraintAxisData of one axis, in degrees as the database holds them.
struct ConstraintAxisData {
  double MinPoweredAngle = -180;
  double MaxPoweredAngle = 180;
  bool Mirror = false;
};

// One Ragdoll/Constraints entry: joint [+0x98][Index]; the motor is disabled unless Powered.
struct RagdollConstraint {
  int32_t Index = 0;
  bool Powered = false;
  ConstraintAxisData pitch, yaw, roll;
};

// A joint object (vt_0x1DB4980).
struct RagdollJoint {
  // +0x0C .. +0x20: {min, max} of pitch, yaw, roll in radians.
  std::array<float, 6> limits{-kUnconfiguredLimit, kUnconfiguredLimit, -kUnconfiguredLimit,
                              kUnconfiguredLimit, -kUnconfiguredLimit, kUnconfiguredLimit};
  std::array<uint8_t, 3> mirror{};  // +0x24 .. +0x26 (slots 13-15)
  uint8_t motor_disabled = 0;       // +0x28 (slot 8)
  bool configured = false;          // tuned by a joint setup (not an engine field)
  friend bool operator==(const RagdollJoint&, const RagdollJoint&) = default;
};

// [model+0x1C8]: orcs, Olog-hai and cave trolls 20 bodies and 19 joints; humans and wargs 21, 20.
struct PhysicsRagdoll {
  int32_t bodies = 20;
  std::vector<RagdollJoint> joints;  // bodies - 1
  bool enabled = false;              // the powered ragdoll runs (from the dead-body step)
  explicit PhysicsRagdoll(int32_t body_count = 20);
};

// Slots 10-12: an axis's limits given in degrees, kept in radians.
void set_axis_limits_degrees(RagdollJoint& joint, int axis, double min_degrees, double max_degrees);

// 0x64D4B8(ragdoll, config): walks the constraints: motor disabled unless Powered, each axis's
// MinPoweredAngle / MaxPoweredAngle (default -180 / 180) and Mirror. An Index past the ragdoll's
// joints is skipped (returned in `skipped`).
void setup_joints(PhysicsRagdoll& ragdoll, const std::vector<RagdollConstraint>& constraints,
                  std::vector<int32_t>* skipped = nullptr);

std::vector<RagdollConstraint> constraints_from_json(const Json& j);
Json to_json(const RagdollJoint& joint);

}  // namespace animkit::shadow_of_war
