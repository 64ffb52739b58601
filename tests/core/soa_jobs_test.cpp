// The SoA SIMD jobs against their scalar references (issue 16, item 2): within 1e-6 over random
// skeletons, poses, masks, weights and times, on every Highway target this CPU runs (SSE4:
// 4 lanes, AVX2: 8, the one-lane fallback), with joint counts that are not a multiple of the lane
// width, a single joint, zero weights. The scalar SoA references match the AoS jobs too.
#include "animkit/core/soa_jobs.h"

#include <gtest/gtest.h>

#include <hwy/targets.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

#include "animkit/core/blending_job.h"
#include "animkit/core/local_to_model_job.h"
#include "animkit/core/synthetic.h"

namespace animkit {
namespace {

constexpr float kTolerance = 1e-6f;
const size_t kJointCounts[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 64, 65, 100};

// The Highway targets to run on: every one compiled into the kernels that this CPU supports,
// best first (read from the kernels, so a target added to their build is tested with no edit).
std::vector<int64_t> targets() {
  std::vector<int64_t> out;
  const int64_t compiled = soa_simd_compiled_targets();
  for (int bit = 0; bit < 63; ++bit) {
    const int64_t t = int64_t{1} << bit;
    if ((compiled & t) && (hwy::SupportedTargets() & t)) out.push_back(t);
  }
  return out;
}

// Runs `body` once per target, the dispatch forced to that target.
template <class F>
void on_every_target(F body) {
  for (int64_t t : targets()) {
    hwy::SetSupportedTargetsForTest(t);
    SCOPED_TRACE(soa_simd_target());
    EXPECT_EQ(std::string(soa_simd_target()), hwy::TargetName(t));
    body();
  }
  hwy::SetSupportedTargetsForTest(0);
}

Quat random_rotation(std::mt19937& rng) {
  std::normal_distribution<float> g;
  return normalize({g(rng), g(rng), g(rng), g(rng)});
}

SoaPose random_pose(std::mt19937& rng, size_t n) {
  std::uniform_real_distribution<float> u(-1, 1);
  SoaPose p(n);
  for (size_t j = 0; j < n; ++j) {
    p.set(j, {{u(rng), u(rng), u(rng)}, random_rotation(rng), {1 + 0.5f * u(rng), 1 + 0.5f * u(rng), 1 + 0.5f * u(rng)}});
  }
  return p;
}

Skeleton random_skeleton(std::mt19937& rng, size_t n) {
  Skeleton s;
  for (size_t j = 0; j < n; ++j) {
    const int parent = j == 0 || rng() % 7 == 0 ? -1 : static_cast<int>(rng() % j);
    s.add_joint("j" + std::to_string(j), parent, {});
  }
  return s;
}

void expect_near(const SoaPose& a, const SoaPose& b, float tolerance) {
  ASSERT_EQ(a.num_joints, b.num_joints);
  for (int c = 0; c < kSoaComponents; ++c) {
    for (size_t j = 0; j < a.num_joints; ++j) {
      ASSERT_NEAR(a.component(c)[j], b.component(c)[j], tolerance) << "component " << c << " joint " << j;
    }
  }
}

void expect_near(std::span<const Mat4> a, std::span<const Mat4> b, float tolerance) {
  for (size_t j = 0; j < a.size(); ++j) {
    for (int i = 0; i < 16; ++i) {
      const float scale = std::max(1.f, std::fabs(b[j].m[i]));
      ASSERT_NEAR(a[j].m[i], b[j].m[i], tolerance * scale) << "joint " << j << " element " << i;
    }
  }
}

TEST(SoaJobs, RunOnTheFourAndEightLaneTargetsThisCpuHas) {
  const std::vector<int64_t> t = targets();
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(t.back(), HWY_SCALAR);  // the reference-like fallback always runs
  const int64_t compiled = soa_simd_compiled_targets();
  EXPECT_EQ(compiled, HWY_AVX2 | HWY_SSE4 | HWY_SCALAR);  // the build's choice (core README)
  if (hwy::SupportedTargets() & HWY_AVX2) {
    EXPECT_EQ(t.size(), 3u);  // AVX2, SSE4, fallback
  }
  // A compiled target this CPU cannot run is not tested here: say so.
  for (int bit = 0; bit < 63; ++bit) {
    const int64_t x = int64_t{1} << bit;
    if ((compiled & x) && !(hwy::SupportedTargets() & x)) {
      std::printf("note: %s is compiled but this CPU cannot run it\n", hwy::TargetName(x));
    }
  }
}

TEST(SoaPose, RoundTripAndIdentityPadding) {
  std::mt19937 rng(1);
  SoaPose p = random_pose(rng, 5);
  EXPECT_EQ(p.padded, 8u);
  std::vector<Transform> aos(5);
  p.copy_to(aos);
  SoaPose q(5);
  q.assign(aos);
  EXPECT_EQ(p.data, q.data);
  for (size_t j = 5; j < 8; ++j) EXPECT_EQ(p.get(j), Transform::identity());
}

// Issue 34, item 2: the component arrays are an odd number of cache lines apart, so the ten of
// them start on ten different L1 sets at every joint count (powers of two included).
TEST(SoaPose, ComponentArraysStartOnDifferentCacheSets) {
  EXPECT_EQ(soa_stride(5), 16u);      // 8 padded joints -> one line
  EXPECT_EQ(soa_stride(248), 272u);   // 248 floats = 15.5 lines -> 16 -> 17
  EXPECT_EQ(soa_stride(256), 272u);   // 16 lines (1 KB: the old aliasing) -> 17
  EXPECT_EQ(soa_stride(1024), 1040u); // 64 lines (4 KB: every array on one set) -> 65
  for (size_t n = 1; n <= 2048; ++n) {
    const size_t stride = soa_stride(n);
    ASSERT_GE(stride, soa_padded(n));
    ASSERT_EQ(stride % kCacheLineFloats, 0u);
    bool seen[64] = {};
    for (int c = 0; c < kSoaComponents; ++c) {
      const size_t set = c * stride / kCacheLineFloats % 64;
      ASSERT_FALSE(seen[set]) << n << " joints, component " << c;
      seen[set] = true;
    }
  }
  SoaPose p(256);
  EXPECT_EQ(p.component(kQw) - p.component(kTx), 6 * 272);
  for (size_t j = 256; j < p.stride; ++j) EXPECT_EQ(p.component(kSy)[j], 1.f);  // identity beyond too
}

// Issue 34, item 6: a pose's arrays start on a cache line, so no 8-lane vector of a kernel
// straddles two lines (with std::vector's 16-byte alignment half of them did).
TEST(SoaPose, ArraysStartOnACacheLine) {
  for (size_t n : {1u, 5u, 64u, 67u, 256u, 1024u}) {
    SoaPose p(n);
    for (int c = 0; c < kSoaComponents; ++c) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p.component(c)) % 64, 0u) << n << " joints, component " << c;
    }
    SoaPose copy = p;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(copy.data.data()) % 64, 0u);
  }
}

TEST(SoaBlending, SimdEqualsScalarAndTheAosJob) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> weight(0, 1.5f);
  on_every_target([&] {
    for (size_t n : kJointCounts) {
      for (int round = 0; round < 8; ++round) {
        const size_t count = rng() % 6;  // 0 layers: the rest pose alone
        std::vector<SoaPose> poses;
        std::vector<std::vector<float>> masks(count);
        for (size_t l = 0; l < count; ++l) poses.push_back(random_pose(rng, n));
        std::vector<SoaBlendingLayer> layers(count);
        std::vector<BlendingLayer> aos_layers(count);
        std::vector<std::vector<Transform>> aos(count, std::vector<Transform>(n));
        for (size_t l = 0; l < count; ++l) {
          // Some layers weigh 0; some are masked, with zeros, ones and fractions per joint.
          const float w = rng() % 4 == 0 ? 0.f : weight(rng);
          if (rng() % 2) {
            masks[l].resize(n);
            for (float& m : masks[l]) m = rng() % 3 == 0 ? 0.f : (rng() % 2 ? 1.f : weight(rng));
          }
          layers[l] = {&poses[l], w, masks[l]};
          poses[l].copy_to(aos[l]);
          aos_layers[l] = {aos[l], w, masks[l]};
        }
        const SoaPose rest = random_pose(rng, n);
        SoaPose simd(n), scalar(n);
        const float threshold = round % 2 ? 0.1f : 0.7f;
        ASSERT_TRUE((SoaBlendingJob{layers, &rest, threshold, &simd}.run()));
        ASSERT_TRUE((SoaBlendingJob{layers, &rest, threshold, &scalar}.run_scalar()));
        expect_near(simd, scalar, kTolerance);
        // The scalar SoA reference is the AoS BlendingJob.
        std::vector<Transform> aos_rest(n), aos_out(n);
        rest.copy_to(aos_rest);
        BlendingJob job;
        job.layers = aos_layers;
        job.rest = aos_rest;
        job.threshold = threshold;
        job.output = aos_out;
        ASSERT_TRUE(job.run());
        SoaPose from_aos(n);
        from_aos.assign(aos_out);
        expect_near(scalar, from_aos, kTolerance);
      }
    }
  });
}

// Up to four weighing layers with no joint weights take a kernel of their own per layer count
// (issue 34, item 6): every count, layers of weight 0 among them, the rest pose making up the
// difference or not.
TEST(SoaBlending, FewUnmaskedLayersSimdEqualsScalar) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> weight(0.01f, 1.5f);
  on_every_target([&] {
    for (size_t n : kJointCounts) {
      for (size_t count = 0; count <= 6; ++count) {
        for (const float threshold : {0.1f, 3.f}) {
          std::vector<SoaPose> poses;
          std::vector<SoaBlendingLayer> layers(count);
          for (size_t l = 0; l < count; ++l) poses.push_back(random_pose(rng, n));
          for (size_t l = 0; l < count; ++l) layers[l] = {&poses[l], rng() % 5 == 0 ? 0.f : weight(rng), {}};
          const SoaPose rest = random_pose(rng, n);
          SoaPose simd(n), scalar(n);
          ASSERT_TRUE((SoaBlendingJob{layers, &rest, threshold, &simd}.run()));
          ASSERT_TRUE((SoaBlendingJob{layers, &rest, threshold, &scalar}.run_scalar()));
          SCOPED_TRACE(count);
          expect_near(simd, scalar, kTolerance);
        }
      }
    }
  });
}

// SoaBlendingJob picks the few-layer kernel from the layers that weigh: up to 4 of them with no
// joint weights, however many weigh nothing (masked or not) beside them; a fifth weighing layer
// or a weighing mask sends the job to the general kernel. Every mix equals the scalar reference.
TEST(SoaBlending, WeighingLayersPickTheKernelSimdEqualsScalar) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> weight(0.05f, 1.f);
  on_every_target([&] {
    for (size_t n : {7u, 64u}) {
      for (size_t weighing = 0; weighing <= 5; ++weighing) {
        for (const bool masked_weighs : {false, true}) {
          const size_t count = weighing + 6;  // 6 layers weigh nothing, 3 of them masked
          std::vector<SoaPose> poses;
          std::vector<float> mask(n, 0.5f);
          std::vector<SoaBlendingLayer> layers(count);
          for (size_t l = 0; l < count; ++l) poses.push_back(random_pose(rng, n));
          for (size_t l = 0; l < count; ++l) {
            const bool weighs = l % 2 == 1 && l / 2 < weighing;  // layers 1, 3, 5, ...
            layers[l] = {&poses[l], weighs ? weight(rng) : 0.f, {}};
            if (!weighs && l % 3 == 0) layers[l].joint_weights = mask;
          }
          if (masked_weighs && weighing > 0) layers[1].joint_weights = mask;  // layer 1 weighs
          const SoaPose rest = random_pose(rng, n);
          SoaPose simd(n), scalar(n);
          ASSERT_TRUE((SoaBlendingJob{layers, &rest, 0.5f, &simd}.run()));
          ASSERT_TRUE((SoaBlendingJob{layers, &rest, 0.5f, &scalar}.run_scalar()));
          SCOPED_TRACE(weighing);
          expect_near(simd, scalar, kTolerance);
        }
      }
    }
  });
}

// Issue 34, item 3: more than 16 layers stay on the SIMD path (they used to fall to
// run_scalar()); the result is the scalar reference's within 1e-6 on every target.
TEST(SoaBlending, ManyLayersSimdEqualsScalar) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> weight(0, 1.5f);
  on_every_target([&] {
    for (size_t count : {16u, 17u, 33u, 64u}) {
      for (size_t n : {5u, 64u, 67u}) {
        std::vector<SoaPose> poses;
        std::vector<std::vector<float>> masks(count);
        std::vector<SoaBlendingLayer> layers(count);
        for (size_t l = 0; l < count; ++l) poses.push_back(random_pose(rng, n));
        for (size_t l = 0; l < count; ++l) {
          if (l % 3 == 1) {
            masks[l].resize(n);
            for (float& m : masks[l]) m = rng() % 3 == 0 ? 0.f : weight(rng);
          }
          layers[l] = {&poses[l], l % 7 == 3 ? 0.f : weight(rng) / count, masks[l]};
        }
        const SoaPose rest = random_pose(rng, n);
        SoaPose simd(n), scalar(n);
        ASSERT_TRUE((SoaBlendingJob{layers, &rest, 0.1f, &simd}.run()));
        ASSERT_TRUE((SoaBlendingJob{layers, &rest, 0.1f, &scalar}.run_scalar()));
        SCOPED_TRACE(count);
        expect_near(simd, scalar, kTolerance);
      }
    }
  });
}

TEST(SoaBlending, HemisphereRuleAndZeroWeights) {
  // Layer 2 holds -q of layer 1's neighbour: summed on layer 1's hemisphere, not cancelled.
  SoaPose a(1), b(1), rest(1), out(1);
  a.set(0, {{}, axis_angle({0, 1, 0}, 0.2f), {1, 1, 1}});
  b.set(0, {{}, -axis_angle({0, 1, 0}, 0.4f), {1, 1, 1}});
  const SoaBlendingLayer layers[] = {{&a, 1, {}}, {&b, 1, {}}};
  on_every_target([&] {
    ASSERT_TRUE((SoaBlendingJob{layers, &rest, 0.1f, &out}.run()));
    EXPECT_NEAR(out.get(0).rotation.y, std::sin(0.15f), 1e-4f);
    EXPECT_GT(out.get(0).rotation.w, 0.9f);
    // All weights 0: the rest pose.
    rest.set(0, {{2, 3, 4}, axis_angle({1, 0, 0}, 0.5f), {2, 2, 2}});
    const SoaBlendingLayer zero[] = {{&a, 0, {}}, {&b, 0, {}}};
    ASSERT_TRUE((SoaBlendingJob{zero, &rest, 0.1f, &out}.run()));
    EXPECT_NEAR(out.get(0).translation.y, 3.f, 1e-6f);
    EXPECT_NEAR(out.get(0).rotation.x, std::sin(0.25f), 1e-6f);
    rest.set(0, {});
  });
}

TEST(SoaBlending, RejectsMismatchedInputs) {
  SoaPose a(3), rest(3), out(3), small(2);
  const float short_mask[2] = {1, 1};
  const SoaBlendingLayer bad_size[] = {{&small, 1, {}}};
  const SoaBlendingLayer bad_mask[] = {{&a, 1, short_mask}};
  const SoaBlendingLayer bad_weight[] = {{&a, -1, {}}};
  EXPECT_FALSE((SoaBlendingJob{bad_size, &rest, 0.1f, &out}.run()));
  EXPECT_FALSE((SoaBlendingJob{bad_mask, &rest, 0.1f, &out}.run()));
  EXPECT_FALSE((SoaBlendingJob{bad_weight, &rest, 0.1f, &out}.run()));
  EXPECT_FALSE((SoaBlendingJob{{}, &rest, 0.f, &out}.run()));
  EXPECT_FALSE((SoaBlendingJob{{}, nullptr, 0.1f, &out}.run()));
  const SoaBlendingLayer into_itself[] = {{&out, 1, {}}};
  EXPECT_FALSE((SoaBlendingJob{into_itself, &rest, 0.1f, &out}.run()));  // the output is an input
  EXPECT_FALSE((SoaBlendingJob{{}, &out, 0.1f, &out}.run()));
}

TEST(SoaLocalToModel, SimdEqualsScalarAndTheAosJob) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1, 1);
  on_every_target([&] {
    for (size_t n : kJointCounts) {
      for (int round = 0; round < 4; ++round) {
        const Skeleton s = random_skeleton(rng, n);
        const SoaPose locals = random_pose(rng, n);
        Mat4 root = to_matrix({{u(rng), u(rng), u(rng)}, random_rotation(rng), {2, 2, 2}});
        const Mat4* r = round % 2 ? &root : nullptr;
        std::vector<Mat4> simd(n), scalar(n), aos(n);
        ASSERT_TRUE((SoaLocalToModelJob{&s, &locals, r, simd}.run()));
        ASSERT_TRUE((SoaLocalToModelJob{&s, &locals, r, scalar}.run_scalar()));
        expect_near(simd, scalar, kTolerance);
        std::vector<Transform> aos_locals(n);
        locals.copy_to(aos_locals);
        ASSERT_TRUE((LocalToModelJob{&s, aos_locals, r, aos}.run()));
        expect_near(scalar, aos, 0.f);
      }
    }
  });
}

// Chains (parent = the joint before: the kernel keeps the parent's columns in registers) up to
// 100 joints deep, roots in the middle, children of an earlier joint, with and without a root
// placement (issue 34, item 6).
TEST(SoaLocalToModel, ChainsSimdEqualsScalar) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  on_every_target([&] {
    for (size_t n : kJointCounts) {
      for (int round = 0; round < 4; ++round) {
        Skeleton s;
        for (size_t j = 0; j < n; ++j) {
          int parent = static_cast<int>(j) - 1;  // the benchmark's shape: chains of 7 off joint 0
          if (round == 1 && j % 8 == 1) parent = 0;
          if (round == 2 && j % 5 == 3) parent = -1;  // a root inside the chain
          if (round == 3 && j > 2 && rng() % 3 == 0) parent = static_cast<int>(rng() % (j - 1));
          s.add_joint("j" + std::to_string(j), parent, {});
        }
        const SoaPose locals = random_pose(rng, n);
        Mat4 root = to_matrix({{u(rng), u(rng), u(rng)}, random_rotation(rng), {1.5f, 1.5f, 1.5f}});
        for (const Mat4* r : {static_cast<const Mat4*>(nullptr), static_cast<const Mat4*>(&root)}) {
          std::vector<Mat4> simd(n), scalar(n);
          ASSERT_TRUE((SoaLocalToModelJob{&s, &locals, r, simd}.run()));
          ASSERT_TRUE((SoaLocalToModelJob{&s, &locals, r, scalar}.run_scalar()));
          SCOPED_TRACE(n);
          // Every target multiplies as mul_affine does, unfused: the same bits, however deep the
          // chain (fused, the differences passed 1e-6 by 50 joints).
          expect_near(simd, scalar, 0.f);
        }
      }
    }
  });
}

TEST(SoaLocalToModel, RejectsAChildBeforeItsParent) {
  Skeleton s;
  s.names = {"a", "b"};
  s.parents = {1, -1};
  s.rest.resize(2);
  SoaPose locals(2);
  std::vector<Mat4> out(2);
  EXPECT_FALSE((SoaLocalToModelJob{&s, &locals, nullptr, out}.run()));
  std::vector<Mat4> small(1);
  s.parents = {-1, 0};
  EXPECT_FALSE((SoaLocalToModelJob{&s, &locals, nullptr, small}.run()));
  EXPECT_TRUE((SoaLocalToModelJob{&s, &locals, nullptr, out}.run()));
}

TEST(SoaSampling, SimdEqualsScalar) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> any(-0.5f, 2.5f);
  on_every_target([&] {
    for (size_t n : kJointCounts) {
      const Animated a = synthetic_workload(static_cast<int>(n), 2, 30);
      Clip clip = a.clips[0];
      // Mixed channels: some joints step, some have no key, some a single key.
      for (size_t j = 0; j < n; j += 3) clip.joints[j].translation.interpolation = Interpolation::kStep;
      for (size_t j = 1; j < n; j += 4) clip.joints[j].scale = {};
      for (size_t j = 2; j < n; j += 5) {
        clip.joints[j].rotation.times.resize(1);
        clip.joints[j].rotation.values.resize(1);
      }
      const RuntimeClip rc(clip, a.skeleton.rest);
      RuntimeCursor c0, c1;
      SoaPose simd(n), scalar(n);
      for (int i = 0; i < 40; ++i) {
        const float t = i < 20 ? i / 60.f : any(rng);  // forward, then random
        ASSERT_TRUE((SoaSamplingJob{&rc, t, &c0, &simd, {}}.run()));
        ASSERT_TRUE((SoaSamplingJob{&rc, t, &c1, &scalar, {}}.run_scalar()));
        expect_near(simd, scalar, kTolerance);
      }
    }
  });
}

TEST(SoaSampling, RejectsAPoseOfAnotherSize) {
  const Animated a = synthetic_workload(4, 1, 30);
  const RuntimeClip rc(a.clips[0], a.skeleton.rest);
  RuntimeCursor c;
  SoaPose wrong(5);
  EXPECT_FALSE((SoaSamplingJob{&rc, 0, &c, &wrong, {}}.run()));
  EXPECT_FALSE((SoaSamplingJob{&rc, 0, nullptr, &wrong, {}}.run()));
}

}  // namespace
}  // namespace animkit
