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
//   BM_CrowdBesideReferences/characters  in each iteration the fixed arithmetic (one chain, and
//                                      32 independent chains: ref_wide_speedup_2t) and a 64 MB
//                                      read on 1 and 2 threads, then a crowd frame on 1 and 2 threads:
//                                      the crowd in characters per 16.7 ms beside the references
//                                      and per reference unit, and the bytes of its own memory
//                                      a character-frame reads and writes (issue 29); the
//                                      speed-ups are medians of the iterations' own ratios
//                                      (`*_of_totals`: the ratios of the summed times)
#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

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

// --- The crowd beside its references, in one run (issue 29, item 4) ---

constexpr long kReferenceSteps = 4'000'000;             // fixed arithmetic per thread
constexpr size_t kBandwidthBytes = size_t{64} << 20;    // twice this VM's 32 MB L3

// Seconds for `threads` threads each running the fixed arithmetic at once.
double arithmetic_seconds(int threads, double& sink) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<double> out(threads);
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back([&, t] { out[t] = arithmetic(kReferenceSteps); });
  out[0] = arithmetic(kReferenceSteps);
  for (auto& h : helpers) h.join();
  for (double x : out) sink += x;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The same fixed work as independent chains (32 at once): bound by the core's floating-point
// throughput rather than by one chain's latency, so its 2-thread speed-up falls when the two
// threads share a core's execution units (two vCPUs on one physical core), which the chained
// reference cannot see.
double wide_arithmetic(long steps) {
  constexpr int kChains = 32;
  double x[kChains];
  for (int c = 0; c < kChains; ++c) x[c] = 1 + c * 1e-3;
  for (long i = 0; i < steps / kChains; ++i)
    for (int c = 0; c < kChains; ++c) x[c] = x[c] * 1.0000001 + 1e-9;
  double sum = 0;
  for (double v : x) sum += v;
  return sum;
}

double wide_seconds(int threads, double& sink) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<double> out(threads);
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t)
    helpers.emplace_back([&, t] { out[t] = wide_arithmetic(4 * kReferenceSteps); });
  out[0] = wide_arithmetic(4 * kReferenceSteps);
  for (auto& h : helpers) h.join();
  for (double x : out) sink += x;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Seconds for `threads` threads to read their share of `buffer` (summing it) at once.
double read_seconds(const std::vector<uint64_t>& buffer, int threads, uint64_t& sink) {
  const size_t share = buffer.size() / threads;
  std::vector<uint64_t> sums(threads);
  auto read = [&](int t) {
    uint64_t s = 0;
    for (size_t i = t * share; i < (t + 1) * share; ++i) s += buffer[i];
    sums[t] = s;
  };
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(read, t);
  read(0);
  for (auto& h : helpers) h.join();
  for (uint64_t x : sums) sink += x;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// What one character-frame reads and writes of the character's own memory (the clips and the
// graph are shared; the per-thread scratch stays in cache), averaged over the crowd as it stands:
// the Character object's hot part (its ModelAnimation inside it), its values and the graph's side
// of its trackers (`Character::frame_bytes`), the trackers (their key cursors inside), blend
// entries, operations and the output pose. A lower bound on the traffic (whole cache lines
// move), comparable from run to run since the crowd's schedule is fixed.
double streamed_bytes(const Scene& scene) {
  const auto& cs = scene.crowd->characters();
  double bytes = 0;
  for (const auto& c : cs) {
    const ModelAnimation& m = c->model();
    bytes += static_cast<double>(c->frame_bytes());
    bytes += static_cast<double>(m.trackers.size() * sizeof(Tracker) +
                                 m.blend_entries.size() * sizeof(BlendEntry) +
                                 m.operations.size() * sizeof(Operation) +
                                 m.output.bytes());
  }
  return cs.empty() ? 0 : bytes / static_cast<double>(cs.size());
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2) return *mid;
  return (*mid + *std::max_element(v.begin(), mid)) / 2;
}

// Each iteration runs, back to back so the machine's load hits them alike: the fixed arithmetic
// on 1 and 2 threads (one chain, then 32 independent chains: the wide one's speed-up also shows
// two threads sharing one core's units), a 64 MB read on 1 and 2 threads, and one frame of the crowd on 1 thread
// (0 workers) and on 2 (1 worker). Counters: the references (arithmetic steps per second and
// the 2-thread speed-up, read bandwidth in GB/s), the crowd as characters per 16.7 ms on 1 and 2
// threads, and the crowd per reference unit: characters per 16.7 ms for each 10^9 arithmetic
// steps per second, and for each GB/s of read bandwidth, on the same thread count — figures a
// busy machine moves much less than the raw ones.
void BM_CrowdBesideReferences(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  CrowdRun runs[] = {{0, count}, {1, count}};
  std::vector<uint64_t> buffer(kBandwidthBytes / sizeof(uint64_t));
  for (size_t i = 0; i < buffer.size(); ++i) buffer[i] = i * 2654435761u;
  double arith[2] = {}, wide[2] = {}, read[2] = {}, crowd[2] = {}, sink = 0;
  uint64_t sum = 0;
  // Each iteration's 2-thread speed-ups: its two crowd frames are the same frame of the schedule
  // (the same work), run back to back.
  std::vector<double> ref_ratio, wide_ratio, crowd_ratio;
  for (auto _ : state) {
    double a[2], w[2], c[2];
    for (int t = 0; t < 2; ++t) arith[t] += a[t] = arithmetic_seconds(t + 1, sink);
    for (int t = 0; t < 2; ++t) wide[t] += w[t] = wide_seconds(t + 1, sink);
    for (int t = 0; t < 2; ++t) read[t] += read_seconds(buffer, t + 1, sum);
    for (int t = 0; t < 2; ++t) {
      const auto t0 = std::chrono::steady_clock::now();
      runs[t].step();
      crowd[t] += c[t] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    ref_ratio.push_back(2 * a[0] / a[1]);
    wide_ratio.push_back(2 * w[0] / w[1]);
    crowd_ratio.push_back(c[0] / c[1]);
  }
  benchmark::DoNotOptimize(sink);
  benchmark::DoNotOptimize(sum);
  const double n = static_cast<double>(state.iterations());
  for (int t = 0; t < 2; ++t) {
    const std::string th = t == 0 ? "_1t" : "_2t";
    const double steps_per_s = (t + 1) * kReferenceSteps * n / arith[t];
    const double gb_per_s = static_cast<double>(kBandwidthBytes) * n / read[t] / 1e9;
    const double characters = count * 0.0167 * n / crowd[t];  // per 16.7 ms
    state.counters["ref_Gsteps_per_s" + th] = steps_per_s / 1e9;
    state.counters["ref_read_GB_per_s" + th] = gb_per_s;
    state.counters["characters_per_16.7ms" + th] = characters;
    state.counters["characters_per_Gstep_s" + th] = characters / (steps_per_s / 1e9);
    state.counters["characters_per_GB_s" + th] = characters / gb_per_s;
  }
  // The speed-ups are medians over the iterations: a frame the OS held up for tens of ms (seen:
  // 45 ms against 10 ms) moves a ratio of totals by several per cent, either way, and the
  // median not at all. The ratios of the totals are printed beside them.
  state.counters["ref_speedup_2t"] = median(ref_ratio);
  state.counters["ref_wide_speedup_2t"] = median(wide_ratio);
  state.counters["crowd_speedup_2t"] = median(crowd_ratio);
  state.counters["crowd_speedup_2t_of_totals"] = crowd[0] / crowd[1];
  state.counters["ref_speedup_2t_of_totals"] = 2 * arith[0] / arith[1];
  state.counters["streamed_bytes_per_character_frame"] = streamed_bytes(runs[1].scene);
}
BENCHMARK(BM_CrowdBesideReferences)
    ->ArgName("characters")
    ->Arg(2048)
    ->Arg(20480)
    ->UseRealTime()
    ->MinTime(2.0)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace animkit::shadow_of_war

BENCHMARK_MAIN();
