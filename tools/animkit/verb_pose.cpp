// `animkit pose FILE... --clip NAME --time T [--time T ...]`: every joint's model-space position
// and rotation at the given times, as the core computes them (SamplingJob, then LocalToModelJob).
// The browser test (tests/web) compares the viewer against this.
#include <fmt/format.h>

#include "animkit/core/local_to_model_job.h"
#include "animkit/core/sampling_job.h"
#include "cli.h"

namespace animkit::cli {

void add_pose_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand(
      "pose", "every joint's model-space position and rotation at given times of a clip");
  static std::vector<std::string> files;
  static Options options;
  static std::string clip_name;
  static std::vector<float> times;
  static bool rest = false;
  verb->add_option("files", files, "files to read (one skeleton, any number of clips)");
  verb->add_option("--clip", clip_name, "the clip (default: the first)");
  verb->add_option("-t,--time", times, "a time in seconds (repeatable; default 0)")
      ->allow_extra_args(false);
  verb->add_flag("--rest", rest, "the skeleton's rest pose instead of a clip");
  verb->add_flag("--json", cli.json, "machine-readable output");
  add_engine_options(*verb, cli, options);
  verb->callback([&cli] {
    const Animated a = merge_neutral(open_documents(cli, files, options), files);
    const Skeleton& sk = a.skeleton;
    const Clip rest_clip{"(rest)", 0, 30, false, std::vector<JointTracks>(sk.num_joints()), {}};
    if (a.clips.empty() && !rest) throw Error("no clip to pose");
    const Clip* clip = rest ? &rest_clip : &a.clips.front();
    if (!clip_name.empty() && !rest) {
      clip = nullptr;
      for (const Clip& c : a.clips) {
        if (c.name == clip_name) clip = &c;
      }
      if (!clip) throw Error(fmt::format("no clip named '{}'", clip_name));
    }
    if (std::string e = clip->validate(sk.num_joints()); !e.empty()) {
      throw Error(fmt::format("clip '{}': {}", clip->name, e));
    }
    if (times.empty()) times.push_back(0);
    std::vector<Transform> locals(sk.num_joints());
    std::vector<Mat4> model(sk.num_joints());
    SamplingCursor cursor;
    Json poses = Json::array();
    for (const float t : times) {
      SamplingJob{clip, t, &cursor, sk.rest, locals, {}}.run();
      LocalToModelJob{&sk, locals, nullptr, model}.run();
      Json joints = Json::array();
      for (size_t j = 0; j < sk.num_joints(); ++j) {
        joints.push_back({{"name", sk.names[j]},
                          {"position", to_json(model[j].translation())},
                          {"rotation", to_json(rotation_of(model[j]))}});
      }
      poses.push_back({{"time", json_float(t)}, {"joints", std::move(joints)}});
    }
    if (cli.json) {
      cli.out << dump_json(Json{{"clip", clip->name}, {"poses", std::move(poses)}}) << "\n";
      return;
    }
    for (const Json& p : poses) {
      cli.out << fmt::format("{} at {} s\n", clip->name, p["time"].get<double>());
      for (const Json& j : p["joints"]) {
        const auto& pos = j["position"];
        const auto& rot = j["rotation"];
        cli.out << fmt::format(
            "  {:<16} position ({:9.5f}, {:9.5f}, {:9.5f})  rotation ({:8.5f}, "
            "{:8.5f}, {:8.5f}, {:8.5f})\n",
            j["name"].get<std::string>(), pos[0].get<double>(), pos[1].get<double>(),
            pos[2].get<double>(), rot[0].get<double>(), rot[1].get<double>(), rot[2].get<double>(),
            rot[3].get<double>());
      }
    }
  });
}

}  // namespace animkit::cli
