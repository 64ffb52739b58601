#include "animkit/core/local_to_model_job.h"

namespace animkit {

namespace {

// a * b for affine matrices (bottom row 0 0 0 1): 36 multiplies instead of 64.
inline void mul_affine(const Mat4& a, const Mat4& b, Mat4& r) {
  const float* x = a.m.data();
  const float* y = b.m.data();
  float* o = r.m.data();
  for (int c = 0; c < 4; ++c) {
    const float b0 = y[c * 4], b1 = y[c * 4 + 1], b2 = y[c * 4 + 2];
    o[c * 4 + 0] = x[0] * b0 + x[4] * b1 + x[8] * b2;
    o[c * 4 + 1] = x[1] * b0 + x[5] * b1 + x[9] * b2;
    o[c * 4 + 2] = x[2] * b0 + x[6] * b1 + x[10] * b2;
    o[c * 4 + 3] = 0.f;
  }
  o[12] += x[12];
  o[13] += x[13];
  o[14] += x[14];
  o[15] = 1.f;
}

}  // namespace

bool LocalToModelJob::validate() const {
  if (!skeleton) return false;
  const size_t n = skeleton->num_joints();
  return input.size() >= n && output.size() >= n;
}

bool LocalToModelJob::run() const {
  if (!validate()) return false;
  const size_t n = skeleton->num_joints();
  const int16_t* parents = skeleton->parents.data();
  for (size_t j = 0; j < n; ++j) {
    const Mat4 local = to_matrix(input[j]);
    const int p = parents[j];
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
