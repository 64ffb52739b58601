// Parse + build of a generated 3,000-node tree of depth 7 (issue 4: "report trees per second"):
// every node kept (com_animCheck 1), and the stock pruning with 300 referenced names; plus the
// .gsc scanner over a script with 3,000 references.
#include <benchmark/benchmark.h>

#include <functional>
#include <string>

#include "animkit/call_of_duty/gsc_scanner.h"
#include "animkit/call_of_duty/loader.h"

namespace {

using namespace animkit::call_of_duty;

// Branching 3 for six levels of groups, leaves at depth 7, stopped at 3,000 file nodes; every
// third level's groups are `complete`, every fifth group a loopsync group.
std::string big_tree() {
  std::string s;
  int counter = 0;
  std::function<void(int, int)> group = [&](int depth, int indent) {
    const std::string pad(static_cast<size_t>(indent) * 4, ' ');
    for (int i = 0; i < 3 && counter < 3000; ++i) {
      const std::string name = "node_" + std::to_string(counter++);
      if (depth == 7) {
        s += pad + name + "\n";
        continue;
      }
      std::string props;
      if (depth % 3 == 0) props += " complete";
      if (depth == 6 && counter % 5 == 0) props += " loopsync";
      s += pad + name + (props.empty() ? "" : " :" + props) + "\n" + pad + "{\n";
      group(depth + 1, indent + 1);
      s += pad + "}\n";
    }
  };
  group(1, 0);
  return s;
}

void BM_ParseBuildAllNodes(benchmark::State& state) {
  const std::string text = big_tree();
  LoadOptions o;
  o.tree_name = "bench";
  o.anim_check = true;
  uint32_t nodes = 0;
  for (auto _ : state) {
    const LoadResult r = load_anim_tree(text, o);
    nodes = r.anim->node_count;
    benchmark::DoNotOptimize(r.anim->checksum);
  }
  state.counters["nodes"] = nodes;
  state.counters["trees/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseBuildAllNodes)->Unit(benchmark::kMicrosecond);

void BM_ParseBuildPruned(benchmark::State& state) {
  const std::string text = big_tree();
  LoadOptions o;
  o.tree_name = "bench";
  for (int i = 0; i < 3000; i += 10)
    o.references.push_back({"node_" + std::to_string(i), "", 0, 0, 0});
  uint32_t nodes = 0;
  for (auto _ : state) {
    const LoadResult r = load_anim_tree(text, o);
    nodes = r.anim ? r.anim->node_count : 0;
    benchmark::DoNotOptimize(nodes);
  }
  state.counters["nodes"] = nodes;
  state.counters["trees/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ParseBuildPruned)->Unit(benchmark::kMicrosecond);

void BM_ScanScript(benchmark::State& state) {
  std::string text = "#using_animtree(\"bench\");\n";
  for (int i = 0; i < 3000; ++i) {
    text += "f" + std::to_string(i) + "() { self setanim(%node_" + std::to_string(i) +
            ", 1, 0.2); // note\n}\n";
  }
  for (auto _ : state) {
    const ScriptScan s = scan_script(text, "bench.gsc");
    benchmark::DoNotOptimize(s.references.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ScanScript)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
