// The crowd's clip sampler (issue 29, item 4): core SamplingJob's result bit for bit, with a
// cursor of one key index per tracker instead of a 16-byte slot per animated channel.
//
// A crowd is memory-bound (about 20,000 characters stream their own state through a shared L3
// every frame), and SamplingJob's cursor cached, per channel, the key pair in force (key, t0, t1,
// 1 / (t1 - t0)): about 560 bytes per locomotion tracker. Here the key pair is read from the
// clip's own key times (shared by every character: in cache), and channels are walked joint by
// joint carrying the pair found last (one for rotations, one for translations and scales): a
// channel whose times hold the same two floats (same bits) at the same index has the same key
// in force and the same fraction, so neither the search nor the division is repeated. A clip
// whose tracks share their key times (a resampled clip: every track keyed at the clip's rate)
// searches once per sample; any other clip searches from the previous channel's key (a hint:
// any value gives the same key). In a crowd frame the pose jobs also pass the clip's layout as
// read in that frame (ClipLayout below): its plain joints skip the per-channel tests.
// The rotations' interpolation and normalisation run on SIMD lanes, one joint per lane
// (rotation_lanes.h); the key search and the translations and scales stay scalar.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "animkit/core/clip.h"
#include "animkit/shadow_of_war/output_pose.h"

namespace animkit::shadow_of_war {

// What a tracker keeps between samples: the key the last sample found last.
// Only a hint: any value gives the same pose.
struct KeyCursor {
  uint32_t key = 0;
};

// What one thread read of a clip's layout during one crowd frame (issue 29, item 4): which of
// its first 64 joints are "plain" (no translation or scale keys, an nlerp rotation of two keys or
// more whose times hold the same floats, bit for bit, as every other plain joint's, and as many
// values), and those times. The spec lets a clip change in memory between frames (a change plays
// on the next frame), not while a frame's pose jobs run, so the layout is read again in every
// frame and trusted only within it: a plain joint's key pair is then the one search of the shared
// times (the search SamplingJob makes on each of them gives the same key and fraction).
struct ClipLayout {
  const Clip* clip = nullptr;
  uint64_t frame = 0;  // the frame it was read in (0: none)
  uint64_t plain = 0;  // bit j: joint j is plain
  const std::vector<float>* times = nullptr;  // the plain joints' rotation times
  // Once a thread has sampled the clip kRowsAfterUses times in the frame (a crowd: the copy costs
  // about as much as 15 samples save, and is shared by the characters playing it), its plain
  // joints' rotations are copied key by key into
  // rows: key k's row holds lanes [0, width), lane j joint j's values[k] when j is plain (else
  // the identity), so rotation_lanes() reads a whole block of plain joints straight from two rows
  // instead of gathering them joint by joint (the same floats). `image` is joints [0, joints) of
  // an output pose as the rest pose `rest` leaves an unkeyed channel (raw, then + 0: kFullLayer),
  // `transforms` the same as Transforms; set only when every one of those joints' rest scales is
  // exactly 1.
  static constexpr uint32_t kRowsAfterUses = 16;
  uint32_t uses = 0;
  uint32_t width = 0;  // 0: no rows
  const float* rows = nullptr;
  uint64_t blocks = 0;      // bit b: lanes [8 b, 8 b + 8) hold joints
  uint64_t row_blocks = 0;  // bit b: their joints are all plain (rotation_lanes reads the rows)
  const Transform* rest = nullptr;
  size_t joints = 0;
  const OutputPose::Joint* image[2] = {nullptr, nullptr};
  const Transform* transforms[2] = {nullptr, nullptr};  // the same as Transforms
};
// A few clips' layouts per thread, read at a clip's first sample of a frame (no allocation once
// the rows' storage has grown to the clips played).
class ClipLayouts {
 public:
  // The clip's layout in `frame`, its rows and image (of `rest`) made at the kRowsAfterUses-th
  // call of the frame.
  const ClipLayout& find(const Clip& clip, uint64_t frame, std::span<const Transform> rest = {});
  size_t row_capacity() const;
  void reserve_rows(size_t floats);  // every slot's rows storage

 private:
  void make_rows(ClipLayout& l, size_t slot, std::span<const Transform> rest);
  std::array<ClipLayout, 8> slots_{};
  std::array<std::vector<float>, 8> rows_;
  std::array<std::array<OutputPose::Joint, 64>, 8> images_[2];
  std::array<std::array<Transform, 64>, 8> transform_images_[2];
  size_t next_ = 0;
};

// How a sampled joint is stored.
enum class SampleStore : uint8_t {
  kRaw,        // as SamplingJob writes it
  kFullLayer,  // as blend_layer at weight >= 1 without a set leaves it over any pose: each
               // component + 0, the rotation normalised again (layer_blend.h)
};

// Samples `clip` at `time` into out[0, clip joints): SamplingJob{clip, time, rest, out}'s floats
// (kRaw) or blend_layer(out, those, rest, 1, {})'s (kFullLayer). Joints past the clip's are not
// written. Requires out.size() and rest.size() >= the clip's joint count.
void sample_keys(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 std::span<Transform> out, SampleStore store = SampleStore::kRaw);

// A whole pose: sample_keys for the clip's joints, and out[j] = rest[j] past them, stored the
// same way (kFullLayer: as blend_layer leaves the rest pose). Every joint of `out` is written;
// requires rest.size() >= out.size() >= the clip's joint count.
void sample_pose(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 std::span<Transform> out, SampleStore store, const ClipLayout* layout = nullptr);
// The same straight into a character's output pose, for rest.size() joints (the pose job's
// OUTPUT of a single live sample: no pose to copy). `layout`, when given, is the clip's layout
// read in the current frame (same floats, fewer tests per joint).
void sample_pose(const Clip& clip, float time, KeyCursor& cursor, std::span<const Transform> rest,
                 OutputPose& out, SampleStore store, const ClipLayout* layout = nullptr);

}  // namespace animkit::shadow_of_war
