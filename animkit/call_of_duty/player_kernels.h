// The tree player's inner loops over parts (cod-xanim-format.md §2.2, §6.1, §6.3), several parts
// per vector: 8 where the CPU has AVX (chosen at run time), 4 otherwise. Parts are independent
// sums, so every vector lane is one part's scalar float32 steps in §2.2's order, bit for bit (no
// FMA: this file is built with -ffp-contract=off, and AVX alone has none; the square root and
// the division are IEEE's correctly rounded ones, as std::sqrt and `/` on a float).
//
// The accumulators are a structure of arrays: 8 lanes (x, y, z, w, translation x, y, z, weight),
// each `stride` floats, `stride` a multiple of 8 (padding parts have weight 0).
#pragma once

#include <cstddef>
#include <cstdint>

namespace animkit::call_of_duty::player_kernels {

constexpr int kLanes = 8;
constexpr int kWeightLane = 7;
constexpr size_t kStrideMultiple = 8;

// A dense run of `count` parts (a multiple of 4) into the accumulators from slot `base`:
// lanes += f32(f32(a + f32(f32(b - a) * frac)) * scale), translation += f32(lerp * weight),
// weight += weight; a part whose `two_mask` is -1 (2-component stream) keeps its x, y sums.
struct DenseRunArgs {
  const float* ka = nullptr;  // the run's keys at the span's first key: [lane 0-6][part]
  const float* kb = nullptr;  // ... at its second key
  const int32_t* two_mask = nullptr;
  size_t count = 0, base = 0;
  float* acc[kLanes] = {};
  float frac = 0, scale = 0, weight = 0;
};
void add_dense_run(const DenseRunArgs& args);

// §6.3: a sub-blend merged at `weight`: for every part with weight > 0, |q| = sqrt of the float32
// sum x² + y² + z² + w² in that order; when |q| > 0, lanes += lane · f32(weight / |q|),
// translation += t · f32(weight / sub weight); the weight lane += weight for every part with weight
// (a part of length 0 adds its weight only). Returns true when some part had weight but length 0.
bool merge_sub_blend(const float* const sub[kLanes], float weight, float* const into[kLanes],
                     size_t stride);

// §6.1: out[l][p] = top[l][p] / top[weight][p] for lanes 0-6 (a division per lane), where the
// weight is > 0 (elsewhere out is left as is).
void divide_by_weight(const float* const top[kLanes], float* const out[kLanes - 1], size_t stride);

// Tests: use the 4-lane loops even where the CPU has AVX (not thread safe; the default is off).
// Returns false where there is no 8-lane path to turn off.
bool limit_to_four_lanes(bool on);

}  // namespace animkit::call_of_duty::player_kernels
