// Issue 11, items 5 and 6: export keeps each part's own timing and its byte limit; bad input does
// not overflow or vanish (64-bit entry slots, non-finite floats in dump, species templates).
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <filesystem>

#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/dump.h"
#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/pac.h"
#include "animkit/monster_hunter/rules.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {
namespace {

// Entry `e`'s head clip (part 1, stream 2) squeezed to end at frame 10 (from 30), looping from 0
// when `loop`.
Monster short_head(int e, bool loop) {
  MonsterSpec spec;
  spec.entries = 2;
  Monster m = synthetic_monster(spec);
  Clip& head = m.pack.clips[m.pack.streams[2][e]];
  for (Track& t : head.tracks)
    for (Channel& c : t.channels)
      for (Keyframe& k : c.keys) k.frame = static_cast<int16_t>(k.frame / 3);
  head.loop = loop ? 1 : 0;
  head.loop_start = 0;
  return m;
}

const animkit::Clip& clip_named(const Animated& a, const std::string& name) {
  for (const animkit::Clip& c : a.clips)
    if (c.name == name) return c;
  throw Error("no clip " + name);
}

// Issue 11, item 5: "an entry's glTF animation lasts as long as its longest part, and every
// shorter looping part loops on its own inside it (as play does), not holds".
TEST(MhExport, ShorterLoopingPartLoopsInsideTheEntry) {
  const Monster m = short_head(1, true);
  const Animated a = to_animated(m.skeleton, &m.pack, {});
  const animkit::Clip& c = clip_named(a, "entry_001");
  EXPECT_FLOAT_EQ(c.duration, 1.0f);  // the body's 30 frames
  const auto& head = c.joints[4].rotation;  // joint 4: the head part's first joint
  ASSERT_EQ(head.times.size(), 31u);  // a key per clip frame at 30 per second
  // Frame 15 of the entry is frame 5 of the 10-frame head clip (period 10 from loop_start 0).
  const Quat a5 = head.values[5], a15 = head.values[15], a10 = head.values[10];
  EXPECT_NEAR(a5.x, a15.x, 1e-6f);
  EXPECT_NEAR(a5.w, a15.w, 1e-6f);
  EXPECT_GT(std::abs(a10.x - a15.x) + std::abs(a10.y - a15.y) + std::abs(a10.z - a15.z), 1e-4f);
  // The body (joint 1) keeps its own 30-frame clock.
  EXPECT_GT(std::abs(c.joints[1].rotation.values[5].x - c.joints[1].rotation.values[15].x) +
                std::abs(c.joints[1].rotation.values[5].z - c.joints[1].rotation.values[15].z),
            1e-4f);
}

TEST(MhExport, ShorterOneShotPartHolds) {
  const Monster m = short_head(0, false);
  const Animated a = to_animated(m.skeleton, &m.pack, {});
  const animkit::Clip& c = clip_named(a, "entry_000");
  const auto& head = c.joints[4].rotation;
  EXPECT_NEAR(head.values[10].x, head.values[20].x, 1e-6f);
  EXPECT_NEAR(head.values[10].w, head.values[29].w, 1e-6f);
}

TEST(MhExport, CountsEntriesAndWarnsWhenSomeAreDropped) {
  MonsterSpec spec;
  spec.entries = 6;
  Monster m = synthetic_monster(spec);
  m.pack.streams[4].resize(4);  // the tail part has slots for entries 0..3 only
  const Animated a = to_animated(m.skeleton, &m.pack, {});
  EXPECT_EQ(a.clips.size(), 4u);
  bool counted = false, warned = false;
  for (const std::string& n : a.notes) {
    counted |= n == "Monster Hunter: 4 entries exported, each lasting its longest part";
    warned |= n.find("warning: 2 entries with clips not exported (entries 4 5)") == 0 &&
              n.find("part 2 has 4 slots in stream 4") != std::string::npos;
  }
  EXPECT_TRUE(counted);
  EXPECT_TRUE(warned);
}

// "refuses to write more than --max-bytes (default 512 MiB) with a clear message".
TEST(MhExport, MaxBytesRefusesBeforeSampling) {
  const Monster m = synthetic_monster();
  DocumentOptions o;
  EXPECT_EQ(o.max_bytes, uint64_t{512} << 20);
  o.max_bytes = 1000;
  try {
    to_animated(m.skeleton, &m.pack, o);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--max-bytes 1000"), std::string::npos) << e.what();
  }
  o.rate = 1000;
  o.max_bytes = uint64_t{512} << 20;
  EXPECT_NO_THROW(to_animated(m.skeleton, &m.pack, o));
  EXPECT_THROW(document_options({{"max-bytes", "12x"}}), Error);
  EXPECT_EQ(document_options({{"max-bytes", "4096"}}).max_bytes, 4096u);
}

// Issue 11, item 6: part ids >= 0x40000000 no longer overflow entry_slot; floor_div(INT_MIN).
TEST(MhInputs, EntrySlotIsSixtyFourBit) {
  EXPECT_EQ(entry_slot(0x40000000, 117), (SlotRef{int64_t{0x80000000} + 1, 17}));
  EXPECT_EQ(entry_slot(INT_MAX, 0).stream, int64_t{INT_MAX} * 2);
  EXPECT_EQ(entry_slot(0, INT_MIN), (SlotRef{-21474837, 52}));  // floor(INT_MIN / 100)
  EXPECT_EQ(entry_clip(INT_MIN, 0), (SlotRef{-21474837, 52}));
  EXPECT_EQ(clip_slot(INT_MIN), (SlotRef{-21474837, 52}));
  MonsterSpec spec;
  Monster m = synthetic_monster(spec);
  for (Bone& b : m.skeleton.bones)
    if (b.stream == 2) b.stream = 0x40000000;  // the tail part's id
  EXPECT_EQ(part_clip(m.pack, 0x40000000, 1), nullptr);
  EXPECT_NO_THROW(validate(&m.skeleton, &m.pack));
  EXPECT_NO_THROW(to_animated(m.skeleton, &m.pack, {}));
  EntryPlayer player(m.pack, m.skeleton);
  player.play(1);
  EXPECT_FALSE(player.current(0x40000000).has_value());
}

// "dump --json writes non-finite floats so they can be told apart".
TEST(MhInputs, DumpNamesNonFiniteFloats) {
  Monster m = synthetic_monster();
  m.skeleton.bones[1].bind_scale[0] = std::nanf("");
  m.skeleton.bones[1].bind_scale[1] = INFINITY;
  m.skeleton.bones[1].bind_scale[2] = -INFINITY;
  m.pack.clips[0].loop_start = std::nanf("");
  const Json s = to_json(m.skeleton);
  EXPECT_EQ(s["bones"][1]["bind_scale"][0], "NaN");
  EXPECT_EQ(s["bones"][1]["bind_scale"][1], "Infinity");
  EXPECT_EQ(s["bones"][1]["bind_scale"][2], "-Infinity");
  EXPECT_EQ(s["bones"][1]["bind_scale"][3], 1.0);
  EXPECT_EQ(to_json(m.pack)["clips"][0]["loop_start"], "NaN");
}

// Issue 11, item 2: --template EM loads file_0{EM+6110} under --data.
TEST(MhInputs, TemplateBySpecies) {
  EXPECT_EQ(species_pac_name(75), "file_06185");
  const Monster m = synthetic_monster();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mh-template-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir / "nested");
  Pac pac;
  Skeleton species = m.skeleton;
  species.bones[6].parent = 2;
  pac.entries = {write_skeleton(species), {}, {}, write_pack(m.pack)};
  pad_to_block(pac);
  write_file(dir / "nested" / "file_06185.bin", write_pac(pac));
  write_file(dir / "skeleton.bin", write_skeleton(m.skeleton));
  const auto doc = open_skeleton(dir / "skeleton.bin", write_skeleton(m.skeleton),
                                 {{"template", "75"}, {"data", dir.string()}});
  const auto f = doc->validate();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "TEMPLATE");
  EXPECT_EQ(f[0].message, "parents differ at bones 6");
  try {
    open_skeleton(dir / "skeleton.bin", write_skeleton(m.skeleton), {{"template", "75"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("give --data DIR"), std::string::npos) << e.what();
  }
  EXPECT_THROW(open_skeleton(dir / "skeleton.bin", write_skeleton(m.skeleton),
                             {{"template", "76"}, {"data", dir.string()}}),
               Error);
  std::filesystem::remove_all(dir);
}

// notes 1: verify reuses the rules, all but TEMPLATE; a warning counts as a pass.
TEST(MhInputs, VerifyChecks) {
  Monster m = synthetic_monster();
  m.pack.clips[0].tracks[0].channels[0].keys.clear();  // EMPTY_CHANNEL: a warning
  std::vector<Finding> f = validate(&m.skeleton, &m.pack);
  std::vector<Check> checks = verify_checks(f);
  ASSERT_EQ(checks.size(), 13u);
  EXPECT_EQ(checks[0].name, "every parent precedes its child");
  EXPECT_EQ(checks[10].name, "no channel without keyframes");
  EXPECT_TRUE(checks[10].ok);
  EXPECT_EQ(checks[10].detail, "stream 0 slot 0 track 0 bit 0x8");
  m.skeleton.bones[2].parent = 5;
  checks = verify_checks(validate(&m.skeleton, &m.pack));
  EXPECT_FALSE(checks[0].ok);
  EXPECT_EQ(checks[0].detail, "bones 2");
}

// STREAM_RUNS prints every run (mhfu_port.constraints: " ".join of all runs).
TEST(MhInputs, StreamRunsListsEveryRun) {
  MonsterSpec spec;
  spec.part_sizes = {2, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  Monster m = synthetic_monster(spec);
  m.skeleton.bones[0].stream = 9;
  const auto f = validate(&m.skeleton, nullptr);
  std::string runs;
  for (const Finding& x : f)
    if (x.code == "STREAM_RUNS") runs = x.message;
  EXPECT_EQ(runs, "9:1 0:1 1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 9:1");
}

}  // namespace
}  // namespace animkit::monster_hunter
