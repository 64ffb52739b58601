// Times parse_json (issue 31, item 1) on two generated files beside, in the same run: its exact
// path alone (nlohmann's SAX parser), plain nlohmann Json::parse, Python's `json.loads` on the
// same bytes (/usr/bin/python3), and a machine reference (a fixed multiply-add loop). The table
// prints seconds and each reader's ratio to Python. The machine is shared: compare the ratios.
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
#include "animkit/core/limits.h"
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

void BM_ParseJsonExact(benchmark::State& state, const std::string& name) {
  const std::string& text = texts().at(name);
  for (auto _ : state) {
    Json j = parse_json_exact(text);
    benchmark::DoNotOptimize(j);
  }
}
BENCHMARK_CAPTURE(BM_ParseJsonExact, flat, std::string("flat"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseJsonExact, scenario, std::string("scenario"))->Unit(benchmark::kMillisecond);

void BM_NlohmannParse(benchmark::State& state, const std::string& name) {
  const std::string& text = texts().at(name);
  for (auto _ : state) {
    Json j = Json::parse(text);
    benchmark::DoNotOptimize(j);
  }
}
BENCHMARK_CAPTURE(BM_NlohmannParse, flat, std::string("flat"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_NlohmannParse, scenario, std::string("scenario"))->Unit(benchmark::kMillisecond);

// The machine reference: 8 chains of 2^24 float multiply-adds (the compiler cannot shorten a
// chain), milliseconds per run.
void BM_MachineReference(benchmark::State& state) {
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (auto _ : state) {
    for (int i = 0; i < (1 << 24); ++i) {
      for (float& v : x) v = v * 0.9999999f + 1e-7f;
    }
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_MachineReference)->Unit(benchmark::kMillisecond);

// Python's best of three `json.loads` of the file, CPU seconds (NaN when python3 is missing).
double python_seconds(const std::filesystem::path& file) {
  const std::string command = fmt::format(
      "/usr/bin/python3 -c 'import json, sys, time\ntext = open(sys.argv[1], \"rb\").read()\nbest = 1e9\n"
      "for _ in range(3):\n  t = time.process_time(); json.loads(text); best = min(best, time.process_time() - t)\n"
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
    for (const Run& r : runs) seconds_[r.run_name.str()] = r.GetAdjustedCPUTime() / 1e3;  // ms: CPU time, the machine is shared
  }
  double get(const std::string& key) const {
    const auto it = seconds_.find(key);
    return it == seconds_.end() ? NAN : it->second;
  }
  void PrintTable() const {
    std::printf("\nmachine reference (this run): %.1f ms for 8 x 2^24 float multiply-adds\n",
                get("BM_MachineReference") * 1e3);
    std::printf("%-10s %6s %11s %11s %11s %11s %9s %9s\n", "file", "MB", "parse_json", "exact", "nlohmann",
                "python", "json/py", "exact/py");
    for (const auto& [name, text] : texts()) {
      const double fast = get("BM_ParseJson/" + name);
      if (std::isnan(fast)) continue;
      const auto file = std::filesystem::temp_directory_path() / ("animkit_bench_" + name + ".json");
      write_text(file, text);
      const double python = python_seconds(file);
      std::filesystem::remove(file);
      const double exact = get("BM_ParseJsonExact/" + name);
      std::printf("%-10s %6.1f %10.4fs %10.4fs %10.4fs %10.4fs %9.2f %9.2f\n", name.c_str(), text.size() / 1e6,
                  fast, exact, get("BM_NlohmannParse/" + name), python, fast / python, exact / python);
    }
  }

 private:
  std::map<std::string, double> seconds_;
};

}  // namespace
}  // namespace animkit

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  // parse_json takes simdjson's path while its buffers fit a quarter of the memory limit (16 MB
  // of text under the default 1 GiB): raise the limit so the 50 MB file measures that path too;
  // the `exact` column is what the default limit does with a text that large.
  animkit::Limits wide;
  wide.max_memory = uint64_t{16} << 30;
  animkit::set_limits(wide);
  animkit::Reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintTable();
  benchmark::Shutdown();
  return 0;
}
