// Times the core jobs on ozz-animation's sample workload so the figures compare side by side:
// 64 joints, a 10 s clip keyed at 30 keys/s with translation, rotation and scale keys on every
// joint. Prints ns per joint (the median of repeated runs) next to ozz's figures measured on this
// machine (issue 2).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <random>
#include <string>

#include "animkit/core/blending_job.h"
#include "animkit/core/local_to_model_job.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/synthetic.h"

namespace animkit {
namespace {

constexpr int kJoints = 64;

struct Workload {
  Animated a = synthetic_workload(kJoints, 10, 30);
  Clip second = a.clips[0];  // a second clip for the blends, shifted in time
  std::vector<Transform> l0 = std::vector<Transform>(kJoints), l1 = l0, l2 = l0, l3 = l0, out = l0;
  std::vector<Mat4> model = std::vector<Mat4>(kJoints);
  std::vector<float> upper_mask = std::vector<float>(kJoints);
  Workload() {
    for (JointTracks& jt : second.joints) {
      for (float& t : jt.rotation.times) t += 0.01f;
    }
    const std::vector<uint8_t> m = a.skeleton.subtree_mask(1);
    for (int j = 0; j < kJoints; ++j) upper_mask[j] = m[j];
  }
};

Workload& W() {
  static Workload w;
  return w;
}

void SetPerJoint(benchmark::State& state) {
  state.counters["ns_per_joint"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * kJoints,  // inverted rate: seconds per joint
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_SampleForward(benchmark::State& state) {
  Workload& w = W();
  SamplingCursor cursor;
  float t = 0;
  for (auto _ : state) {
    SamplingJob{&w.a.clips[0], t, &cursor, w.a.skeleton.rest, w.l0, {}}.run();
    benchmark::DoNotOptimize(w.l0.data());
    t += 1.f / 60;
    if (t > 10) t = 0;
  }
  SetPerJoint(state);
}

void BM_SampleRandom(benchmark::State& state) {
  Workload& w = W();
  SamplingCursor cursor;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> any(0, 10);
  std::vector<float> times(4096);
  for (float& t : times) t = any(rng);
  size_t i = 0;
  for (auto _ : state) {
    SamplingJob{&w.a.clips[0], times[i++ & 4095], &cursor, w.a.skeleton.rest, w.l0, {}}.run();
    benchmark::DoNotOptimize(w.l0.data());
  }
  SetPerJoint(state);
}

void Blend(benchmark::State& state, int layer_count, bool masked) {
  Workload& w = W();
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
  SetPerJoint(state);
}
void BM_Blend2(benchmark::State& s) { Blend(s, 2, false); }
void BM_Blend4(benchmark::State& s) { Blend(s, 4, false); }
void BM_Blend2Masked(benchmark::State& s) { Blend(s, 2, true); }

void BM_LocalToModel(benchmark::State& state) {
  Workload& w = W();
  for (auto _ : state) {
    LocalToModelJob{&w.a.skeleton, w.a.skeleton.rest, nullptr, w.model}.run();
    benchmark::DoNotOptimize(w.model.data());
  }
  SetPerJoint(state);
}

void BM_Pipeline(benchmark::State& state) {
  Workload& w = W();
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
  SetPerJoint(state);
}

BENCHMARK(BM_SampleForward);
BENCHMARK(BM_SampleRandom);
BENCHMARK(BM_Blend2);
BENCHMARK(BM_Blend4);
BENCHMARK(BM_Blend2Masked);
BENCHMARK(BM_LocalToModel);
BENCHMARK(BM_Pipeline);

// Collects each benchmark's median ns/joint (or its single run) for the closing table.
class TableReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      if (median || (r.run_type == Run::RT_Iteration && !results_.count(r.run_name.function_name))) {
        results_[r.run_name.function_name] = r.counters.at("ns_per_joint").value * 1e9;
      }
    }
  }
  void PrintTable() const {
    const std::pair<const char*, std::pair<const char*, double>> rows[] = {
        {"BM_SampleForward", {"sample forward (dt 1/60)", 15.6}},
        {"BM_SampleRandom", {"sample at random times", 560}},
        {"BM_Blend2", {"blend 2 layers", 2.6}},
        {"BM_Blend4", {"blend 4 layers", 0}},
        {"BM_Blend2Masked", {"blend 2, subtree mask", 3.8}},
        {"BM_LocalToModel", {"local-to-model", 6.9}},
        {"BM_Pipeline", {"2 samples + blend + l2m", 41}}};
    std::printf("\n%-28s %14s %14s %8s\n", "job (64 joints)", "animkit ns/jt", "ozz ns/jt", "ratio");
    for (const auto& [key, row] : rows) {
      auto it = results_.find(key);
      if (it == results_.end()) continue;
      if (row.second > 0) {
        std::printf("%-28s %14.2f %14.1f %8.2f\n", row.first, it->second, row.second, it->second / row.second);
      } else {
        std::printf("%-28s %14.2f %14s %8s\n", row.first, it->second, "-", "-");
      }
    }
  }

 private:
  std::map<std::string, double> results_;
};

}  // namespace
}  // namespace animkit

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  animkit::TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintTable();
  benchmark::Shutdown();
  return 0;
}
