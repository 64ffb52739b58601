// Characters evaluated per 16.7 ms frame (issue 7): a crowd of characters with a 34-joint
// skeleton and three trackers each (a base clip, a full-body clip, an upper-body layer at half
// weight: SAMPLE, BLEND, BLEND), one frame = behaviour + advance + submit on the main thread and
// the pose jobs on 0 / 1 / 2 / 3 worker threads with the main thread helping.
#include <benchmark/benchmark.h>

#include "animkit/shadow_of_war/character.h"
#include "animkit/shadow_of_war/scenario.h"

namespace animkit::shadow_of_war {
namespace {

constexpr int kJoints = 34;

struct World {
  Skeleton skeleton = synthetic_skeleton(kJoints);
  std::shared_ptr<AnimObject> file = std::make_shared<AnimObject>();
  ClipTable table{"orc", {"orc/loco.anix"}};
  std::shared_ptr<BlendGraph> graph;
  std::vector<float> upper;
  DeathSettings global;

  World() {
    file->path = "orc/loco.anix";
    file->clips.push_back(synthetic_clip("base", skeleton, 2.f, true, 0.1f, 1));
    file->clips.push_back(synthetic_clip("run", skeleton, 0.8f, true, 0.5f, 2));
    file->clips.push_back(synthetic_clip("swing", skeleton, 1.2f, true, 0.4f, 1));
    table.attach(file);
    graph = std::make_shared<BlendGraph>(blend_graph_from_json(Json::parse(
        R"({"states": [{"name": "Run", "clip": "run", "Links": [{"target": "Run", "predicate": {"value": "never", "op": ">", "than": 0}}]}]})")));
    const std::vector<uint8_t> sub = skeleton.subtree_mask(9);
    upper.assign(sub.begin(), sub.end());
  }
};

void BM_CrowdFrame(benchmark::State& state) {
  static World world;
  const int workers = static_cast<int>(state.range(0));
  const int count = static_cast<int>(state.range(1));
  Crowd crowd(workers);
  for (int i = 0; i < count; ++i) {
    auto c =
        std::make_unique<Character>("orc", world.graph, &world.table, world.skeleton, world.global);
    ModelAnimation& m = c->model();
    m.trackers[0].clip = world.table.find("base");  // tracker 0: the clip base
    m.trackers[0].flags = kTrackerAdvance | kTrackerLoop;
    m.trackers[0].rate = 1;
    m.trackers[1].time = 0.01f * i;
    Tracker layer;
    layer.clip = world.table.find("swing");
    layer.weight = 0.5f;
    layer.weight_set = world.upper;
    layer.rate = 0;  // written from outside
    m.add_tracker(layer);
    std::swap(m.trackers[1], m.trackers[2]);  // the state's tracker stays last
    std::swap(m.cursors[1], m.cursors[2]);
    crowd.characters().push_back(std::move(c));
  }
  crowd.frame(1.f / 60);
  for (auto _ : state) crowd.frame(1.f / 60);
  const double per_character = 1.0 / count;  // frames -> character evaluations
  state.SetItemsProcessed(state.iterations() * count);
  state.counters["characters_per_16.7ms"] = benchmark::Counter(
      static_cast<double>(count) * 0.0167, benchmark::Counter::kIsIterationInvariantRate);
  (void)per_character;
}
BENCHMARK(BM_CrowdFrame)
    ->ArgNames({"workers", "characters"})
    ->Args({0, 256})
    ->Args({1, 256})
    ->Args({2, 256})
    ->Args({3, 256})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace animkit::shadow_of_war

BENCHMARK_MAIN();
