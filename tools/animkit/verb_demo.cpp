// `animkit demo`: the built-in sample. The core part builds a small skeleton and two clips,
// samples, blends and exports them; each engine module then runs its own part.
#include <fmt/format.h>

#include <chrono>

#include "animkit/core/blending_job.h"
#include "animkit/core/demo_gltf.h"
#include "animkit/core/local_to_model_job.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/neutral_json.h"
#include "animkit/gltf/export.h"
#include "cli.h"
#include "animkit/core/synthetic.h"

namespace animkit::cli {

namespace {

void core_demo(DemoContext& ctx) {
  const Animated sample = synthetic_arm();
  const Skeleton& sk = sample.skeleton;
  const Clip& wave = sample.clips[0];
  const Clip& bend = sample.clips[1];
  std::vector<Transform> a(sk.num_joints()), b(sk.num_joints()), blended(sk.num_joints());
  std::vector<Mat4> model(sk.num_joints());
  SamplingCursor ca, cb;
  const BlendingLayer layers[] = {{a, 0.5f, {}}, {b, 0.5f, {}}};
  for (float t = 0; t <= wave.duration; t += 1.f / 60) {
    SamplingJob{&wave, t, &ca, sk.rest, a, {}}.run();
    SamplingJob{&bend, t, &cb, sk.rest, b, {}}.run();
    BlendingJob blend;
    blend.layers = layers;
    blend.rest = sk.rest;
    blend.output = blended;
    blend.run();
    LocalToModelJob{&sk, blended, nullptr, model}.run();
  }
  const Vec3 tip = model.back().translation();
  ctx.out << fmt::format("core: {} joints, clips '{}' + '{}' sampled at 60 Hz and blended 50/50; "
                         "'{}' ends at ({:.3f}, {:.3f}, {:.3f})\n",
                         sk.num_joints(), wave.name, bend.name, sk.names.back(), tip.x, tip.y, tip.z);
  Animated out = sample;
  Clip mixed = wave;  // the blend as a clip of its own, keyed at 30 Hz
  mixed.name = "wave+bend";
  mixed.joints.assign(sk.num_joints(), {});
  for (int f = 0; f <= static_cast<int>(wave.duration * 30 + 0.5f); ++f) {
    const float t = f / 30.f;
    SamplingJob{&wave, t, &ca, sk.rest, a, {}}.run();
    SamplingJob{&bend, t, &cb, sk.rest, b, {}}.run();
    BlendingJob blend;
    blend.layers = layers;
    blend.rest = sk.rest;
    blend.output = blended;
    blend.run();
    for (size_t j = 0; j < sk.num_joints(); ++j) mixed.joints[j].rotation.add(t, blended[j].rotation);
  }
  for (auto& jt : mixed.joints) jt.rotation.interpolation = Interpolation::kSlerp;
  out.clips.push_back(std::move(mixed));
  const auto path = ctx.out_dir / "core.glb";
  gltf::write(out, path);
  write_text(ctx.out_dir / "core.json", dump_json(to_json(sample), 1) + "\n");
  ctx.out << fmt::format("core: wrote {} ({} clips) and core.json\n", path.string(), out.clips.size());
}

}  // namespace

void add_demo_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand("demo", "run the built-in sample of every engine");
  static std::string out_dir = "demo-out";
  static std::string only;
  verb->add_option("--out", out_dir, "where to write (default demo-out)");
  verb->add_option("--engine", only, "run one engine's part only");
  verb->add_flag("--json", cli.json, "accepted for uniformity; the demo prints text");
  verb->callback([&cli] {
    std::filesystem::create_directories(out_dir);
    set_demo_gltf_writer([](const Animated& a, const std::filesystem::path& p) { gltf::write(a, p); });
    DemoContext ctx{out_dir, cli.out};
    const auto start = std::chrono::steady_clock::now();
    if (only.empty() || only == "core") core_demo(ctx);
    for (const Engine& e : cli.registry.engines()) {
      if (!e.demo || (!only.empty() && only != e.name)) continue;
      e.demo(ctx);
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    cli.out << fmt::format("demo: done in {:.1f} ms; files in {}/\n", ms, out_dir);
  });
}

}  // namespace animkit::cli
