// Synthetic .anix files built by the module's writer (anix_build.h), from the spec's layout.
#pragma once

#include "animkit/shadow_of_war/anix_build.h"
#include "animkit/shadow_of_war/keyword.h"
#include "animkit/shadow_of_war/scenario.h"

#include <sstream>

namespace animkit::shadow_of_war::testing {

// `animkit play --json` of a scenario: one parsed trace record per frame.
inline std::vector<Json> play_frames(const Json& scenario, int threads = 0) {
  std::ostringstream out;
  PlayOptions o;
  o.json = true;
  o.threads = threads;
  play(scenario, ".", o, out);
  std::istringstream lines(out.str());
  std::string line;
  std::vector<Json> frames;
  while (std::getline(lines, line)) frames.push_back(Json::parse(line));
  return frames;
}

inline TrackRun run(uint32_t channel, std::initializer_list<uint32_t> nodes) {
  return {channel, nodes};
}

// A clip with one blockset: groups SQ03 (rotations), AQ03 (positions), STRI (events).
inline ClipBuild simple_clip(const std::string& name, float seconds, uint32_t keys) {
  ClipBuild c;
  c.name = name;
  c.flag = 1;
  c.duration_ms = static_cast<uint32_t>(seconds * 1000 + 0.5f);
  c.root.start_position = {0, 100, 0};
  c.root.end_position = {0, 100, 250};
  c.root.start_rotation = {0, 0, 0, 1};
  c.root.end_rotation = {0, 0.70710678f, 0, 0.70710678f};
  c.codecs = {"SQ03", "AQ03", "STRI"};
  c.track_groups = {0, 0, 1, 2};
  c.remap = {0, 1, 2, 3};
  BlocksetBuild b;
  for (uint32_t k = 0; k < keys; ++k) b.times.push_back(seconds * k / (keys - 1));
  b.groups = {opaque_group(24, 3), aq03_group(0, seconds, keys, 20), stri_group({"step"})};
  c.blocksets.push_back(b);
  c.key_strings = {'k', 'e', 'y', 0};
  return c;
}

inline std::vector<TrackRun> four_tracks() {
  return {run(kRotationChannel, {0x1111, 0x2222}), run(kPositionChannel, {0x1111}),
          run(kEventsChannel, {0x3333})};
}

inline AnixBuild one_clip() {
  AnixBuild b;
  b.track_runs = four_tracks();
  b.clips.push_back(simple_clip("orc_idle", 2.f, 5));
  return b;
}

inline AnixBuild two_clips_with_events() {
  AnixBuild b;
  b.track_runs = four_tracks();
  b.clips.push_back(simple_clip("orc_death_a", 1.5f, 4));
  b.clips.push_back(simple_clip("orc_death_b", 3.f, 7));
  EventDictionary d;
  d.path = "anims/orc_deaths.anix";
  d.strings = {"DelayRagdoll", "RAGDOLL 0.25", "footstep", "destroy"};
  d.clips.push_back({"orc_death_a", 45, 1500, {event_word(0, 100), event_word(kNoText, 500)}});
  d.clips.push_back(
      {"orc_death_b", 90, 3000, {event_word(2, 250), event_word(1, 1200), event_word(3, 2900)}});
  b.events = d;
  return b;
}

// A long clip over two blocksets that share their boundary key (absolute LITH times), one AQ03
// block header and one STRI group per blockset.
inline AnixBuild long_clip() {
  AnixBuild b;
  b.track_runs = four_tracks();
  ClipBuild c = simple_clip("orc_long", 4.f, 3);
  c.blocksets.clear();
  BlocksetBuild first, second;
  first.times = {0.f, 1.f, 2.f};
  second.times = {2.f, 3.f, 4.f};
  first.groups = {opaque_group(40, 1), aq03_group(0.f, 2.f, 3, 16), stri_group({"a"})};
  second.groups = {opaque_group(40, 2), aq03_group(2.f, 4.f, 3, 16), stri_group({"b", "c"})};
  c.blocksets = {first, second};
  b.clips.push_back(c);
  return b;
}

// Three clips whose records lie in the anim chunk in another order than the directory's.
inline AnixBuild out_of_order() {
  AnixBuild b;
  b.track_runs = four_tracks();
  b.clips.push_back(simple_clip("clip_a", 1.f, 3));
  b.clips.push_back(simple_clip("clip_b", 2.f, 4));
  b.clips.push_back(simple_clip("clip_c", 0.5f, 2));
  b.clips[1].key_strings = std::vector<uint8_t>(36, 0xBB);
  b.position_order = {2, 0, 1};
  return b;
}

}  // namespace animkit::shadow_of_war::testing
