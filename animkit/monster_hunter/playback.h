// How the engine plays a clip (monster-hunter.txt, "How the engine plays a clip"; notes 5): cubic
// Hermite per channel, Euler rotations composed Rz * Ry * Rx, location channels replacing the
// bind offset, world = parent world x local. Jobs in the ozz style: inputs, outputs, validate(),
// run(); nothing is allocated per update (a PoseCursor per playing clip keeps each channel's key).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "animkit/core/math.h"
#include "animkit/monster_hunter/clip.h"
#include "animkit/monster_hunter/skeleton.h"

namespace animkit::monster_hunter {

// The spec's formula, with s = (t - t0) / (t1 - t0) and d = t - t0:
// x = x0 (1 - 3s^2 + 2s^3) + x1 (3s^2 - 2s^3) + out0 d (1 - s)^2 + in1 d (s^2 - s).
// t1 <= t0 gives x0 (notes 5).
float hermite(float t, float t0, float x0, float out0, float t1, float x1, float in1);

// One channel ready to sample: keys sorted by frame (stable) and dequantized (values and eases
// in the channel's unit: radians or location units).
struct ChannelCurve {
  uint16_t bit = 0;
  std::vector<float> frames, values, ease_in, ease_out;
  size_t size() const { return frames.size(); }
};
ChannelCurve make_curve(const Channel& channel);
// notes 5, "Sampling a channel at frame t": hi = keys with frame < t, lo = max(hi - 1, 0),
// hi = min(hi, n - 1); holds before the first key and after the last. `cursor` (optional) keeps
// hi between calls so forward playback steps instead of searching. Requires at least one key.
float sample(const ChannelCurve& curve, float frame, uint32_t* cursor = nullptr);

// Channel slots of a joint in a Motion.
enum MotionChannel : uint8_t { kRotX, kRotY, kRotZ, kLocX, kLocY, kLocZ, kMotionChannels };

// A clip prepared for playback over a rig: each joint's rotation and location channels (the
// first channel of each bit; scale and the unnamed bits are not played).
struct Motion {
  std::vector<ChannelCurve> curves;
  std::vector<std::array<int32_t, kMotionChannels>> joints;  // index into curves, -1 none
  int end = 0;  // the last key frame: where the clip stops
  uint32_t loop = 0;
  float loop_start = 0;
};
// `track_joint[i]` is the joint track i drives (-1 or out of range: not played).
Motion prepare(const Clip& clip, std::span<const int> track_joint, size_t joint_count);
// Tracks in joint order (track i drives joint i): an MHFU rig clip.
Motion prepare(const Clip& clip, size_t joint_count);
// The clip frame played at `frame` frames after the start: a looping clip that passes its end
// continues from loop_start (period end - loop_start); otherwise the frame as given (channels
// hold after their last key).
float clip_frame(const Motion& motion, float frame);

// The rig FK walks: parents (outside the skeleton or closing a cycle: roots, notes 5), the bind
// offsets, and an order in which every parent comes before its children.
struct Rig {
  std::vector<int> parents;
  std::vector<Vec3> bind_offsets;
  std::vector<int> order;
  size_t size() const { return parents.size(); }
};
Rig make_rig(const Skeleton& skeleton);
Rig make_rig(std::span<const int> parents, std::span<const Vec3> bind_offsets);

// A joint's local pose: Euler angles (radians) and translation.
struct JointPose {
  Vec3 euler{};
  Vec3 translation{};
};

// R = Rz(z) Ry(y) Rx(x) (column vectors), as a matrix with translation t.
Mat4 euler_matrix(Vec3 euler, Vec3 translation);
// The same rotation as a quaternion (qz * qy * qx).
Quat euler_quat(Vec3 euler);

// Each channel's key position in a playing motion (allocated once per motion).
struct PoseCursor {
  void reset(const Motion& motion);
  const Motion* motion = nullptr;
  std::vector<uint32_t> keys;
};

// Samples the given joints of a motion at a clip frame into `local` (rotation 0 and the bind
// offset where a joint has no channel). `cursor` may be null.
void sample_joints(const Motion& motion, std::span<const int> joints, float frame,
                   PoseCursor* cursor, const Rig& rig, std::span<JointPose> local);

// Samples a motion at a clip frame into local poses and world matrices. Without a motion the
// bind pose is produced (rotation 0, the bind offsets).
struct PoseJob {
  const Rig* rig = nullptr;
  const Motion* motion = nullptr;
  float frame = 0;               // a clip frame (see clip_frame)
  PoseCursor* cursor = nullptr;  // optional; reset by run() when bound to another motion
  std::span<JointPose> local;    // one per joint
  std::span<Mat4> world;         // optional: one per joint

  bool validate() const;
  bool run() const;
};

// World = parent world x local over the rig's order (notes 5, "Pose" 3).
void local_to_world(const Rig& rig, std::span<const JointPose> local, std::span<Mat4> world);
// mhfu_port.fk.bind_world: a joint's bind position in model space, the sum of the offsets up its
// chain.
std::vector<Vec3> bind_world(const Skeleton& skeleton);

}  // namespace animkit::monster_hunter
