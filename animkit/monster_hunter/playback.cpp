#include "animkit/monster_hunter/playback.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace animkit::monster_hunter {

float hermite(float t, float t0, float x0, float out0, float t1, float x1, float in1) {
  const float span = t1 - t0;
  if (!(span > 0)) return x0;
  const float s = (t - t0) / span;
  const float d = s * span;  // notes 5: d = s * span (= t - t0)
  const float s2 = s * s, s3 = s2 * s;
  const float one_minus = 1 - s;
  return x0 * (1 - 3 * s2 + 2 * s3) + x1 * (3 * s2 - 2 * s3) + out0 * d * one_minus * one_minus +
         in1 * d * (s2 - s);
}

ChannelCurve make_curve(const Channel& channel) {
  std::vector<Keyframe> keys = channel.keys.to_vector();
  std::stable_sort(keys.begin(), keys.end(),
                   [](const Keyframe& a, const Keyframe& b) { return a.frame < b.frame; });
  ChannelCurve c;
  c.bit = channel.bit;
  for (const Keyframe& k : keys) {
    c.frames.push_back(k.frame);
    c.values.push_back(dequantize(channel.bit, k.value));
    c.ease_in.push_back(dequantize(channel.bit, k.ease_in));
    c.ease_out.push_back(dequantize(channel.bit, k.ease_out));
  }
  return c;
}

float sample(const ChannelCurve& c, float t, uint32_t* cursor) {
  const uint32_t n = static_cast<uint32_t>(c.frames.size());
  if (n == 0) return 0;
  // hi = the number of keys with frame < t.
  uint32_t hi;
  if (cursor != nullptr && *cursor <= n) {
    hi = *cursor;
    while (hi < n && c.frames[hi] < t) ++hi;
    while (hi > 0 && !(c.frames[hi - 1] < t)) --hi;
    *cursor = hi;
  } else {
    hi = static_cast<uint32_t>(std::lower_bound(c.frames.begin(), c.frames.end(), t) -
                               c.frames.begin());
    if (cursor != nullptr) *cursor = hi;
  }
  const uint32_t lo = hi > 0 ? hi - 1 : 0;
  hi = std::min(hi, n - 1);
  if (lo == hi) return c.values[lo];
  return hermite(t, c.frames[lo], c.values[lo], c.ease_out[lo], c.frames[hi], c.values[hi],
                 c.ease_in[hi]);
}

namespace {
int slot_of(uint16_t bit) {
  switch (bit) {
    case bits::kRotX:
      return kRotX;
    case bits::kRotY:
      return kRotY;
    case bits::kRotZ:
      return kRotZ;
    case bits::kLocX:
      return kLocX;
    case bits::kLocY:
      return kLocY;
    case bits::kLocZ:
      return kLocZ;
    default:
      return -1;
  }
}
}  // namespace

Motion prepare(const Clip& clip, std::span<const int> track_joint, size_t joint_count) {
  Motion m;
  m.joints.assign(joint_count, {-1, -1, -1, -1, -1, -1});
  m.end = frames(clip);
  m.loop = clip.loop;
  m.loop_start = clip.loop_start;
  for (size_t t = 0; t < clip.tracks.size() && t < track_joint.size(); ++t) {
    const int j = track_joint[t];
    if (j < 0 || static_cast<size_t>(j) >= joint_count) continue;
    for (const Channel& ch : clip.tracks[t].channels) {
      const int slot = slot_of(ch.bit);
      // A channel without keys plays as absent; a bit twice in a track: the first plays.
      if (slot < 0 || ch.keys.empty() || m.joints[j][slot] >= 0) continue;
      m.joints[j][slot] = static_cast<int32_t>(m.curves.size());
      m.curves.push_back(make_curve(ch));
    }
  }
  return m;
}

Motion prepare(const Clip& clip, size_t joint_count) {
  std::vector<int> identity(clip.tracks.size());
  std::iota(identity.begin(), identity.end(), 0);
  return prepare(clip, identity, joint_count);
}

float clip_frame(const Motion& m, float frame) {
  if (m.loop != 0 && frame > static_cast<float>(m.end)) {
    const float period = static_cast<float>(m.end) - m.loop_start;
    if (period > 0) return m.loop_start + std::fmod(frame - m.loop_start, period);
  }
  return frame;
}

Rig make_rig(std::span<const int> parents, std::span<const Vec3> offsets) {
  Rig rig;
  const int n = static_cast<int>(parents.size());
  rig.parents.assign(parents.begin(), parents.end());
  rig.bind_offsets.assign(offsets.begin(), offsets.end());
  rig.bind_offsets.resize(parents.size());
  for (int& p : rig.parents)
    if (p < 0 || p >= n) p = -1;
  // Break cycles: a parent link that closes one makes its joint a root.
  std::vector<uint8_t> state(n, 0);  // 0 new, 1 on the walk, 2 done
  std::vector<int> walk;
  for (int i = 0; i < n; ++i) {
    walk.clear();
    int j = i;
    while (j >= 0 && state[j] == 0) {
      state[j] = 1;
      walk.push_back(j);
      const int p = rig.parents[j];
      if (p >= 0 && state[p] == 1) rig.parents[j] = -1;  // closes a cycle
      j = rig.parents[j];
    }
    // Emit the walk root-first after its ancestors (already done).
    for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
      state[*it] = 2;
      rig.order.push_back(*it);
    }
  }
  return rig;
}

Rig make_rig(const Skeleton& skeleton) {
  std::vector<Vec3> offsets;
  for (const Bone& b : skeleton.bones)
    offsets.push_back({b.bind_position[0], b.bind_position[1], b.bind_position[2]});
  return make_rig(skeleton.parents(), offsets);
}

Mat4 euler_matrix(Vec3 e, Vec3 t) {
  const float cx = std::cos(e.x), sx = std::sin(e.x);
  const float cy = std::cos(e.y), sy = std::sin(e.y);
  const float cz = std::cos(e.z), sz = std::sin(e.z);
  Mat4 m;
  // notes 5, "Pose" 2: the rows of Rz * Ry * Rx.
  m.at(0, 0) = cy * cz;
  m.at(0, 1) = cz * sx * sy - cx * sz;
  m.at(0, 2) = cx * cz * sy + sx * sz;
  m.at(1, 0) = cy * sz;
  m.at(1, 1) = cx * cz + sx * sy * sz;
  m.at(1, 2) = cx * sy * sz - cz * sx;
  m.at(2, 0) = -sy;
  m.at(2, 1) = cy * sx;
  m.at(2, 2) = cy * cx;
  m.at(0, 3) = t.x;
  m.at(1, 3) = t.y;
  m.at(2, 3) = t.z;
  return m;
}

Quat euler_quat(Vec3 e) { return euler_to_quat(e, EulerOrder::kXYZ); }

void PoseCursor::reset(const Motion& m) {
  motion = &m;
  keys.assign(m.curves.size(), 0);
}

namespace {
void sample_joint(const Motion& motion, int j, float frame, PoseCursor* cursor, const Rig& rig,
                  JointPose& p) {
  p.euler = {};
  p.translation = rig.bind_offsets[j];
  const auto& ch = motion.joints[j];
  float v[kMotionChannels] = {};
  for (int k = 0; k < kMotionChannels; ++k) {
    if (ch[k] < 0) continue;
    // A cursor bound to another motion (or to none) cannot serve this one: search instead of
    // reading its keys out of range (found by fuzz_monster_hunter_play, issue 19).
    const bool bound = cursor != nullptr && cursor->motion == &motion &&
                       static_cast<size_t>(ch[k]) < cursor->keys.size();
    uint32_t* key = bound ? &cursor->keys[ch[k]] : nullptr;
    v[k] = sample(motion.curves[ch[k]], frame, key);
  }
  // notes 5, "Pose" 1: rotation absolute (0 without a channel); a location channel replaces the
  // bind offset on its axis.
  if (ch[kRotX] >= 0) p.euler.x = v[kRotX];
  if (ch[kRotY] >= 0) p.euler.y = v[kRotY];
  if (ch[kRotZ] >= 0) p.euler.z = v[kRotZ];
  if (ch[kLocX] >= 0) p.translation.x = v[kLocX];
  if (ch[kLocY] >= 0) p.translation.y = v[kLocY];
  if (ch[kLocZ] >= 0) p.translation.z = v[kLocZ];
}
}  // namespace

void sample_joints(const Motion& motion, std::span<const int> joints, float frame,
                   PoseCursor* cursor, const Rig& rig, std::span<JointPose> local) {
  if (cursor != nullptr && cursor->motion != &motion) cursor->reset(motion);
  for (int j : joints) {
    if (j >= 0 && static_cast<size_t>(j) < local.size() &&
        static_cast<size_t>(j) < motion.joints.size())
      sample_joint(motion, j, frame, cursor, rig, local[j]);
  }
}

bool PoseJob::validate() const {
  if (rig == nullptr || local.size() != rig->size()) return false;
  if (!world.empty() && world.size() != rig->size()) return false;
  if (motion != nullptr && motion->joints.size() != rig->size()) return false;
  return true;
}

bool PoseJob::run() const {
  if (!validate()) return false;
  if (motion != nullptr && cursor != nullptr && cursor->motion != motion) cursor->reset(*motion);
  for (size_t j = 0; j < rig->size(); ++j) {
    if (motion != nullptr) {
      sample_joint(*motion, static_cast<int>(j), frame, cursor, *rig, local[j]);
    } else {
      local[j] = {{}, rig->bind_offsets[j]};
    }
  }
  if (!world.empty()) local_to_world(*rig, local, world);
  return true;
}

void local_to_world(const Rig& rig, std::span<const JointPose> local, std::span<Mat4> world) {
  for (int j : rig.order) {
    const Mat4 m = euler_matrix(local[j].euler, local[j].translation);
    const int p = rig.parents[j];
    world[j] = p >= 0 ? world[p] * m : m;
  }
}

std::vector<Vec3> bind_world(const Skeleton& skeleton) {
  const Rig rig = make_rig(skeleton);
  std::vector<Vec3> out(rig.size());
  for (int j : rig.order) {
    const int p = rig.parents[j];
    out[j] = p >= 0 ? out[p] + rig.bind_offsets[j] : rig.bind_offsets[j];
  }
  return out;
}

}  // namespace animkit::monster_hunter
