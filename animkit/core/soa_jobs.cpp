#include "animkit/core/soa_jobs.h"

#include <algorithm>

#include "animkit/core/blending_job.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/soa_kernels.h"

namespace animkit {

namespace {

constexpr int kDims[3] = {3, 4, 3};
constexpr int kFirstComponent[3] = {kTx, kQx, kSx};

bool fits(const SoaPose* pose, size_t joints) {
  return pose && pose->num_joints == joints && pose->padded == soa_padded(joints) &&
         pose->stride == soa_stride(joints) && pose->data.size() == kSoaComponents * pose->stride;
}

}  // namespace

const char* soa_simd_target() { return soa_kernels::target_name(); }
int64_t soa_simd_compiled_targets() { return soa_kernels::compiled_targets(); }

// ---- sampling --------------------------------------------------------------------------------

bool SoaSamplingJob::validate() const {
  if (!clip || !cursor || !fits(output, clip->num_joints())) return false;
  return output_default.empty() || output_default.size() >= clip->num_joints();
}

namespace {

void copy_defaults(const RuntimeClip& clip, std::span<uint8_t> out) {
  if (!out.empty()) std::copy(clip.is_default().begin(), clip.is_default().end(), out.begin());
}

// kExact: the tracks the SIMD sampler leaves to the neutral evaluate() (Hermite, slerp), at the
// job's own time (NaN included) as SamplingJob samples them.
void sample_fallbacks(const RuntimeClip& clip, float time, RuntimeCursor& cursor, SoaPose& out) {
  std::span<uint32_t> keys = cursor.fallback_keys();
  const auto fallbacks = clip.fallbacks();
  for (size_t i = 0; i < fallbacks.size(); ++i) {
    const RuntimeClip::Fallback& f = fallbacks[i];
    Transform x = out.get(f.joint);
    if (f.quat) {
      keys[i] = find_key(f.quat->times, time, keys[i]);
      x.rotation = evaluate(*f.quat, time, keys[i]);
    } else {
      keys[i] = find_key(f.vec3->times, time, keys[i]);
      (f.channel == 0 ? x.translation : x.scale) = evaluate(*f.vec3, time, keys[i]);
    }
    out.set(f.joint, x);
  }
}

// kExact's scalar reference: SamplingJob's inline lerp / nlerp and evaluate()'s kLinear.
void sample_exact_scalar(const RuntimeCursor& cursor, size_t n, float t, SoaPose& output,
                         std::span<const uint8_t> linear_rotation) {
  const size_t pad = cursor.stride();
  for (int c = 0; c < 3; ++c) {
    const int dim = kDims[c];
    const float* t0 = cursor.row(c, RuntimeCursor::kT0);
    const float* inv = cursor.row(c, RuntimeCursor::kInv);
    const float* left = cursor.row(c, RuntimeCursor::kLeft);
    const float* right = left + dim * pad;
    const float* span = cursor.row(c, RuntimeCursor::span_row(dim));
    float* out = output.component(kFirstComponent[c]);
    for (size_t j = 0; j < n; ++j) {
      const auto at = [&](const float* row, int k) { return row[k * pad + j]; };
      const bool holds = !(inv[j] > 0.f) || t < t0[j];
      float v[4];
      if (dim == 3) {
        const Vec3 a{at(left, 0), at(left, 1), at(left, 2)};
        const Vec3 r = holds ? a : lerp(a, {at(right, 0), at(right, 1), at(right, 2)}, (t - t0[j]) * inv[j]);
        v[0] = r.x, v[1] = r.y, v[2] = r.z;
      } else {
        const Quat a{at(left, 0), at(left, 1), at(left, 2), at(left, 3)};
        const Quat b{at(right, 0), at(right, 1), at(right, 2), at(right, 3)};
        Quat q = a;
        if (linear_rotation[j]) {
          if (!holds && t > t0[j]) {
            const float f = (t - t0[j]) / span[j];
            q = normalize({a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f,
                           a.w + (b.w - a.w) * f});
          }
        } else if (!holds) {
          q = nlerp(a, b, (t - t0[j]) * inv[j]);
        }
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
      }
      for (int k = 0; k < dim; ++k) out[k * pad + j] = v[k];
    }
  }
}

}  // namespace

bool SoaSamplingJob::run() const {
  if (!validate()) return false;
  cursor->move_to(*clip, time);
  const float t = cursor->time();  // sanitised (NaN: before the first key)
  const auto kernel = clip->exact() ? soa_kernels::sample_channel_exact : soa_kernels::sample_channel;
  for (int c = 0; c < 3; ++c) {
    kernel(cursor->row(c, 0), cursor->stride(), cursor->padded(), kDims[c], t,
           output->component(kFirstComponent[c]));
  }
  if (clip->exact()) sample_fallbacks(*clip, time, *cursor, *output);
  copy_defaults(*clip, output_default);
  return true;
}

bool SoaSamplingJob::run_scalar() const {
  if (!validate()) return false;
  cursor->move_to(*clip, time);
  const float t = cursor->time();
  const size_t n = clip->num_joints(), pad = cursor->stride();
  if (clip->exact()) {
    sample_exact_scalar(*cursor, n, t, *output, clip->linear_rotation());
    sample_fallbacks(*clip, time, *cursor, *output);
    copy_defaults(*clip, output_default);
    return true;
  }
  for (int c = 0; c < 3; ++c) {
    const int dim = kDims[c];
    const float* t0 = cursor->row(c, RuntimeCursor::kT0);
    const float* inv = cursor->row(c, RuntimeCursor::kInv);
    const float* left = cursor->row(c, RuntimeCursor::kLeft);
    const float* right = left + dim * pad;
    float* out = output->component(kFirstComponent[c]);
    for (size_t j = 0; j < n; ++j) {
      const float x = (t - t0[j]) * inv[j];
      const float alpha = inv[j] > 0.f ? std::min(std::max(x, 0.f), 1.f) : 0.f;
      float v[4];
      for (int k = 0; k < dim; ++k) {
        const float a = left[k * pad + j];
        v[k] = a + (right[k * pad + j] - a) * alpha;
      }
      if (dim == 4) {
        const Quat q = normalize({v[0], v[1], v[2], v[3]});
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
      }
      for (int k = 0; k < dim; ++k) out[k * pad + j] = v[k];
    }
  }
  copy_defaults(*clip, output_default);
  return true;
}

// ---- blending --------------------------------------------------------------------------------

namespace {

enum class BlendPlan { kInvalid, kFew, kGeneral };

// validate()'s checks, in one walk over the layers that also gathers the usual case for
// soa_kernels::blend_few (issue 34, item 6: validating, then walking the layers again in the
// kernel to find that case, and three calls on the way cost a third of a 64-joint blend).
BlendPlan plan_blend(const SoaBlendingJob& job, soa_kernels::FewPoses& few) {
  const SoaPose* out = job.output;
  if (!out || !fits(out, out->num_joints)) return BlendPlan::kInvalid;
  const size_t n = out->num_joints;
  if (!fits(job.rest, n) || !(job.threshold > 0.f) || job.rest == out) return BlendPlan::kInvalid;
  bool is_few = true;
  float total = 0.f;
  for (const SoaBlendingLayer& l : job.layers) {
    // The output fits, so a layer with its joint count, stride, padding and size does too. The
    // output must be none of the inputs: past 16 layers it holds partial sums.
    const SoaPose* p = l.pose;
    if (!p || p == out || p->num_joints != n || p->stride != out->stride || p->padded != out->padded ||
        p->data.size() != out->data.size()) {
      return BlendPlan::kInvalid;
    }
    if (!l.joint_weights.empty() && l.joint_weights.size() < n) return BlendPlan::kInvalid;
    if (!(l.weight >= 0.f)) return BlendPlan::kInvalid;
    if (!(l.weight > 0.f)) continue;  // weighs nothing: no kernel reads it
    if (!l.joint_weights.empty() || few.count == soa_kernels::kFewLayers) {
      is_few = false;
      continue;
    }
    few.pose[few.count] = p->data.data();
    few.weight[few.count++] = l.weight;
    total = total + l.weight;  // in layer order, as the general kernel sums the weights
  }
  if (!is_few) return BlendPlan::kGeneral;
  if (total < job.threshold) {  // the rest pose makes up the difference
    const float rest_weight = job.threshold - total;
    few.pose[few.count] = job.rest->data.data();
    few.weight[few.count++] = rest_weight;
    total = total + rest_weight;
  }
  few.inv_total = 1.f / total;
  return BlendPlan::kFew;
}

}  // namespace

bool SoaBlendingJob::validate() const {
  soa_kernels::FewPoses few;
  return plan_blend(*this, few) != BlendPlan::kInvalid;
}

bool SoaBlendingJob::run() const {
  soa_kernels::FewPoses few;
  switch (plan_blend(*this, few)) {
    case BlendPlan::kInvalid:
      return false;
    case BlendPlan::kFew:
      soa_kernels::blend_few(few, output->data.data(), output->padded, output->stride);
      return true;
    case BlendPlan::kGeneral:
      break;
  }
  // The kernel reads the caller's layers as they are: any count, nothing copied or allocated
  // (issue 34, item 3; it used to copy at most 16 onto the stack and send more to run_scalar()).
  soa_kernels::blend(layers.data(), layers.size(), rest->data.data(), threshold, output->data.data(),
                     output->num_joints, output->padded, output->stride);
  return true;
}

bool SoaBlendingJob::run_scalar() const {
  if (!validate()) return false;
  const size_t n = output->num_joints;
  for (size_t j = 0; j < n; ++j) {
    BlendSum sum;
    for (const SoaBlendingLayer& l : layers) {
      if (!(l.weight > 0.f)) continue;
      const float w = l.joint_weights.empty() ? l.weight : l.weight * l.joint_weights[j];
      if (w > 0.f) sum.add(l.pose->get(j), w);
    }
    output->set(j, sum.result(rest->get(j), threshold));
  }
  return true;
}

// ---- local to model --------------------------------------------------------------------------

bool SoaLocalToModelJob::validate() const {
  if (!skeleton) return false;
  const size_t n = skeleton->num_joints();
  if (!fits(input, n) || output.size() < n) return false;
  // Parents before children: the kernel reads a parent's matrix as already written. This runs on
  // every call, so it is a max of parent - joint with no early exit, in 16 bits while the joint
  // numbers fit (the compiler checks 8 joints per instruction: 1 instruction per joint, from 7.6
  // as a loop with a branch).
  const int16_t* parents = skeleton->parents.data();
  if (n <= 32768) {
    int16_t worst = -1;
    int16_t j = 0;
    for (const int16_t* p = parents; p != parents + n; ++p, ++j) {
      worst = std::max<int16_t>(worst, static_cast<int16_t>(*p - j));
    }
    return worst < 0;
  }
  int worst = -1;
  for (size_t j = 0; j < n; ++j) worst = std::max(worst, parents[j] - static_cast<int>(j));
  return worst < 0;
}

bool SoaLocalToModelJob::run() const {
  if (!validate()) return false;
  soa_kernels::local_to_model(input->data.data(), skeleton->num_joints(), input->stride,
                              skeleton->parents.data(), root, output.data());
  return true;
}

bool SoaLocalToModelJob::run_scalar() const {
  if (!validate()) return false;
  const size_t n = skeleton->num_joints();
  for (size_t j = 0; j < n; ++j) {
    const Mat4 local = to_matrix(input->get(j));
    const int p = skeleton->parents[j];
    if (p >= 0) {
      mul_affine(output[p], local, output[j]);
    } else if (root) {
      mul_affine(*root, local, output[j]);
    } else {
      output[j] = local;
    }
  }
  return true;
}

}  // namespace animkit
