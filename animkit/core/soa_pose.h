// A pose in structure-of-arrays form for the SIMD jobs: ten float arrays (translation x y z,
// rotation x y z w, scale x y z), each padded to a multiple of kSoaLanes joints so a kernel reads
// whole vectors of 4 (SSE4) or 8 (AVX2) lanes. Padding joints hold the identity transform. The
// arrays sit `stride` floats apart (soa_stride), a little more than `padded`.
#pragma once

#include <cstddef>
#include <new>
#include <span>
#include <vector>

#include "animkit/core/math.h"

namespace animkit {

inline constexpr size_t kSoaLanes = 8;  // the widest vector the kernels use (AVX2: 8 floats)

inline constexpr size_t soa_padded(size_t joints) {
  return (joints + kSoaLanes - 1) / kSoaLanes * kSoaLanes;
}

// The distance between two component arrays (of a SoaPose, or rows of a runtime cursor's
// caches): `padded` rounded up to whole 64-byte cache lines, made an odd number of lines. At a
// power-of-two joint count the arrays would otherwise start 1, 2 or 4 KB apart, all on the same
// L1 sets (the set index repeats every 4 KB), and evict each other (issue 34, item 2). An odd
// number of lines is invertible modulo the 64 sets, so any 64 consecutive arrays start on 64
// different sets.
inline constexpr size_t kCacheLineFloats = 16;
inline constexpr size_t soa_stride(size_t joints) {
  const size_t lines = (soa_padded(joints) + kCacheLineFloats - 1) / kCacheLineFloats;
  return (lines | 1) * kCacheLineFloats;
}

// Allocates whole cache lines, 64-byte aligned: with soa_stride a multiple of 16 floats, every
// 8-lane vector of every component array then sits inside one cache line (from std::vector's
// 16-byte alignment, half of the 32-byte loads and stores of a kernel crossed a line).
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64})); }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t{64}); }
  template <class U>
  bool operator==(const CacheLineAllocator<U>&) const { return true; }
};

// Component order inside a SoaPose (and a runtime cursor's caches).
enum SoaComponent : int { kTx, kTy, kTz, kQx, kQy, kQz, kQw, kSx, kSy, kSz, kSoaComponents };

struct SoaPose {
  size_t num_joints = 0;
  size_t padded = 0;        // soa_padded(num_joints): the joints a kernel computes
  size_t stride = 0;        // soa_stride(num_joints): from one component array to the next
  std::vector<float, CacheLineAllocator<float>> data;  // kSoaComponents arrays of `stride` floats

  SoaPose() = default;
  explicit SoaPose(size_t joints) { resize(joints); }
  // Sets the joint count; every joint (and the padding) becomes the identity.
  void resize(size_t joints);

  float* component(int c) { return data.data() + static_cast<size_t>(c) * stride; }
  const float* component(int c) const { return data.data() + static_cast<size_t>(c) * stride; }

  Transform get(size_t joint) const;
  void set(size_t joint, const Transform& t);
  // Copies between SoA and an array of transforms (the first min(size, num_joints) joints).
  void assign(std::span<const Transform> locals);
  void copy_to(std::span<Transform> locals) const;
};

}  // namespace animkit
