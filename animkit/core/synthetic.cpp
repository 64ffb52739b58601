#include "animkit/core/synthetic.h"

#include <cmath>

namespace animkit {

Animated synthetic_arm() {
  Animated a;
  Skeleton& sk = a.skeleton;
  sk.add_joint("root", -1, {{0, 1, 0}, {}, {1, 1, 1}});
  sk.add_joint("shoulder", 0, {{0, 0.5f, 0}, {}, {1, 1, 1}});
  sk.add_joint("elbow", 1, {{0, 0.3f, 0}, {}, {1, 1, 1}});
  sk.add_joint("wrist", 2, {{0, 0.25f, 0}, {}, {1, 1, 1}});
  sk.add_joint("tip", 3, {{0, 0.1f, 0}, {}, {1, 1, 1}});

  Clip wave;
  wave.name = "wave";
  wave.duration = 1;
  wave.looping = true;
  wave.joints.resize(sk.num_joints());
  Clip bend;
  bend.name = "bend";
  bend.duration = 1;
  bend.joints.resize(sk.num_joints());
  for (int f = 0; f <= 30; ++f) {
    const float t = f / 30.f;
    const float phase = 2 * 3.14159265f * t;
    for (int j = 1; j < 4; ++j) {
      wave.joints[j].rotation.add(t, axis_angle({0, 0, 1}, 0.6f * std::sin(phase + j * 0.7f)));
      bend.joints[j].rotation.add(t, axis_angle({1, 0, 0}, 0.4f * (1 - std::cos(phase)) * j / 3));
    }
  }
  for (int j = 1; j < 4; ++j) {
    wave.joints[j].rotation.interpolation = Interpolation::kSlerp;
    bend.joints[j].rotation.interpolation = Interpolation::kNlerp;
  }
  Track<Vec3>& lift = bend.joints[0].translation;
  lift.interpolation = Interpolation::kHermite;
  lift.add(0, {0, 1, 0}, {0, 0, 0}, {0, 0.6f, 0});
  lift.add(0.5f, {0, 1.2f, 0}, {0, 0, 0}, {0, 0, 0});
  lift.add(1, {0, 1, 0}, {0, -0.6f, 0}, {0, 0, 0});
  wave.events.push_back({0.5f, "apex", R"({"joint":"tip"})"});
  a.clips.push_back(std::move(wave));
  a.clips.push_back(std::move(bend));
  return a;
}

Animated synthetic_workload(int joints, float seconds, float keys_per_second) {
  Animated a;
  for (int j = 0; j < joints; ++j) {
    // Chains of eight below the root: a humanoid-like fan of limbs.
    const int parent = j == 0 ? -1 : (j % 8 == 1 ? 0 : j - 1);
    a.skeleton.add_joint("joint" + std::to_string(j), parent,
                         {{0, 0.1f, 0}, axis_angle({0, 0, 1}, 0.05f * j), {1, 1, 1}});
  }
  Clip c;
  c.name = "workload";
  c.duration = seconds;
  c.looping = true;
  c.joints.resize(joints);
  const int keys = static_cast<int>(seconds * keys_per_second) + 1;
  for (int j = 0; j < joints; ++j) {
    JointTracks& jt = c.joints[j];
    jt.rotation.interpolation = Interpolation::kNlerp;
    for (int k = 0; k < keys; ++k) {
      const float t = k / keys_per_second;
      const float s = std::sin(t * 3.1f + j), co = std::cos(t * 2.3f + j);
      jt.translation.add(t, {0.1f * s, 0.1f + 0.01f * co, 0.02f * s * co});
      jt.rotation.add(t, normalize(Quat{0.3f * s, 0.2f * co, 0.1f * s * co, 1}));
      jt.scale.add(t, {1 + 0.05f * s, 1 + 0.05f * co, 1});
    }
  }
  a.clips.push_back(std::move(c));
  return a;
}

}  // namespace animkit
