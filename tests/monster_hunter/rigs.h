// Synthetic rigs shaped as the notes describe the real ones (notes 6): a Tigrex-like MHFU host
// and a Brute-like MHP3rd donor moveset, built by the module's writers.
#pragma once

#include <set>

#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {

// The notes' Tigrex: 6 streams of 100 slots, filled [62, 0, 64, 0, 62, 0]; streams 0 and 4 share
// 38 empty slots, stream 2 fills 24 and 25 too (the head-only entries).
inline Monster tigrex_like() {
  MonsterSpec spec;
  spec.part_sizes = {31, 9, 5};
  spec.severed = 3;
  spec.entries = 100;
  spec.keys = 3;
  Monster m = synthetic_monster(spec);
  std::set<int> empty = {24, 25};
  for (int e = 62; e < 98; ++e) empty.insert(e);
  for (int s : {0, 2, 4})
    for (int e : empty)
      if (s != 2 || (e != 24 && e != 25)) m.pack.streams[s][e] = kNoClip;
  for (int s : {1, 3, 5}) m.pack.streams[s].assign(100, kNoClip);
  return m;
}

// The notes' Brute: streams of 70, 20 and 0 slots; stream 0 58 clips in slots 1..65, stream 1
// 19; every clip 43 records, record 0 (the body) with location.
inline AnimPack brute_like() {
  AnimPack p;
  p.game = Game::kMhp3rd;
  p.streams = {std::vector<int32_t>(70, kNoClip), std::vector<int32_t>(20, kNoClip), {}};
  const auto add = [&](size_t s, size_t slot, int seed) {
    Clip c;
    c.loop = seed % 2;
    c.loop_start = seed % 2 ? 2.0f : 0.f;
    for (int r = 0; r < 43; ++r) {
      Track t;
      const int16_t v = static_cast<int16_t>((seed * 31 + r * 7) % 2000 - 1000);
      t.channels.push_back({bits::kRotX, {{v, 0, 0, 0}, {static_cast<int16_t>(-v), 20, 0, 0}}});
      t.channels.push_back({bits::kRotZ, {{static_cast<int16_t>(v / 2), 0, 0, 0}}});
      if (r == 0) t.channels.push_back({bits::kLocY, {{320, 0, 0, 0}, {352, 20, 0, 0}}});
      if (r == 5) t.channels.push_back({bits::kSclX, {{256, 0, 0, 0}}});  // dropped by the port
      c.tracks.push_back(std::move(t));
    }
    p.clips.push_back(std::move(c));
    p.streams[s][slot] = static_cast<int32_t>(p.clips.size() - 1);
  };
  int n = 0;
  for (int slot = 1; slot <= 65 && n < 58; ++slot)
    if (slot % 9 != 0) add(0, slot, n++);
  for (int slot = 0; slot < 19; ++slot) add(1, slot, n++);
  return p;
}

}  // namespace animkit::monster_hunter
