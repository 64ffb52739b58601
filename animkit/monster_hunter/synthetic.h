// A synthetic monster built in code by the module's writers (never copied from a game): for the
// demo, the tests and the benchmark.
#pragma once

#include <set>
#include <vector>

#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/skeleton.h"

namespace animkit::monster_hunter {

struct MonsterSpec {
  Game game = Game::kMhfu;
  std::vector<int> part_sizes{4, 2, 2};  // part 0 the body (a chain), then subtrees (head, tail)
  int severed = 0;          // non-animated bones after the animated ones: a second root chain
  int entries = 4;          // MHFU: entries 0..entries-1 (100 and up in the odd streams)
  std::set<int> head_only;  // MHFU: entries only part 1 holds
  int keys = 4;             // keys per channel
  int last_frame = 30;      // the last key frame of each clip
};

struct Monster {
  Skeleton skeleton;
  AnimPack pack;
};

// MHFU: the body a chain from joint 0, part 1 hanging off the body's last joint, later parts off
// joint 0; part k's clips in streams 2k / 2k + 1, rotation channels on every joint with non-zero
// eases, location channels on joint 0, entries alternately looping. MHP3rd: one stream of
// `entries` clips over the whole rig, records from bone 2 (the default offset), names "J000".
Monster synthetic_monster(const MonsterSpec& spec = {});

}  // namespace animkit::monster_hunter
