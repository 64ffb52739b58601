// Issue 17 item 4: `animkit import --as ac-animation` — a glTF animation back into an Animation
// object, the inverse of the creature export (container page 6). Files are built by the module's
// writers (Setup, Animation with hooks and pos_frames), exported, read back with the glTF reader
// and imported.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/creature.h"
#include "animkit/asherons_call/dat_writer.h"
#include "animkit/asherons_call/frame_ops.h"
#include "animkit/asherons_call/import.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/core/error.h"
#include "animkit/gltf/export.h"
#include "animkit/gltf/import.h"

namespace animkit::asherons_call {
namespace {

namespace fs = std::filesystem;

uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }

// 5 parts (the humanoid Setup's), pos_frames that turn and climb, hooks of several payload kinds
// on several frames (direction -1 and 1 included).
Animation hooked_animation(uint32_t id = 0x03000301, int frames = 9) {
  Animation a = synthetic_animation(id, frames, 5, true);
  for (int k = 0; k < frames; ++k) {
    a.pos_frames[static_cast<size_t>(k)] =
        AFrame{{0.01f * static_cast<float>(k), 0.05f, 0.002f},
               axis_angle({0, 0, 1}, 0.03f + 0.01f * static_cast<float>(k))};
    a.frames[static_cast<size_t>(k)].parts[2].orientation =
        axis_angle({0.6f, 0, 0.8f}, 0.11f * static_cast<float>(k) - 0.3f);
  }
  a.frames[0].hooks.push_back({1, 0, {0x0A000010}});
  a.frames[0].hooks.push_back({2, -1, {7}});
  a.frames[3].hooks.push_back(
      {3, 1, {2, fbits(1.5f), fbits(-2), fbits(3), fbits(0.1f), fbits(5), fbits(6)}});
  a.frames[3].hooks.push_back({5, 0, {4, 0x8002, 0x0005}});
  a.frames[3].hooks.push_back({5, 0, {3, 0x1234}});
  a.frames[5].hooks.push_back({13, 0,
                               {0x32000001, 2, fbits(1), fbits(2), fbits(3), fbits(1), fbits(0),
                                fbits(0), fbits(0), 9}});
  a.frames[static_cast<size_t>(frames - 1)].hooks.push_back({4, 1, {}});
  a.tail = {0xDE, 0xAD};
  return a;
}

struct TempDir {
  fs::path dir;
  TempDir() {
    dir = fs::temp_directory_path() /
          ("animkit-ac-import-" +
           std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
           std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() { fs::remove_all(dir); }
  fs::path operator/(const std::string& name) const { return dir / name; }
};

// Through the glTF container and back: what `animkit import` reads.
Animated through_glb(const Animated& a) {
  const std::vector<uint8_t> glb = gltf::to_glb(gltf::build(a));
  return gltf::read("in-memory.glb", glb);
}

ImportResult run(const Animated& source, Options options = {}, const fs::path& tmpl = {},
                 bool json = false) {
  ImportRequest r;
  r.source = source;
  r.template_path = tmpl;
  r.options = std::move(options);
  return import_animation(r, json);
}

// Issue 17: "import of an unchanged export gives back the original file byte for byte" — for
// every humanoid animation and the hooked one, both rigs, binary and JSON templates and outputs.
TEST(AcImport, UnchangedExportImportsBackByteForByte) {
  TempDir tmp;
  const asherons_call::Setup setup = humanoid_setup();
  write_file(tmp / "setup.bin", write_setup(setup));
  std::vector<Animation> all = humanoid_animations();
  all.push_back(hooked_animation());
  for (Rig rig : {Rig::kParents, Rig::kFlat}) {
    CreatureOptions co;
    co.rig = rig;
    for (const Animation& a : all) {
      const std::vector<uint8_t> original = write_animation(a);
      write_file(tmp / "orig.bin", original);
      write_text(tmp / "orig.json", to_json(a).dump(1));
      const Animated glb = through_glb(creature_animation_to_neutral(setup, a, 30.0f, co));
      const Options with_setup{{"setup", (tmp / "setup.bin").string()}};
      EXPECT_EQ(run(glb, with_setup, tmp / "orig.bin").bytes, original) << hex32(a.id);
      EXPECT_EQ(run(glb, {}, tmp / "orig.bin").bytes, original) << hex32(a.id);
      const std::vector<uint8_t> js = run(glb, with_setup, tmp / "orig.json", true).bytes;
      EXPECT_EQ(write_animation(animation_from_json(
                    parse_json(std::string_view(reinterpret_cast<const char*>(js.data()), js.size())))),
                original)
          << hex32(a.id);
    }
  }
}

// A dat template with --id, and --setup as an id of that dat or DAT:ID.
TEST(AcImport, DatTemplateAndSetupForms) {
  TempDir tmp;
  const Animation a = hooked_animation();
  write_file(tmp / "portal.dat", write_dat({{0x02000001, write_setup(humanoid_setup())},
                                            {a.id, write_animation(a)}}));
  const Animated glb = through_glb(creature_animation_to_neutral(humanoid_setup(), a));
  EXPECT_EQ(run(glb, {{"id", "0x03000301"}, {"setup", "0x02000001"}}, tmp / "portal.dat").bytes,
            write_animation(a));
  EXPECT_EQ(run(glb, {{"id", "0x03000301"}, {"setup", (tmp / "portal.dat").string() + ":0x02000001"}},
                tmp / "portal.dat")
                .report["matched_by"],
            "name");
  try {
    run(glb, {}, tmp / "portal.dat");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs --id"), std::string::npos) << e.what();
  }
  try {
    run(glb, {{"setup", "0x02000001"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("name the dat too"), std::string::npos) << e.what();
  }
}

// Export -> import -> export without a template: the second export equals the first within
// float rounding. Measured bound: part keys within 1e-6 (the export normalises quaternions);
// root keys within 1e-5 m / 1e-5 (the root is the running product of pos frames recovered as
// root_k^-1 . root_k+1); measured over 40 frames: 9e-8 and 7.3e-7. Frame count, hooks and
// their frames are exact.
TEST(AcImport, ExportImportExportIsStable) {
  const asherons_call::Setup setup = humanoid_setup();
  const Animation a = hooked_animation(0x03000301, 40);
  const Animated first = through_glb(creature_animation_to_neutral(setup, a));
  const ImportResult r = run(first, {{"id", "0x03000301"}});
  const Animation back = read_animation(r.bytes);
  ASSERT_EQ(back.frames.size(), a.frames.size());
  EXPECT_EQ(back.flags, a.flags);
  for (size_t k = 0; k < a.frames.size(); ++k) EXPECT_EQ(back.frames[k].hooks, a.frames[k].hooks);
  const Animated second = through_glb(creature_animation_to_neutral(setup, back));
  ASSERT_EQ(second.clips.size(), 1u);
  const Clip& c1 = first.clips[0];
  const Clip& c2 = second.clips[0];
  ASSERT_EQ(c1.joints.size(), c2.joints.size());
  float worst_part = 0, worst_root = 0;
  for (size_t j = 0; j < c1.joints.size(); ++j) {
    const auto& t1 = c1.joints[j].translation;
    const auto& t2 = c2.joints[j].translation;
    const auto& q1 = c1.joints[j].rotation;
    const auto& q2 = c2.joints[j].rotation;
    ASSERT_EQ(t1.times, t2.times);
    ASSERT_EQ(q1.size(), q2.size());
    float& worst = j == 0 ? worst_root : worst_part;
    for (size_t k = 0; k < t1.size(); ++k) {
      worst = std::max(worst, length(t1.values[k] - t2.values[k]));
      const Quat d{q1.values[k].x - q2.values[k].x, q1.values[k].y - q2.values[k].y,
                   q1.values[k].z - q2.values[k].z, q1.values[k].w - q2.values[k].w};
      worst = std::max(worst, std::sqrt(dot(d, d)));
    }
  }
  EXPECT_LE(worst_part, 1e-6f);
  EXPECT_LE(worst_root, 1e-5f);
  EXPECT_EQ(c1.events.size(), c2.events.size());
  // And a third pass changes nothing more than the second did.
  const ImportResult r2 = run(second, {{"id", "0x03000301"}});
  EXPECT_EQ(read_animation(r2.bytes).frames.size(), a.frames.size());
}

// Root motion becomes pos_frames: pos[k] = root_k^-1 . root_k+1 (computed here from the
// glTF's root keys, mapped back from glTF axes), the last identity without a template.
TEST(AcImport, RootMotionBecomesPosFrames) {
  Animated src;
  src.skeleton.add_joint("root", -1, Transform::identity());
  src.skeleton.add_joint("part_0", 0, Transform::identity());
  Clip c;
  c.name = "walk";
  c.frame_rate = 10;
  c.duration = 0.3f;
  c.joints.resize(2);
  const Vec3 origins[3] = {{0, 0, 0}, {0, 0, 0.5f}, {0.1f, 0, 1.0f}};  // glTF +Z = AC +Y
  const Quat turns[3] = {Quat::identity(), axis_angle({0, 1, 0}, 0.2f), axis_angle({0, 1, 0}, 0.5f)};
  for (int k = 0; k < 3; ++k) {
    c.joints[0].translation.add(0.1f * static_cast<float>(k), origins[k]);
    c.joints[0].rotation.add(0.1f * static_cast<float>(k), turns[k]);
    c.joints[1].translation.add(0.1f * static_cast<float>(k), {0, 1, 0});
  }
  c.joints[0].translation.interpolation = c.joints[0].rotation.interpolation = Interpolation::kStep;
  src.clips.push_back(c);
  const Animation a = read_animation(run(src).bytes);
  EXPECT_EQ(a.id, 0x03000000u);
  EXPECT_TRUE(a.has_pos_frames());
  ASSERT_EQ(a.pos_frames.size(), 3u);
  // Frame 0 -> 1: AC origin (0, 0.5, 0) (glTF z -> AC y), AC rotation about Z by 0.2 (glTF y).
  EXPECT_NEAR(a.pos_frames[0].origin.y, 0.5f, 1e-6f);
  EXPECT_NEAR(a.pos_frames[0].origin.x, 0.0f, 1e-6f);
  EXPECT_NEAR(a.pos_frames[0].orientation.z, std::sin(0.1f), 1e-6f);
  // Frame 1 -> 2: the step (0.1, 0, 0.5) glTF is AC (-0.1, 0.5, 0) in world, seen from frame 1's
  // heading (0.2 about Z): rotate by -0.2; the turn is 0.3.
  const Vec3 world{-0.1f, 0.5f, 0};
  const Vec3 local = rotate(axis_angle({0, 0, 1}, -0.2f), world);
  EXPECT_NEAR(a.pos_frames[1].origin.x, local.x, 1e-6f);
  EXPECT_NEAR(a.pos_frames[1].origin.y, local.y, 1e-6f);
  EXPECT_NEAR(a.pos_frames[1].orientation.z, std::sin(0.15f), 1e-6f);
  EXPECT_EQ(a.pos_frames[2], AFrame{});
  // The part: glTF (0, 1, 0) under the root is AC (0, 0, 1), whatever the root does.
  for (const AnimationFrame& f : a.frames) EXPECT_EQ(f.parts[0].origin, (Vec3{0, 0, 1}));
}

// `--dry-run --json`'s report: the per-joint maximum error of the written result against the
// glTF, at frame times and key times. Keys at 60 fps written at 30: the odd keys are lost, and
// the error is exactly their difference from the frame shown at their time.
TEST(AcImport, ReportsPerJointMaximumError) {
  Animated src;
  src.skeleton.add_joint("root", -1, Transform::identity());
  src.skeleton.add_joint("part_0", 0, Transform::identity());
  src.skeleton.add_joint("part_1", 0, Transform::identity());
  Clip c;
  c.name = "0x03000500";
  c.frame_rate = 60;
  c.duration = 4.0f / 60.0f;
  c.joints.resize(3);
  for (int k = 0; k < 4; ++k) {
    const float t = static_cast<float>(k) / 60.0f;
    c.joints[1].rotation.add(t, axis_angle({1, 0, 0}, k % 2 ? 0.25f : 0.0f));  // odd keys 0.25
    c.joints[2].translation.add(t, {0, 0, k % 2 ? 0.125f : 0.0f});             // odd keys 0.125
  }
  c.joints[1].rotation.interpolation = c.joints[2].translation.interpolation = Interpolation::kStep;
  src.clips.push_back(c);
  const ImportResult at60 = run(src);
  EXPECT_EQ(at60.report["max_translation_error"], 0.0);
  EXPECT_EQ(at60.report["max_rotation_error"], 0.0);
  EXPECT_EQ(at60.report["frames"], 4);
  const ImportResult at30 = run(src, {{"frame-rate", "30"}});
  EXPECT_EQ(at30.report["frames"], 2);
  EXPECT_EQ(at30.report["id"], "0x03000500");  // the clip's name is an animation id
  const Json& e = at30.report["max_error"];
  EXPECT_NEAR(e["part_0"]["rotation"].get<double>(), 0.25, 1e-5);
  EXPECT_EQ(e["part_0"]["translation"].get<double>(), 0.0);
  EXPECT_NEAR(e["part_1"]["translation"].get<double>(), 0.125, 1e-6);
  EXPECT_EQ(e["part_1"]["rotation"].get<double>(), 0.0);
  EXPECT_EQ(e["root"]["translation"].get<double>(), 0.0);
  EXPECT_EQ(at30.report["matched_by"], "name");
  EXPECT_THROW(run(src, {{"frame-rate", "0.0001"}}), Error);  // at most EPS: never played
  EXPECT_THROW(run(src, {{"frame-rate", "fast"}}), Error);
}

// Joint matching: by name (part_<i>), else by index; missing and extra joints named in the
// error; a part named twice; a rest pose unlike the Setup's is a note.
TEST(AcImport, JointMatchingErrors) {
  const asherons_call::Setup setup = humanoid_setup();
  const Animation a = hooked_animation();
  const Animated good = through_glb(creature_animation_to_neutral(setup, a));
  TempDir tmp;
  write_file(tmp / "orig.bin", write_animation(a));
  auto message = [&](const Animated& src, const Options& o = {}) {
    try {
      run(src, o, tmp / "orig.bin");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A missing part.
  Animated missing = good;
  missing.skeleton.names[4] = "part_9";
  EXPECT_NE(message(missing).find("missing 1 part joint(s): part_3"), std::string::npos)
      << message(missing);
  EXPECT_NE(message(missing).find("1 joint(s) past the 5 parts of the template: part_9"),
            std::string::npos)
      << message(missing);
  // Named twice.
  Animated twice = good;
  twice.skeleton.names[4] = "part_2";
  EXPECT_NE(message(twice).find("names a part twice: part_2"), std::string::npos);
  // Not part_<i> names: by index when the count matches (a note), else an error.
  Animated renamed = good;
  for (size_t j = 1; j < renamed.skeleton.num_joints(); ++j) renamed.skeleton.names[j] = "bone" + std::to_string(j);
  const ImportResult by_index = run(renamed, {}, tmp / "orig.bin");
  EXPECT_EQ(by_index.bytes, write_animation(a));
  EXPECT_EQ(by_index.report["matched_by"], "index");
  Animated fewer = renamed;
  fewer.skeleton.names.pop_back();
  fewer.skeleton.parents.pop_back();
  fewer.skeleton.rest.pop_back();
  for (Clip& c : fewer.clips) c.joints.pop_back();
  EXPECT_NE(message(fewer).find("4 joint(s) besides the root (bone1, bone2, bone3, bone4) for the 5 "
                                "parts of the template"),
            std::string::npos)
      << message(fewer);
  // Several clips and no --clip.
  Animated two = good;
  two.clips.push_back(two.clips[0]);
  two.clips[1].name = "other";
  EXPECT_NE(message(two).find("pick it with --clip (the file has: 0x03000301, other)"),
            std::string::npos);
  // A different rest pose: reported, the clip written as authored.
  Animated moved = good;
  moved.skeleton.rest[2].translation.y += 0.5f;
  write_file(tmp / "setup.bin", write_setup(setup));
  const ImportResult r = run(moved, {{"setup", (tmp / "setup.bin").string()}}, tmp / "orig.bin");
  ASSERT_FALSE(r.notes.empty());
  bool noted = false;
  for (const std::string& n : r.notes) noted |= n.find("joint 'part_1': rest pose differs") == 0;
  EXPECT_TRUE(noted);
  EXPECT_EQ(r.bytes, write_animation(a));  // the tracks carry every key: the rest is not used
}

// Hooks from `extras.events`: at frame round(time x rate); the event's name stands for the type
// when the payload has none; a payload that is not a hook is a clear error.
TEST(AcImport, HooksFromEvents) {
  Animated src;
  src.skeleton.add_joint("root", -1, Transform::identity());
  src.skeleton.add_joint("part_0", 0, Transform::identity());
  Clip c;
  c.name = "x";
  c.frame_rate = 30;
  c.duration = 0.1f;
  c.joints.resize(2);
  c.events.push_back({1.0f / 30.0f, "Sound", R"({"type": "Sound", "direction": 1, "sound_id": 5})"});
  c.events.push_back({2.0f / 30.0f - 0.001f, "AnimationDone", "{}"});
  src.clips.push_back(c);
  const Animation a = read_animation(run(src).bytes);
  ASSERT_EQ(a.frames.size(), 3u);
  EXPECT_TRUE(a.frames[0].hooks.empty());
  EXPECT_EQ(a.frames[1].hooks, (std::vector<AnimHook>{{1, 1, {5}}}));
  EXPECT_EQ(a.frames[2].hooks, (std::vector<AnimHook>{{4, 0, {}}}));
  src.clips[0].events.push_back({0, "footstep", "{}"});
  try {
    run(src);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("event 2 'footstep' at 0 s: not an Asheron's Call hook"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace animkit::asherons_call
