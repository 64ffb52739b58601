// `animkit survey DIR`: opens every file under DIR that a registered format recognises; prints
// counts per format and every failure (a progress bar on stderr when it is a terminal).
// Files are opened in parallel on oneTBB's pool. Exit 1 when any recognised file fails to open.
#include <fmt/format.h>
#include <unistd.h>

#include <tbb/parallel_for.h>

#include <atomic>
#include <fstream>
#include <mutex>

#include "cli.h"

namespace animkit::cli {

namespace {

std::vector<uint8_t> read_head(const std::filesystem::path& path, size_t n) {
  std::ifstream in(path, std::ios::binary);
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
  auto* verb = app.add_subcommand("survey", "open every recognised file under a folder");
  static std::string dir;
  static Options options;
  verb->add_option("dir", dir, "folder to walk")->required()->check(CLI::ExistingDirectory);
  verb->add_flag("--json", cli.json, "one JSON document");
  add_engine_options(*verb, cli, options);
  verb->callback([&cli] {
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (entry.is_regular_file()) paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    const bool bar = isatty(STDERR_FILENO) && !cli.json;
    // Files are opened in parallel (oneTBB); each result lands in its own slot, so the report
    // is in path order whatever the thread count.
    struct Outcome {
      const Format* format = nullptr;
      std::string error;
    };
    std::vector<Outcome> outcomes(paths.size());
    std::atomic<size_t> done{0};
    std::mutex bar_mutex;
    tbb::parallel_for(size_t{0}, paths.size(), [&](size_t i) {
      Outcome& o = outcomes[i];
      const std::vector<uint8_t> head = read_head(paths[i], 64 * 1024);
      o.format = cli.registry.detect(paths[i], head);
      if (o.format) {
        Options forced = options;
        forced["format"] = o.format->name;
        try {
          cli.registry.open(paths[i], forced);
        } catch (const std::exception& e) {
          o.error = e.what();
        }
      }
      const size_t n = ++done;
      if (bar) {
        std::unique_lock<std::mutex> lock(bar_mutex, std::try_to_lock);  // skip a redraw if busy
        if (lock) progress(n, paths.size());
      }
    });
    std::map<std::string, int> kinds;
    Json failures = Json::array();
    size_t recognised = 0;
    for (size_t i = 0; i < paths.size(); ++i) {
      const Outcome& o = outcomes[i];
      if (!o.format) continue;
      ++recognised;
      if (o.error.empty()) {
        ++kinds[o.format->name];
      } else {
        Json f;  // a file name may hold any byte: the core rule (issue 31)
        put_text(f, "file", paths[i].string());
        f["format"] = o.format->name;
        put_text(f, "error", o.error);
        failures.push_back(std::move(f));
      }
    }
    if (bar) {
      progress(paths.size(), paths.size());
      std::cerr << "\n";
    }
    if (cli.json) {
      cli.out << dump_json(Json{{"files", paths.size()}, {"recognised", recognised}, {"kinds", kinds},
                                {"failures", failures}}) << "\n";
    } else {
      cli.out << fmt::format("{} files, {} recognised, {} failed\n", paths.size(), recognised,
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
