// Call of Duty's "player" (issue 19): a tree as the game loads it and a mod as `cod lint` links
// it. The bytes build well-formed .atr text (nested groups, sync and `complete` flags, repeated
// and upper-case names, comments, now and then a stray token) and scripts that select trees and
// reference their nodes; then the tree is loaded (with references, com_animCheck, --keep-going,
// an asset manifest), every XAnim query asked of every node, and the outputs of `cod tree`
// (text, JSON, Graphviz) built; or the mod folder is written and linted.
#include <cstddef>
#include <cstdint>

#include <fmt/format.h>

#include <fstream>

#include "animkit/call_of_duty/linker.h"
#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/tree_output.h"
#include "animkit/call_of_duty/xanim_queries.h"
#include "animkit/core/error.h"
#include "fuzz/common/scenario_gen.h"

using namespace animkit;
using namespace animkit::call_of_duty;
using animkit::fuzz::Gen;

namespace {

const std::filesystem::path& dir() { return fuzz::scratch_dir("call_of_duty"); }

struct TreeText {
  std::string text;
  std::vector<std::string> names;  // every node name written
};

std::string node_name(Gen& g, const TreeText& t) {
  if (!t.names.empty() && g.rarely(6)) return t.names[g.range(0, static_cast<int>(t.names.size()) - 1)];
  if (g.rarely(20)) return g.pick({"void", "void_loop", "ROOT", "Main", "a_b", "\"quoted name\"", "\"\""});
  return fmt::format("{}{}", g.pick({"idle", "walk", "run", "grp", "fire"}), g.range(0, 99));
}

void nodes(Gen& g, TreeText& t, int depth, int& budget) {
  const std::string indent(4 * depth, ' ');
  for (int n = g.count(4, 24); n > 0 && budget > 0 && !g.empty(); --n, --budget) {
    const std::string name = node_name(g, t);
    t.names.push_back(name);
    t.text += indent + name;
    if (g.rarely(4)) {
      t.text += " :";
      for (int f = g.range(1, 2); f > 0; --f)
        t.text += std::string(" ") + g.pick({"loopsync", "nonloopsync", "complete", "bogus"});
    }
    if (g.rarely(12)) t.text += " // a comment";
    t.text += "\n";
    if (depth < 12 && g.rarely(3)) {
      t.text += indent + "{\n";
      nodes(g, t, depth + 1, budget);
      if (!g.rarely(40)) t.text += indent + "}\n";
    }
    if (g.rarely(60)) t.text += g.pick({"}\n", "{\n", ":\n", "\"\n", "/* x */\n"});
  }
}

TreeText tree(Gen& g) {
  TreeText t;
  int budget = g.rarely(16) ? 5000 : 200;
  nodes(g, t, 0, budget);
  return t;
}

std::vector<Reference> references(Gen& g, const TreeText& t) {
  std::vector<Reference> refs;
  for (int n = g.count(6, 60); n > 0; --n) {
    std::string name = !t.names.empty() && !g.rarely(5)
                           ? t.names[g.range(0, static_cast<int>(t.names.size()) - 1)]
                           : fmt::format("missing{}", g.range(0, 9));
    refs.push_back({name, "maps/fuzz.gsc", g.range(1, 100), g.range(1, 80), 0});
  }
  return refs;
}

void load_and_query(Gen& g) {
  const TreeText t = tree(g);
  LoadOptions o;
  o.tree_name = "fuzz";
  o.file = "animtrees/fuzz.atr";
  o.anim_check = g.coin();
  o.keep_going = g.coin();
  o.checksum_seed = g.rarely() ? g.u32() : 0;
  if (g.coin()) o.references = references(g, t);
  AssetResolver assets;
  if (g.coin()) {
    for (const std::string& n : t.names) {
      if (g.rarely(3)) continue;  // missing asset
      XAnimAsset a;
      if (g.coin()) a.looping = g.coin();
      if (g.coin()) a.length = g.binary_float(1);
      assets.add(n, a);
    }
    o.assets = &assets;
  }
  if (const char* out = std::getenv("ANIMKIT_FUZZ_DUMP")) {  // for `animkit cod tree`
    std::filesystem::create_directories(out);
    std::ofstream(std::filesystem::path(out) / "fuzz.atr") << t.text;
  }
  const LoadResult r = load_anim_tree(t.text, o);
  if (r.anim) {
    for (int32_t i = 0; i < static_cast<int32_t>(r.anim->entries.size()); ++i) {
      (void)XAnimIsPrimitive(*r.anim, i);
      (void)XAnimHasTime(*r.anim, i);
      (void)XAnimIsLooped(*r.anim, i);
      (void)XAnimGetAnimName(*r.anim, i);
      (void)XAnimGetNumChildren(*r.anim, i);
      try {
        (void)XAnimGetLength(*r.anim, i);
      } catch (const Error&) {
      }
    }
  }
  (void)tree_json(r).dump();
  (void)tree_text(r);
  (void)tree_dot(r);
}

void lint(Gen& g) {
  const std::filesystem::path mod = dir() / "mod";
  std::filesystem::remove_all(mod);
  std::filesystem::create_directories(mod / "animtrees");
  std::filesystem::create_directories(mod / "maps");
  std::vector<TreeText> trees;
  for (int n = g.range(1, 3); n > 0; --n) {
    trees.push_back(tree(g));
    std::ofstream(mod / "animtrees" / fmt::format("tree{}.atr", trees.size() - 1))
        << trees.back().text;
  }
  for (int s = g.range(1, 3); s > 0; --s) {
    std::string gsc;
    for (int n = g.count(4, 30); n > 0 && !g.empty(); --n) {
      const int k = g.range(0, static_cast<int>(trees.size()));  // == size: a tree with no file
      switch (g.range(0, 3)) {
        case 0: gsc += fmt::format("#using_animtree(\"tree{}\");\n", k); break;
        case 1: gsc += "anim = #animtree;\n"; break;
        default: {
          const auto& names = trees[std::min<size_t>(k, trees.size() - 1)].names;
          gsc += fmt::format("self setanim(%{});\n",
                             names.empty() || g.rarely() ? std::string("nothing")
                                                         : names[g.range(0, static_cast<int>(names.size()) - 1)]);
        }
      }
    }
    std::ofstream(mod / "maps" / fmt::format("s{}.gsc", s)) << gsc;
  }
  (void)lint_mod(mod, g.coin(), std::nullopt);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_scenario_fuzzer();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Gen g(data, size);
  try {
    if (g.rarely(4)) {
      lint(g);
    } else {
      load_and_query(g);
    }
  } catch (const std::exception&) {  // what the CLI reports as "error:", exit 1
  }
  return 0;
}
