// The figure: parse + validate + sample every entry of a 48-bone, 123-entry synthetic
// monster (Tigrex-shaped: parts of 31, 9 and 5 joints, 3 severed-tail bones, params [0, 45]),
// and the pieces on their own.
#include <benchmark/benchmark.h>

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

void BM_Parse(benchmark::State& state) {
  const Files& f = files();
  for (auto _ : state) {
    const Skeleton skeleton = read_skeleton(f.skeleton);
    const AnimPack pack = read_pack(f.pack);
    benchmark::DoNotOptimize(pack.clips.data());
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(f.skeleton.size() + f.pack.size()));
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
