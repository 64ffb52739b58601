// `animkit view FILE... [--port N]` (issue 8): converts the files (any format animkit reads) to
// glTF in a temporary folder, serves the viewer page (web/), three.js (node_modules/three) and the
// converted files on 127.0.0.1, prints the URL and serves until Ctrl-C.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <iostream>

#include "animkit/core/safe_path.h"
#include "animkit/gltf/export.h"
#include "cli.h"
#include "http_server.h"

namespace animkit::cli {

namespace {

namespace fs = std::filesystem;

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

constexpr uint16_t kDefaultPort = 8765;

bool is_root(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "web" / "index.html", ec) &&
         fs::is_directory(dir / "node_modules" / "three", ec);
}

// The folder holding web/ and node_modules/: --root, else $ANIMKIT_ROOT, else the source tree
// this program was compiled from (this file's path, compiled in), else the nearest folder above
// the executable or the current folder that has both.
fs::path find_root(const std::string& given, std::string& tried) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("ANIMKIT_ROOT"); env && *env) return env;
  std::vector<fs::path> candidates{fs::path(__FILE__).parent_path().parent_path().parent_path()};
  std::error_code ec;
  for (fs::path p : {fs::read_symlink("/proc/self/exe", ec).parent_path(), fs::current_path(ec)}) {
    for (; !p.empty() && p != p.root_path(); p = p.parent_path()) candidates.push_back(p);
  }
  for (const fs::path& c : candidates) {
    if (is_root(c)) return c;
    tried += " " + c.string();
  }
  return {};
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "animkit-view-XXXXXX").string();
    if (!::mkdtemp(templ.data())) throw Error("cannot make a temporary folder");
    path = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

struct Converted {
  std::string name;    // file name under files/
  std::string source;  // what it was made from
  size_t joints = 0, clips = 0;
  bool copied = false;  // a .glb / .gltf served as it is
  size_t meshes = 0;    // a model's skinned meshes in the converted file (issue 27)
};

// A pose trace (`animkit play SCENARIO --pose --json`, issue 14): JSON lines whose first line
// has "update" and a "pose" with "model". The page reads it itself (web/trace.js).
bool is_pose_trace(const std::vector<uint8_t>& bytes) {
  const auto end = std::find(bytes.begin(), bytes.end(), uint8_t{'\n'});
  const Json first = Json::parse(bytes.begin(), end, nullptr, false);
  return first.is_object() && first.contains("update") && first.contains("pose") &&
         first["pose"].is_object() && first["pose"].contains("model");
}

// Opens the files and groups them: each file joins the group before it when merge_neutral
// accepts the pair (a skeleton and its clips, or clips of the same skeleton), else starts its
// own. Each group becomes one .glb. A .glb / .gltf no format reads, or a pose trace, is served
// as it is.
std::vector<Converted> convert(Cli& cli, const std::vector<std::string>& files,
                               const Options& options, OutputFolder& out) {
  using Group = std::vector<std::unique_ptr<Document>>;
  struct Item {
    Group group;         // documents merged into one .glb
    std::string source;  // the files they came from
    std::string copy;    // or a .glb / .gltf served as it is
  };
  std::vector<Item> items;
  constexpr size_t kNone = ~size_t{0};
  size_t last_group = kNone;  // the item a clip-only file may join
  // True when the group plus its last document still make one character: merge_neutral accepts
  // them, and a last document with a skeleton of its own has the group's very skeleton (same
  // joint names; merge_neutral would otherwise keep the first and drop the second).
  auto merges = [](const Group& g) {
    try {
      const Animated merged = merge_neutral(g);
      const std::optional<Animated> last = g.back()->to_neutral();
      return !last || last->skeleton.num_joints() == 0 ||
             last->skeleton.names == merged.skeleton.names;
    } catch (const Error&) {
      return false;
    }
  };
  if (files.empty()) {
    items.push_back({open_documents(cli, files, options), "(engine options)", {}});
  }
  // A folder stands for the files in it (not below it), in name order.
  std::vector<std::string> paths;
  for (const std::string& f : files) {
    std::error_code ec;
    if (!fs::is_directory(f, ec)) {
      paths.push_back(f);
      continue;
    }
    std::vector<std::string> inside;
    for (const auto& e : fs::directory_iterator(f)) {
      if (e.is_regular_file()) inside.push_back(e.path().string());
    }
    std::sort(inside.begin(), inside.end());
    paths.insert(paths.end(), inside.begin(), inside.end());
  }
  const bool forced = options.count("format") != 0;
  for (const std::string& f : paths) {
    const std::string ext = fs::path(f).extension().string();
    // Files no format claims: a .glb / .gltf is served as it is; others are skipped with a word
    // (so `animkit view demo-out` works). A file of a known format that does not parse is an
    // error, as everywhere.
    const std::vector<uint8_t> bytes = read_file(f);
    if (!forced && !cli.registry.detect(f, bytes)) {
      if (ext == ".glb" || ext == ".gltf" || is_pose_trace(bytes)) {
        items.push_back({{}, f, f});
        last_group = kNone;
      } else {
        std::cerr << fmt::format("view: {}: not a format animkit reads, skipped\n", f);
      }
      continue;
    }
    std::unique_ptr<Document> doc = cli.registry.open(f, options);
    if (!doc->to_neutral()) {
      std::cerr << fmt::format(
          "view: {}: holds no skeleton or animation on its own, skipped (files that need each "
          "other go through the engine options, e.g. --skeleton S --pack P)\n",
          f);
      continue;
    }
    if (last_group != kNone) {
      Item& item = items[last_group];
      item.group.push_back(std::move(doc));
      if (merges(item.group)) {
        item.source += ", " + f;
        continue;
      }
      doc = std::move(item.group.back());
      item.group.pop_back();
    }
    items.emplace_back();
    items.back().group.push_back(std::move(doc));
    items.back().source = f;
    last_group = items.size() - 1;
  }
  std::vector<Converted> done;
  for (const Item& item : items) {
    const std::string first = item.source.substr(0, item.source.find(", "));
    const std::string stem = files.empty() ? "animkit" : fs::path(first).stem().string();
    // A copied glTF is served as .glb (as before); a trace keeps its own name.
    std::string ext = fs::path(item.copy).extension().string();
    if (item.copy.empty() || ext == ".glb" || ext == ".gltf") ext = ".glb";
    if (ext.empty()) ext = ".jsonl";
    // Names come from the input files' names: safe, numbered, inside the folder (issue 30).
    Converted c{out.claim(stem, ext), item.source};
    if (!item.copy.empty()) {
      out.write(c.name, read_file(item.copy));
      c.copied = true;
    } else {
      std::optional<MeshSet> meshes;  // a model's skinned meshes (issues 27, 28)
      const Animated a =  // errors name the group's files (issue 31)
          merge_neutral(item.group, std::vector<std::string>(item.group.size(), item.source), meshes);
      c.joints = a.skeleton.num_joints();
      c.clips = a.clips.size();
      c.meshes = meshes ? meshes->meshes.size() : 0;
      out.write(c.name, gltf::to_glb(gltf::build(a, {}, meshes ? &*meshes : nullptr)));
    }
    done.push_back(c);
  }
  if (done.empty()) {  // the error line names what was given (issue 31, item 4)
    throw Error("nothing to view (no file animkit reads, nor a .glb)", std::nullopt,
                fmt::format("{}", fmt::join(files, ", ")));
  }
  return done;
}

std::string url_encode(const std::string& s) {
  std::string out;
  for (const unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

}  // namespace

void add_view_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand(
      "view",
      "open files in the browser viewer: converts them to glTF in a temporary folder and serves "
      "the page on 127.0.0.1 until Ctrl-C");
  static std::vector<std::string> files;
  static Options options;
  static int port = -1;
  static std::string root, clip;
  static float time = -1;
  verb->add_option("files", files,
                   "files or folders to view (any format animkit reads, or .glb; other files are "
                   "skipped)");
  verb->add_option("--port", port,
                   fmt::format("port on 127.0.0.1 (default {}, or a free one when taken; 0: any "
                               "free port)",
                               kDefaultPort));
  verb->add_option("--root", root,
                   "folder holding web/ (the page) and node_modules/three (npm ci); default "
                   "$ANIMKIT_ROOT, else the source tree animkit was built from");
  verb->add_option("--clip", clip, "clip to show first (put in the URL)");
  verb->add_option("--time", time, "time in seconds to show first (put in the URL)");
  verb->add_flag("--json", cli.json, "print {\"url\", \"port\", \"files\"} as one JSON line");
  add_engine_options(*verb, cli, options);
  verb->callback([&cli] {
    std::string tried;
    const fs::path base = find_root(root, tried);
    if (base.empty() || !is_root(base)) {
      throw Error(fmt::format(
          "cannot find web/index.html and node_modules/three{}; pass --root or set ANIMKIT_ROOT "
          "(and run `npm ci` there)",
          base.empty() ? " (looked in" + tried + ")" : " under " + base.string()));
    }
    TempDir temp;
    OutputFolder out(temp.path);
    const std::string index_name = out.claim("index", ".json");  // the page asks for index.json
    const std::vector<Converted> done = convert(cli, files, options, out);
    Json index = Json::array();
    for (const Converted& c : done) {
      index.push_back({{"name", c.name},
                       {"source", c.source},
                       {"joints", c.joints},
                       {"clips", c.clips},
                       {"meshes", c.meshes},
                       {"copied", c.copied}});
    }
    const std::string index_text = dump_json(Json{{"files", index}}, 1) + "\n";
    out.write(index_name, {reinterpret_cast<const uint8_t*>(index_text.data()), index_text.size()});

    // The page and three.js are public; the user's files are served only under a secret prefix
    // printed in the URL (issue 30). The page is mounted there too, so its relative
    // "files/NAME" requests carry the token.
    const std::string token = random_token();
    const std::vector<Mount> mounts{{"/", base / "web"},
                                    {"/node_modules/", base / "node_modules"},
                                    {"/" + token + "/", base / "web"},
                                    {"/" + token + "/files/", temp.path}};
    std::unique_ptr<StaticServer> server;
    try {
      server = std::make_unique<StaticServer>(mounts, port < 0 ? kDefaultPort : port);
    } catch (const Error&) {
      if (port >= 0) throw;
      server = std::make_unique<StaticServer>(mounts, 0);  // the default port is taken
    }
    std::string url = fmt::format("http://127.0.0.1:{}/{}/?", server->port(), token);
    for (size_t i = 0; i < done.size(); ++i) {
      url += fmt::format("{}src=files/{}", i ? "&" : "", url_encode(done[i].name));
    }
    if (!clip.empty()) url += "&clip=" + url_encode(clip);
    if (time >= 0) url += fmt::format("&t={}", time);
    if (cli.json) {
      cli.out << dump_json(Json{{"url", url},
                      {"port", server->port()},
                      {"folder", temp.path.string()},
                      {"files", index}})
              << std::endl;
    } else {
      for (const Converted& c : done) {
        cli.out << (c.copied ? fmt::format("{} <- {} (served as it is)\n", c.name, c.source)
                             : fmt::format("{} <- {} ({} joints, {} clips{})\n", c.name, c.source,
                                           c.joints, c.clips,
                                           c.meshes ? fmt::format(", {} meshes", c.meshes) : ""));
      }
      cli.out << "view: " << url << "\n(Ctrl-C to stop)" << std::endl;
    }
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    struct sigaction old_int {
    }, old_term{};
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    server->serve(g_stop);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    if (!cli.json) cli.out << "view: stopped\n";
  });
}

}  // namespace animkit::cli
