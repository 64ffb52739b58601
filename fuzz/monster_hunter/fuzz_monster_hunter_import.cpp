// `animkit import` into Monster Hunter packs (issue 17, item 2) under generated glTF-side input:
// the module's synthetic monster (either game, parts, entries, keys from the bytes), exported to
// neutral clips, then the clips edited from the bytes (values including NaN and huge ones, key
// times, durations, looping, names, renamed joints) and imported back with a tolerance, --refit
// and --entry from the bytes. Import may refuse (animkit::Error); it must never crash.
#include <cstddef>
#include <cstdint>

#include "animkit/core/error.h"
#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/import.h"
#include "animkit/monster_hunter/synthetic.h"
#include "fuzz/common/scenario_gen.h"

using namespace animkit;
using namespace animkit::monster_hunter;
using animkit::fuzz::Gen;

namespace {

MonsterSpec spec_from(Gen& g) {
  MonsterSpec s;
  s.game = g.coin() ? Game::kMhfu : Game::kMhp3rd;
  s.part_sizes.clear();
  for (int p = g.range(1, 3); p > 0; --p) s.part_sizes.push_back(g.range(1, 4));
  s.severed = g.range(0, 2);
  s.entries = g.range(0, 4);
  for (int e = g.range(0, 1); e > 0; --e) s.head_only.insert(g.range(0, s.entries));
  s.keys = g.range(1, 5);
  s.last_frame = g.pick({0, 1, 2, 30, g.range(0, 120)});
  return s;
}

void edit(Gen& g, Animated& a) {
  for (int n = g.count(6, 30); n > 0 && !a.clips.empty(); --n) {
    animkit::Clip& c = a.clips[g.range(0, static_cast<int>(a.clips.size()) - 1)];
    JointTracks& jt = c.joints[g.range(0, static_cast<int>(c.joints.size()) - 1)];
    switch (g.range(0, 6)) {
      case 0: c.looping = !c.looping; break;
      case 1: c.duration = g.pick({0.f, c.duration * 2, c.duration / 3, g.binary_float(4)}); break;
      case 2: c.name = g.pick<std::string>({"entry_7", "clip_150", "walk", "entry_", "clip_-1"}); break;
      case 3:
        if (!jt.rotation.empty()) {
          Quat& q = jt.rotation.values[g.range(0, static_cast<int>(jt.rotation.size()) - 1)];
          q = {g.binary_float(), g.binary_float(), g.binary_float(), g.binary_float()};
        } else {
          jt.rotation.add(g.binary_float(1), Quat{g.binary_float(), 0, 0, 1});
        }
        break;
      case 4:
        if (!jt.translation.empty()) {
          Vec3& v = jt.translation.values[g.range(0, static_cast<int>(jt.translation.size()) - 1)];
          v = {g.binary_float(100), g.binary_float(100), g.binary_float(100)};
        } else {
          jt.translation.add(g.binary_float(1), Vec3{g.binary_float(50), 0, 0});
        }
        break;
      case 5:
        if (!jt.rotation.empty()) jt.rotation.times.back() = g.binary_float(2);
        break;
      default:
        if (g.rarely()) a.skeleton.names[g.range(0, static_cast<int>(a.skeleton.names.size()) - 1)] = "x";
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (fuzz::write_seeds({std::string(64, '\0'), std::string(300, '\x5a'),
                         std::string(1000, '\x01'), std::string(2000, '\xa7')})) {
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Gen g(data, size);
  Monster m;
  Animated a;
  try {
    m = synthetic_monster(spec_from(g));
    a = to_animated(m.skeleton, &m.pack, {});
  } catch (const Error&) {
    return 0;
  }
  edit(g, a);
  ImportSettings s;
  s.tolerance = g.pick({2.0, 0.5, 1e-9, 50.0, 1e30});
  s.refit = g.coin();
  if (g.rarely(4)) s.entry = g.pick({0, 1, 5, 99, 100, 150, 250, -3});
  if (g.rarely(4)) s.em = g.pick({75, 40, 58, 0});
  AnimPack pack = m.pack;
  try {
    import_clips(a, m.skeleton, pack, s);
    write_pack(pack);
  } catch (const Error&) {  // what the CLI reports as "error:", exit 1
  }
  return 0;
}
