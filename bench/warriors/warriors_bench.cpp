// Per-update cost of one character's task stack (warriors.txt, "The task stack"): a gait blend
// easing between walk, jog and run under a fade from an idle loop; and the parts of it.
#include <benchmark/benchmark.h>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <thread>
#include <vector>

#include "animkit/warriors/clock.h"
#include "animkit/warriors/crowd.h"
#include "animkit/warriors/demo.h"
#include "animkit/warriors/instance.h"

namespace animkit::warriors {
namespace {

struct Clips {
  PlayClip walk = make_play_clip(synthetic_gait_clip("walk", 36, 0.35f, 1.5f), 4);
  PlayClip jog = make_play_clip(synthetic_gait_clip("jog", 24, 0.6f, 3.5f), 5);
  PlayClip run = make_play_clip(synthetic_gait_clip("run", 20, 0.85f, 6.0f), 6);
  PlayClip idle = make_play_clip(synthetic_idle_clip(), 388);
};

const Clips& clips() {
  static const Clips c;
  return c;
}

// One update: the tasks advanced, the deferred list flushed, the stack sampled, the bone
// transforms built and the root motion applied (no allocation per update).
void step(CharacterInstance& inst) {
  inst.begin_update();
  inst.advance(kDt);
  inst.flush_deferred();
  inst.sample();
  inst.apply_root_motion(kDt);
}

std::unique_ptr<CharacterInstance> gait_under_fade() {
  const Clips& c = clips();
  auto inst = std::make_unique<CharacterInstance>();
  inst->insert_bottom(std::make_unique<ClipTask>(1, inst.get(), &c.idle, 0.75f));
  auto gait = std::make_unique<GaitTask>(
      inst.get(), std::array<const PlayClip*, 5>{&c.walk, &c.jog, &c.run, &c.run, &c.run}, 0.0f,
      1.0f);
  gait->set_flags(kLocomotionFlags | kTaskContinuous);
  // A fade that never completes keeps the stack at [gait, idle, fade] for the whole run.
  inst->change(std::move(gait), 1e9f);
  return inst;
}

void BM_GaitBlendAndFade(benchmark::State& state) {
  auto inst = gait_under_fade();
  auto* gait = static_cast<GaitTask*>(inst->find_top(12));
  int k = 0;
  for (auto _ : state) {
    // The target sweeps 0 -> 3 -> 0 so the pair and the leader change.
    if (k % 60 == 0) gait->set_blend_target((k / 60) % 2 == 0 ? 3.0f : 0.0f);
    step(*inst);
    benchmark::DoNotOptimize(inst->pose());
    ++k;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["ns_per_update"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_GaitBlendAndFade);

void BM_GaitBlendOnly(benchmark::State& state) {
  const Clips& c = clips();
  CharacterInstance inst;
  auto gait = std::make_unique<GaitTask>(
      &inst, std::array<const PlayClip*, 5>{&c.walk, &c.jog, &c.run, &c.run, &c.run}, 1.5f, 1.0f);
  gait->set_flags(kLocomotionFlags | kTaskContinuous);
  inst.insert_bottom(std::move(gait));
  for (auto _ : state) {
    step(inst);
    benchmark::DoNotOptimize(inst.pose());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GaitBlendOnly);

void BM_CursorAdvanceAndSample(benchmark::State& state) {
  const Clips& c = clips();
  const WarPose defaults = default_pose();
  AnimCursor cursor;
  cursor.init(&c.run);
  WarPose pose;
  const float s = clock_step_size(kDt, 1.0f);
  for (auto _ : state) {
    if (cursor.advance(s, nullptr) != 0.0f) cursor.restart();
    cursor.sample(1.0f, {&defaults, 0}, pose);
    benchmark::DoNotOptimize(pose);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CursorAdvanceAndSample);

void BM_ClockStep(benchmark::State& state) {
  float t = 0;
  for (auto _ : state) {
    t = clock_add(t, 0.025f);
    benchmark::DoNotOptimize(clock_frame(t));
    if (t > 100) t = 0;
  }
}
BENCHMARK(BM_ClockStep);

// The process's CPU time (all threads), for CPU time per character next to the wall clock.
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A crowd member keeps only its bone transforms (what a crowd renders from), not the local pose
// the player prints.
std::unique_ptr<CharacterInstance> crowd_member(int i) {
  auto c = gait_under_fade();
  c->keep_local_pose = false;
  auto* gait = static_cast<GaitTask*>(c->find_top(12));
  gait->set_blend_value(static_cast<float>(i % 4));  // spread the pairs and leaders
  gait->set_blend_target(static_cast<float>((i + 2) % 4));
  return c;
}

void crowd_counters(benchmark::State& state, int n, int threads, double cpu_seconds) {
  state.SetItemsProcessed(state.iterations() * n);
  state.counters["threads"] = threads;
  // How many such characters one 16.7 ms frame updates (wall clock, this run's load).
  state.counters["chars_per_16.7ms"] =
      benchmark::Counter(n * (1.0 / 60.0), benchmark::Counter::kIsIterationInvariantRate);
  // CPU time of all threads per character update: 2 x 16.7 ms / this is the idle 2-core figure.
  state.counters["cpu_ns_per_char"] =
      1e9 * cpu_seconds / (static_cast<double>(state.iterations()) * n);
}

// The crowd: N characters of 34 bones, each a gait blend under a fade (the stack of
// BM_GaitBlendAndFade), all updated once per 30 Hz frame across the cores by Crowd::update
// (oneTBB, 64 characters per work item, a sampling workspace per thread). range(0) = N,
// range(1) = threads (0: all).
void BM_Crowd(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Crowd crowd(static_cast<int>(state.range(1)));
  for (int i = 0; i < n; ++i) crowd.add(crowd_member(i));
  crowd.update(kDt);  // the workspaces made, the caches warm
  const double cpu0 = process_cpu_seconds();
  for (auto _ : state) {
    crowd.update(kDt);
    benchmark::ClobberMemory();
  }
  crowd_counters(state, n, crowd.threads(), process_cpu_seconds() - cpu0);
}
BENCHMARK(BM_Crowd)
    ->Args({4096, 1})
    ->Args({4096, 2})
    ->Args({20000, 1})
    ->Args({20000, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The same crowd updated as before Crowd: each character sampling on its own workspace (its pose
// stack and scratch poses, 4 KB, as the instance held them) and no prefetch of the next
// character: what the shared per-thread workspace and the prefetch save in cache misses.
void BM_CrowdOwnWorkspace(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  std::vector<std::unique_ptr<CharacterInstance>> crowd;
  std::vector<std::unique_ptr<SampleWorkspace>> work;
  for (int i = 0; i < n; ++i) {
    crowd.push_back(crowd_member(i));
    work.push_back(std::make_unique<SampleWorkspace>());
  }
  const auto update = [&] {
    tbb::parallel_for(tbb::blocked_range<int>(0, n, Crowd::kGrain),
                      [&](const tbb::blocked_range<int>& r) {
                        for (int i = r.begin(); i < r.end(); ++i)
                          update_character(*crowd[i], kDt, *work[i]);
                      });
  };
  update();
  const double cpu0 = process_cpu_seconds();
  for (auto _ : state) {
    update();
    benchmark::ClobberMemory();
  }
  crowd_counters(state, n, threads, process_cpu_seconds() - cpu0);
}
BENCHMARK(BM_CrowdOwnWorkspace)
    ->Args({4096, 1})
    ->Args({4096, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// ---- The crowd proved in one run (issue 25) ----------------------------------------------------
//
// A machine reference measured in the same iteration as the crowd, so runs on other or loaded
// machines compare by their ratios:
//   reference unit   a fixed arithmetic loop: kReferenceSteps dependent double multiply-adds on one
//                    thread (ref_unit_ms); the same work split over two threads (ref_speedup_2t:
//                    what two threads get on this machine right now, load included)
//   memory           one thread streaming a 256 MB buffer (read and write back), mem_GBps
// next to the crowd of N characters updated by Crowd::update on 1 and 2 threads. The crowd's
// figures: characters per 16.7 ms frame (wall clock) on 1 and 2 threads, their ratio, CPU time of
// all the process's threads per character update, and characters per reference unit on 1 and 2
// threads (N x the reference's time on that many threads / the crowd's time: how many characters
// are updated in the time the same threads run the fixed reference work once; independent of the
// machine's speed and, to first order, of its load), and per GB/s of the memory reference.

constexpr long kReferenceSteps = 4'000'000;

double reference_loop(long steps) {
  double x = 1;
  for (long i = 0; i < steps; ++i) x = x * 1.0000001 + 1e-9;
  return x;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct MachineReference {
  double one_thread = 0, two_threads = 0, memory = 0;  // seconds, summed over the iterations
  double sink = 0;
  std::vector<uint64_t> buffer = std::vector<uint64_t>((256u << 20) / sizeof(uint64_t), 1);

  void measure() {
    auto t0 = std::chrono::steady_clock::now();
    sink += reference_loop(kReferenceSteps);
    one_thread += seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    double half = 0;
    std::thread helper([&half] { half = reference_loop(kReferenceSteps / 2); });
    sink += reference_loop(kReferenceSteps / 2);
    helper.join();
    sink += half;
    two_threads += seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    for (uint64_t& w : buffer) w += 1;  // every word read and written back
    benchmark::ClobberMemory();
    memory += seconds_since(t0);
    sink += static_cast<double>(buffer[buffer.size() / 2]);
  }
};

// The crowd of BM_Crowd never ends its fade: it stays at [gait, idle, fade] with the fade's
// weight at exactly 1.0 and the gait's value at its target. A crowd as a game plays it instead
// changes: every character, each at its own phase, changes animation every 3 s (90 updates)
// with a 0.3 s fade that ends, between a gait blend and an idle loop, and halfway through a gait
// its target moves to the other end (a blend of ~9 updates). The changes (a task made and a
// change() call, once per character every 90 updates) run between the timed updates; the fades'
// ends and the tasks' releases run inside them.
std::unique_ptr<GaitTask> changing_gait(CharacterInstance* inst, float value) {
  const Clips& c = clips();
  auto gait = std::make_unique<GaitTask>(
      inst, std::array<const PlayClip*, 5>{&c.walk, &c.jog, &c.run, &c.run, &c.run}, value, 1.0f);
  gait->set_flags(kLocomotionFlags | kTaskContinuous);
  return gait;
}
std::unique_ptr<CharacterInstance> changing_member(int i) {
  auto c = std::make_unique<CharacterInstance>();
  c->keep_local_pose = false;
  c->insert_bottom(changing_gait(c.get(), static_cast<float>(i % 4)));
  return c;
}
// The changes before update k.
void change_crowd(Crowd& crowd, long k) {
  for (int i = 0; i < crowd.size(); ++i) {
    CharacterInstance& ch = crowd[i];
    const long phase = (k + 7L * i) % 90;
    if (phase == 0) {
      if (ch.top() && ch.top()->type() == 12) {
        ch.change(std::make_unique<ClipTask>(1, &ch, &clips().idle, 0.75f), 0.3f);
      } else {
        ch.change(changing_gait(&ch, static_cast<float>(i % 4)), 0.3f);
      }
    } else if (phase == 45) {
      if (AnimTask* g = ch.find_top(12)) g->set_blend_target(g->blend_value() < 1.5f ? 3.0f : 0.0f);
    }
  }
}

void crowd_in_one_run(benchmark::State& state, bool changing) {
  const int n = static_cast<int>(state.range(0));
  Crowd one(1), two(2);
  for (int i = 0; i < n; ++i) {
    one.add(changing ? changing_member(i) : crowd_member(i));
    two.add(changing ? changing_member(i) : crowd_member(i));
  }
  long k = 0;
  // The workspaces made, the pages touched (the changing crowd through a whole 90-update cycle,
  // so every character has faded once).
  for (const int warm = changing ? 90 : 1; k < warm; ++k) {
    for (Crowd* c : {&one, &two}) {
      if (changing) change_crowd(*c, k);
      c->update(kDt);
    }
  }
  MachineReference ref;
  double wall[2] = {0, 0}, cpu[2] = {0, 0};
  Crowd* crowds[2] = {&one, &two};
  for (auto _ : state) {
    ref.measure();
    for (int c = 0; c < 2; ++c) {
      if (changing) change_crowd(*crowds[c], k);  // not timed: the game's decisions
      const double cpu0 = process_cpu_seconds();
      const auto t0 = std::chrono::steady_clock::now();
      crowds[c]->update(kDt);
      wall[c] += seconds_since(t0);
      cpu[c] += process_cpu_seconds() - cpu0;
    }
    ++k;
  }
  benchmark::DoNotOptimize(ref.sink);
  const double it = static_cast<double>(state.iterations());
  const double unit = ref.one_thread / it;
  state.counters["ref_unit_ms"] = 1e3 * unit;
  state.counters["ref_speedup_2t"] = ref.one_thread / ref.two_threads;
  state.counters["mem_GBps"] = 2.0 * static_cast<double>(ref.buffer.size() * sizeof(uint64_t)) *
                               it / ref.memory * 1e-9;
  state.counters["crowd_ms_1t"] = 1e3 * wall[0] / it;
  state.counters["crowd_ms_2t"] = 1e3 * wall[1] / it;
  state.counters["crowd_speedup_2t"] = wall[0] / wall[1];
  state.counters["chars_per_16.7ms_1t"] = n * (1.0 / 60.0) * it / wall[0];
  state.counters["chars_per_16.7ms_2t"] = n * (1.0 / 60.0) * it / wall[1];
  state.counters["cpu_ns_per_char_1t"] = 1e9 * cpu[0] / (it * n);
  state.counters["cpu_ns_per_char_2t"] = 1e9 * cpu[1] / (it * n);
  // Per reference unit: the crowd's time against the reference's on the same thread count (the
  // 2-thread unit is the same fixed work split over two threads), and against the memory stream.
  state.counters["chars_per_ref_unit_1t"] = n * ref.one_thread / wall[0];
  state.counters["chars_per_ref_unit_2t"] = n * ref.two_threads / wall[1];
  const double mem_gbps =
      2.0 * static_cast<double>(ref.buffer.size() * sizeof(uint64_t)) * it / ref.memory * 1e-9;
  state.counters["chars_per_16.7ms_per_GBps_2t"] = n * (1.0 / 60.0) * it / wall[1] / mem_gbps;
}

// range(1) = 1: the changing crowd (its name has /changing:1, so a filter on
// CrowdInOneRun/characters:N runs both crowds, each beside its own reference).
void BM_CrowdInOneRun(benchmark::State& state) { crowd_in_one_run(state, state.range(1) != 0); }
BENCHMARK(BM_CrowdInOneRun)
    ->ArgNames({"characters", "changing"})
    ->Args({4096, 0})
    ->Args({4096, 1})
    ->Args({20000, 0})
    ->Args({20000, 1})
    ->UseRealTime()
    ->MinTime(2.0)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace animkit::warriors

BENCHMARK_MAIN();
