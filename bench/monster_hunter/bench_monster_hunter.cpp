// The figure: parse + validate + sample every entry of a 48-bone, 123-entry synthetic
// monster (Tigrex-shaped: parts of 31, 9 and 5 joints, 3 severed-tail bones, params [0, 45]),
// and the pieces on their own. The machine reference (issue 27 item 4) runs in the same process:
// a fixed arithmetic loop and a memcpy bandwidth figure, and BM_Parse reports its speed as a
// ratio of that bandwidth, so a loaded machine shows as a low reference, not as a slow parser.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/rules.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {
namespace {

struct Files {
  std::vector<uint8_t> skeleton, pack;
  int frames = 0;
};

const Files& files() {
  static const Files f = [] {
    MonsterSpec spec;
    spec.part_sizes = {31, 9, 5};
    spec.severed = 3;
    spec.entries = 123;
    spec.head_only = {24, 25};
    spec.keys = 6;
    spec.last_frame = 60;
    const Monster m = synthetic_monster(spec);
    return Files{write_skeleton(m.skeleton), write_pack(m.pack), spec.last_frame};
  }();
  return f;
}

// Samples every entry at every frame through the engine's per-part players.
int64_t sample_all(const AnimPack& pack, const Skeleton& skeleton, std::vector<JointPose>& local,
                   std::vector<Mat4>& world) {
  EntryPlayer player(pack, skeleton);
  int64_t poses = 0;
  for (int e = 0; e < player.capacity(); ++e) {
    player.play(e);
    const auto whole = rig_clip(pack, e, skeleton);
    const int end = whole ? frames(*whole) : 0;
    for (int f = 0; f <= end; ++f) {
      player.seek(static_cast<float>(f));
      player.pose(local, world);
      ++poses;
    }
  }
  return poses;
}

void BM_ParseValidateSampleEveryEntry(benchmark::State& state) {
  const Files& f = files();
  int64_t poses = 0;
  for (auto _ : state) {
    const Skeleton skeleton = read_skeleton(f.skeleton);
    const AnimPack pack = read_pack(f.pack);
    const auto findings = validate(&skeleton, &pack);
    if (!findings.empty()) state.SkipWithError("the synthetic monster should validate");
    std::vector<JointPose> local(skeleton.bones.size());
    std::vector<Mat4> world(skeleton.bones.size());
    poses = sample_all(pack, skeleton, local, world);
    benchmark::DoNotOptimize(world.data());
  }
  state.counters["poses"] = static_cast<double>(poses);
  state.counters["pose_ns"] =
      benchmark::Counter(static_cast<double>(poses), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}
BENCHMARK(BM_ParseValidateSampleEveryEntry)->Unit(benchmark::kMillisecond);

// Machine reference 1: 2^24 steps of a dependent xorshift (integer ALU latency, no memory).
uint64_t arithmetic_loop() {
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < (1 << 24); ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

void BM_MachineArithmetic(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(arithmetic_loop());
  state.counters["Msteps/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * (1 << 24) / 1e6,
                                                  benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MachineArithmetic)->Unit(benchmark::kMillisecond);

// Machine reference 2: memcpy of 64 MiB (past every cache), bytes copied per second.
constexpr size_t kCopyBytes = size_t{64} << 20;
void BM_MachineMemcpy(benchmark::State& state) {
  std::vector<uint8_t> from(kCopyBytes, 1), to(kCopyBytes, 0);
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), kCopyBytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kCopyBytes));
}
BENCHMARK(BM_MachineMemcpy)->Unit(benchmark::kMillisecond);

// The memcpy bandwidth measured once, just before BM_Parse, in bytes per CPU second.
double memcpy_bytes_per_second() {
  static const double rate = [] {
    std::vector<uint8_t> from(kCopyBytes, 1), to(kCopyBytes, 0);
    double best = 0;
    for (int i = 0; i < 5; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      std::memcpy(to.data(), from.data(), kCopyBytes);
      benchmark::ClobberMemory();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = std::max(best, static_cast<double>(kCopyBytes) / s);
    }
    return best;
  }();
  return rate;
}

void BM_Parse(benchmark::State& state) {
  const Files& f = files();
  const double bytes = static_cast<double>(f.skeleton.size() + f.pack.size());
  const double reference = memcpy_bytes_per_second();
  for (auto _ : state) {
    const Skeleton skeleton = read_skeleton(f.skeleton);
    const AnimPack pack = read_pack(f.pack);
    benchmark::DoNotOptimize(pack.clips.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
  // Parse speed over memcpy speed (kIsRate divides by the run's time): the machine-free figure.
  state.counters["vs_memcpy"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * bytes / reference, benchmark::Counter::kIsRate);
  state.counters["memcpy_GB/s"] = reference / 1e9;
}
BENCHMARK(BM_Parse)->Unit(benchmark::kMicrosecond);

void BM_Validate(benchmark::State& state) {
  const Skeleton skeleton = read_skeleton(files().skeleton);
  const AnimPack pack = read_pack(files().pack);
  for (auto _ : state) benchmark::DoNotOptimize(validate(&skeleton, &pack));
}
BENCHMARK(BM_Validate)->Unit(benchmark::kMicrosecond);

// One pose of all 48 joints (per-update cost: no allocation, cursors step forward).
void BM_PoseOneFrame(benchmark::State& state) {
  const Skeleton skeleton = read_skeleton(files().skeleton);
  const AnimPack pack = read_pack(files().pack);
  EntryPlayer player(pack, skeleton);
  std::vector<JointPose> local(skeleton.bones.size());
  std::vector<Mat4> world(skeleton.bones.size());
  player.play(7);
  for (auto _ : state) {
    player.advance(0.5f);
    player.pose(local, world);
    benchmark::DoNotOptimize(world.data());
  }
}
BENCHMARK(BM_PoseOneFrame);

}  // namespace
}  // namespace animkit::monster_hunter

BENCHMARK_MAIN();
