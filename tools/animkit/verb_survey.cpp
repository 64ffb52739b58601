// `animkit survey PATH...`: opens every file under each folder (and each file) given that a
// registered format recognises; prints counts per format and every failure (a progress bar on
// stderr when it is a terminal). `--json --each` prints one JSON line per file instead, the lines
// `animkit.batch` streams from a cluster (issue 33, item 6).
// Files are opened in parallel on oneTBB's pool. Exit 1 when any recognised file fails to open,
// or any entry cannot be looked at (unreadable, a symlink loop); the report is always printed.
#include <fmt/format.h>
#include <unistd.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <new>

#include "animkit/core/text.h"
#include "animkit/core/work_budget.h"
#include "cli.h"

namespace animkit::cli {

namespace {

namespace fs = std::filesystem;

struct Entry {
  fs::path path;
  std::string error;  // why the walk could not look at it (then it is not opened)
};

// Every file below `root`, in name order, walked by hand so that one bad entry costs one failure,
// not the run (issue 30): a folder that cannot be listed, a symlink that loops or dangles. A
// symlink to a file is followed; a symlink to a folder is not (no cycles, no leaving the tree).
void walk(const fs::path& root, std::vector<Entry>& found) {
  std::error_code ec0;
  const fs::file_status top = fs::symlink_status(root, ec0);
  if (ec0 || !fs::exists(top)) {  // a path named that is not there: a failure of its own
    found.push_back({root, ec0 ? ec0.message() : "no such file or folder"});
    return;
  }
  if (!fs::is_directory(top)) {  // a file given by name: surveyed as the walk would
    const fs::file_status target = fs::status(root, ec0);
    if (ec0) found.push_back({root, ec0.message()});
    else if (fs::is_regular_file(target)) found.push_back({root, {}});
    else found.push_back({root, "not a regular file"});
    return;
  }
  std::vector<fs::path> folders{root};
  while (!folders.empty()) {
    const fs::path folder = folders.back();
    folders.pop_back();
    std::error_code ec;
    fs::directory_iterator it(folder, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const fs::path p = it->path();
      std::error_code ec2;
      const fs::file_status own = it->symlink_status(ec2);
      if (!ec2 && fs::is_directory(own)) {
        folders.push_back(p);
        continue;
      }
      const fs::file_status target = fs::status(p, ec2);
      if (ec2) {
        found.push_back({p, ec2.message()});
      } else if (fs::is_regular_file(target)) {
        found.push_back({p, {}});
      }  // a symlink to a folder, a device, a FIFO, a socket: not a file to survey
    }
    if (ec) found.push_back({folder, "cannot list the folder: " + ec.message()});
  }
}

// A file's head; throws when the file cannot be opened (unreadable: a failure of its own).
std::vector<uint8_t> read_head(const fs::path& path, size_t n) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot open the file: {}", std::strerror(errno)), std::nullopt,
                       path.string());
  std::vector<uint8_t> head(n);
  in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(n));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

void progress(size_t done, size_t total) {
  const int width = 30;
  const int filled = total ? static_cast<int>(width * done / total) : width;
  std::cerr << fmt::format("\r[{}{}] {}/{}", std::string(filled, '#'),
                           std::string(width - filled, ' '), done, total)
            << std::flush;
}

}  // namespace

void add_survey_verb(CLI::App& app, Cli& cli) {
  auto* verb = app.add_subcommand("survey", "open every recognised file under folders (or files)");
  static std::vector<std::string> paths;
  static bool each = false;
  static Options options;
  // Not CLI::ExistingPath: a dangling name given is a failure of the report, as in a folder.
  verb->add_option("path", paths, "folders to walk, or files")->required();
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->add_flag("--each", each,
                 "with --json: one JSON line per file, {\"file\", \"format\"} and \"error\" when it "
                 "failed (\"format\" is \"\" for a file no format recognises)");
  add_engine_options(*verb, cli, options);
  verb->callback([&cli] {
    std::vector<Entry> entries;
    for (const std::string& p : paths) walk(p, entries);
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.path < b.path; });
    const std::string dir = paths.size() == 1 ? paths[0] : fmt::format("{} paths", paths.size());
    const bool bar = isatty(STDERR_FILENO) && !cli.json;
    // Files are opened in parallel (oneTBB); each result lands in its own slot, so the report
    // is in path order whatever the thread count. Nothing a file does leaves its slot: any
    // exception becomes that file's failure and the report is always printed (issue 30).
    struct Outcome {
      const Format* format = nullptr;
      std::string error;
    };
    std::vector<Outcome> outcomes(entries.size());
    std::atomic<size_t> done{0};
    std::mutex bar_mutex;
    tbb::parallel_for(size_t{0}, entries.size(), [&](size_t i) {
      Outcome& o = outcomes[i];
      const fs::path& path = entries[i].path;
      o.error = entries[i].error;
      const WorkScope work;  // each file its own --max-steps budget (core/work_budget.h)
      try {
        if (o.error.empty()) {
          const std::vector<uint8_t> head = read_head(path, 64 * 1024);
          o.format = cli.registry.detect(path, head);
          if (o.format) {
            Options forced = options;
            forced["format"] = o.format->name;
            cli.registry.open(path, forced);
          }
        }
      } catch (const std::bad_alloc&) {
        o.error = "out of memory";
      } catch (const std::exception& e) {
        o.error = e.what();
      } catch (...) {
        o.error = "unknown failure";
      }
      const size_t n = ++done;
      if (bar) {
        std::unique_lock<std::mutex> lock(bar_mutex, std::try_to_lock);  // skip a redraw if busy
        if (lock) progress(n, entries.size());
      }
    });
    std::map<std::string, int> kinds;
    Json failures = Json::array();
    size_t recognised = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
      const Outcome& o = outcomes[i];
      if (o.format) ++recognised;
      if (o.error.empty()) {
        if (o.format) ++kinds[o.format->name];
        continue;
      }
      Json f;  // a file name may hold any byte: the core rule (issue 31)
      put_text(f, "file", entries[i].path.string());
      f["format"] = o.format ? o.format->name : "";
      put_text(f, "error", o.error);
      failures.push_back(std::move(f));
    }
    if (bar) {
      progress(entries.size(), entries.size());
      std::cerr << "\n";
    }
    if (cli.json && each) {
      for (size_t i = 0; i < entries.size(); ++i) {
        Json line;
        put_text(line, "file", entries[i].path.string());
        line["format"] = outcomes[i].format ? outcomes[i].format->name : "";
        if (!outcomes[i].error.empty()) put_text(line, "error", outcomes[i].error);
        cli.out << dump_json(line) << "\n";
      }
    } else if (cli.json) {
      cli.out << dump_json(Json{{"files", entries.size()}, {"recognised", recognised},
                                {"kinds", kinds}, {"failures", failures}})
              << "\n";
    } else {
      cli.out << fmt::format("{} files, {} recognised, {} failed\n", entries.size(), recognised,
                             failures.size());
      for (const auto& [k, n] : kinds) cli.out << fmt::format("  {:<24} {}\n", k, n);
      for (const Json& f : failures) cli.out << "error: " << f["error"].get<std::string>() << "\n";
    }
    if (!failures.empty()) {
      cli.fail(dir, fmt::format("{} of {} recognised files failed (first: {})", failures.size(),
                                recognised, failures[0]["error"].get<std::string>()));
    }
  });
}

}  // namespace animkit::cli
