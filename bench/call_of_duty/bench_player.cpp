// One update of the tree player (issue 26, target under 20 us): a tree of 201 nodes (the root, 10
// groups of 19 leaves) with 40 weighted leaves (4 per group, every group weighted, so the top
// blends 10 sub-blends of 4 leaves) whose xanims have 48 parts, full dense rotations and dense
// translations over 61 looped frames, delta motion and 3 notes; dt 1/60 s.
//
//   BM_MachineReference   a fixed float workload (48 x 40 lerped quaternions, summed), the speed
//                         of this machine at this moment
//   BM_TreeUpdate         one update; counters: update_cpu_us and reference_cpu_us (thread CPU
//                         time, both measured in this run) and x_reference, their ratio
#include <benchmark/benchmark.h>

#include <time.h>

#include <memory>
#include <string>

#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/tree_player.h"

namespace {

using namespace animkit::call_of_duty;
using animkit::Vec3;

constexpr int kGroups = 10, kLeavesPerGroup = 19, kActivePerGroup = 4, kParts = 48;

std::shared_ptr<const XAnimFile> clip(int seed) {
  XAnimFile f;
  f.name = "clip" + std::to_string(seed);
  f.header.num_frames = 60;  // looped: T = 61
  f.header.flags = XAnimHeader::kLooped | XAnimHeader::kDelta;
  f.header.frame_rate = 30;
  f.has_delta = true;
  const uint32_t t = f.header.total_frames();
  auto dense_rotation = [&](bool two, int phase) {
    XAnimRotationStream r;
    r.two_component = two;
    r.key_count = static_cast<uint16_t>(t);
    for (uint32_t k = 0; k < t; ++k) {
      const auto v = static_cast<int16_t>(((k * 97 + phase * 31) % 2000) - 1000);
      r.keys.push_back({two ? int16_t{0} : v, two ? int16_t{0} : static_cast<int16_t>(v / 2), v,
                        rebuild_w(two ? 0 : v, two ? 0 : static_cast<int16_t>(v / 2), v)});
    }
    return r;
  };
  auto dense_translation = [&](int phase) {
    XAnimTranslationStream s;
    s.key_count = static_cast<uint16_t>(t);
    for (uint32_t k = 0; k < t; ++k) s.values.push_back({float(k), float(phase), 0.5f * k});
    return s;
  };
  f.delta_rotation = dense_rotation(true, seed);
  f.delta_translation = dense_translation(seed);
  for (int p = 0; p < kParts; ++p) {
    XAnimPart part;
    part.name = "j_" + std::to_string(p);
    part.rotation = dense_rotation(false, p + seed);
    part.translation = dense_translation(p);
    f.parts.push_back(std::move(part));
  }
  for (uint16_t frame : {10, 30, 50}) {
    XAnimNote n;
    n.name = "note";
    n.frame = frame;
    f.notes.push_back(n);
  }
  return std::make_shared<XAnimFile>(std::move(f));
}

std::unique_ptr<TreePlayer> bench_player() {
  std::string text;
  for (int g = 0; g < kGroups; ++g) {
    text += "group" + std::to_string(g) + "\n{\n";
    for (int l = 0; l < kLeavesPerGroup; ++l) {
      text += "    leaf" + std::to_string(g) + "_" + std::to_string(l) + "\n";
    }
    text += "}\n";
  }
  LoadOptions o;
  o.tree_name = "bench";
  o.anim_check = true;
  LoadResult r = load_anim_tree(text, o);
  std::vector<std::shared_ptr<const XAnimFile>> clips;
  for (int i = 0; i < 4; ++i) clips.push_back(clip(i));
  std::vector<PlayLeafAnim> anims(r.anim->entries.size());
  for (size_t i = 0; i < anims.size(); ++i) {
    if (!r.anim->entries[i].leaf) continue;
    anims[i].file = clips[i % clips.size()];
    anims[i].looped = true;
  }
  auto player = std::make_unique<TreePlayer>(*r.anim, std::move(anims));
  for (size_t i = 0; i < r.anim->entries.size(); ++i) {
    const XAnimEntry& e = r.anim->entries[i];
    if (e.parent == 0) {
      player->set_weight(static_cast<int32_t>(i), 0.1f + 0.01f * static_cast<float>(i), 0);
      for (int c = 0; c < kActivePerGroup; ++c) {
        player->set_weight(e.first_child + c, 0.25f + 0.1f * static_cast<float>(c), 0.5f);
        player->set_rate(e.first_child + c, 0.8f + 0.1f * static_cast<float>(c));
      }
    }
  }
  return player;
}

// The machine reference: 48 x 40 quaternion lerps summed, in float.
float reference_work(float frac) {
  float sum[4] = {0, 0, 0, 0};
  for (int leaf = 0; leaf < 40; ++leaf) {
    for (int p = 0; p < kParts; ++p) {
      const float a = static_cast<float>(p * 7 + leaf), b = static_cast<float>(p * 3 - leaf);
      for (float& s : sum) s += (a + (b - a) * frac) * 3.05e-5f;
    }
  }
  return sum[0] + sum[1] + sum[2] + sum[3];
}

// CPU seconds of this thread: on a shared machine the wall clock counts other processes' turns.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double reference_seconds() {
  constexpr int kReps = 2000;
  float sink = 0;
  const double t0 = cpu_seconds();
  for (int i = 0; i < kReps; ++i) {
    sink += reference_work(static_cast<float>(i) * 1e-4f);
    benchmark::ClobberMemory();
  }
  const double t1 = cpu_seconds();
  benchmark::DoNotOptimize(sink);
  return (t1 - t0) / kReps;
}

void BM_MachineReference(benchmark::State& state) {
  float x = 0;
  for (auto _ : state) {
    x += reference_work(x * 1e-9f);
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_MachineReference)->Unit(benchmark::kMicrosecond);

void BM_TreeUpdate(benchmark::State& state) {
  auto player = bench_player();
  for (int i = 0; i < 40; ++i) player->update(1.0f / 60);  // weights settled
  const double before = reference_seconds();
  const double t0 = cpu_seconds();
  for (auto _ : state) {
    player->update(1.0f / 60);
    benchmark::DoNotOptimize(player->pose().data());
  }
  const double t1 = cpu_seconds();
  const double reference = (before + reference_seconds()) / 2;
  const double per_update = (t1 - t0) / static_cast<double>(state.iterations());
  state.counters["update_cpu_us"] = per_update * 1e6;
  state.counters["reference_cpu_us"] = reference * 1e6;
  state.counters["x_reference"] = per_update / reference;
  state.counters["parts"] = static_cast<double>(player->part_names().size());
}
BENCHMARK(BM_TreeUpdate)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
