// A pose in structure-of-arrays form for the SIMD jobs: ten float arrays (translation x y z,
// rotation x y z w, scale x y z), each padded to a multiple of kSoaLanes joints so a kernel reads
// whole vectors of 4 (SSE4) or 8 (AVX2) lanes. Padding joints hold the identity transform.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "animkit/core/math.h"

namespace animkit {

inline constexpr size_t kSoaLanes = 8;  // the widest vector the kernels use (AVX2: 8 floats)

inline constexpr size_t soa_padded(size_t joints) {
  return (joints + kSoaLanes - 1) / kSoaLanes * kSoaLanes;
}

// Component order inside a SoaPose (and a runtime cursor's caches).
enum SoaComponent : int { kTx, kTy, kTz, kQx, kQy, kQz, kQw, kSx, kSy, kSz, kSoaComponents };

struct SoaPose {
  size_t num_joints = 0;
  size_t padded = 0;        // soa_padded(num_joints)
  std::vector<float> data;  // kSoaComponents arrays of `padded` floats

  SoaPose() = default;
  explicit SoaPose(size_t joints) { resize(joints); }
  // Sets the joint count; every joint (and the padding) becomes the identity.
  void resize(size_t joints);

  float* component(int c) { return data.data() + static_cast<size_t>(c) * padded; }
  const float* component(int c) const { return data.data() + static_cast<size_t>(c) * padded; }

  Transform get(size_t joint) const;
  void set(size_t joint, const Transform& t);
  // Copies between SoA and an array of transforms (the first min(size, num_joints) joints).
  void assign(std::span<const Transform> locals);
  void copy_to(std::span<Transform> locals) const;
};

}  // namespace animkit
