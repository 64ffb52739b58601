#include "animkit/core/soa_pose.h"

#include <algorithm>

namespace animkit {

void SoaPose::resize(size_t joints) {
  num_joints = joints;
  padded = soa_padded(joints);
  stride = soa_stride(joints);
  data.assign(kSoaComponents * stride, 0.f);
  std::fill_n(component(kQw), stride, 1.f);
  for (int c : {kSx, kSy, kSz}) std::fill_n(component(c), stride, 1.f);
}

Transform SoaPose::get(size_t j) const {
  const auto at = [&](int c) { return component(c)[j]; };
  return {{at(kTx), at(kTy), at(kTz)}, {at(kQx), at(kQy), at(kQz), at(kQw)}, {at(kSx), at(kSy), at(kSz)}};
}

void SoaPose::set(size_t j, const Transform& t) {
  const float v[kSoaComponents] = {t.translation.x, t.translation.y, t.translation.z,
                                   t.rotation.x,    t.rotation.y,    t.rotation.z,
                                   t.rotation.w,    t.scale.x,       t.scale.y,
                                   t.scale.z};
  for (int c = 0; c < kSoaComponents; ++c) component(c)[j] = v[c];
}

void SoaPose::assign(std::span<const Transform> locals) {
  const size_t n = std::min(locals.size(), num_joints);
  for (size_t j = 0; j < n; ++j) set(j, locals[j]);
}

void SoaPose::copy_to(std::span<Transform> locals) const {
  const size_t n = std::min(locals.size(), num_joints);
  for (size_t j = 0; j < n; ++j) locals[j] = get(j);
}

}  // namespace animkit
