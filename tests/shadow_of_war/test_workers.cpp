// The worker pool and the frame's speed rules (issue 15, item 7): every job runs once on some
// thread, jobs queued while the main thread submits, results bit-identical for 0, 1, 2 and 4
// workers, the pose job's skipped (dead) operations change no bit, no allocation per frame.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/character.h"
#include "animkit/shadow_of_war/demo.h"
#include "animkit/shadow_of_war/scenario.h"

// Counts heap allocations while `g_counting` is set (the whole test binary uses this new). Not
// under AddressSanitizer, whose own operator new the shared libraries bind to.
#if defined(__SANITIZE_ADDRESS__)
#define SOW_COUNT_ALLOCATIONS 0
#else
#define SOW_COUNT_ALLOCATIONS 1
#endif
namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace
#if SOW_COUNT_ALLOCATIONS
void* operator new(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace animkit::shadow_of_war {
namespace {

bool same_bits(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)) == 0;
}

TEST(WorkerPool, EveryJobRunsOnceOnAValidThread) {
  for (int workers : {0, 1, 2, 4}) {
    AnimJobThreadSystem pool(workers);
    for (size_t count : {0u, 1u, 2u, 17u, 1000u, 9000u}) {  // 9,000: runs of 256, then fewer
      std::vector<std::atomic<int>> runs(count);
      std::atomic<bool> bad_thread{false};
      pool.run(count, [&](size_t i, size_t thread) {
        runs[i].fetch_add(1);
        if (thread >= pool.threads()) bad_thread = true;
      });
      for (size_t i = 0; i < count; ++i) EXPECT_EQ(runs[i].load(), 1) << workers << " " << i;
      EXPECT_FALSE(bad_thread);
    }
  }
}

// Spec, "Per frame": submit queues the job; a worker may take it before the main thread has
// submitted the rest. A job never runs before it is queued.
TEST(WorkerPool, JobsRunOnlyOnceQueued) {
  AnimJobThreadSystem pool(2);
  constexpr size_t kCount = 300;
  std::vector<std::atomic<int>> submitted(kCount);
  std::atomic<int> early{0};
  const AnimJobThreadSystem::Job job = [&](size_t i, size_t) {
    if (submitted[i].load(std::memory_order_acquire) == 0) early.fetch_add(1);
  };
  pool.begin(kCount, job);
  for (size_t i = 0; i < kCount; ++i) {
    submitted[i].store(1, std::memory_order_release);
    pool.queued(i + 1);
  }
  pool.finish();
  EXPECT_EQ(early.load(), 0);
}

TEST(WorkerPool, FirstExceptionIsRethrownAndCancelSkips) {
  AnimJobThreadSystem pool(2);
  EXPECT_THROW(pool.run(100,
                        [](size_t i, size_t) {
                          if (i == 37) throw Error("job 37");
                        }),
               Error);
  // A producer that fails: cancel ends the frame without running the jobs not yet queued.
  std::atomic<int> ran{0};
  const AnimJobThreadSystem::Job job = [&](size_t, size_t) { ran.fetch_add(1); };
  pool.begin(100, job);
  pool.queued(10);
  pool.cancel();
  EXPECT_LE(ran.load(), 10);
  pool.run(5, job);  // the pool still works
  EXPECT_LE(ran.load(), 15);
  EXPECT_GE(ran.load(), 5);
}

// Results do not depend on the number of workers: every character's pose bit for bit for 0, 1,
// 2 and 4 workers, and the whole play trace for 3 (the default), 1, 2 and 4, on a crowd that changes state (cross-fades,
// the upper-body fidget layer) and loses characters to the dead-body step.
TEST(Workers, IdenticalPosesAndTracesWith0_1_2And4Workers) {
  Json s = crowd_scenario(40, 240);
  for (int k = 0; k < 3; ++k)
    s["script"].push_back({{"frame", 100 + 20 * k}, {"character", fmt::format("orc_{}", 5 * k)},
                           {"die", true}});
  const int counts[] = {0, 1, 2, 4};
  std::vector<std::vector<Transform>> poses[4];
  for (int k = 0; k < 4; ++k) {
    Scene scene = scene_from_json(s, ".", counts[k]);
    ASSERT_EQ(scene.crowd->workers(), counts[k]);
    for (int f = 0; f < 240; ++f) {
      for (const Json& e : s["script"])
        if (e["frame"] == f && e.contains("values"))
          for (auto& c : scene.crowd->characters())
            if (c->name() == e["character"])
              c->set_value("speed", e["values"]["speed"].get<float>());
      scene.crowd->frame(1.f / 60);
      for (auto& c : scene.crowd->characters())
        poses[k].push_back(c->model().output.transforms());
    }
  }
  for (int k = 1; k < 4; ++k) {
    ASSERT_EQ(poses[k].size(), poses[0].size());
    size_t differ = 0;
    for (size_t i = 0; i < poses[0].size(); ++i) differ += !same_bits(poses[0][i], poses[k][i]);
    EXPECT_EQ(differ, 0u) << counts[k] << " workers";
  }
  std::string traces[4];
  for (int k = 0; k < 4; ++k) {
    std::ostringstream out;
    PlayOptions o;
    o.json = true;
    o.threads = counts[k];  // --threads 0 is the default: three workers
    play(s, ".", o, out);
    traces[k] = out.str();
  }
  for (int k = 1; k < 4; ++k) EXPECT_EQ(traces[k], traces[0]) << counts[k] << " threads";
  EXPECT_NE(traces[0].find("\"BLEND\""), std::string::npos);
  EXPECT_NE(traces[0].find("\"ragdoll\""), std::string::npos);
}

// Spec, "Per frame": per model the main thread advances and submits, and the pose jobs run after
// the submission. The crowd runs each character's whole frame on the thread that takes it
// (README, Choices 12h); every pose bit and plan must be what the spec's order gives: every
// character updated first, in order, then every pose job on one thread.
TEST(Workers, EachCharacterOnOneThreadGivesTheSpecsOrder) {
  const Json s = crowd_scenario(48, 0);
  PoseJob job;
  for (int workers : {0, 1, 3}) {
    Scene crowd = scene_from_json(s, ".", workers);
    Scene reference = scene_from_json(s, ".", 0);
    auto& cs = crowd.crowd->characters();
    auto& rs = reference.crowd->characters();
    ASSERT_EQ(cs.size(), rs.size());
    size_t differ = 0, blends = 0;
    for (int f = 0; f < 400; ++f) {
      for (size_t i = 0; i < cs.size(); ++i) {
        const int phase = static_cast<int>((f + 13 * i) % 150);
        const float speed = phase == 0 ? 3.f : phase == 75 ? 0.f : -1.f;
        if (speed >= 0) cs[i]->set_value("speed", speed), rs[i]->set_value("speed", speed);
      }
      crowd.crowd->frame(1.f / 60);
      for (auto& c : rs) c->update(1.f / 60);
      job.frame = 0;  // no clip layouts: the general sampler path
      for (auto& c : rs) c->model().evaluate(job);
      for (size_t i = 0; i < cs.size(); ++i) {
        const ModelAnimation& a = cs[i]->model();
        const ModelAnimation& b = rs[i]->model();
        differ += !same_bits(a.output.transforms(), b.output.transforms()) ||
                  a.operations != b.operations;
        blends += a.operations.size() > 2;
      }
    }
    EXPECT_EQ(differ, 0u) << workers << " workers";
    EXPECT_GT(blends, 1000u);  // cross-fades were part of it
  }
}

// The failure a frame reports is the same for any number of workers: the lowest job's.
TEST(WorkerPool, LowestFailingJobIsRethrown) {
  for (int workers : {0, 1, 2, 4}) {
    AnimJobThreadSystem pool(workers);
    for (int round = 0; round < 20; ++round) {
      try {
        pool.run(500, [](size_t i, size_t) {
          if (i % 97 == 41) throw Error(fmt::format("job {}", i));
        });
        FAIL() << "no error";
      } catch (const Error& e) {
        EXPECT_EQ(e.message(), "job 41") << workers << " workers";
      }
    }
  }
}

// The pose job skips operations whose result a later one overwrites (README, Choices 12a). A
// table that is not the default one runs every operation: both outputs must match bit for bit
// on every plan shape (weights 0, 0.5, 1, above 1 and NaN; weight sets; entries without a clip).
TEST(Workers, SkippedOperationsChangeNoBit) {
  const Skeleton sk = synthetic_skeleton(12);
  const Clip a = synthetic_clip("a", sk, 1.f, true, 0.5f, 1);
  const Clip b = synthetic_clip("b", sk, 0.7f, true, -0.7f, 2);
  const Clip c = base_pose_clip(sk);
  const OperationTable every = default_operation_table();  // a copy: nothing is skipped
  const std::vector<float> upper = {0, 0, 0, 0.5f, 1, 1, 1, 1, 1, 1, 1, 1};
  const float weights[] = {0, 0.5f, 1, 1.5f, std::nanf("")};
  const Clip* clips[] = {&a, &b, &c, nullptr};
  size_t plans = 0, skipped = 0;
  for (int shape = 0; shape < 5 * 5 * 5 * 4 * 4 * 4; ++shape) {
    int x = shape;
    BlendEntry e[3];
    KeyCursor cursors[2][3];
    for (int i = 0; i < 3; ++i) {
      e[i].weight = weights[x % 5], x /= 5;
    }
    for (int i = 0; i < 3; ++i) {
      e[i].clip = clips[x % 4], x /= 4;
      e[i].time = 0.13f + 0.29f * i;
    }
    if (x % 2) e[2].weight_set = upper;
    if (x % 4 >= 2) e[1].weight_set = upper;
    std::vector<Transform> out[2] = {std::vector<Transform>(12), std::vector<Transform>(12)};
    for (int k = 0; k < 2; ++k) {
      BlendEntry local[3] = {e[0], e[1], e[2]};
      for (int i = 0; i < 3; ++i) local[i].cursor = &cursors[k][i];
      PoseJob job;
      job.skeleton = &sk;
      job.prepare(3);
      job.entries = local;
      job.output = out[k];
      job.run(k == 0 ? default_operation_table() : every);
      if (k == 0) skipped += job.first_live_operation(default_operation_table()) > 0;
    }
    ++plans;
    EXPECT_TRUE(same_bits(out[0], out[1])) << "shape " << shape;
  }
  EXPECT_GT(skipped, plans / 4);  // the rule does apply
}

// A dead operation still reports the clip the skeleton cannot take.
TEST(Workers, SkippedOperationStillRaisesItsError) {
  const Skeleton small = synthetic_skeleton(4), big = synthetic_skeleton(8);
  const Clip wide = synthetic_clip("wide", big, 1.f, true, 0.5f, 1);
  const Clip fits = synthetic_clip("fits", small, 1.f, true, 0.5f, 1);
  KeyCursor c0, c1;
  const BlendEntry entries[] = {{1, 0.1f, {}, &wide, &c0}, {1, 0.1f, {}, &fits, &c1}};
  std::vector<Transform> out(4);
  PoseJob job;
  job.skeleton = &small;
  job.prepare(2);
  job.entries = entries;
  job.output = out;
  try {
    job.run();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "clip 'wide' (8 joints) cannot be sampled on a skeleton of 4 joints");
  }
}

// "No allocation per update": once the crowd has run through its states, a frame (behaviour,
// state changes, cross-fades, pose jobs on two workers) allocates nothing.
TEST(Workers, NoAllocationPerFrame) {
  if (!SOW_COUNT_ALLOCATIONS) GTEST_SKIP() << "allocations are not counted under ASan";
  Scene scene = scene_from_json(crowd_scenario(32, 0), ".", 2);
  auto& cs = scene.crowd->characters();
  auto drive = [&](int frame) {
    for (size_t i = 0; i < cs.size(); ++i) {
      const int phase = static_cast<int>((frame + 13 * i) % 150);
      if (phase == 0) cs[i]->set_value("speed", 3);
      if (phase == 75) cs[i]->set_value("speed", 0);
    }
    scene.crowd->frame(1.f / 60);
  };
  int f = 0;
  for (; f < 600; ++f) drive(f);  // warm: every character has been through every state
  std::vector<const BlendState*> last(cs.size());
  for (size_t i = 0; i < cs.size(); ++i) last[i] = cs[i]->state();
  size_t changed = 0;
  g_allocations = 0;
  g_counting = true;
  for (; f < 900; ++f) {
    drive(f);
    for (size_t i = 0; i < cs.size(); ++i) {
      changed += cs[i]->state() != last[i];
      last[i] = cs[i]->state();
    }
  }
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0);
  EXPECT_GT(changed, 100u);  // the frames counted did change states
}

}  // namespace
}  // namespace animkit::shadow_of_war
