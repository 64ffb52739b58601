// Times the core jobs on ozz-animation's sample workload so the figures compare side by side:
// 64 joints, a 10 s clip keyed at 30 keys/s with translation, rotation and scale keys on every
// joint. Prints ns per joint (the best of repeated runs) for today's AoS jobs and for the
// runtime clip + SoA SIMD jobs (issue 16), next to ozz's figures measured on this machine, and
// the same jobs on 256 joints; then the exact runtime clip against SamplingJob for the CLI's
// many-frame sampling (issue 16 item 3: the compile is inside the timing). Issue 34: a sweep over
// joint counts 1-2,048 (no cliff at powers of two), a sweep over 1-64 blend layers, and a machine
// reference measured in the same run (a fixed arithmetic loop, memory bandwidth) so the figures
// can be read as ratios on a busy or different machine.
// A bare run: 7 repetitions of 0.05 s, interleaved (main). Short run: --benchmark_repetitions=1.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "animkit/core/blending_job.h"
#include "animkit/core/local_to_model_job.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/soa_jobs.h"
#include "animkit/core/synthetic.h"

namespace animkit {
namespace {

// One workload per joint count (64: ozz's sample; 256: a crowd-sized rig).
struct Workload {
  explicit Workload(int joints)
      : joints(joints),
        a(synthetic_workload(joints, 10, 30)),
        second(a.clips[0]),
        l0(joints), l1(joints), l2(joints), l3(joints), out(joints),
        model(joints),
        upper_mask(joints),
        soa{SoaPose(joints), SoaPose(joints), SoaPose(joints), SoaPose(joints)},
        soa_out(joints),
        soa_rest(joints) {
    // A second clip for the blends, shifted in time.
    for (JointTracks& jt : second.joints) {
      for (float& t : jt.rotation.times) t += 0.01f;
    }
    const std::vector<uint8_t> m = a.skeleton.subtree_mask(1);
    for (int j = 0; j < joints; ++j) upper_mask[j] = m[j];
    runtime.emplace_back(a.clips[0], a.skeleton.rest);
    runtime.emplace_back(second, a.skeleton.rest);
    soa_rest.assign(a.skeleton.rest);
    // The blends read sampled poses (not the rest pose everywhere).
    SamplingCursor c;
    for (std::vector<Transform>* l : {&l0, &l1, &l2, &l3}) {
      SamplingJob{&a.clips[0], 0.37f * static_cast<float>(l - &l0 + 1), &c, a.skeleton.rest, *l, {}}.run();
    }
    soa[0].assign(l0), soa[1].assign(l1), soa[2].assign(l2), soa[3].assign(l3);
  }
  int joints;
  Animated a;
  Clip second;
  std::vector<Transform> l0, l1, l2, l3, out;
  std::vector<Mat4> model;
  std::vector<float> upper_mask;
  std::vector<RuntimeClip> runtime;
  SoaPose soa[4];
  SoaPose soa_out, soa_rest;
};

Workload& W(int joints) {
  static std::map<int, std::unique_ptr<Workload>> w;
  auto& p = w[joints];
  if (!p) p = std::make_unique<Workload>(joints);
  return *p;
}

void SetPerJoint(benchmark::State& state, int joints) {
  state.counters["ns_per_joint"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * joints,  // inverted rate: seconds per joint
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

std::vector<float> random_times() {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> any(0, 10);
  std::vector<float> times(4096);
  for (float& t : times) t = any(rng);
  return times;
}

// ---- the machine reference (issue 34, item 6) ----------------------------------------------------

// 8 independent chains of float multiply-add, 2^16 steps each: the core's arithmetic throughput
// (the compiler may vectorise across chains but not along one). Reported per multiply-add.
void BM_MachineArithmetic(benchmark::State& state) {
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (auto _ : state) {
    for (int i = 0; i < (1 << 16); ++i) {
      for (float& v : x) v = v * 0.9999999f + 1e-7f;
    }
    benchmark::DoNotOptimize(x);
  }
  state.counters["ns_per_op"] = benchmark::Counter(static_cast<double>(state.iterations()) * 8 * (1 << 16),
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Sums a 64 MB buffer (twice the L3 here): main-memory read bandwidth, GB/s.
void BM_MachineBandwidth(benchmark::State& state) {
  static const std::vector<float> buffer(16 << 20, 1.f);
  for (auto _ : state) {
    float sum[8] = {};
    for (size_t i = 0; i < buffer.size(); i += 8) {
      for (int k = 0; k < 8; ++k) sum[k] += buffer[i + k];
    }
    benchmark::DoNotOptimize(sum);
  }
  state.counters["GBps"] = benchmark::Counter(static_cast<double>(state.iterations()) * buffer.size() * 4 / 1e9,
                                              benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MachineArithmetic);
BENCHMARK(BM_MachineBandwidth);

// ---- today's AoS jobs --------------------------------------------------------------------------

void BM_SampleForward(benchmark::State& state) {
  Workload& w = W(state.range(0));
  SamplingCursor cursor;
  float t = 0;
  for (auto _ : state) {
    SamplingJob{&w.a.clips[0], t, &cursor, w.a.skeleton.rest, w.l0, {}}.run();
    benchmark::DoNotOptimize(w.l0.data());
    t += 1.f / 60;
    if (t > 10) t = 0;
  }
  SetPerJoint(state, w.joints);
}

void BM_SampleRandom(benchmark::State& state) {
  Workload& w = W(state.range(0));
  SamplingCursor cursor;
  const std::vector<float> times = random_times();
  size_t i = 0;
  for (auto _ : state) {
    SamplingJob{&w.a.clips[0], times[i++ & 4095], &cursor, w.a.skeleton.rest, w.l0, {}}.run();
    benchmark::DoNotOptimize(w.l0.data());
  }
  SetPerJoint(state, w.joints);
}

void Blend(benchmark::State& state, int layer_count, bool masked) {
  Workload& w = W(state.range(0));
  const BlendingLayer layers[4] = {{w.l0, 0.4f, {}},
                                   {w.l1, 0.6f, masked ? std::span<const float>(w.upper_mask)
                                                       : std::span<const float>()},
                                   {w.l2, 0.3f, {}},
                                   {w.l3, 0.2f, {}}};
  BlendingJob job;
  job.layers = std::span<const BlendingLayer>(layers, layer_count);
  job.rest = w.a.skeleton.rest;
  job.output = w.out;
  for (auto _ : state) {
    job.run();
    benchmark::DoNotOptimize(w.out.data());
  }
  SetPerJoint(state, w.joints);
}
void BM_Blend2(benchmark::State& s) { Blend(s, 2, false); }
void BM_Blend4(benchmark::State& s) { Blend(s, 4, false); }
void BM_Blend2Masked(benchmark::State& s) { Blend(s, 2, true); }

void BM_LocalToModel(benchmark::State& state) {
  Workload& w = W(state.range(0));
  for (auto _ : state) {
    LocalToModelJob{&w.a.skeleton, w.l0, nullptr, w.model}.run();
    benchmark::DoNotOptimize(w.model.data());
  }
  SetPerJoint(state, w.joints);
}

void BM_Pipeline(benchmark::State& state) {
  Workload& w = W(state.range(0));
  SamplingCursor c0, c1;
  const BlendingLayer layers[2] = {{w.l0, 0.5f, {}}, {w.l1, 0.5f, {}}};
  BlendingJob blend;
  blend.layers = layers;
  blend.rest = w.a.skeleton.rest;
  blend.output = w.out;
  float t = 0;
  for (auto _ : state) {
    SamplingJob{&w.a.clips[0], t, &c0, w.a.skeleton.rest, w.l0, {}}.run();
    SamplingJob{&w.second, t, &c1, w.a.skeleton.rest, w.l1, {}}.run();
    blend.run();
    LocalToModelJob{&w.a.skeleton, w.out, nullptr, w.model}.run();
    benchmark::DoNotOptimize(w.model.data());
    t += 1.f / 60;
    if (t > 10) t = 0;
  }
  SetPerJoint(state, w.joints);
}

// ---- the runtime clip and the SoA SIMD jobs ----------------------------------------------------

void BM_SoaSampleForward(benchmark::State& state) {
  Workload& w = W(state.range(0));
  RuntimeCursor cursor;
  float t = 0;
  for (auto _ : state) {
    SoaSamplingJob{&w.runtime[0], t, &cursor, &w.soa[0], {}}.run();
    benchmark::DoNotOptimize(w.soa[0].data.data());
    t += 1.f / 60;
    if (t > 10) t = 0;
  }
  SetPerJoint(state, w.joints);
}

void BM_SoaSampleRandom(benchmark::State& state) {
  Workload& w = W(state.range(0));
  RuntimeCursor cursor;
  const std::vector<float> times = random_times();
  size_t i = 0;
  for (auto _ : state) {
    SoaSamplingJob{&w.runtime[0], times[i++ & 4095], &cursor, &w.soa[0], {}}.run();
    benchmark::DoNotOptimize(w.soa[0].data.data());
  }
  SetPerJoint(state, w.joints);
}

void SoaBlend(benchmark::State& state, int layer_count, bool masked) {
  Workload& w = W(state.range(0));
  const SoaBlendingLayer layers[4] = {{&w.soa[0], 0.4f, {}},
                                      {&w.soa[1], 0.6f, masked ? std::span<const float>(w.upper_mask)
                                                               : std::span<const float>()},
                                      {&w.soa[2], 0.3f, {}},
                                      {&w.soa[3], 0.2f, {}}};
  SoaBlendingJob job;
  job.layers = std::span<const SoaBlendingLayer>(layers, layer_count);
  job.rest = &w.soa_rest;
  job.output = &w.soa_out;
  for (auto _ : state) {
    job.run();
    benchmark::DoNotOptimize(w.soa_out.data.data());
  }
  SetPerJoint(state, w.joints);
}
void BM_SoaBlend2(benchmark::State& s) { SoaBlend(s, 2, false); }
void BM_SoaBlend4(benchmark::State& s) { SoaBlend(s, 4, false); }
void BM_SoaBlend2Masked(benchmark::State& s) { SoaBlend(s, 2, true); }

void BM_SoaLocalToModel(benchmark::State& state) {
  Workload& w = W(state.range(0));
  for (auto _ : state) {
    SoaLocalToModelJob{&w.a.skeleton, &w.soa[0], nullptr, w.model}.run();
    benchmark::DoNotOptimize(w.model.data());
  }
  SetPerJoint(state, w.joints);
}

void BM_SoaPipeline(benchmark::State& state) {
  Workload& w = W(state.range(0));
  RuntimeCursor c0, c1;
  const SoaBlendingLayer layers[2] = {{&w.soa[0], 0.5f, {}}, {&w.soa[1], 0.5f, {}}};
  SoaBlendingJob blend;
  blend.layers = layers;
  blend.rest = &w.soa_rest;
  blend.output = &w.soa_out;
  float t = 0;
  for (auto _ : state) {
    SoaSamplingJob{&w.runtime[0], t, &c0, &w.soa[0], {}}.run();
    SoaSamplingJob{&w.runtime[1], t, &c1, &w.soa[1], {}}.run();
    blend.run();
    SoaLocalToModelJob{&w.a.skeleton, &w.soa_out, nullptr, w.model}.run();
    benchmark::DoNotOptimize(w.model.data());
    t += 1.f / 60;
    if (t > 10) t = 0;
  }
  SetPerJoint(state, w.joints);
}

// Issue 34, item 3: `layers` layers (the four sampled poses over and over) on 64 joints; the
// counter is per joint per layer.
void BM_SoaBlendLayers(benchmark::State& state) {
  Workload& w = W(64);
  const int count = static_cast<int>(state.range(0));
  std::vector<SoaPose> poses;
  std::vector<SoaBlendingLayer> layers;
  poses.reserve(count);
  for (int l = 0; l < count; ++l) poses.push_back(w.soa[l % 4]);
  for (int l = 0; l < count; ++l) layers.push_back({&poses[l], 1.f / count, {}});
  SoaBlendingJob job;
  job.layers = layers;
  job.rest = &w.soa_rest;
  job.output = &w.soa_out;
  for (auto _ : state) {
    job.run();
    benchmark::DoNotOptimize(w.soa_out.data.data());
  }
  SetPerJoint(state, w.joints * count);
}
BENCHMARK(BM_SoaBlendLayers)->DenseRange(1, 4)->Arg(8)->Arg(16)->Arg(17)->Arg(24)->Arg(32)->Arg(33)->Arg(48)->Arg(64);

// Issue 34, item 2: the SoA jobs at joint counts 1-2,048, the powers of two beside their
// neighbours (248 / 256, 520 / 512, 1,016 / 1,024).
const int kSweep[] = {1, 8, 16, 31, 32, 33, 64, 100, 128, 248, 256, 264, 500, 512, 520, 1000, 1016, 1024, 1032, 2040, 2048};
void Sweep(benchmark::internal::Benchmark* b) {
  for (int n : kSweep) {
    if (n != 64 && n != 256) b->Arg(n);  // those two are registered with the table's jobs
  }
}

// ---- issue 16 item 3: the CLI's many-frame sampling, neutral vs the exact runtime clip ----------

void BM_SoaSampleForwardExact(benchmark::State& state) {
  Workload& w = W(state.range(0));
  const RuntimeClip clip(w.a.clips[0], w.a.skeleton.rest, RuntimePrecision::kExact);
  RuntimeCursor cursor;
  float t = 0;
  for (auto _ : state) {
    SoaSamplingJob{&clip, t, &cursor, &w.soa[0], {}}.run();
    benchmark::DoNotOptimize(w.soa[0].data.data());
    t += 1.f / 60;
    if (t > 10) t = 0;
  }
  SetPerJoint(state, w.joints);
}

// What `pose` does per call (minus the JSON): a clip at `frames` times 1/60 s apart, each into
// model space (LocalToModelJob, as the verb). Arg 0: the clip (0: the 64-joint workload, 1: the
// arm's "bend", nlerp + one Hermite track; 2: the arm's "wave", slerp); arg 1: frames; arg 2:
// 0 SamplingJob, 1 the exact runtime clip, compiled inside the timing.
void BM_Frames(benchmark::State& state) {
  static const Animated arm = synthetic_arm();
  const Animated& a = state.range(0) == 0 ? W(64).a : arm;
  const Clip& clip = a.clips[state.range(0) == 2 ? 0 : std::min<int64_t>(state.range(0), 1)];
  const int frames = static_cast<int>(state.range(1));
  const size_t n = a.skeleton.num_joints();
  std::vector<Transform> locals(n);
  std::vector<Mat4> model(n);
  SoaPose soa(n);
  for (auto _ : state) {
    if (state.range(2) == 0) {
      SamplingCursor cursor;
      for (int f = 0; f < frames; ++f) {
        SamplingJob{&clip, f / 60.f, &cursor, a.skeleton.rest, locals, {}}.run();
        LocalToModelJob{&a.skeleton, locals, nullptr, model}.run();
      }
    } else {
      const RuntimeClip runtime(clip, a.skeleton.rest, RuntimePrecision::kExact);
      RuntimeCursor cursor;
      for (int f = 0; f < frames; ++f) {
        SoaSamplingJob{&runtime, f / 60.f, &cursor, &soa, {}}.run();
        soa.copy_to(locals);
        LocalToModelJob{&a.skeleton, locals, nullptr, model}.run();
      }
    }
    benchmark::DoNotOptimize(model.data());
  }
  SetPerJoint(state, static_cast<int>(n) * frames);
}
BENCHMARK(BM_SoaSampleForwardExact)->Arg(64)->Arg(256);
BENCHMARK(BM_Frames)->ArgsProduct({{0, 1, 2}, {1, 4, 8, 16, 60, 600}, {0, 1}});

#define ANIMKIT_BENCH_JOB(aos, soa)   \
  BENCHMARK(aos)->Arg(64)->Arg(256); \
  BENCHMARK(soa)->Arg(64)->Arg(256)
ANIMKIT_BENCH_JOB(BM_SampleForward, BM_SoaSampleForward);
ANIMKIT_BENCH_JOB(BM_SampleRandom, BM_SoaSampleRandom);
ANIMKIT_BENCH_JOB(BM_Blend2, BM_SoaBlend2);
ANIMKIT_BENCH_JOB(BM_Blend4, BM_SoaBlend4);
ANIMKIT_BENCH_JOB(BM_Blend2Masked, BM_SoaBlend2Masked);
ANIMKIT_BENCH_JOB(BM_LocalToModel, BM_SoaLocalToModel);
ANIMKIT_BENCH_JOB(BM_Pipeline, BM_SoaPipeline);
BENCHMARK(BM_SoaSampleForward)->Apply(Sweep);
BENCHMARK(BM_SoaSampleRandom)->Apply(Sweep);
BENCHMARK(BM_SoaBlend2)->Apply(Sweep);
BENCHMARK(BM_SoaBlend4)->Apply(Sweep);
BENCHMARK(BM_SoaLocalToModel)->Apply(Sweep);
BENCHMARK(BM_SoaPipeline)->Apply(Sweep);

// Collects each benchmark's best repetition for the closing tables: the least ns per joint (the
// most GB/s). This machine is shared with parallel builds; the run least disturbed by them is
// the steadiest figure of the job itself (medians moved by 30 % between runs under that load).
class TableReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration) continue;
      const std::string key = r.run_name.function_name + "/" + r.run_name.args;
      for (const auto& [name, counter] : r.counters) {
        const double v = name == "GBps" ? -counter.value : counter.value * 1e9;  // ns, or -GB/s
        auto [it, fresh] = results_.emplace(key, v);
        if (!fresh) it->second = std::min(it->second, v);
      }
    }
  }
  double get(const std::string& fn, int joints) const {
    auto it = results_.find(fn + "/" + std::to_string(joints));
    return it == results_.end() ? NAN : it->second;
  }
  double get(const std::string& key) const {
    auto it = results_.find(key);
    return it == results_.end() ? NAN : it->second;
  }
  // ozz-animation 0.16 (-O3, SSE2) on the same 64-joint workload, median ns per joint, measured
  // side by side on this machine (issue 16): the reference column.
  void PrintTable() const {
    const double op = get("BM_MachineArithmetic/");
    std::printf("\nmachine reference (this run): %.4f ns per float multiply-add (8 chains), %.2f GB/s "
                "read from memory; 'ref' columns are ns per joint / ns per multiply-add\n",
                op, -get("BM_MachineBandwidth/"));
    std::printf("\njoint sweep (SoA jobs, ns per joint, best of the repetitions)\n%-8s", "joints");
    const char* sweep_jobs[] = {"BM_SoaSampleForward", "BM_SoaSampleRandom", "BM_SoaBlend2", "BM_SoaBlend4",
                                "BM_SoaLocalToModel", "BM_SoaPipeline"};
    const char* sweep_names[] = {"forward", "random", "blend2", "blend4", "l2m", "pipeline"};
    for (const char* name : sweep_names) std::printf(" %9s", name);
    std::printf(" %9s\n", "pipe ref");
    for (int n : kSweep) {
      std::printf("%-8d", n);
      for (const char* job : sweep_jobs) std::printf(" %9.2f", get(job, n));
      std::printf(" %9.1f\n", get("BM_SoaPipeline", n) / op);
    }
    std::printf("power of two / neighbour (issue 34: within 1.10)\n");
    for (auto [pow2, near] : {std::pair{256, 248}, std::pair{512, 520}, std::pair{1024, 1016}}) {
      std::printf("%4d/%-4d", pow2, near);
      for (const char* job : sweep_jobs) std::printf(" %9.3f", get(job, pow2) / get(job, near));
      std::printf("\n");
    }
    std::printf("\nblend layers (64 joints): ns per joint per layer, and / the cost at 16 (issue 34: within 1.20)\n");
    for (int l : {1, 2, 3, 4, 8, 16, 17, 24, 32, 33, 48, 64}) {
      const double v = get("BM_SoaBlendLayers/" + std::to_string(l));
      std::printf("%8d %8.3f %8.3f\n", l, v, v / get("BM_SoaBlendLayers/16"));
    }
    struct Row {
      const char* aos;
      const char* soa;
      const char* name;
      double ozz;
    };
    const Row rows[] = {{"BM_SampleForward", "BM_SoaSampleForward", "sample forward (dt 1/60)", 15.76},
                        {"BM_SampleRandom", "BM_SoaSampleRandom", "sample at random times", 634.5},
                        {"BM_Blend2", "BM_SoaBlend2", "blend 2 layers", 2.49},
                        {"BM_Blend4", "BM_SoaBlend4", "blend 4 layers", 4.79},
                        {"BM_Blend2Masked", "BM_SoaBlend2Masked", "blend 2, subtree mask", 3.87},
                        {"BM_LocalToModel", "BM_SoaLocalToModel", "local-to-model", 6.57},
                        {"BM_Pipeline", "BM_SoaPipeline", "2 samples + blend + l2m", 40.90}};
    std::printf("\nns per joint (best of the repetitions); SoA = runtime clip + SIMD jobs on %s\n", soa_simd_target());
    std::printf("%-26s %8s %8s %8s %8s %8s | %8s %8s | %8s %8s\n", "job", "AoS 64", "SoA 64", "ozz 64",
                "AoS/ozz", "SoA/ozz", "AoS 256", "SoA 256", "SoA ref64", "ref256");
    for (const Row& r : rows) {
      const double a = get(r.aos, 64), s = get(r.soa, 64);
      std::printf("%-26s %8.2f %8.2f %8.2f %8.2f %8.2f | %8.2f %8.2f | %8.1f %8.1f\n", r.name, a, s, r.ozz,
                  a / r.ozz, s / r.ozz, get(r.aos, 256), get(r.soa, 256), s / op, get(r.soa, 256) / op);
    }
    std::printf("\nexact runtime clip (RuntimePrecision::kExact, bit-identical to SamplingJob), 64 joints: "
                "sample forward %.2f ns/joint (compact %.2f, SamplingJob %.2f)\n",
                get("BM_SoaSampleForwardExact", 64), get("BM_SoaSampleForward", 64),
                get("BM_SampleForward", 64));
    std::printf("frames (pose's work: sample + local-to-model per time, the runtime clip compiled "
                "inside the timing), ns per joint per frame\n");
    std::printf("%-34s %8s %8s %8s %8s %8s %8s\n", "clip / frames", "1", "4", "8", "16", "60", "600");
    const char* clips[] = {"64-joint workload (nlerp)", "arm 'bend' (nlerp + Hermite)", "arm 'wave' (slerp)"};
    for (int c = 0; c < 3; ++c) {
      for (int path = 0; path < 2; ++path) {
        std::printf("%-34s", (std::string(clips[c]) + (path ? " runtime" : " neutral")).c_str());
        for (int f : {1, 4, 8, 16, 60, 600}) {
          std::printf(" %8.2f", frames(c, f, path));
        }
        std::printf("\n");
      }
      std::printf("%-34s", "  runtime / neutral");
      for (int f : {1, 4, 8, 16, 60, 600}) std::printf(" %8.2f", frames(c, f, 1) / frames(c, f, 0));
      std::printf("\n");
    }
  }
  double frames(int clip, int count, int path) const {
    auto it = results_.find("BM_Frames/" + std::to_string(clip) + "/" + std::to_string(count) + "/" +
                            std::to_string(path));
    return it == results_.end() ? NAN : it->second;
  }

 private:
  std::map<std::string, double> results_;
};

}  // namespace
}  // namespace animkit

// A bare run repeats every benchmark 7 times for 0.05 s each, interleaved at random, so a burst
// of load hits one repetition of a job, not all of them, and the tables' best-of-7 (the sweep's
// power-of-two ratios above all) do not depend on when the burst came. Any --benchmark_* flag
// the caller gives replaces these defaults.
int main(int argc, char** argv) {
  std::vector<char*> args(argv, argv + argc);
  const bool tuned = std::any_of(args.begin() + 1, args.end(), [](const char* a) {
    const std::string s = a;
    return s.starts_with("--benchmark_repetitions") || s.starts_with("--benchmark_min_time") ||
           s.starts_with("--benchmark_enable_random_interleaving");
  });
  char reps[] = "--benchmark_repetitions=7", min_time[] = "--benchmark_min_time=0.05",
       interleave[] = "--benchmark_enable_random_interleaving=true";
  if (!tuned) args.insert(args.begin() + 1, {reps, min_time, interleave});
  argc = static_cast<int>(args.size());
  args.push_back(nullptr);
  argv = args.data();
  benchmark::Initialize(&argc, argv);
  animkit::TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintTable();
  benchmark::Shutdown();
  return 0;
}
