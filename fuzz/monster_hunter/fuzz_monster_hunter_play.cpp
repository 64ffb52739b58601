// The Monster Hunter players under a generated scenario (issue 19): the module's synthetic
// monster (parts, severed bones, entries, keys, clip length and loop from the bytes; some key
// frames, values and eases then overwritten), written with the module's writers, and a script of
// plays (entries or clip ids, part lists) and advances at a speed from the bytes, on either game.
#include <cstddef>
#include <cstdint>

#include "animkit/core/error.h"
#include "animkit/monster_hunter/play.h"
#include "animkit/monster_hunter/synthetic.h"
#include "fuzz/common/scenario_gen.h"

using namespace animkit;
using namespace animkit::monster_hunter;
using animkit::fuzz::Gen;

namespace {

const std::filesystem::path& dir() { return fuzz::scratch_dir("monster_hunter"); }

MonsterSpec spec_from(Gen& g) {
  MonsterSpec s;
  s.game = g.coin() ? Game::kMhfu : Game::kMhp3rd;
  s.part_sizes.clear();
  for (int p = g.range(1, 4); p > 0; --p) s.part_sizes.push_back(g.range(1, 6));
  s.severed = g.range(0, 3);
  s.entries = g.range(0, 8);
  for (int e = g.range(0, 2); e > 0; --e) s.head_only.insert(g.range(0, s.entries));
  s.keys = g.range(1, 6);
  s.last_frame = g.pick({0, 1, 2, 30, g.range(0, 600), 32767});
  return s;
}

// Overwrites a few keys and loop fields of the pack with values from the bytes.
void mutate(Gen& g, AnimPack& pack) {
  for (int n = g.count(4, 40); n > 0 && !pack.clips.empty(); --n) {
    monster_hunter::Clip& c = pack.clips[g.range(0, static_cast<int>(pack.clips.size()) - 1)];
    switch (g.range(0, 3)) {
      case 0: c.loop = g.coin() ? 0 : 1; break;
      case 1: c.loop_start = g.binary_float(10); break;
      default: {
        if (c.tracks.empty()) break;
        monster_hunter::Track& t = c.tracks[g.range(0, static_cast<int>(c.tracks.size()) - 1)];
        if (t.channels.empty()) break;
        monster_hunter::Channel& ch = t.channels[g.range(0, static_cast<int>(t.channels.size()) - 1)];
        if (ch.keys.empty() || g.rarely()) {
          ch.keys.clear();
          break;
        }
        monster_hunter::Keyframe& k = ch.keys[g.range(0, static_cast<int>(ch.keys.size()) - 1)];
        k.value = static_cast<int16_t>(g.u16());
        if (g.coin()) k.frame = static_cast<int16_t>(g.u16());
        if (g.coin()) k.ease_in = static_cast<int16_t>(g.u16());
        if (g.coin()) k.ease_out = static_cast<int16_t>(g.u16());
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_scenario_fuzzer();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Gen g(data, size);
  const MonsterSpec spec = spec_from(g);
  Monster m;
  try {
    m = synthetic_monster(spec);
  } catch (const Error&) {
    return 0;
  }
  mutate(g, m.pack);
  write_file(dir() / "skeleton.bin", write_skeleton(m.skeleton));
  write_file(dir() / "pack.bin", write_pack(m.pack));
  const bool mhfu = spec.game == Game::kMhfu;
  Json s{{"engine", "monster_hunter"}, {"skeleton", "skeleton.bin"}, {"pack", "pack.bin"}};
  s["game"] = mhfu ? "mhfu" : "mhp3rd";
  if (g.rarely(4)) s["em"] = g.pick({75, 0, -1, g.range(0, 200)});
  if (g.coin()) s["speed"] = g.number(1);
  const int bones = static_cast<int>(m.skeleton.bones.size());
  Json joints = Json::array();
  for (int n = g.range(0, 3); n > 0; --n) joints.push_back(g.range(0, bones - 1));
  s["joints"] = joints;
  Json steps = Json::array();
  for (int n = g.count(8, 60); n > 0 && !g.empty(); --n) {
    if (g.coin()) {
      Json step{{"play", g.pick({0, 1, 2, 3, 100, 101, -1, g.range(0, 250), g.range(-1000000, 1000000)})}};
      if (mhfu && g.coin()) {
        Json parts = Json::array();
        for (int p = g.range(0, 3); p > 0; --p) parts.push_back(g.range(-1, 5));
        step["parts"] = parts;
      }
      steps.push_back(step);
    } else {
      steps.push_back({{"advance", g.count(30, 600)}});
    }
  }
  s["steps"] = steps;
  return fuzz::play_case(s, dir(), [&](std::ostream& out) {
    PlayOptions o;
    o.json = (size & 1) != 0;
    play(s, dir(), o, out);
  });
}
