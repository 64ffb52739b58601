// Issue 34, item 6: animkit's runtime clip + SoA jobs beside ozz-animation 0.16 built for AVX2 +
// FMA, in one process, on the same skeleton and keys (bench_core's workload: a 10 s clip keyed
// at 30 keys/s, translation, rotation and scale on every joint) at 64, 256 and 1,024 joints.
//
// The keys go once into animkit's Clip (compiled to a RuntimeClip) and, joint by joint, into
// ozz's RawAnimation (built by ozz's AnimationBuilder); the skeleton likewise into a RawSkeleton.
// Before timing, both sides sample, blend and go to model space at several times and the outputs
// must agree within 5e-4 (rotations up to sign): neither side can skip work. Then Google
// Benchmark runs both sides' jobs, repetitions interleaved in random order (so the load of a
// shared machine falls on both alike), and the closing table prints the medians, the ratio
// animkit / ozz per job and joint count beside the target, and a machine reference
// (ns per float multiply-add) measured in the same run.
//
// Build: cmake -DANIMKIT_OZZ_SOURCE=/path/to/ozz-animation ... --target bench_ozz_side_by_side
// Run:   bench_ozz_side_by_side [--benchmark_repetitions=N] [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "animkit/core/soa_jobs.h"
#include "animkit/core/synthetic.h"
#include "ozz/animation/offline/animation_builder.h"
#include "ozz/animation/offline/raw_animation.h"
#include "ozz/animation/offline/raw_skeleton.h"
#include "ozz/animation/offline/skeleton_builder.h"
#include "ozz/animation/runtime/animation.h"
#include "ozz/animation/runtime/blending_job.h"
#include "ozz/animation/runtime/local_to_model_job.h"
#include "ozz/animation/runtime/sampling_job.h"
#include "ozz/animation/runtime/skeleton.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/soa_transform.h"

namespace {

using animkit::Clip;
using animkit::Mat4;
using animkit::Transform;

constexpr float kDuration = 10;
constexpr float kTolerance = 5e-4f;
constexpr float kTimes[] = {0.f, 0.37f, 1.f / 60, 3.3f, 5.55f, 7.77f, 9.99f, 10.f};
const float kBlendWeights[4] = {0.4f, 0.6f, 0.3f, 0.2f};

// The second clip of the pipeline: the first's values one key later (same times, so ozz's
// RawAnimation, which wants keys inside the duration, takes it as it is).
Clip shifted(const Clip& c) {
  Clip s = c;
  for (animkit::JointTracks& jt : s.joints) {
    for (size_t k = 0; k + 1 < jt.rotation.values.size(); ++k) {
      jt.translation.values[k] = jt.translation.values[k + 1];
      jt.rotation.values[k] = jt.rotation.values[k + 1];
      jt.scale.values[k] = jt.scale.values[k + 1];
    }
  }
  return s;
}

// One joint count, both libraries.
struct Setup {
  explicit Setup(int joints);

  // animkit
  int joints;
  animkit::Animated a;
  std::vector<animkit::RuntimeClip> clips;
  animkit::SoaPose rest;
  animkit::SoaPose poses[4];
  animkit::SoaPose out;
  std::vector<Mat4> model;
  // ozz
  ozz::unique_ptr<ozz::animation::Skeleton> skeleton;
  ozz::unique_ptr<ozz::animation::Animation> animations[2];
  std::vector<int> ozz_joint;  // animkit joint -> ozz joint
  std::vector<ozz::math::SoaTransform> ozz_poses[4];
  std::vector<ozz::math::SoaTransform> ozz_out;
  std::vector<ozz::math::Float4x4> ozz_model;
};

void build_raw_joint(const animkit::Skeleton& s, int j, ozz::animation::offline::RawSkeleton::Joint& out) {
  out.name = s.names[j].c_str();
  const Transform& r = s.rest[j];
  out.transform.translation = {r.translation.x, r.translation.y, r.translation.z};
  out.transform.rotation = {r.rotation.x, r.rotation.y, r.rotation.z, r.rotation.w};
  out.transform.scale = {r.scale.x, r.scale.y, r.scale.z};
  for (size_t c = 0; c < s.num_joints(); ++c) {
    if (s.parents[c] == j) build_raw_joint(s, static_cast<int>(c), out.children.emplace_back());
  }
}

ozz::unique_ptr<ozz::animation::Animation> build_ozz_animation(const Clip& clip, const std::vector<int>& ozz_joint) {
  ozz::animation::offline::RawAnimation raw;
  raw.duration = clip.duration;
  raw.tracks.resize(clip.joints.size());
  for (size_t j = 0; j < clip.joints.size(); ++j) {
    const animkit::JointTracks& jt = clip.joints[j];
    auto& track = raw.tracks[ozz_joint[j]];
    for (size_t k = 0; k < jt.translation.times.size(); ++k) {
      const animkit::Vec3 v = jt.translation.values[k];
      track.translations.push_back({jt.translation.times[k], {v.x, v.y, v.z}});
    }
    for (size_t k = 0; k < jt.rotation.times.size(); ++k) {
      const animkit::Quat q = jt.rotation.values[k];
      track.rotations.push_back({jt.rotation.times[k], {q.x, q.y, q.z, q.w}});
    }
    for (size_t k = 0; k < jt.scale.times.size(); ++k) {
      const animkit::Vec3 v = jt.scale.values[k];
      track.scales.push_back({jt.scale.times[k], {v.x, v.y, v.z}});
    }
  }
  if (!raw.Validate()) {
    std::fprintf(stderr, "ozz: the raw animation does not validate\n");
    std::exit(1);
  }
  return ozz::animation::offline::AnimationBuilder()(raw);
}

Setup::Setup(int n) : joints(n), a(animkit::synthetic_workload(n, kDuration, 30)), rest(n), out(n), model(n) {
  a.clips.push_back(shifted(a.clips[0]));
  for (const Clip& c : a.clips) clips.emplace_back(c, a.skeleton.rest);
  rest.assign(a.skeleton.rest);
  for (animkit::SoaPose& p : poses) p.resize(n);

  ozz::animation::offline::RawSkeleton raw;
  for (int j = 0; j < n; ++j) {
    if (a.skeleton.parents[j] < 0) build_raw_joint(a.skeleton, j, raw.roots.emplace_back());
  }
  skeleton = ozz::animation::offline::SkeletonBuilder()(raw);
  if (!skeleton || skeleton->num_joints() != n) {
    std::fprintf(stderr, "ozz: the skeleton does not build\n");
    std::exit(1);
  }
  // ozz orders joints depth first: match them by name.
  std::map<std::string, int> by_name;
  for (int j = 0; j < n; ++j) by_name[skeleton->joint_names()[j]] = j;
  for (int j = 0; j < n; ++j) ozz_joint.push_back(by_name.at(a.skeleton.names[j]));
  for (int c = 0; c < 2; ++c) animations[c] = build_ozz_animation(a.clips[c], ozz_joint);
  for (auto& p : ozz_poses) p.resize(skeleton->num_soa_joints());
  ozz_out.resize(skeleton->num_soa_joints());
  ozz_model.resize(n);
}

Setup& S(int joints) {
  static std::map<int, std::unique_ptr<Setup>> setups;
  auto& p = setups[joints];
  if (!p) p = std::make_unique<Setup>(joints);
  return *p;
}

// ---- the jobs, one function per side ----------------------------------------------------------

struct Sampler {  // one playing instance per side
  animkit::RuntimeCursor cursor;
  ozz::animation::SamplingJob::Context context;
};

void animkit_sample(Setup& s, int clip, float t, Sampler& c, int pose) {
  animkit::SoaSamplingJob{&s.clips[clip], t, &c.cursor, &s.poses[pose], {}}.run();
}
void ozz_sample(Setup& s, int clip, float t, Sampler& c, int pose) {
  if (c.context.max_tracks() < s.joints) c.context.Resize(s.joints);  // once, as a cursor binds
  ozz::animation::SamplingJob job;
  job.animation = s.animations[clip].get();
  job.context = &c.context;
  job.ratio = t / kDuration;
  job.output = ozz::make_span(s.ozz_poses[pose]);
  if (!job.Run()) std::abort();  // a job that does not run would time nothing
}

void animkit_blend(Setup& s, int layers) {
  animkit::SoaBlendingLayer l[4];
  for (int i = 0; i < layers; ++i) l[i] = {&s.poses[i], kBlendWeights[i], {}};
  animkit::SoaBlendingJob job;
  job.layers = std::span<const animkit::SoaBlendingLayer>(l, layers);
  job.rest = &s.rest;
  job.output = &s.out;
  job.run();
}
void ozz_blend(Setup& s, int layers) {
  ozz::animation::BlendingJob::Layer l[4];
  for (int i = 0; i < layers; ++i) {
    l[i].transform = ozz::make_span(s.ozz_poses[i]);
    l[i].weight = kBlendWeights[i];
  }
  ozz::animation::BlendingJob job;
  job.layers = ozz::span<const ozz::animation::BlendingJob::Layer>(l, layers);
  job.rest_pose = s.skeleton->joint_rest_poses();
  job.output = ozz::make_span(s.ozz_out);
  if (!job.Run()) std::abort();
}

void animkit_l2m(Setup& s, const animkit::SoaPose& locals) {
  animkit::SoaLocalToModelJob{&s.a.skeleton, &locals, nullptr, s.model}.run();
}
void ozz_l2m(Setup& s, const std::vector<ozz::math::SoaTransform>& locals) {
  ozz::animation::LocalToModelJob job;
  job.skeleton = s.skeleton.get();
  job.input = ozz::make_span(locals);
  job.output = ozz::make_span(s.ozz_model);
  if (!job.Run()) std::abort();
}

// ---- the outputs must agree --------------------------------------------------------------------

Transform ozz_local(const std::vector<ozz::math::SoaTransform>& pose, int joint) {
  const ozz::math::SoaTransform& t = pose[joint / 4];
  float v[10][4];
  const ozz::math::SimdFloat4 c[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x,
                                       t.rotation.y,    t.rotation.z,    t.rotation.w,    t.scale.x,
                                       t.scale.y,       t.scale.z};
  for (int i = 0; i < 10; ++i) ozz::math::StorePtrU(c[i], v[i]);
  const int l = joint % 4;
  return {{v[0][l], v[1][l], v[2][l]}, {v[3][l], v[4][l], v[5][l], v[6][l]}, {v[7][l], v[8][l], v[9][l]}};
}

// Writes `t` into lane joint % 4 of pose[joint / 4].
void set_ozz_local(std::vector<ozz::math::SoaTransform>& pose, int joint, const Transform& t) {
  ozz::math::SoaTransform& soa = pose[joint / 4];
  ozz::math::SimdFloat4* c[10] = {&soa.translation.x, &soa.translation.y, &soa.translation.z, &soa.rotation.x,
                                  &soa.rotation.y,    &soa.rotation.z,    &soa.rotation.w,    &soa.scale.x,
                                  &soa.scale.y,       &soa.scale.z};
  const float v[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                       t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
  for (int i = 0; i < 10; ++i) {
    float lanes[4];
    ozz::math::StorePtrU(*c[i], lanes);
    lanes[joint % 4] = v[i];
    *c[i] = ozz::math::simd_float4::LoadPtrU(lanes);
  }
}

float difference(const Transform& a, const Transform& b) {
  const float sign = animkit::dot(a.rotation, b.rotation) < 0 ? -1.f : 1.f;
  const float d[10] = {a.translation.x - b.translation.x, a.translation.y - b.translation.y,
                       a.translation.z - b.translation.z, a.rotation.x - sign * b.rotation.x,
                       a.rotation.y - sign * b.rotation.y, a.rotation.z - sign * b.rotation.z,
                       a.rotation.w - sign * b.rotation.w, a.scale.x - b.scale.x,
                       a.scale.y - b.scale.y,             a.scale.z - b.scale.z};
  float m = 0;
  for (float x : d) m = std::max(m, std::fabs(x));
  return m;
}

float pose_difference(Setup& s, const animkit::SoaPose& mine, const std::vector<ozz::math::SoaTransform>& theirs) {
  float m = 0;
  for (int j = 0; j < s.joints; ++j) {
    const Transform a = mine.get(j), b = ozz_local(theirs, s.ozz_joint[j]);
    if (getenv("DEBUG_OZZ") && difference(a, b) > kTolerance)
      std::fprintf(stderr, "joint %d (ozz %d): t %g %g %g / %g %g %g; r %g %g %g %g / %g %g %g %g\n", j, s.ozz_joint[j],
                   a.translation.x, a.translation.y, a.translation.z, b.translation.x, b.translation.y, b.translation.z,
                   a.rotation.x, a.rotation.y, a.rotation.z, a.rotation.w, b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w);
    m = std::max(m, difference(a, b));
  }
  return m;
}

float model_difference(Setup& s) {
  float m = 0;
  for (int j = 0; j < s.joints; ++j) {
    float theirs[16];
    for (int c = 0; c < 4; ++c) ozz::math::StorePtrU(s.ozz_model[s.ozz_joint[j]].cols[c], theirs + 4 * c);
    for (int i = 0; i < 16; ++i) m = std::max(m, std::fabs(s.model[j].m[i] - theirs[i]));
  }
  return m;
}

// Samples (forward and by jumps), blends 2 and 4 layers and goes to model space on both sides at
// kTimes; returns the largest difference of sampled locals, blended locals and model matrices,
// and exits when one is over kTolerance.
struct Worst {
  float sampled = 0, blended = 0, model = 0;
};
Worst check(int joints) {
  Setup& s = S(joints);
  Sampler c[4];
  Worst worst;
  auto expect = [&](float d, const char* what, float t) {
    float& w = what[0] == 's' ? worst.sampled : what[0] == 'b' ? worst.blended : worst.model;
    w = std::max(w, d);
    if (!(d <= kTolerance)) {
      std::fprintf(stderr, "%d joints, t = %g: %s differ by %g (> %g)\n", joints, t, what, d, kTolerance);
      std::exit(1);
    }
  };
  for (float t : kTimes) {
    for (int p = 0; p < 4; ++p) {
      const float tp = std::fmod(t + 0.37f * static_cast<float>(p), kDuration);
      animkit_sample(s, p & 1, tp, c[p], p);
      ozz_sample(s, p & 1, tp, c[p], p);
      expect(pose_difference(s, s.poses[p], s.ozz_poses[p]), "sampled locals", tp);
    }
    for (int layers : {2, 4}) {
      animkit_blend(s, layers);
      ozz_blend(s, layers);
      expect(pose_difference(s, s.out, s.ozz_out), "blended locals", t);
    }
    // Local-to-model from the same locals on both sides (animkit's blend): ozz's own locals
    // carry its half-float translations and scales, whose errors a chain of joints multiplies.
    for (int j = 0; j < s.joints; ++j) set_ozz_local(s.ozz_out, s.ozz_joint[j], s.out.get(j));
    animkit_l2m(s, s.out);
    ozz_l2m(s, s.ozz_out);
    expect(model_difference(s), "model matrices", t);
  }
  return worst;
}

// ---- the benchmarks ------------------------------------------------------------------------------

void SetPerJoint(benchmark::State& state, int joints) {
  state.counters["ns_per_joint"] = benchmark::Counter(static_cast<double>(state.iterations()) * joints,
                                                      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Google Benchmark statistic: the least repetition.
double least(const std::vector<double>& v) { return v.empty() ? NAN : *std::min_element(v.begin(), v.end()); }

// The machine reference: 8 independent chains of float multiply-add (bench_core's).
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
BENCHMARK(BM_MachineArithmetic)->ComputeStatistics("min", least);

template <bool kOzz>
void Forward(benchmark::State& state) {
  Setup& s = S(static_cast<int>(state.range(0)));
  Sampler c;
  float t = 0;
  for (auto _ : state) {
    if (kOzz) {
      ozz_sample(s, 0, t, c, 0);
    } else {
      animkit_sample(s, 0, t, c, 0);
    }
    benchmark::ClobberMemory();
    t += 1.f / 60;
    if (t > kDuration) t = 0;
  }
  SetPerJoint(state, s.joints);
}

template <bool kOzz, int kLayers>
void Blend(benchmark::State& state) {
  Setup& s = S(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    if (kOzz) {
      ozz_blend(s, kLayers);
    } else {
      animkit_blend(s, kLayers);
    }
    benchmark::ClobberMemory();
  }
  SetPerJoint(state, s.joints);
}

template <bool kOzz>
void LocalToModel(benchmark::State& state) {
  Setup& s = S(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    if (kOzz) {
      ozz_l2m(s, s.ozz_poses[0]);
    } else {
      animkit_l2m(s, s.poses[0]);
    }
    benchmark::ClobberMemory();
  }
  SetPerJoint(state, s.joints);
}

// Two clips sampled forward, blended, to model space: one character's frame.
template <bool kOzz>
void Pipeline(benchmark::State& state) {
  Setup& s = S(static_cast<int>(state.range(0)));
  Sampler c0, c1;
  float t = 0;
  for (auto _ : state) {
    if (kOzz) {
      ozz_sample(s, 0, t, c0, 0);
      ozz_sample(s, 1, t, c1, 1);
      ozz_blend(s, 2);
      ozz_l2m(s, s.ozz_out);
    } else {
      animkit_sample(s, 0, t, c0, 0);
      animkit_sample(s, 1, t, c1, 1);
      animkit_blend(s, 2);
      animkit_l2m(s, s.out);
    }
    benchmark::ClobberMemory();
    t += 1.f / 60;
    if (t > kDuration) t = 0;
  }
  SetPerJoint(state, s.joints);
}

// name, the animkit side, the ozz side, the target for animkit / ozz.
struct Job {
  const char* name;
  void (*mine)(benchmark::State&);
  void (*theirs)(benchmark::State&);
  double target;
};
const Job kJobs[] = {{"forward", Forward<false>, Forward<true>, 0.35},
                     {"blend2", Blend<false, 2>, Blend<true, 2>, 0.6},
                     {"blend4", Blend<false, 4>, Blend<true, 4>, 0.6},
                     {"local_to_model", LocalToModel<false>, LocalToModel<true>, 0.7},
                     {"pipeline", Pipeline<false>, Pipeline<true>, 0.4}};
constexpr int kJoints[] = {64, 256, 1024};

// Keeps each benchmark's median (Google Benchmark's aggregate over the repetitions).
class TableReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      const std::string key = r.run_name.function_name + "/" + r.run_name.args;
      if (r.run_type != Run::RT_Aggregate) continue;
      auto& into = r.aggregate_name == "median" ? medians_ : r.aggregate_name == "min" ? best_ : other_;
      for (const auto& [name, counter] : r.counters) into[key] = counter.value * 1e9;
    }
  }
  double get(const std::string& key) const {
    auto it = medians_.find(key);
    return it == medians_.end() ? NAN : it->second;
  }
  double best(const std::string& key) const {
    auto it = best_.find(key);
    return it == best_.end() ? NAN : it->second;
  }

 private:
  std::map<std::string, double> medians_, best_, other_;  // the median and the least of the repetitions
};

double load_average() {
  double l[1] = {NAN};
  return getloadavg(l, 1) == 1 ? l[0] : NAN;
}

}  // namespace

int main(int argc, char** argv) {
  // Defaults for a shared machine: many repetitions, interleaved at random, medians reported.
  std::vector<char*> args(argv, argv + argc);
  std::string defaults[] = {"--benchmark_repetitions=21", "--benchmark_enable_random_interleaving=true",
                            "--benchmark_min_time=0.02", "--benchmark_display_aggregates_only=true"};
  for (std::string& d : defaults) {
    const std::string flag = d.substr(0, d.find('='));
    bool given = false;
    for (int i = 1; i < argc; ++i) given |= std::string(argv[i]).rfind(flag, 0) == 0;
    if (!given) args.push_back(d.data());
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());

  std::printf("ozz-animation built with%s AVX2, with%s FMA; animkit's SoA kernels on %s\n",
#if defined(OZZ_SIMD_AVX2)
              "",
#else
              "OUT",
#endif
#if defined(OZZ_SIMD_FMA)
              "",
#else
              "OUT",
#endif
              animkit::soa_simd_target());
  for (int n : kJoints) {
    const Worst w = check(n);
    std::printf("%4d joints: animkit and ozz agree within %g (largest difference at %zu times: sampled "
                "locals %.3g, blended %.3g, model matrices %.3g; ozz keeps translations and scales as "
                "half floats)\n", n, kTolerance, std::size(kTimes), w.sampled, w.blended, w.model);
  }
  for (const Job& job : kJobs) {
    for (int n : kJoints) {
      benchmark::RegisterBenchmark((std::string("animkit/") + job.name).c_str(), job.mine)->Arg(n)->ComputeStatistics("min", least);
      benchmark::RegisterBenchmark((std::string("ozz/") + job.name).c_str(), job.theirs)->Arg(n)->ComputeStatistics("min", least);
    }
  }
  const double load_before = load_average();
  TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double load_after = load_average();

  const double op = reporter.get("BM_MachineArithmetic/");
  std::printf("\nmachine reference (this run, median): %.4f ns per float multiply-add (8 chains); load average "
              "%.2f before, %.2f after\n",
              op, load_before, load_after);
  std::printf("ns per joint, medians of the repetitions (interleaved); 'ref' = animkit in multiply-adds of the reference; "
              "'best ratio' = the least animkit repetition / the least ozz one\n");
  std::printf("%-16s %6s %10s %10s %12s %8s %6s %8s %11s\n", "job", "joints", "animkit", "ozz", "animkit/ozz", "target",
              "met", "ref", "best ratio");
  for (const Job& job : kJobs) {
    for (int n : kJoints) {
      const std::string arg = "/" + std::to_string(n);
      const double mine = reporter.get(std::string("animkit/") + job.name + arg);
      const double theirs = reporter.get(std::string("ozz/") + job.name + arg);
      const double ratio = mine / theirs;
      const double best_ratio = reporter.best(std::string("animkit/") + job.name + arg) /
                                reporter.best(std::string("ozz/") + job.name + arg);
      std::printf("%-16s %6d %10.3f %10.3f %12.3f %8.2f %6s %8.1f %11.3f\n", job.name, n, mine, theirs, ratio,
                  job.target, std::isnan(ratio) ? "-" : ratio <= job.target ? "yes" : "NO", mine / op, best_ratio);
    }
  }
  benchmark::Shutdown();
  return 0;
}
