// The SoA SIMD jobs (issue 16, item 2): the ozz-style jobs of sampling_job.h, blending_job.h and
// local_to_model_job.h over SoaPose, 4 or 8 joints per instruction (soa_kernels.h). Each job has
// run() (SIMD) and run_scalar() (the reference the tests compare against; same rules, same order
// of operations). The AoS jobs stay as they are.
#pragma once

#include <span>

#include "animkit/core/runtime_clip.h"
#include "animkit/core/skeleton.h"
#include "animkit/core/soa_pose.h"

namespace animkit {

// A runtime clip into locals at a time. The key in force, the holds before the first and after
// the last key, and each channel's interpolation are SamplingJob's (runtime_clip.h).
struct SoaSamplingJob {
  const RuntimeClip* clip = nullptr;
  float time = 0;
  RuntimeCursor* cursor = nullptr;    // bound to `clip` by run() when bound to another
  SoaPose* output = nullptr;          // num_joints == clip->num_joints()
  std::span<uint8_t> output_default;  // optional: 1 for a joint with no key in any channel

  bool validate() const;
  bool run() const;
  bool run_scalar() const;
};

struct SoaBlendingLayer {
  const SoaPose* pose = nullptr;
  float weight = 1;
  std::span<const float> joint_weights;  // optional: multiplies `weight` per joint
};

// BlendingJob's rules: weighted sums, rotations on the first contributing layer's hemisphere,
// the rest pose making up the difference below `threshold`.
struct SoaBlendingJob {
  std::span<const SoaBlendingLayer> layers;
  const SoaPose* rest = nullptr;
  float threshold = 0.1f;
  SoaPose* output = nullptr;  // blends output->num_joints joints; none of the layers or the rest

  bool validate() const;
  bool run() const;
  bool run_scalar() const;
};

struct SoaLocalToModelJob {
  const Skeleton* skeleton = nullptr;
  const SoaPose* input = nullptr;  // local transforms
  const Mat4* root = nullptr;      // optional: the model's placement, applied to every root
  std::span<Mat4> output;          // model-space matrices, one per joint

  bool validate() const;
  bool run() const;
  bool run_scalar() const;
};

// The Highway target the SIMD jobs run on in this process ("AVX2", "SSE4", "EMU128", ...).
const char* soa_simd_target();
// Every Highway target compiled into the SIMD jobs, as a mask of HWY_* bits (the tests force each
// one this CPU runs in turn).
int64_t soa_simd_compiled_targets();

}  // namespace animkit
