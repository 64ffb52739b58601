// The registry's view: formats and sniffs, the dump JSON shape (issue 5, "Command line"),
// validate through the Document, the neutral export at 30 fps (and another rate), curves().
#include <gtest/gtest.h>

#include <filesystem>

#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/module.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {
namespace {

struct Files {
  std::filesystem::path dir, skeleton, pack;
};

Files write_monster(const std::string& name, const Monster& m) {
  Files f;
  f.dir = std::filesystem::temp_directory_path() / ("mh-test-" + name);
  std::filesystem::create_directories(f.dir);
  f.skeleton = f.dir / "skeleton.bin";
  f.pack = f.dir / "pack.bin";
  write_file(f.skeleton, write_skeleton(m.skeleton));
  write_file(f.pack, write_pack(m.pack));
  return f;
}

TEST(MhDocument, RegistryDetectsBothFormats) {
  Registry registry;
  register_module(registry);
  const Files f = write_monster("detect", synthetic_monster());
  const Format* used = nullptr;
  registry.open(f.skeleton, {}, &used);
  EXPECT_EQ(used->name, "mh-skeleton");
  registry.open(f.pack, {}, &used);
  EXPECT_EQ(used->name, "mh-pack");
  const Engine* e = registry.engine("monster_hunter");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->open_set(Options{}), nullptr);
}

TEST(MhDocument, DumpShape) {
  MonsterSpec spec;
  spec.entries = 3;
  Monster m = synthetic_monster(spec);
  m.pack.streams[0][1] = kNoClip;
  m.pack.streams[0][2] = 0;  // shares entry 0's clip
  const Files f = write_monster("dump", m);
  const auto doc = open_set({{"skeleton", f.skeleton.string()}, {"pack", f.pack.string()}});
  const Json j = doc->dump();
  const Json& slots = j["pack"]["streams"][0]["slots"];
  EXPECT_EQ(slots[0], 0);
  EXPECT_TRUE(slots[1].is_null());
  EXPECT_EQ(slots[2], 0);
  const Json& key = j["pack"]["clips"][0]["tracks"][0]["channels"][0]["keys"][0];
  for (const char* k : {"value", "frame", "ease_in", "ease_out"}) EXPECT_TRUE(key.contains(k)) << k;
  const Json& bone = j["skeleton"]["bones"][4];
  EXPECT_EQ(bone["parent"], 3);
  EXPECT_EQ(bone["stream"], 1);
  for (const char* k : {"kind", "index", "first_child", "next_sibling", "bind_scale",
                        "bind_rotation", "bind_position", "link"})
    EXPECT_TRUE(bone.contains(k)) << k;
}

TEST(MhDocument, ValidateThroughTheDocument) {
  MonsterSpec spec;
  spec.entries = 3;
  Monster m = synthetic_monster(spec);
  m.pack.clips[1].tracks[0].channels.push_back({bits::kSclY, {{1, 0, 0, 0}}});
  const Files f = write_monster("validate", m);
  const auto doc = open_set({{"skeleton", f.skeleton.string()}, {"pack", f.pack.string()}});
  const auto findings = doc->validate();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, "SCALE_CHANNEL");
  EXPECT_EQ(doc->validate_summary(findings), "1 errors, 0 warnings");
}

// Export: the armature from the bind pose, every entry sampled per frame at 30 fps by default.
TEST(MhDocument, NeutralAtThirtyAndAnotherRate) {
  MonsterSpec spec;
  spec.entries = 3;
  spec.last_frame = 30;
  const Monster m = synthetic_monster(spec);
  const Files f = write_monster("neutral", m);
  const Options base{{"skeleton", f.skeleton.string()}, {"pack", f.pack.string()}};
  const auto a = open_set(base)->to_neutral();
  ASSERT_TRUE(a);
  EXPECT_EQ(a->skeleton.num_joints(), m.skeleton.bones.size());
  EXPECT_EQ(a->skeleton.rest[4].translation, (Vec3{4, 0.5f, 0.25f}));
  ASSERT_EQ(a->clips.size(), 3u);
  EXPECT_EQ(a->clips[0].name, "entry_000");
  EXPECT_FLOAT_EQ(a->clips[0].duration, 1.0f);
  EXPECT_EQ(a->clips[0].joints[1].rotation.size(), 31u);  // frames 0..30
  EXPECT_TRUE(a->clips[1].looping);
  Options fast = base;
  fast["rate"] = "60";
  const auto b = open_set(fast)->to_neutral();
  EXPECT_EQ(b->clips[0].joints[1].rotation.size(), 61u);
  // A sample equals the engine's pose: joint 1's rotation at frame 10.
  const auto whole = rig_clip(m.pack, 0, m.skeleton);
  const Rig rig = make_rig(m.skeleton);
  const Motion motion = prepare(*whole, rig.size());
  std::vector<JointPose> local(rig.size());
  PoseJob{&rig, &motion, 10, nullptr, local, {}}.run();
  EXPECT_EQ(a->clips[0].joints[1].rotation.values[10], euler_quat(local[1].euler));
}

TEST(MhDocument, CurvesAreTheEnginesHermite) {
  const Monster m = synthetic_monster();
  const Files f = write_monster("curves", m);
  const auto doc = open_set({{"skeleton", f.skeleton.string()}, {"pack", f.pack.string()}});
  const auto curves = doc->curves();
  ASSERT_FALSE(curves.empty());
  const Curve& c = curves[0].curves[0];
  EXPECT_EQ(c.channel, "rotation.x");
  const ChannelCurve expected = make_curve(m.pack.clips[0].tracks[0].channels[0]);
  EXPECT_FLOAT_EQ(c.evaluate(0.25f), sample(expected, 7.5f));
}

TEST(MhDocument, Mhp3rdClipsByIdWithRecords) {
  MonsterSpec spec;
  spec.game = Game::kMhp3rd;
  spec.entries = 3;
  const Monster m = synthetic_monster(spec);
  const Files f = write_monster("p3rd", m);
  const auto doc = open_set({{"skeleton", f.skeleton.string()}, {"pack", f.pack.string()}});
  const auto a = doc->to_neutral();
  ASSERT_EQ(a->clips.size(), 3u);
  EXPECT_EQ(a->clips[2].name, "clip_2");
  // Record 0 drives bone 2 (the default offset): bones 0 and 1 are not animated.
  EXPECT_TRUE(a->clips[0].joints[0].rotation.empty());
  EXPECT_FALSE(a->clips[0].joints[2].rotation.empty());
  EXPECT_THROW(
      open_set({{"skeleton", f.skeleton.string()}, {"pack", f.pack.string()}, {"game", "mhfu"}}),
      Error);
}

}  // namespace
}  // namespace animkit::monster_hunter

#include <sstream>

#include "animkit/monster_hunter/play.h"

namespace animkit::monster_hunter {
namespace {

// `animkit play`: the empty-slot rule over time, one line per game frame.
TEST(MhPlay, ScenarioTrace) {
  MonsterSpec spec;
  spec.entries = 6;
  spec.head_only = {5};
  const Files f = write_monster("play", synthetic_monster(spec));
  const Json scenario = {
      {"engine", "monster_hunter"},
      {"skeleton", "skeleton.bin"},
      {"pack", "pack.bin"},
      {"speed", 0.5},
      {"joints", {5}},
      {"steps", Json::array({{{"play", 1}}, {{"advance", 4}}, {{"play", 5}}, {{"advance", 2}}})}};
  std::ostringstream out;
  EXPECT_EQ(play(scenario, f.dir, PlayOptions{true, 0}, out), 0);
  std::vector<Json> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(Json::parse(line));
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_EQ(lines[4]["parts"][0]["phase"], 2.0);  // 4 frames at speed 0.5
  EXPECT_EQ(lines[5]["event"], "play 5");
  EXPECT_EQ(lines[5]["parts"][0]["slot"], 1);  // the body keeps entry 1
  EXPECT_EQ(lines[5]["parts"][1]["slot"], 5);
  EXPECT_EQ(lines[7]["parts"][0]["phase"], 3.0);
  EXPECT_EQ(lines[7]["parts"][1]["phase"], 1.0);
  EXPECT_THROW(play(Json{{"engine", "monster_hunter"}}, f.dir, {}, out), Error);
}

}  // namespace
}  // namespace animkit::monster_hunter
