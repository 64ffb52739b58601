#include "animkit/monster_hunter/synthetic.h"

#include <cstring>
#include <string>

#include "animkit/monster_hunter/entries.h"

namespace animkit::monster_hunter {

namespace {

Channel keyed(uint16_t bit, int keys, int last_frame, int seed, int amplitude) {
  Channel c;
  c.bit = bit;
  for (int k = 0; k < keys; ++k) {
    const int frame = keys > 1 ? k * last_frame / (keys - 1) : 0;
    const int v = ((seed * 7 + k * 13) % 9 - 4) * amplitude;
    const int ease = ((seed + k) % 5 - 2) * amplitude / 8;
    c.keys.push_back({static_cast<int16_t>(v), static_cast<int16_t>(frame),
                      static_cast<int16_t>(ease), static_cast<int16_t>(-ease)});
  }
  return c;
}

Track joint_track(int joint, int seed, const MonsterSpec& spec) {
  Track t;
  t.channels.push_back(keyed(bits::kRotX, spec.keys, spec.last_frame, seed + joint, 200));
  t.channels.push_back(keyed(bits::kRotY, spec.keys, spec.last_frame, seed + 2 * joint, 150));
  t.channels.push_back(keyed(bits::kRotZ, spec.keys, spec.last_frame, seed + 3 * joint, 300));
  if (joint == 0) {
    t.channels.push_back(keyed(bits::kLocY, spec.keys, spec.last_frame, seed, 40));
  }
  return t;
}

}  // namespace

Monster synthetic_monster(const MonsterSpec& spec) {
  Monster m;
  Skeleton& s = m.skeleton;
  s.magic = spec.game == Game::kMhfu ? kMagicMhfu : kMagicMhp3rd;
  int animated = 0;
  for (int n : spec.part_sizes) animated += n;
  s.params = {0, static_cast<uint32_t>(animated)};
  int index = 0;
  const int body_last = spec.part_sizes.empty() ? 0 : spec.part_sizes[0] - 1;
  for (size_t part = 0; part < spec.part_sizes.size(); ++part) {
    for (int i = 0; i < spec.part_sizes[part]; ++i, ++index) {
      Bone b;
      b.index = index;
      if (i > 0) {
        b.parent = index - 1;
      } else if (part == 0) {
        b.parent = -1;
      } else {
        b.parent = part == 1 ? body_last : 0;
      }
      const float along = part == 2 ? -1.f : 1.f;
      b.bind_position = {part == 0 && i == 0 ? 0.f : 4.f * along, part == 0 && i == 0 ? 20.f : 0.5f,
                         0.25f * static_cast<float>(part), 1};
      b.stream = spec.game == Game::kMhfu ? static_cast<uint32_t>(part) : 0;
      s.bones.push_back(b);
    }
  }
  for (int i = 0; i < spec.severed; ++i, ++index) {
    Bone b;
    b.index = index;
    b.parent = i == 0 ? -1 : index - 1;
    b.bind_position = {-4, i == 0 ? 20.f : 0.f, 0, 1};
    b.stream = spec.game == Game::kMhfu ? static_cast<uint32_t>(spec.part_sizes.size()) : 0;
    s.bones.push_back(b);
  }
  if (spec.game == Game::kMhp3rd) {
    for (Bone& b : s.bones) {
      std::array<uint8_t, 8> name{};
      const std::string text = "J" + std::to_string(1000 + b.index).substr(1);
      std::memcpy(name.data(), text.data(), std::min<size_t>(text.size(), 7));
      name[7] = 0xDD;  // a leftover byte after the C string
      b.name = name;
    }
  }
  link_children(s);

  AnimPack& p = m.pack;
  p.game = spec.game;
  if (spec.game == Game::kMhp3rd) {
    const int records = static_cast<int>(s.bones.size()) - 2;
    p.streams.assign(1, std::vector<int32_t>(spec.entries, kNoClip));
    for (int e = 0; e < spec.entries; ++e) {
      Clip c;
      c.loop = e % 2;
      c.loop_start = e % 2 ? 4.5f : 0.f;
      for (int r = 0; r < std::max(records, 0); ++r) c.tracks.push_back(joint_track(r, e, spec));
      p.clips.push_back(std::move(c));
      p.streams[0][e] = static_cast<int32_t>(p.clips.size() - 1);
    }
    return m;
  }
  const int parts = static_cast<int>(spec.part_sizes.size());
  const int even = std::min(spec.entries, kEntryBank);
  const int odd = std::max(spec.entries - kEntryBank, 0);
  for (int k = 0; k < parts; ++k) {
    p.streams.push_back(std::vector<int32_t>(even, kNoClip));
    p.streams.push_back(std::vector<int32_t>(odd, kNoClip));
  }
  int first_joint = 0;
  for (int k = 0; k < parts; ++k) {
    for (int e = 0; e < spec.entries; ++e) {
      if (spec.head_only.count(e) != 0 && k != 1) continue;
      Clip c;
      c.loop = e % 2;
      c.loop_start = e % 2 ? 4.5f : 0.f;
      for (int j = 0; j < spec.part_sizes[k]; ++j)
        c.tracks.push_back(joint_track(first_joint + j, e, spec));
      p.clips.push_back(std::move(c));
      const SlotRef ref = entry_slot(k, e);
      p.streams[ref.stream][ref.slot] = static_cast<int32_t>(p.clips.size() - 1);
    }
    first_joint += spec.part_sizes[k];
  }
  // Clips in first-use order (the order write_pack gives back).
  std::vector<Clip> ordered;
  for (auto& slots : p.streams)
    for (int32_t& c : slots)
      if (c >= 0) {
        ordered.push_back(std::move(p.clips[c]));
        c = static_cast<int32_t>(ordered.size() - 1);
      }
  p.clips = std::move(ordered);
  return m;
}

}  // namespace animkit::monster_hunter
