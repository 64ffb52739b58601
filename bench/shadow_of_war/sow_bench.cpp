// Characters evaluated per 16.7 ms frame (issue 15, item 7). The crowd is the demo's scene
// (`crowd_scenario`): a 34-joint skeleton, the base tracker plus one to three state trackers on a
// five-state locomotion graph, each character running and stopping on its own schedule, so
// cross-fades (three trackers: SAMPLE, BLEND, BLEND) and the upper-body fidget layer come and go.
// One frame = `Crowd::frame`: behaviour, advance and submit on the main thread (each job queued as
// it is submitted), the pose jobs on W worker threads with the main thread helping; W + 1 threads.
//
//   BM_CrowdFrame/workers/characters   wall time per frame; counters: characters per 16.7 ms and
//                                      process CPU ns per character-frame (all threads)
//   BM_Scaling/characters              the 1-, 2- and 3-thread crowds stepped in turn in one run,
//                                      so machine load hits them alike: speed-up vs 1 thread
//   BM_MachineReference                pure arithmetic on 1 vs 2 std::threads, same moment: the
//                                      2-thread speed-up the machine's load leaves to anyone
#include <benchmark/benchmark.h>
#include <time.h>

#include <chrono>
#include <thread>

#include "animkit/shadow_of_war/demo.h"
#include "animkit/shadow_of_war/scenario.h"

namespace animkit::shadow_of_war {
namespace {

constexpr float kDt = 1.f / 60;

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// A crowd of `count` characters on `workers` worker threads, and its speed schedule: character
// i runs from frame 13 i mod 150 for 75 frames of every 150.
struct CrowdRun {
  Scene scene;
  int frame = 0;
  CrowdRun(int workers, int count) : scene(scene_from_json(crowd_scenario(count, 0), ".", workers)) {
    for (int f = 0; f < 60; ++f) step();  // warm: cross-fades under way, scratch sized
  }
  void step() {
    auto& cs = scene.crowd->characters();
    for (size_t i = 0; i < cs.size(); ++i) {
      const int phase = static_cast<int>((frame + 13 * i) % 150);
      if (phase == 0) cs[i]->set_value("speed", 3);
      if (phase == 75) cs[i]->set_value("speed", 0);
    }
    scene.crowd->frame(kDt);
    ++frame;
  }
};

void BM_CrowdFrame(benchmark::State& state) {
  const int workers = static_cast<int>(state.range(0));
  const int count = static_cast<int>(state.range(1));
  CrowdRun run(workers, count);
  const double cpu0 = process_cpu_seconds();
  for (auto _ : state) run.step();
  const double cpu = process_cpu_seconds() - cpu0;
  const double frames = static_cast<double>(state.iterations());
  state.SetItemsProcessed(state.iterations() * count);
  state.counters["threads"] = workers + 1;
  state.counters["characters_per_16.7ms"] = benchmark::Counter(
      static_cast<double>(count) * 0.0167, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["cpu_ns_per_character_frame"] = 1e9 * cpu / (frames * count);
}
BENCHMARK(BM_CrowdFrame)
    ->ArgNames({"workers", "characters"})
    ->ArgsProduct({{0, 1, 2, 3}, {256, 2048, 20480}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// 1, 2 and 3 threads (0, 1, 2 workers) in one run: each iteration steps each crowd one frame,
// rotating which goes first; the speed-up is the ratio of the summed frame times.
void BM_Scaling(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  CrowdRun runs[] = {{0, count}, {1, count}, {2, count}};
  double seconds[3] = {};
  int turn = 0;
  for (auto _ : state) {
    for (int k = 0; k < 3; ++k) {
      const int r = (turn + k) % 3;
      const auto t0 = std::chrono::steady_clock::now();
      runs[r].step();
      seconds[r] += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    ++turn;
  }
  const double frames = static_cast<double>(state.iterations());
  state.counters["us_1_thread"] = 1e6 * seconds[0] / frames;
  state.counters["us_2_threads"] = 1e6 * seconds[1] / frames;
  state.counters["us_3_threads"] = 1e6 * seconds[2] / frames;
  state.counters["speedup_2_threads"] = seconds[0] / seconds[1];
  state.counters["speedup_3_threads"] = seconds[0] / seconds[2];
  state.counters["characters_per_16.7ms_2_threads"] = count * 0.0167 * frames / seconds[1];
}
BENCHMARK(BM_Scaling)
    ->ArgName("characters")
    ->Arg(256)
    ->Arg(2048)
    ->Arg(20480)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

double arithmetic(long steps) {
  double x = 1;
  for (long i = 0; i < steps; ++i) x = x * 1.0000001 + 1e-9;
  return x;
}

void BM_MachineReference(benchmark::State& state) {
  constexpr long kSteps = 20'000'000;
  double one = 0, two = 0, sink = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    sink += arithmetic(kSteps);
    const auto t1 = std::chrono::steady_clock::now();
    double half = 0;
    std::thread helper([&] { half = arithmetic(kSteps / 2); });
    sink += arithmetic(kSteps / 2);
    helper.join();
    sink += half;
    const auto t2 = std::chrono::steady_clock::now();
    one += std::chrono::duration<double>(t1 - t0).count();
    two += std::chrono::duration<double>(t2 - t1).count();
  }
  benchmark::DoNotOptimize(sink);
  state.counters["machine_speedup_2_threads"] = one / two;
}
BENCHMARK(BM_MachineReference)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace animkit::shadow_of_war

BENCHMARK_MAIN();
