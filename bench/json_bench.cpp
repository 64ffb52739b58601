// Times parse_json (issue 31, item 1) on two generated files and Python's `json.loads` on the
// same bytes in the same run: Python is the machine reference, and the table prints the ratio.
//   flat: 200,000 `{}` in an array (the case the callback parser took 8.3 s over);
//   scenario: a 50 MB array of scenario-like actions (numbers, strings with escapes, arrays).
// Short run: bench_json --benchmark_min_time=0.5
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "animkit/core/json_read.h"
#include "animkit/core/registry.h"

namespace animkit {
namespace {

std::string flat_text() {
  std::string s = "[";
  for (int i = 0; i < 200000; ++i) s += i ? ",{}" : "{}";
  return s + "]";
}

std::string scenario_text() {
  std::string s = R"({"engine": "warriors", "actions": [)";
  for (int i = 0; s.size() < 50'000'000; ++i) {
    s += fmt::format(R"({}{{"at": {}, "do": "play", "anim": {}, "speed": 1.25, "name": "caf\u00e9 \"{}\"", "layers": [1, 2.5, -3e-2]}})",
                     i ? ", " : "", i * 0.016666, i % 97, i);
  }
  return s + "]}";
}

const std::map<std::string, std::string>& texts() {
  static const std::map<std::string, std::string> t{{"flat", flat_text()}, {"scenario", scenario_text()}};
  return t;
}

void BM_ParseJson(benchmark::State& state, const std::string& name) {
  const std::string& text = texts().at(name);
  for (auto _ : state) {
    Json j = parse_json(text, name);
    benchmark::DoNotOptimize(j);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK_CAPTURE(BM_ParseJson, flat, std::string("flat"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseJson, scenario, std::string("scenario"))->Unit(benchmark::kMillisecond);

// Python's best of three `json.loads` of the file, in seconds (NaN when python3 is missing).
double python_seconds(const std::filesystem::path& file) {
  const std::string command = fmt::format(
      "python3 -c 'import json, sys, time\ntext = open(sys.argv[1], \"rb\").read()\nbest = 1e9\n"
      "for _ in range(3):\n  t = time.perf_counter(); json.loads(text); best = min(best, time.perf_counter() - t)\n"
      "print(best)' {}",
      file.string());
  FILE* p = popen(command.c_str(), "r");
  if (!p) return NAN;
  double seconds = NAN;
  if (std::fscanf(p, "%lf", &seconds) != 1) seconds = NAN;
  pclose(p);
  return seconds;
}

class Reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) seconds_[r.run_name.str()] = r.GetAdjustedRealTime() / 1e3;  // ms
  }
  void PrintTable() const {
    std::printf("\n%-10s %10s %12s %12s %8s\n", "file", "MB", "animkit s", "python s", "ratio");
    for (const auto& [name, text] : texts()) {
      const auto it = seconds_.find("BM_ParseJson/" + name);
      if (it == seconds_.end()) continue;
      const auto file = std::filesystem::temp_directory_path() / ("animkit_bench_" + name + ".json");
      write_text(file, text);
      const double python = python_seconds(file);
      std::filesystem::remove(file);
      std::printf("%-10s %10.1f %12.4f %12.4f %8.2f\n", name.c_str(), text.size() / 1e6, it->second,
                  python, it->second / python);
    }
  }

 private:
  std::map<std::string, double> seconds_;
};

}  // namespace
}  // namespace animkit

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  animkit::Reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintTable();
  benchmark::Shutdown();
  return 0;
}
