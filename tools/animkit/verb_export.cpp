// `animkit export FILE... -o OUT.glb`: glTF 2.0 of the skeleton and clips.
#include <fmt/format.h>

#include "animkit/gltf/export.h"
#include "cli.h"

namespace animkit::cli {

void add_export_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand("export", "write the skeleton and clips as glTF 2.0");
  static std::vector<std::string> files;
  static Options options;
  static std::string out_path;
  static float rate = 0;
  verb->add_option("files", files, "files to export (one skeleton, any number of clips)");
  verb->add_option("-o,--output", out_path, "OUT.glb, or OUT.gltf for the JSON form")->required();
  // The rate also reaches the engines (options["rate"]): Monster Hunter samples its entries at it.
  verb->add_option_function<float>(
      "--rate",
      [](float v) {
        rate = v;
        options["rate"] = fmt::format("{}", v);
      },
      "sampling rate in frames per second: Hermite tracks are resampled at it (default: the "
      "clip's), engines that sample their clips use it (Monster Hunter: 30)");
  verb->add_flag("--json", cli.json, "report as JSON");
  add_engine_options(*verb, cli, options);
  verb->callback([&cli] {
    std::optional<MeshSet> meshes;  // a model's skinned meshes ride along (issues 27, 28)
    const Animated animated = merge_neutral(open_documents(cli, files, options), files, meshes);
    gltf::ExportOptions eo;
    eo.binary = std::filesystem::path(out_path).extension() != ".gltf";
    eo.resample_rate = rate;
    gltf::write(animated, out_path, eo, meshes ? &*meshes : nullptr);
    if (cli.json) {
      cli.out << dump_json(Json{{"output", out_path}, {"joints", animated.skeleton.num_joints()},
                                {"clips", animated.clips.size()},
                                {"meshes", meshes ? meshes->meshes.size() : 0},
                                {"notes", animated.notes}})
              << "\n";
    } else {
      cli.out << fmt::format("{}: {} joints, {} clips", out_path, animated.skeleton.num_joints(),
                             animated.clips.size());
      if (meshes) cli.out << fmt::format(", {} meshes", meshes->meshes.size());
      cli.out << "\n";
      for (const std::string& n : animated.notes) cli.out << "note: " << n << "\n";
    }
  });
}

}  // namespace animkit::cli
