// Call of Duty's player (issues 19, 26): the bytes build well-formed .atr text (nested groups,
// sync and `complete` flags, repeated and upper-case names, comments, now and then a stray token).
// Most inputs play it (`animkit play`): an xanim for each leaf (any header, frame rate 0 or
// negative, dense / sparse / constant / missing streams, delta motion, unsorted notes past N,
// duplicate part names) and a script of weight, rate and restart calls at edge values, traced.
// Others load the tree (with references, com_animCheck, --keep-going, an asset manifest), ask every
// XAnim query of every node and build the outputs of `cod tree`; or write a mod folder and lint it.
#include <cctype>
#include <cstddef>
#include <cstdint>

#include <fmt/format.h>

#include <fstream>

#include "animkit/call_of_duty/linker.h"
#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/play_scenario.h"
#include "animkit/call_of_duty/tokenizer.h"
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


XAnimRotationStream rotation_stream(Gen& g, uint32_t total, bool two_component) {
  XAnimRotationStream r;
  r.two_component = two_component;
  const uint32_t k = g.pick<uint32_t>({0, 1, 2, 3, total, std::min<uint32_t>(total, 40)});
  r.key_count = static_cast<uint16_t>(std::min<uint32_t>(k, 0xFFFF));
  if (r.key_count >= 2 && r.key_count < total) {
    uint16_t f = 0;
    for (uint16_t i = 0; i < r.key_count; ++i) {
      r.frames.push_back(g.rarely(20) ? g.u16() : f);  // now and then not rising
      f = static_cast<uint16_t>(f + g.range(1, 3));
    }
    if (!g.rarely(10)) r.frames.back() = static_cast<uint16_t>(total - 1);
  }
  for (uint32_t i = 0; i < r.key_count * (two_component ? 1u : 3u); ++i) {
    r.stored.push_back(static_cast<int16_t>(g.coin() ? g.u16() : g.range(-300, 300)));
  }
  return r;
}

XAnimTranslationStream translation_stream(Gen& g, uint32_t total) {
  XAnimTranslationStream t;
  const uint32_t k = g.pick<uint32_t>({0, 1, 2, total, std::min<uint32_t>(total, 30)});
  t.key_count = static_cast<uint16_t>(std::min<uint32_t>(k, 0xFFFF));
  if (t.key_count >= 2 && t.key_count < total) {
    for (uint16_t i = 0; i < t.key_count; ++i) t.frames.push_back(static_cast<uint16_t>(i));
    t.frames.back() = static_cast<uint16_t>(total - 1);
  }
  for (uint16_t i = 0; i < t.key_count; ++i) {
    t.values.push_back({g.binary_float(1), g.binary_float(1), g.binary_float(1)});
  }
  return t;
}

// An xanim v14 file the layout can hold (streams sized to their counts); its values are free.
std::vector<uint8_t> xanim(Gen& g) {
  XAnimFile f;
  f.header.num_frames = static_cast<uint16_t>(g.pick<int>({0, 1, 2, 4, 30, 255, 256, 300}));
  f.header.flags = g.rarely() ? g.u8() : static_cast<uint8_t>(g.range(0, 3));
  f.header.frame_rate = static_cast<int16_t>(g.pick<int>({30, 20, 1, 0, -30, 32767}));
  f.has_delta = f.header.has_delta();
  const uint32_t total = f.header.total_frames();
  if (f.has_delta) {
    f.delta_rotation = rotation_stream(g, total, true);
    f.delta_translation = translation_stream(g, total);
  }
  const int parts = g.count(4, 48);
  for (int i = 0; i < parts; ++i) {
    XAnimPart p;
    p.name = g.pick({"j_spine", "j_head", "tag_origin", "j_arm", "J_Spine"});
    p.sign = g.coin();
    p.rotation = rotation_stream(g, total, g.coin());
    p.translation = translation_stream(g, total);
    f.parts.push_back(std::move(p));
  }
  f.header.num_parts = static_cast<int16_t>(parts);
  f.sign_bits.assign((parts + 7) / 8, 0);
  f.compressed_bits.assign((parts + 7) / 8, 0);
  for (int i = 0; i < parts; ++i) {
    if (f.parts[i].sign) f.sign_bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
    if (f.parts[i].rotation.two_component) f.compressed_bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
  }
  for (int n = g.count(3, 12); n > 0; --n) {
    XAnimNote note;
    note.name = g.pick({"fire", "footstep", "end", "start"});
    note.frame = static_cast<uint16_t>(g.rarely(10) ? g.u16() : g.range(0, static_cast<int>(total)));
    f.notes.push_back(std::move(note));
  }
  return write_xanim(f);
}

bool identifier(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// `animkit play`: the tree, an xanim per leaf name, a script of calls.
int play(Gen& g) {
  const std::filesystem::path d = dir() / "play";
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d / "xanim");
  TreeText t = tree(g);
  std::ofstream(d / "tree.atr") << t.text;
  std::vector<std::string> leaves;
  for (const std::string& n : t.names) {
    const std::string name = to_lower(n);
    if (!identifier(name) || g.rarely(40)) continue;
    const std::vector<uint8_t> bytes = xanim(g);
    std::ofstream(d / "xanim" / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    leaves.push_back(name);
  }
  const int updates = g.range(1, 40);
  Json calls = Json::array();
  for (int n = g.count(6, 60); n > 0 && !leaves.empty(); --n) {
    Json c{{"update", g.range(0, updates - 1)},
           {"node", g.rarely(30) ? std::string("root") : leaves[g.range(0, static_cast<int>(leaves.size()) - 1)]}};
    if (g.coin()) c["weight"] = g.number(1);
    if (g.coin()) c["blend_time"] = g.number(0.2);
    if (g.coin()) c["rate"] = g.number(1);
    if (g.rarely(4)) c["restart"] = true;
    calls.push_back(std::move(c));
  }
  const Json scenario{{"engine", "call_of_duty"}, {"tree", "tree.atr"},   {"xanim_dir", "xanim"},
                      {"anim_check", g.coin()},     {"dt", g.number(0.05)}, {"updates", updates},
                      {"calls", std::move(calls)}};
  PlayOptions o;
  o.json = g.coin();
  return fuzz::play_case(scenario, d, [&](std::ostream& out) { play_scenario(scenario, d, o, out); });
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_scenario_fuzzer();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Gen g(data, size);
  try {
    if (!g.rarely(3)) {
      return play(g);
    } else if (g.rarely(4)) {
      lint(g);
    } else {
      load_and_query(g);
    }
  } catch (const std::exception&) {  // what the CLI reports as "error:", exit 1
  }
  return 0;
}
