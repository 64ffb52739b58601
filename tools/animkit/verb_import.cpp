// `animkit import CLIP.glb --as FORMAT [--template ORIGINAL] [--clip NAME] -o OUT` (issue 17):
// glTF 2.0 back into a format animkit reads, through that format's writer (Format::import_gltf).
#include <fmt/format.h>

#include <cmath>

#include "animkit/gltf/import.h"
#include "animkit/gltf/import_budget.h"
#include "animkit/gltf/template_fit.h"
#include "cli.h"

namespace animkit::cli {

void add_import_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand("import", "write a glTF animation back into an engine's format");
  static std::string input, format_name, template_path, clip, out_path;
  static float tolerance = NAN, frame_rate = NAN;
  static bool dry_run = false;
  static Options options;
  verb->add_option("file", input, "the .glb or .gltf to read")->required();
  verb->add_option("--as", format_name, "the format to write (see `animkit info --formats`)")->required();
  verb->add_option("--clip", clip, "the glTF animation to import (default: every one the format takes)");
  verb->add_option("-o,--output", out_path, "the file to write");
  verb->add_option("--tolerance", tolerance, "largest error key reduction may introduce (format's unit)")
      ->check(CLI::NonNegativeNumber);  // 0, the documented default, keeps every key
  verb->add_option("--frame-rate", frame_rate, "keys per second of the written clip")
      ->check(CLI::PositiveNumber);
  verb->add_flag("--dry-run", dry_run, "quantise and report, write nothing");
  verb->add_flag("--json", cli.json, "report as JSON");
  add_engine_options(*verb, cli, options);
  // An engine may already give --template its own meaning (Monster Hunter: a species); then its
  // value arrives in `options`.
  if (!verb->get_option_no_throw("--template")) {
    verb->add_option("--template", template_path,
                     "the original file: what glTF does not carry comes from it");
  }
  verb->callback([&cli] {
    const Format* format = cli.registry.format(format_name);
    if (!format) throw CLI::ValidationError("--as", fmt::format("unknown format '{}'", format_name));
    if (!format->import_gltf) {
      std::string can;
      for (const Engine& e : cli.registry.engines()) {
        for (const Format& f : e.formats) {
          if (f.import_gltf) can += (can.empty() ? "" : ", ") + f.name;
        }
      }
      throw CLI::ValidationError("--as", fmt::format("'{}' cannot be written from glTF yet (formats "
                                                     "that can: {})", format_name, can));
    }
    if (out_path.empty() && !dry_run) throw CLI::ValidationError("-o", "name the output file (or --dry-run)");
    ImportRequest request;
    gltf::ImportOptions io;
    io.clip = clip;
    std::vector<std::string> untimed, read_notes;
    io.untimed = &untimed;
    io.notes = &read_notes;
    request.source = gltf::read(input, io);
    request.template_path = !template_path.empty() ? template_path
                            : options.count("template") ? options.at("template")
                                                        : std::string();
    request.clip = clip;
    request.options = options;
    if (!std::isnan(tolerance)) request.options["tolerance"] = fmt::format("{}", tolerance);
    if (!std::isnan(frame_rate)) request.options["frame-rate"] = fmt::format("{}", frame_rate);
    request.dry_run = dry_run;
    // Another tool's rest and timing made the template's (issue 32; template_fit.h).
    const std::vector<std::string> fitted = gltf::fit_to_template(request, untimed, cli.registry);
    gltf::check_import_budget(request, *format, input);  // before the writer samples (issue 32)
    ImportResult result = format->import_gltf(request);
    result.notes.insert(result.notes.begin(), fitted.begin(), fitted.end());
    result.notes.insert(result.notes.begin(), read_notes.begin(), read_notes.end());
    if (!dry_run) write_file(out_path, result.bytes);
    if (cli.json) {
      Json j{{"input", input}, {"format", format_name}, {"output", dry_run ? Json() : Json(out_path)},
             {"bytes", result.bytes.size()}, {"report", result.report}, {"notes", result.notes}};
      cli.out << dump_json(j) << "\n";
    } else {
      cli.out << fmt::format("{}: {} ({} bytes){}\n", dry_run ? "(dry run)" : out_path, format_name,
                             result.bytes.size(), dry_run ? ", not written" : "");
      for (const std::string& n : result.notes) cli.out << "note: " << n << "\n";
    }
  });
}

}  // namespace animkit::cli
