// `cod lint` per level at the scale of the stock UO scripts (issue 12: "linting all UO stock
// scripts per level stays under 2 s"): a game folder whose pk3 holds a 3,000-node tree and its
// 3,000 xanims, 60 animscripts of 100 references each, and 120 levels that each load them all
// through maps/_load, plus a level tree of their own.
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <zip.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "animkit/call_of_duty/level_lint.h"

namespace {

namespace fs = std::filesystem;
using namespace animkit::call_of_duty;

struct StockScale {
  fs::path dir;
  StockScale() {
    dir = fs::temp_directory_path() / ("animkit_bench_lint_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "main");
    fs::create_directories(dir / "mod/maps");
    std::vector<std::pair<std::string, std::string>> entries;
    std::string tree;
    for (int g = 0; g < 30; ++g) {
      tree += "group_" + std::to_string(g) + "\n{\n";
      for (int l = 0; l < 99; ++l) tree += "    anim_" + std::to_string(g * 100 + l) + "\n";
      tree += "}\n";
    }
    entries.push_back({"animtrees/generic_human.atr", tree});
    const std::string header("\x0e\x00\x0a\x00\x00\x00\x01\x1e\x00", 9);
    for (int g = 0; g < 30; ++g) {
      for (int l = 0; l < 99; ++l) {
        entries.push_back({"xanim/anim_" + std::to_string(g * 100 + l), header});
      }
    }
    std::string load = "main()\n{\n";
    for (int s = 0; s < 60; ++s) {
      std::string script = "#using_animtree(\"generic_human\");\nmain()\n{\n";
      for (int r = 0; r < 100; ++r) {
        script += "    self setanim(%anim_" + std::to_string((s * 37 + r * 11) % 3000 / 100 * 100 +
                                                            r % 99) +
                  ", 1, 0.2);\n";
      }
      script += "}\n";
      entries.push_back({"animscripts/s" + std::to_string(s) + ".gsc", script});
      load += "    animscripts\\s" + std::to_string(s) + "::main();\n";
    }
    entries.push_back({"maps/_load.gsc", load + "}\n"});
    int err = 0;
    zip_t* z = zip_open((dir / "main/pak0.pk3").c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    for (const auto& [name, data] : entries) {
      zip_file_add(z, name.c_str(), zip_source_buffer(z, data.data(), data.size(), 0),
                   ZIP_FL_ENC_RAW);
    }
    zip_close(z);
    for (int l = 0; l < 120; ++l) {
      std::ofstream(dir / "mod/maps" / ("level" + std::to_string(l) + ".gsc"))
          << "#include maps\\_load;\n#using_animtree(\"generic_human\");\nmain() { x = %anim_"
          << l << "; }\n";
    }
  }
  ~StockScale() { fs::remove_all(dir); }
};

void BM_LintLevels(benchmark::State& state) {
  static StockScale game;
  LevelLintOptions o;
  o.mod_dir = game.dir / "mod";
  o.game_dirs = {game.dir / "main"};
  size_t levels = 0;
  for (auto _ : state) {
    const LintReport r = lint_levels(o);
    levels = r.level_count();
    benchmark::DoNotOptimize(r.levels.data());
  }
  state.counters["levels"] = static_cast<double>(levels);
}
BENCHMARK(BM_LintLevels)->Unit(benchmark::kMillisecond);

}  // namespace
BENCHMARK_MAIN();
