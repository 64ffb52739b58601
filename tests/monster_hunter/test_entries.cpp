// MHFU parts and entries, rig_clip and put, MHP3rd clip ids and records (monster-hunter.txt,
// "MHFU: parts and streams", "MHP3rd: clip sets and records"; notes 2 and 3).
#include <gtest/gtest.h>

#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/records.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {
namespace {

// notes 2: entry_clip vectors and input_action.
TEST(MhEntries, EntryClipVectors) {
  EXPECT_EQ(entry_clip(7, 0), (SlotRef{0, 7}));
  EXPECT_EQ(entry_clip(117, 1), (SlotRef{3, 17}));
  EXPECT_EQ(entry_clip(50, 2), (SlotRef{4, 50}));
  EXPECT_EQ(entry_slot(1, 117), (SlotRef{3, 17}));
  EXPECT_EQ(entry_of(3, 17), 117);
  EXPECT_EQ(entry_of(4, 50), 50);
  EXPECT_EQ(input_action(1000 + 400 + 117, 2), 117);
  EXPECT_EQ(action_input(117, 2), 1517);
  // Raw arithmetic: an entry >= 200 for part k reads part k + 1's streams.
  EXPECT_EQ(entry_clip(205, 0), (SlotRef{2, 5}));
}

// "The Tigrex has 123 entries, and an id past them plays another (123 plays entry 0, 150 entry
// 27)."
TEST(MhEntries, WrapPastTheEntryCount) {
  EXPECT_EQ(wrap_entry(123, 123), 0);
  EXPECT_EQ(wrap_entry(150, 123), 27);
  EXPECT_EQ(wrap_entry(122, 123), 122);
}

// notes 2, layout.capacity vectors.
TEST(MhEntries, Capacity) {
  MonsterSpec spec;
  spec.part_sizes = {31, 9, 5};
  spec.severed = 3;
  spec.entries = 200;
  Monster tigrex = synthetic_monster(spec);
  EXPECT_EQ(capacity(tigrex.pack, tigrex.skeleton, known_entries(75)), 123);
  spec.entries = 60;  // unknown species, nothing past 59 filled
  Monster small = synthetic_monster(spec);
  small.pack.streams[1].assign(100, kNoClip);
  small.pack.streams[3].assign(100, kNoClip);
  small.pack.streams[5].assign(100, kNoClip);
  for (int s : {0, 2, 4}) small.pack.streams[s].resize(100, kNoClip);
  EXPECT_EQ(capacity(small.pack, small.skeleton), 100);
  // Odd-stream slot 30 filled -> 131.
  small.pack.streams[1][30] = 0;
  EXPECT_EQ(capacity(small.pack, small.skeleton), 131);
  // A pack of 10 slots -> 10.
  spec.entries = 10;
  Monster ten = synthetic_monster(spec);
  EXPECT_EQ(capacity(ten.pack, ten.skeleton), 10);
}

TEST(MhEntries, PartJointsAndPartialEntries) {
  MonsterSpec spec;
  spec.entries = 30;
  spec.head_only = {24, 25};
  spec.severed = 2;
  const Monster m = synthetic_monster(spec);
  const auto parts = part_joints(m.skeleton);
  EXPECT_EQ(parts.at(0), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(parts.at(1), (std::vector<int>{4, 5}));
  EXPECT_EQ(parts.at(3), (std::vector<int>{8, 9}));  // the severed tail: not animated
  EXPECT_EQ(animated_parts(m.skeleton), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(partial_entries(m.pack, m.skeleton, 30), (std::set<int>{24, 25}));
}

// "A part whose slot is empty keeps the clip it was playing"; entries that drive only some parts.
TEST(MhEntries, EmptySlotKeepsThePreviousClip) {
  MonsterSpec spec;
  spec.entries = 30;
  spec.head_only = {24, 25};
  const Monster m = synthetic_monster(spec);
  EntryPlayer player(m.pack, m.skeleton);
  player.play(3);
  EXPECT_EQ(player.current(0), (SlotRef{0, 3}));
  player.play(24);  // head alone
  EXPECT_EQ(player.current(0), (SlotRef{0, 3}));
  EXPECT_EQ(player.current(1), (SlotRef{2, 24}));
  EXPECT_EQ(player.current(2), (SlotRef{4, 3}));
  // Driving only some parts: the tail keeps entry 24... of nothing, the body takes 7.
  player.play(7, std::vector<int>{0});
  EXPECT_EQ(player.current(0), (SlotRef{0, 7}));
  EXPECT_EQ(player.current(1), (SlotRef{2, 24}));
  // 30 slots per part: the capacity is 30, and an id past it wraps (33 plays 3).
  EXPECT_EQ(player.capacity(), 30);
  player.play(33);
  EXPECT_EQ(player.current(0), (SlotRef{0, 3}));
  EXPECT_EQ(player.current(1), (SlotRef{2, 3}));
}

// The player's pose of a part equals sampling the entry's rig_clip (all parts, phase 0 .. end).
TEST(MhEntries, PlayerMatchesRigClip) {
  const Monster m = synthetic_monster();
  EntryPlayer player(m.pack, m.skeleton);
  const auto whole = rig_clip(m.pack, 2, m.skeleton);
  ASSERT_TRUE(whole);
  const Rig rig = make_rig(m.skeleton);
  const Motion motion = prepare(*whole, m.skeleton.bones.size());
  std::vector<JointPose> a(rig.size()), b(rig.size());
  std::vector<Mat4> wa(rig.size()), wb(rig.size());
  player.play(2);
  for (float f = 0; f <= 30; f += 2.5f) {
    player.seek(f);
    player.pose(a, wa);
    PoseJob{&rig, &motion, f, nullptr, b, wb}.run();
    for (size_t j = 0; j < rig.size(); ++j) {
      EXPECT_EQ(a[j].euler, b[j].euler);
      EXPECT_EQ(a[j].translation, b[j].translation);
    }
  }
}

// notes 2, fk.rig_clip: one track per bone, each part's tracks at its joints, loop from the
// lowest part; put() is its inverse.
TEST(MhRigClip, JoinAndPutBack) {
  MonsterSpec spec;
  spec.entries = 6;
  spec.severed = 2;
  Monster m = synthetic_monster(spec);
  const auto whole = rig_clip(m.pack, 3, m.skeleton);
  ASSERT_TRUE(whole);
  ASSERT_EQ(whole->tracks.size(), m.skeleton.bones.size());
  EXPECT_EQ(whole->tracks[4], m.pack.clip(2, 3)->tracks[0]);  // head part's first joint
  EXPECT_EQ(whole->tracks[6], m.pack.clip(4, 3)->tracks[0]);  // tail part's first joint
  EXPECT_TRUE(whole->tracks[8].channels.empty());             // the severed tail
  EXPECT_EQ(whole->loop, m.pack.clip(0, 3)->loop);
  EXPECT_FALSE(rig_clip(m.pack, 50, m.skeleton).has_value());

  // Putting the same clip back changes nothing.
  const AnimPack before = m.pack;
  put(m.pack, 3, *whole, m.skeleton);
  EXPECT_EQ(m.pack, before);

  // Edit the head's first track: only stream 2 slot 3 gets a new clip.
  Clip edited = *whole;
  edited.tracks[4].channels[0].keys[0].value = 1234;
  put(m.pack, 3, edited, m.skeleton);
  EXPECT_EQ(m.pack.clip(2, 3)->tracks[0].channels[0].keys[0].value, 1234);
  EXPECT_EQ(*m.pack.clip(0, 3), *before.clip(0, 3));
  EXPECT_EQ(rig_clip(m.pack, 3, m.skeleton)->tracks[4], edited.tracks[4]);
  EXPECT_EQ(m.pack.clips.size(), before.clips.size());
  // An emptied keyed track becomes rest keys spanning the clip.
  Clip emptied = edited;
  emptied.tracks[5].channels.clear();
  put(m.pack, 3, emptied, m.skeleton);
  EXPECT_EQ(m.pack.clip(2, 3)->tracks[1], rest(frames(emptied)));
  // Keyed tracks for a part with no clip are refused.
  Clip severed = edited;
  severed.tracks[8] = rest(4);
  EXPECT_THROW(put(m.pack, 3, severed, m.skeleton), Error);
}

TEST(MhRigClip, PutKeepsSharedClipsShared) {
  MonsterSpec spec;
  spec.entries = 4;
  Monster m = synthetic_monster(spec);
  m.pack.streams[0][2] = m.pack.streams[0][1];  // slots 1 and 2 share a clip
  std::vector<Clip> used;
  const auto whole = rig_clip(m.pack, 1, m.skeleton);
  put(m.pack, 1, *whole, m.skeleton);
  EXPECT_EQ(m.pack.streams[0][1], m.pack.streams[0][2]);
}

TEST(MhRigClip, SplitNeedsOneTrackPerBone) {
  const Monster m = synthetic_monster();
  Clip c;
  c.tracks.resize(3);
  EXPECT_THROW(split(c, m.skeleton), Error);
  c.tracks.resize(m.skeleton.bones.size());
  const auto parts = split(c, m.skeleton);
  EXPECT_EQ(parts.at(0).tracks.size(), 4u);
  EXPECT_EQ(parts.at(1).tracks.size(), 2u);
}

// notes 2, motion.rest: rot X, Y, Z each keyed (0, frame 0) and (0, frame `frames`).
TEST(MhRigClip, Rest) {
  const Track t = rest(40);
  ASSERT_EQ(t.channels.size(), 3u);
  EXPECT_EQ(t.channels[0].bit, bits::kRotX);
  EXPECT_EQ(t.channels[2].bit, bits::kRotZ);
  EXPECT_EQ(t.channels[1].keys[1].frame, 40);
  EXPECT_EQ(t.channels[1].keys[1].value, 0);
}

// "a clip's id is stream * 100 + slot".
TEST(MhP3rd, ClipIds) {
  EXPECT_EQ(clip_id(1, 17), 117);
  EXPECT_EQ(clip_slot(117), (SlotRef{1, 17}));
  EXPECT_THROW(clip_id(0, 100), Error);
}

// notes 3 vectors.
TEST(MhP3rd, RecordToBone) {
  EXPECT_EQ(record_to_bone(4, 8, 1, {2, 4}), (std::map<int, int>{{0, 1}, {1, 3}, {2, 5}, {3, 6}}));
  EXPECT_EQ(record_to_bone(9, 5, 2, {}), (std::map<int, int>{{0, 2}, {1, 3}, {2, 4}}));
  EXPECT_EQ(bone_to_record(3, 8, 0, {1}), (std::map<int, int>{{0, 0}, {2, 1}, {3, 2}}));
  EXPECT_EQ(for_monster(40, 3, 20), (std::map<int, int>{{0, 0}, {1, 1}, {2, 2}}));
  EXPECT_EQ(for_monster(40, 12, 20).at(13), 11);
  EXPECT_EQ(for_monster(std::nullopt, 2, 20), (std::map<int, int>{{2, 0}, {3, 1}}));
  EXPECT_EQ(for_monster(40, 2, 20, 5, std::set<int>{5}), (std::map<int, int>{{6, 0}, {7, 1}}));
}

// notes 3: body_fork and loc_below_fork vectors.
TEST(MhP3rd, BodyFork) {
  const std::vector<int> parents{-1, 0, 1, 2, 3, 1, 5};
  EXPECT_EQ(body_fork(parents), 1);
  EXPECT_TRUE(loc_below_fork(parents, {0, 1}).empty());
  EXPECT_EQ(loc_below_fork(parents, {1, 2, 6, -1}), (std::vector<int>{2, 6}));
  EXPECT_EQ(body_fork(std::vector<int>{-1, 0, 1}), 0);
}

}  // namespace
}  // namespace animkit::monster_hunter

#include "animkit/monster_hunter/convert.h"

namespace animkit::monster_hunter {
namespace {

// Conversions between the encodings: content carried whole where it fits; reports otherwise.
TEST(MhConvert, BothWaysAndWhatCannotBeCarried) {
  MonsterSpec spec;
  spec.entries = 5;
  const Monster m = synthetic_monster(spec);
  const Conversion to3 = convert_pack(m.pack, Game::kMhp3rd);
  EXPECT_EQ(to3.pack.game, Game::kMhp3rd);
  EXPECT_EQ(to3.pack.clips, m.pack.clips);
  const std::vector<uint8_t> b = write_pack(to3.pack);
  EXPECT_EQ(read_pack(b), to3.pack);
  const Conversion back = convert_pack(read_pack(b), Game::kMhfu);
  EXPECT_EQ(back.pack, m.pack);
  EXPECT_EQ(write_pack(back.pack), write_pack(m.pack));

  AnimPack big = m.pack;
  big.clips[1].tracks[0].channels[0].keys.resize(9000);
  const Conversion lost = convert_pack(big, Game::kMhp3rd);
  EXPECT_EQ(lost.pack.clip(0, 1), nullptr);
  EXPECT_GE(lost.report.size(), 2u);
}

TEST(MhConvert, RigFromRecords) {
  Clip c;
  c.tracks.resize(3);
  c.tracks[1].channels.push_back({bits::kRotX, {{5, 0, 0, 0}}});
  const Clip whole = rig_from_records(c, 8, std::nullopt);  // offset 2
  ASSERT_EQ(whole.tracks.size(), 8u);
  EXPECT_EQ(whole.tracks[3], c.tracks[1]);
  EXPECT_TRUE(whole.tracks[0].channels.empty());
}

}  // namespace
}  // namespace animkit::monster_hunter
