#include "animkit/core/local_to_model_job.h"

namespace animkit {

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
