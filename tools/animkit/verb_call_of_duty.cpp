// The `animkit cod ...` verbs of the call_of_duty module: `cod tree` (load one tree as the game
// does), `cod lint` (every tree a mod's scripts use, with their references), `cod refs` (the
// references of scripts and their packed values).
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "animkit/call_of_duty/level_lint.h"
#include "animkit/call_of_duty/linker.h"
#include "animkit/call_of_duty/play_scenario.h"
#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/call_of_duty/tree_output.h"
#include "animkit/call_of_duty/xanim_document.h"
#include "animkit/gltf/export.h"
#include "cli.h"
#include "scenario_pose.h"

namespace animkit::cli {

namespace {

namespace cod = animkit::call_of_duty;

std::string file_text(const std::string& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// Names separated by commas or white space, a leading `%` dropped, each with its place.
void split_refs(const std::string& text, const std::string& file, bool places,
                std::vector<cod::Reference>& out) {
  const cod::LineMap lines(text);
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ',' || static_cast<unsigned char>(text[i]) <= ' ')) ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ',' && static_cast<unsigned char>(text[i]) > ' ') ++i;
    if (i == start) continue;
    std::string name = text.substr(start, i - start);
    if (name[0] == '%') name.erase(0, 1);
    if (name.empty()) continue;
    cod::Reference r;
    r.name = cod::to_lower(name);
    r.file = file;
    if (places) {
      r.line = lines.line(start);
      r.column = lines.column(start);
      r.offset = start;
    }
    out.push_back(std::move(r));
  }
}

void print_grouped(Cli& cli, const std::vector<cod::Diagnostic>& diagnostics) {
  std::map<std::string, std::vector<const cod::Diagnostic*>> by_file;
  for (const auto& d : diagnostics) by_file[d.file].push_back(&d);
  for (auto& [file, list] : by_file) {
    std::stable_sort(
        list.begin(), list.end(), [](const cod::Diagnostic* a, const cod::Diagnostic* b) {
          return std::make_pair(a->line, a->column) < std::make_pair(b->line, b->column);
        });
    cli.out << (file.empty() ? std::string("(all trees)") : file) << ":\n";
    for (const cod::Diagnostic* d : list) {
      std::string place = d->line > 0 ? fmt::format("{}:{}: ", d->line, d->column) : "";
      cli.out << fmt::format("  {}{}: {}\n", place, d->is_error() ? "error" : "warning",
                             d->message);
    }
  }
}

// The first error diagnostic as `file:line:column: message`, for the error line on stderr (the
// diagnostics themselves go to stdout); `fallback` named by `file` when there is none.
std::string first_error(const std::vector<cod::Diagnostic>& diagnostics, const std::string& file,
                        const std::string& fallback) {
  for (const auto& d : diagnostics) {
    if (d.is_error()) return d.file.empty() ? file + ": " + d.to_string() : d.to_string();
  }
  return file + ": " + fallback;
}

Json trees_json(const cod::LinkResult& r) {
  Json trees = Json::array();
  for (const auto& t : r.trees) {
    Json j;  // names and paths may hold any byte: the core rule (issue 31)
    put_text(j, "tree", t.name);
    j["index"] = t.index;
    put_text(j, "file", t.file);
    j["missing"] = t.missing;
    if (t.load && t.load->anim) {
      j["node_count"] = t.load->anim->node_count;
      j["checksum"] = t.load->anim->checksum;
      j["loaded"] = t.load->loaded();
    } else {
      j["loaded"] = false;
    }
    trees.push_back(std::move(j));
  }
  return trees;
}

Json link_json(const cod::LinkResult& r) {
  Json trees = trees_json(r);
  Json refs = Json::array();
  for (const auto& rr : r.references) {
    const bool anim = rr.ref->kind == cod::ScriptReference::Kind::kAnimation;
    Json j;
    put_text(j, "file", rr.ref->file());
    j.update(Json{{"line", rr.ref->line},
                  {"column", rr.ref->column},
                  {"kind", anim ? "animation" : "animtree"}});
    put_text(j, "name", rr.ref->name);
    put_text(j, "tree", rr.ref->tree);
    j.update(Json{{"tree_index", rr.tree_index},
           {"node", rr.node ? Json(*rr.node) : Json(nullptr)},
           {"value", rr.value ? Json(*rr.value) : Json(nullptr)}});
    refs.push_back(std::move(j));
  }
  std::map<std::string, Json> files;
  for (const auto& d : r.diagnostics) {
    Json& f = files[d.file];
    if (f.is_null()) f = Json::array();
    f.push_back(cod::diagnostic_json(d));
  }
  Json grouped = Json::array();
  for (auto& [file, list] : files) {
    Json g;
    put_text(g, "file", file);
    g["diagnostics"] = list;
    grouped.push_back(std::move(g));
  }
  return Json{{"scripts", r.scripts.size()},
              {"trees", trees},
              {"references", refs},
              {"total_nodes", r.total_nodes},
              {"errors", std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                                       [](const cod::Diagnostic& d) { return d.is_error(); })},
              {"files", grouped}};
}

const char* kind_name(cod::LevelLint::Kind k) {
  switch (k) {
    case cod::LevelLint::Kind::kLevel:
      return "level";
    case cod::LevelLint::Kind::kPlayer:
      return "player";
    case cod::LevelLint::Kind::kOther:
      return "scripts";
  }
  return "";
}

// One level of `cod lint --json`: its scripts in load order, trees in registry order, counts and
// diagnostics; with `references`, every reference and its packed value too.
Json level_json(const cod::LevelLint& l, bool references) {
  std::vector<std::string> scripts;
  for (const auto& s : l.link.scripts) scripts.push_back(s->file);
  size_t errors = 0, warnings = 0;
  for (const auto& d : l.link.diagnostics) (d.is_error() ? errors : warnings) += 1;
  Json diags = Json::array();
  for (const auto& d : l.link.diagnostics) diags.push_back(cod::diagnostic_json(d));
  Json out;
  put_text(out, "level", l.name);
  out["kind"] = kind_name(l.kind);
  put_texts(out, "scripts", scripts);
  out.update(Json{{"trees", trees_json(l.link)},
                  {"references", l.link.reference_count},
                  {"errors", errors},
                  {"warnings", warnings},
                  {"diagnostics", std::move(diags)}});
  if (references) out["reference_values"] = link_json(l.link)["references"];
  return out;
}

}  // namespace

void add_call_of_duty_verbs(CLI::App& app, Cli& cli) {
  auto* group = app.add_subcommand("cod", "Call of Duty: United Offensive animation trees");
  group->require_subcommand(1);

  // cod tree FILE.atr
  {
    auto* verb = group->add_subcommand("tree", "load one .atr tree as the stock loader does");
    static std::string file, refs, refs_file, assets, manifest, out_file;
    static std::vector<std::string> game_dirs;
    static bool anim_check = false, keep_going = false, dot = false, svg = false;
    verb->add_option("file", file, "the .atr tree")->required();
    auto* r1 = verb->add_option("--refs", refs, "the names scripts reference: a,b,c");
    auto* r2 = verb->add_option("--refs-file", refs_file, "a file of referenced names");
    r1->excludes(r2);
    verb->add_flag("--anim-check", anim_check, "com_animCheck 1: keep every node");
    verb->add_option("--assets", assets, "folder of xanim assets (a leaf must exist there)");
    verb->add_option("--manifest", manifest, "JSON manifest of xanim loop and length");
    verb->add_option("--game-dir", game_dirs,
                     "a game folder (main/, uo/; lowest priority first) whose loose files and "
                     ".pk3s supply the xanim assets");
    verb->add_flag("--keep-going", keep_going,
                   "record every error and recover (stock: stop at the first)");
    verb->add_flag("--json", cli.json, "one JSON document");
    auto* d = verb->add_flag("--dot", dot, "print the tree as Graphviz source");
    auto* s = verb->add_flag("--svg", svg, "print the tree as SVG (Graphviz `dot`)");
    d->excludes(s);
    verb->add_option("-o,--out", out_file, "write the --dot / --svg / --json output to a file");
    verb->callback([&cli] {
      cod::LoadOptions o;
      const std::filesystem::path path(file);
      std::error_code ec;
      if (std::filesystem::is_directory(path, ec)) {
        throw Error("is a folder; `cod tree` loads one .atr file (`cod lint` takes a folder)",
                    std::nullopt, file);
      }
      o.tree_name = cod::to_lower(path.stem().string());
      o.file = file;
      if (!refs.empty()) split_refs(refs, "--refs", false, o.references);
      if (!refs_file.empty()) split_refs(file_text(refs_file), refs_file, true, o.references);
      o.anim_check = anim_check;
      o.keep_going = keep_going;
      cod::AssetResolver resolver;
      cod::GameFiles files;
      for (const std::string& g : game_dirs) files.add_folder(g);
      if (!game_dirs.empty()) resolver.set_game_files(&files, true);
      if (!assets.empty()) resolver.set_directory(assets);
      if (!manifest.empty()) resolver.load_manifest(manifest);
      o.assets = &resolver;
      for (const auto& d : files.diagnostics()) cli.err << d.to_string() << "\n";
      const cod::LoadResult r = cod::load_anim_tree(file_text(file), o);
      if (cli.json && !dot && !svg) {
        // Streamed node by node: a tree of millions of nodes is never one JSON value.
        std::ofstream file_out;
        if (!out_file.empty()) {
          file_out.open(out_file, std::ios::binary);
          if (!file_out) throw Error("cannot write the file", std::nullopt, out_file);
        }
        std::ostream& sink = out_file.empty() ? cli.out : file_out;
        cod::write_tree_json(sink, r);
        sink << "\n";
        if (!sink) throw Error("cannot write the output", std::nullopt, out_file);
      } else {
        const std::string text = dot   ? cod::tree_dot(r)
                                 : svg ? cod::render_svg(cod::tree_dot(r))
                                       : cod::tree_text(r);
        if (!out_file.empty()) {
          write_text(out_file, text);
        } else {
          cli.out << text;
        }
      }
      if ((dot || svg) && !r.loaded()) {
        for (const auto& diag : r.diagnostics) cli.err << diag.to_string() << "\n";
      }
      if (!r.loaded()) cli.fail("", first_error(r.diagnostics, file, "the tree does not load"));
    });
  }

  // cod lint MOD_DIR
  {
    auto* verb = group->add_subcommand(
        "lint", "lint a mod level by level, as the game loads each one, against the game");
    static std::string dir, manifest, level;
    static std::vector<std::string> game_dirs;
    static bool anim_check = false;
    verb->add_option("mod_dir", dir, "the mod folder (scripts, animtrees/, xanim/, .pk3s)")
        ->required();
    verb->add_option("--game-dir", game_dirs,
                     "a game folder (main/, uo/; lowest priority first): loose files and .pk3s "
                     "below the mod in the search order");
    verb->add_option("--level", level,
                     "lint one level (maps/NAME.gsc, mp/NAME, or mp/playeranim.script)");
    verb->add_option("--manifest", manifest, "JSON manifest of xanim loop and length");
    verb->add_flag("--anim-check", anim_check, "com_animCheck 1: keep every node");
    verb->add_flag("--json", cli.json, "one JSON document");
    verb->callback([&cli] {
      cod::LevelLintOptions lo;
      lo.mod_dir = dir;
      lo.game_dirs.assign(game_dirs.begin(), game_dirs.end());
      lo.anim_check = anim_check;
      if (!manifest.empty()) lo.manifest = manifest;
      if (!level.empty()) lo.level = level;
      // Only --level --json prints each reference; otherwise they are counted, not held.
      lo.keep_references = !level.empty() && cli.json;
      const cod::LintReport report = cod::lint_levels(lo);
      const std::vector<cod::Diagnostic> unique = report.unique_diagnostics();
      size_t errors = 0, warnings = 0, references = 0;
      for (const auto& d : unique) (d.is_error() ? errors : warnings) += 1;
      std::set<std::string> trees;
      for (const auto& l : report.levels) {
        references += l.link.reference_count;
        for (const auto& t : l.link.trees) trees.insert(t.name);
      }
      if (cli.json) {
        // Written level by level: one level's JSON at a time, never the whole report's (issue 26).
        cli.out << "{\"levels\":[";
        for (size_t i = 0; i < report.levels.size(); ++i) {
          cli.out << (i ? "," : "") << dump_json(level_json(report.levels[i], !level.empty()));
        }
        Json fs = Json::array();
        for (const auto& d : report.diagnostics) fs.push_back(cod::diagnostic_json(d));
        cli.out << "],\"diagnostics\":" << dump_json(std::move(fs)) << ",\"summary\":"
                << Json{{"levels", report.level_count()},
                        {"units", report.levels.size()},
                        {"trees", trees.size()},
                        {"references", references},
                        {"errors", errors},
                        {"warnings", warnings}}
                       .dump()
                << "}\n";
      } else {
        // Each diagnostic once, under the first level that reports it.
        std::set<std::tuple<std::string, int, int, std::string>> shown;
        auto fresh = [&](const std::vector<cod::Diagnostic>& ds) {
          std::vector<cod::Diagnostic> out;
          for (const auto& d : ds) {
            if (shown.insert({d.file, d.line, d.column, d.message}).second) out.push_back(d);
          }
          return out;
        };
        print_grouped(cli, fresh(report.diagnostics));
        for (const auto& l : report.levels) {
          const auto ds = fresh(l.link.diagnostics);
          if (ds.empty()) continue;
          cli.out << fmt::format("level {}: {} scripts, {} trees, {} references\n", l.name,
                                 l.link.scripts.size(), l.link.trees.size(),
                                 l.link.reference_count);
          print_grouped(cli, ds);
        }
        cli.out << fmt::format("{} levels, {} trees, {} references, {} errors, {} warnings\n",
                               report.level_count(), trees.size(), references, errors, warnings);
      }
      if (errors > 0) {
        cli.fail(dir, fmt::format("{} errors (first: {})", errors,
                                  first_error(unique, dir, "see the diagnostics")));
      }
    });
  }

  // cod sample XANIM --time T
  {
    auto* verb = group->add_subcommand(
        "sample", "each part's rotation and translation of an xanim as the game evaluates them");
    static std::string file;
    static float time = 0, seconds = 0;
    static bool windows = false;
    verb->add_option("xanim", file, "the xanim v14 file")->required();
    auto* t = verb->add_option("--time", time, "the normalised time t in [0, 1] (the game's)")
                  ->check(CLI::Range(0.0f, 1.0f));
    auto* s = verb->add_option("--seconds", seconds,
                               "a clip time in seconds instead (t = seconds x frequency, "
                               "wrapped when looped, else clamped to 1)")
                  ->check(CLI::NonNegativeNumber);
    t->excludes(s);
    verb->add_flag("--windows", windows,
                   "the frame index from the unrounded product t x N (the Windows build)");
    verb->add_flag("--json", cli.json, "one JSON document");
    verb->callback([&cli, t, s] {
      const std::vector<uint8_t> bytes = read_file(file);
      const cod::XAnimFile x = [&] {
        try {
          return cod::parse_xanim(bytes, std::filesystem::path(file).filename().string());
        } catch (const Error& e) {
          throw e.with_file(file);
        }
      }();
      float at = time;
      if (s->count() > 0) {
        at = finite_option_value(double{seconds} * x.header.frequency(), "--seconds");
        if (at >= 1.0f) at = x.header.looped() ? at - std::floor(at) : 1.0f;
      } else if (t->count() == 0) {
        at = 0;
      }
      const Json j = cod::sample_json(
          x, at, windows ? cod::XAnimPlatform::kWindows : cod::XAnimPlatform::kLinux);
      if (cli.json) {
        cli.out << dump_json(j) << "\n";
        return;
      }
      cli.out << fmt::format("xanim '{}' at t = {} (frame {}{})\n", x.name, at,
                             j["frame"].get<uint32_t>(), j["last"].get<bool>() ? ", last key" : "");
      for (const Json& p : j["parts"]) {
        const Json& q = p["rotation"];
        const Json& v = p["translation"];
        cli.out << fmt::format("  {}: rotation ({}, {}, {}, {}) translation ({}, {}, {})\n",
                               p["name"].get<std::string>(), q[0].dump(), q[1].dump(), q[2].dump(),
                               q[3].dump(), v[0].dump(), v[1].dump(), v[2].dump());
      }
    });
  }

  // cod pose SCENARIO --update K -o pose.glb (issue 26)
  {
    auto* verb = group->add_subcommand("pose", "write the blended pose of one update of a play "
                                               "scenario as glTF");
    static ScenarioPoseArgs args;
    add_scenario_pose_options(*verb, args, "call_of_duty");
    verb->add_flag("--json", cli.json, "report as JSON, with the update's trace line");
    verb->callback([&cli] {
      Json line;
      const Animated posed =
          write_scenario_pose(args, [&](const Json& scenario, const std::filesystem::path& dir) {
            std::optional<Animated> at_update;
            cod::run_scenario(scenario, dir, [&](int k, const cod::TreePlayer& player) {
              if (k < args.update) return true;
              at_update = cod::pose_to_neutral(player, fmt::format("update {}", k));
              line = cod::update_json(k, 0, player);
              return false;
            });
            return at_update;
          });
      if (cli.json) {
        line.erase("dt");
        cli.out << Json{{"update", args.update}, {"output", args.out_path}, {"trace", line}}.dump()
                << "\n";
      } else {
        cli.out << fmt::format("{}: the pose at update {} ({} parts)\n", args.out_path,
                               args.update, posed.skeleton.num_joints() - 1);
      }
    });
  }

  // cod refs SCRIPT.gsc... --tree T.atr...
  {
    auto* verb = group->add_subcommand(
        "refs", "the animation references of scripts and their packed values");
    static std::vector<std::string> scripts, trees, game_dirs;
    static std::string assets, manifest;
    static bool anim_check = false;
    verb->add_option("scripts", scripts, "the .gsc scripts")->required();
    verb->add_option("--tree", trees, "an .atr tree the scripts use (its name is the file name)");
    verb->add_option("--assets", assets, "folder of xanim assets");
    verb->add_option("--manifest", manifest, "JSON manifest of xanim loop and length");
    verb->add_option("--game-dir", game_dirs,
                     "a game folder (main/, uo/; lowest priority first) supplying trees the "
                     "--tree options do not name, and xanim assets");
    verb->add_flag("--anim-check", anim_check, "com_animCheck 1: keep every node");
    verb->add_flag("--json", cli.json, "one JSON document");
    verb->callback([&cli] {
      cod::AssetResolver resolver;
      cod::GameFiles files;
      for (const std::string& g : game_dirs) files.add_folder(g);
      if (!game_dirs.empty()) resolver.set_game_files(&files, true);
      if (!assets.empty()) resolver.set_directory(assets);
      if (!manifest.empty()) resolver.load_manifest(manifest);
      // Each --tree is read now: one a script never selects still fails with its name (one
      // `error:` line), not silently.
      std::map<std::string, cod::SourceText> by_name;
      for (const std::string& t : trees) {
        std::error_code ec;
        if (std::filesystem::is_directory(t, ec)) {
          throw Error("is a folder, not an .atr file", std::nullopt, t);
        }
        by_name[cod::to_lower(std::filesystem::path(t).stem().string())] =
            cod::SourceText{t, file_text(t)};
      }
      cod::LinkOptions o;
      o.anim_check = anim_check;
      o.assets = &resolver;
      const auto in_game = cod::tree_finder(files);
      o.find_tree = [&by_name, &in_game](const std::string& name) -> std::optional<cod::SourceText> {
        auto it = by_name.find(name);
        if (it == by_name.end()) return in_game(name);
        return it->second;
      };
      std::vector<std::filesystem::path> paths(scripts.begin(), scripts.end());
      for (const auto& d : files.diagnostics()) cli.err << d.to_string() << "\n";
      const cod::LinkResult r = cod::link_scripts(paths, o);
      if (cli.json) {
        cli.out << dump_json(link_json(r)) << "\n";
      } else {
        for (const auto& rr : r.references) {
          const bool anim = rr.ref->kind == cod::ScriptReference::Kind::kAnimation;
          cli.out << fmt::format("{}:{}:{}: {} tree '{}' (#{})", rr.ref->file(), rr.ref->line,
                                 rr.ref->column, anim ? "%" + rr.ref->name : std::string("#animtree"),
                                 rr.ref->tree, rr.tree_index);
          if (rr.node) cli.out << fmt::format(" node {}", *rr.node);
          cli.out << (rr.value ? fmt::format(" = 0x{:08x}\n", *rr.value) : std::string(" = ?\n"));
        }
        print_grouped(cli, r.diagnostics);
      }
      if (cod::has_error(r.diagnostics)) {
        cli.fail("", first_error(r.diagnostics, scripts.front(), "the references do not link"));
      }
    });
  }
}

}  // namespace animkit::cli
