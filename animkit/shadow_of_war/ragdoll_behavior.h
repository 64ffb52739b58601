// What the brain starts on a controller change (spec, "The brain"): a BehaviorSet whose
// RequiredRagdollConfig is the controller's config, one of its behaviours (Ragdoll/Behaviors:
// strength and stiffness ranges, joint masks, scalar mappings) and the behaviour's Sequences
// (Ragdoll/Sequences: timed target poses, Clamp or PingPong; a target pose sets per-joint
// pitch, yaw and roll).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"

namespace animkit::shadow_of_war {

struct JointTarget {
  int32_t Index = 0;
  float Pitch = 0, Yaw = 0, Roll = 0;  // degrees
};
struct TargetPose {
  std::string name;
  std::vector<JointTarget> joints;
};

struct SequenceKey {
  double time = 0;   // s into the sequence
  std::string pose;  // a TargetPose
};
struct Sequence {
  enum class Mode { kClamp, kPingPong };
  std::string name;
  Mode mode = Mode::kClamp;
  std::vector<SequenceKey> keys;  // by time
  double length() const { return keys.empty() ? 0.0 : keys.back().time; }
  // The sequence time at `elapsed` s: held at the end (Clamp) or back and forth (PingPong).
  double time_at(double elapsed) const;
  // The target pose in force at sequence time `t`: the last key at or before it.
  const std::string* pose_at(double t) const;
};

struct Behavior {
  std::string name;
  std::optional<std::pair<float, float>> Strength, Stiffness;  // ranges
  std::vector<int32_t> JointMask;
  std::map<std::string, float> ScalarMappings;
  std::vector<std::string> Sequences;
};

struct BehaviorSet {
  std::string name;
  std::string RequiredRagdollConfig;
  std::vector<std::string> Behaviors;
};

// The Ragdoll/BehaviorSets, Behaviors, Sequences and TargetPoses records of a scene.
struct BehaviorLibrary {
  std::vector<BehaviorSet> sets;
  std::map<std::string, Behavior> behaviors;
  std::map<std::string, Sequence> sequences;
  std::map<std::string, TargetPose> poses;
  // The first of `candidates` whose RequiredRagdollConfig is `config` (nullptr: none).
  const BehaviorSet* pick_set(const std::vector<std::string>& candidates,
                              const std::string& config) const;
  const Behavior* behavior(const std::string& name) const;
  const Sequence* sequence(const std::string& name) const;
};
// Throws animkit::Error on a record naming a missing one.
BehaviorLibrary behavior_library_from_json(const Json& scenario);

// A started sequence of the current behaviour.
struct RunningSequence {
  const Sequence* sequence = nullptr;
  double elapsed = 0;
};

}  // namespace animkit::shadow_of_war
