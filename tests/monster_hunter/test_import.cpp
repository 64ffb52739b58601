// `animkit import` into Monster Hunter packs (issue 17, item 2): an export imported unchanged
// gives back the original bytes; export -> import -> export is stable; what import writes, played
// by the engine (EntryPlayer / the MHP3rd clip's motion), stays within --tolerance of the glTF at
// every frame; the dry run's per-joint report; rule violations and joint mismatches refuse.
// Fixtures are the module's synthetic monsters, built by its writers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <numbers>

#include "animkit/core/error.h"
#include "animkit/core/sampling_job.h"
#include "animkit/gltf/export.h"
#include "animkit/gltf/import.h"
#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/fit.h"
#include "animkit/monster_hunter/import.h"
#include "animkit/monster_hunter/pac.h"
#include "animkit/monster_hunter/rules.h"
#include "animkit/monster_hunter/synthetic.h"

namespace animkit::monster_hunter {
namespace {

namespace fs = std::filesystem;
constexpr double kRotStep = std::numbers::pi / 8192;
constexpr double kLocStep = 1.0 / 16;

// MHFU: six entries, entry 5 the head's alone; entry 1's tail part shorter than the others (its
// own clock: 20 frames, looping), entry 3's body a clip shared with entry 2's, and an unnamed bit
// channel (not played, kept).
Monster mhfu_monster() {
  MonsterSpec spec;
  spec.entries = 6;
  spec.head_only = {5};
  spec.severed = 2;  // bones 8 and 9: a second root chain, part 3, no streams
  Monster m = synthetic_monster(spec);
  Clip& tail = m.pack.clips[m.pack.streams[4][1]];
  for (Track& t : tail.tracks)
    for (Channel& c : t.channels)
      for (Keyframe& k : c.keys) k.frame = static_cast<int16_t>(k.frame * 2 / 3);
  m.pack.clips[m.pack.streams[0][2]].tracks[1].channels.push_back(
      {bits::kUnnamed0, {{16, 0, 0, 0}, {17, 30, 0, 0}}});
  m.pack.streams[0][3] = m.pack.streams[0][2];
  m.pack = read_pack(write_pack(m.pack));  // slot 3's own clip, now unused, is dropped
  return m;
}

Monster mhp3rd_monster() {
  MonsterSpec spec;
  spec.game = Game::kMhp3rd;
  spec.entries = 4;
  return synthetic_monster(spec);
}

Animated through_glb(const Animated& a) {
  const std::vector<uint8_t> glb = gltf::to_glb(gltf::build(a));
  return gltf::read("clip.glb", glb);
}

Animated exported(const Monster& m) { return through_glb(to_animated(m.skeleton, &m.pack, {})); }

// The glTF's local pose of every joint at a clip frame (core's sampler; a joint without a track
// holds its rest), independent of the importer's own sampling.
std::vector<Transform> gltf_pose(const Animated& a, const animkit::Clip& clip, int frame) {
  std::vector<Transform> out(a.skeleton.num_joints());
  SamplingCursor cursor;
  SamplingJob job;
  job.clip = &clip;
  job.time = static_cast<float>(frame) / 30.f;
  job.cursor = &cursor;
  job.rest = a.skeleton.rest;
  job.output = out;
  EXPECT_TRUE(job.run());
  return out;
}

// The engine's playback of what import wrote against the glTF at every clip frame: the largest
// error in engine steps over the joints (rotation angle / (pi/8192), distance * 16).
double engine_error(const Skeleton& skeleton, const AnimPack& pack, const Animated& glb,
                    const animkit::Clip& clip, int target, std::optional<int> em = {}) {
  const int frames = static_cast<int>(std::lround(clip.duration * 30));
  const size_t n = skeleton.bones.size();
  std::vector<JointPose> local(n);
  const Rig rig = make_rig(skeleton);
  Motion motion;
  std::optional<EntryPlayer> player;
  if (pack.game == Game::kMhfu) {
    player.emplace(pack, skeleton);
    player->play(target);
  } else {
    const Clip* c = pack.clip(clip_slot(target).stream, clip_slot(target).slot);
    EXPECT_NE(c, nullptr);
    motion = prepare(*c, record_joints(static_cast<int>(c->tracks.size()), static_cast<int>(n), em), n);
  }
  double worst = 0;
  for (int f = 0; f <= frames; ++f) {
    if (player) {
      player->seek(static_cast<float>(f));
      player->pose(local, {});
    } else {
      PoseJob{&rig, &motion, static_cast<float>(f), nullptr, local, {}}.run();
    }
    const std::vector<Transform> want = gltf_pose(glb, clip, f);
    for (size_t j = 0; j < n; ++j) {
      const double r = rotation_angle(euler_quat(local[j].euler), want[j].rotation) / kRotStep;
      const double t = length(local[j].translation - want[j].translation) / kLocStep;
      worst = std::max({worst, r, t});
    }
  }
  return worst;
}

const animkit::Clip& clip_named(const Animated& a, const std::string& name) {
  for (const animkit::Clip& c : a.clips)
    if (c.name == name) return c;
  throw Error("no clip " + name);
}

// An edit as a modder makes one: joint `joint` turned about Y by a slow wave, joint `root` moved
// along X.
void edit(Animated& a, const std::string& name, int joint, int root = 0) {
  for (animkit::Clip& c : a.clips) {
    if (c.name != name) continue;
    JointTracks& jt = c.joints[joint];
    for (size_t i = 0; i < jt.rotation.size(); ++i) {
      const float wave = 0.3f * std::sin(jt.rotation.times[i] * 4.f);
      jt.rotation.values[i] = normalize(jt.rotation.values[i] * axis_angle({0, 1, 0}, wave));
    }
    JointTracks& moved = c.joints[root];
    for (size_t i = 0; i < moved.translation.size(); ++i)
      moved.translation.values[i].x += 1.3f * std::cos(moved.translation.times[i] * 2.f);
  }
}

struct TempDir {
  TempDir() {
    path = fs::temp_directory_path() /
           ("animkit-mh-import-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  fs::path path;
};

// A model PAC: 0 skeleton, 1 PMO (no groups), 2 TMH, 3 the pack.
std::vector<uint8_t> model_pac(const Monster& m) {
  Pac pac;
  std::vector<uint8_t> pmo(0x40, 0), tmh(16, 0);
  std::memcpy(pmo.data(), "pmo\0001.0\0", 8);
  std::memcpy(tmh.data(), ".TMH0.14", 8);
  pac.entries = {write_skeleton(m.skeleton), pmo, tmh, write_pack(m.pack)};
  pad_to_block(pac);
  return write_pac(pac);
}

TEST(MhImport, UnchangedExportGivesBackTheOriginalBytesMhfu) {
  const Monster m = mhfu_monster();
  AnimPack pack = m.pack;
  const std::vector<ClipImport> clips = import_clips(exported(m), m.skeleton, pack, {});
  ASSERT_EQ(clips.size(), 6u);
  EXPECT_EQ(write_pack(pack), write_pack(m.pack));
  for (const ClipImport& c : clips) {
    EXPECT_EQ(c.fitted_channels, 0) << c.name;
    EXPECT_GT(c.kept_channels, 0) << c.name;
    EXPECT_LT(c.worst, 0.05) << c.name;  // float32 glTF against the engine's own keys
  }
  EXPECT_EQ(clips[1].frames, 30);  // entry 1 lasts its longest part; its tail keeps its 20
}

TEST(MhImport, UnchangedExportGivesBackTheOriginalBytesMhp3rd) {
  const Monster m = mhp3rd_monster();
  AnimPack pack = m.pack;
  const std::vector<ClipImport> clips = import_clips(exported(m), m.skeleton, pack, {});
  ASSERT_EQ(clips.size(), 4u);
  EXPECT_EQ(clips[2].name, "clip_2");
  EXPECT_EQ(write_pack(pack), write_pack(m.pack));
}

TEST(MhImport, ThroughTheFormatAPacComesBackByteForByte) {
  TempDir dir;
  const Monster m = mhfu_monster();
  const std::vector<uint8_t> pac = model_pac(m);
  write_file(dir.path / "file_06185", pac);
  ImportRequest request;
  request.source = exported(m);
  request.template_path = dir.path / "file_06185";
  EXPECT_EQ(import_gltf(request, true).bytes, pac);
  // A species number under --data finds the same file; mh-pack writes the pack entry alone.
  request.template_path = "75";
  request.options = {{"template", "75"}, {"data", dir.path.string()}};
  EXPECT_EQ(import_gltf(request, false).bytes, write_pack(m.pack));
  // A pack template needs the skeleton.
  write_file(dir.path / "pack.bin", write_pack(m.pack));
  write_file(dir.path / "skeleton.bin", write_skeleton(m.skeleton));
  request.template_path = dir.path / "pack.bin";
  request.options = {{"skeleton", (dir.path / "skeleton.bin").string()}};
  EXPECT_EQ(import_gltf(request, false).bytes, write_pack(m.pack));
  request.options.clear();
  EXPECT_THROW(import_gltf(request, false), Error);
  EXPECT_THROW(import_gltf(request, true), Error);  // a pack is not a PAC
}

// Every channel fitted anew: the engine's playback stays within the tolerance of the first export
// at every frame, the second export equals the first within the tolerance, and importing that
// second export into its own pack changes nothing (the keys are reachable).
void refit_is_stable(const Monster& m, double tolerance) {
  const Animated first = exported(m);
  AnimPack pack = m.pack;
  ImportSettings s;
  s.refit = true;
  s.tolerance = tolerance;
  const std::vector<ClipImport> clips = import_clips(first, m.skeleton, pack, s);
  pack = read_pack(write_pack(pack));
  EXPECT_TRUE(validate(&m.skeleton, &pack).empty());
  for (const ClipImport& c : clips) {
    EXPECT_GT(c.fitted_channels, 0) << c.name;
    EXPECT_LE(c.worst, tolerance) << c.name;
    EXPECT_LE(engine_error(m.skeleton, pack, first, clip_named(first, c.name), c.target),
              tolerance * (1 + 1e-6))
        << c.name;
  }
  const Animated second = exported({m.skeleton, pack});
  ASSERT_EQ(second.clips.size(), first.clips.size());
  for (size_t i = 0; i < first.clips.size(); ++i) {
    const animkit::Clip& a = first.clips[i];
    const animkit::Clip& b = second.clips[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_FLOAT_EQ(a.duration, b.duration);
    EXPECT_EQ(a.looping, b.looping);
    const int frames = static_cast<int>(std::lround(a.duration * 30));
    for (int f = 0; f <= frames; ++f) {
      const std::vector<Transform> pa = gltf_pose(first, a, f), pb = gltf_pose(second, b, f);
      for (size_t j = 0; j < pa.size(); ++j) {
        EXPECT_LE(rotation_angle(pa[j].rotation, pb[j].rotation), tolerance * kRotStep * (1 + 1e-5))
            << a.name << " frame " << f << " joint " << j;
        EXPECT_LE(length(pa[j].translation - pb[j].translation), tolerance * kLocStep * (1 + 1e-5));
      }
    }
  }
  AnimPack again = pack;
  import_clips(second, m.skeleton, again, {});
  EXPECT_EQ(write_pack(again), write_pack(pack));
}

TEST(MhImport, ExportImportExportIsStableMhfu) {
  for (double tolerance : {1.5, 2.0, 8.0}) refit_is_stable(mhfu_monster(), tolerance);
}

TEST(MhImport, ExportImportExportIsStableMhp3rd) {
  for (double tolerance : {1.5, 2.0, 8.0}) refit_is_stable(mhp3rd_monster(), tolerance);
}

TEST(MhImport, EditedClipPlaysWithinTheToleranceMhfu) {
  const Monster m = mhfu_monster();
  Animated glb = exported(m);
  edit(glb, "entry_002", 5);  // a head joint
  glb = through_glb(glb);
  for (double tolerance : {1.5, 3.0, 12.0}) {
    AnimPack pack = m.pack;
    ImportSettings s;
    s.tolerance = tolerance;
    const std::vector<ClipImport> clips = import_clips(glb, m.skeleton, pack, s);
    EXPECT_TRUE(validate(&m.skeleton, &pack).empty());
    for (const ClipImport& c : clips)
      EXPECT_LE(engine_error(m.skeleton, pack, glb, clip_named(glb, c.name), c.target),
                tolerance * (1 + 1e-6))
          << c.name << " at tolerance " << tolerance;
    // Only entry 2's body and head changed (the root moved, joint 5 turned); its tail, and every
    // other entry, keep the template's clips. Entry 3 shared entry 2's body clip and keeps it.
    EXPECT_GT(clips[2].fitted_channels, 0);
    EXPECT_EQ(pack.clip(4, 2) != nullptr && *pack.clip(4, 2) == *m.pack.clip(4, 2), true);
    EXPECT_FALSE(*pack.clip(0, 2) == *m.pack.clip(0, 2));
    EXPECT_TRUE(*pack.clip(0, 3) == *m.pack.clip(0, 3));
    EXPECT_NE(pack.streams[0][3], pack.streams[0][2]);
    // Untouched joints of the edited part keep their tracks byte for byte (joint 1: its unnamed
    // bit channel too).
    EXPECT_EQ(pack.clip(0, 2)->tracks[1], m.pack.clip(0, 2)->tracks[1]);
    EXPECT_EQ(pack.clip(2, 2)->tracks[0], m.pack.clip(2, 2)->tracks[0]);
    for (int e : {0, 1, 3, 4, 5}) EXPECT_EQ(clips[e].fitted_channels, 0) << e;
  }
}

TEST(MhImport, AnEditedChannelKeepsItsKeyLayout) {
  // Joint 5 turned a further 100 steps about its own X: R Rx(d) is Euler (x + d, y, z), so the X
  // channel is the template's shifted by 100 raw, on the same frames with the same slopes, and
  // its Y and Z channels stay as they are.
  const Monster m = mhfu_monster();
  Animated a = exported(m);
  for (animkit::Clip& c : a.clips) {
    if (c.name != "entry_002") continue;
    for (Quat& q : c.joints[5].rotation.values)
      q = normalize(q * axis_angle({1, 0, 0}, static_cast<float>(100 * kRotStep)));
  }
  a = through_glb(a);
  AnimPack pack = m.pack;
  const std::vector<ClipImport> clips = import_clips(a, m.skeleton, pack, {});
  EXPECT_EQ(clips[2].fitted_channels, 1);
  const Track& before = m.pack.clip(2, 2)->tracks[1];
  const Track& after = pack.clip(2, 2)->tracks[1];
  ASSERT_EQ(after.channels.size(), before.channels.size());
  for (size_t i = 0; i < before.channels.size(); ++i) {
    const Channel& b = before.channels[i];
    const Channel& c = after.channels[i];
    ASSERT_EQ(c.keys.size(), b.keys.size());
    for (size_t k = 0; k < b.keys.size(); ++k) {
      EXPECT_EQ(c.keys[k].frame, b.keys[k].frame);
      EXPECT_EQ(c.keys[k].value, b.keys[k].value + (b.bit == bits::kRotX ? 100 : 0)) << i << " " << k;
      // The never-played first ease_in / last ease_out are written as zero.
      if (k > 0) {
        EXPECT_EQ(c.keys[k].ease_in, b.keys[k].ease_in) << i << " " << k;
      }
      if (k + 1 < b.keys.size()) {
        EXPECT_EQ(c.keys[k].ease_out, b.keys[k].ease_out) << i << " " << k;
      }
    }
  }
  EXPECT_LE(engine_error(m.skeleton, pack, a, clip_named(a, "entry_002"), 2), 2 * (1 + 1e-6));
}

TEST(MhImport, EditedClipPlaysWithinTheToleranceMhp3rd) {
  const Monster m = mhp3rd_monster();
  Animated glb = exported(m);
  edit(glb, "clip_1", 4, 2);  // bones 0 and 1 have no record: record 0 (bone 2) carries location
  glb = through_glb(glb);
  AnimPack pack = m.pack;
  ImportSettings s;
  s.tolerance = 2;
  const std::vector<ClipImport> clips = import_clips(glb, m.skeleton, pack, s);
  for (const ClipImport& c : clips)
    EXPECT_LE(engine_error(m.skeleton, pack, glb, clip_named(glb, c.name), c.target), 2 * (1 + 1e-6))
        << c.name;
  EXPECT_FALSE(*pack.clip(0, 1) == *m.pack.clip(0, 1));
  EXPECT_TRUE(*pack.clip(0, 2) == *m.pack.clip(0, 2));
  // Records are positional from bone 2 (the default offset): record 2 drives bone 4.
  EXPECT_FALSE(pack.clip(0, 1)->tracks[0] == m.pack.clip(0, 1)->tracks[0]);
  EXPECT_FALSE(pack.clip(0, 1)->tracks[2] == m.pack.clip(0, 1)->tracks[2]);
  EXPECT_EQ(pack.clip(0, 1)->tracks[3], m.pack.clip(0, 1)->tracks[3]);
}

TEST(MhImport, ARetimedClipSpansTheNewLengthInEveryPart) {
  const Monster m = mhfu_monster();
  Animated a = exported(m);
  for (animkit::Clip& c : a.clips) {
    if (c.name != "entry_001") continue;
    for (JointTracks& jt : c.joints) {
      for (float& t : jt.rotation.times) t *= 1.5f;
      for (float& t : jt.translation.times) t *= 1.5f;
    }
    c.duration *= 1.5f;
    c.looping = false;
  }
  a = through_glb(a);
  AnimPack pack = m.pack;
  const std::vector<ClipImport> clips = import_clips(a, m.skeleton, pack, {});
  EXPECT_EQ(clips[1].frames, 45);
  for (int part = 0; part < 3; ++part) {
    const Clip* c = part_clip(pack, part, 1);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(frames(*c), 45) << part;
    EXPECT_EQ(c->loop, 0u) << part;  // the glTF no longer loops
  }
  EXPECT_LE(engine_error(m.skeleton, pack, a, clip_named(a, "entry_001"), 1), 2 * (1 + 1e-6));
}

// Issue 32 item 4: an edit of the length alone (extras.duration 10 frames longer, the keys as
// exported) is written without --refit: every part's clip ends at the new last frame (END is the
// last key frame, notes 3), the keys up to the old end are the template's, and the engine's
// playback stays within the tolerance of the glTF at every frame (the last pose held).
TEST(MhImport, ALengthEditAloneIsWrittenWithoutRefit) {
  const Monster m = mhfu_monster();
  Animated a = exported(m);
  for (animkit::Clip& c : a.clips)
    if (c.name == "entry_001") c.duration += 10.f / 30.f;
  a = through_glb(a);
  const int old_end = frames(*part_clip(m.pack, 0, 1));
  AnimPack pack = m.pack;
  const std::vector<ClipImport> clips = import_clips(a, m.skeleton, pack, {});
  EXPECT_EQ(clips[1].frames, old_end + 10);
  for (int part = 0; part < 3; ++part) {
    const Clip* c = part_clip(pack, part, 1);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(frames(*c), old_end + 10) << part;
  }
  // The body (part 0) followed the glTF as it was: each channel's keys start with the template's
  // (values and frames; only the old last key's unused ease_out may change).
  const Clip* before = part_clip(m.pack, 0, 1);
  const Clip* after = part_clip(pack, 0, 1);
  ASSERT_EQ(before->tracks.size(), after->tracks.size());
  for (size_t t = 0; t < before->tracks.size(); ++t) {
    ASSERT_EQ(before->tracks[t].channels.size(), after->tracks[t].channels.size()) << t;
    for (size_t c = 0; c < before->tracks[t].channels.size(); ++c) {
      const KeyList& k0 = before->tracks[t].channels[c].keys;
      const KeyList& k1 = after->tracks[t].channels[c].keys;
      ASSERT_GE(k1.size(), k0.size());
      for (size_t k = 0; k < k0.size(); ++k) {
        EXPECT_EQ(k1[k].frame, k0[k].frame);
        EXPECT_EQ(k1[k].value, k0[k].value);
      }
    }
  }
  EXPECT_TRUE(validate(&m.skeleton, &pack).empty());
  EXPECT_LE(engine_error(m.skeleton, pack, a, clip_named(a, "entry_001"), 1), 2 * (1 + 1e-6));

  // MHP3rd: the slot's clip ends at the new length too.
  const Monster p = mhp3rd_monster();
  Animated b = exported(p);
  ASSERT_FALSE(b.clips.empty());
  b.clips[0].duration += 10.f / 30.f;
  b = through_glb(b);
  const SlotRef ref = clip_slot(std::stoi(b.clips[0].name.substr(5)));
  const int p_end = frames(*p.pack.clip(ref.stream, ref.slot));
  AnimPack ppack = p.pack;
  import_clips(b, p.skeleton, ppack, {});
  EXPECT_EQ(frames(*ppack.clip(ref.stream, ref.slot)), p_end + 10);
  EXPECT_LE(engine_error(p.skeleton, ppack, b, b.clips[0], std::stoi(b.clips[0].name.substr(5))),
            2 * (1 + 1e-6));
}

TEST(MhImport, APartTheEntryDidNotDriveGetsItsOwnClip) {
  // Entry 5 is the head's alone; the glTF moves the body too: stream 0 slot 5 gets a clip of one
  // track per body joint (the joints left at rest hold still with rest keys, never empty).
  const Monster m = mhfu_monster();
  ASSERT_EQ(m.pack.clip(0, 5), nullptr);
  Animated a = exported(m);
  animkit::Clip& c = a.clips.back();
  ASSERT_EQ(c.name, "entry_005");
  c.joints[2].rotation.interpolation = Interpolation::kSlerp;
  c.joints[2].rotation.add(0, axis_angle({1, 0, 0}, 0.0f));
  c.joints[2].rotation.add(c.duration, axis_angle({1, 0, 0}, 0.5f));
  AnimPack pack = m.pack;
  const std::vector<ClipImport> clips = import_clips(a, m.skeleton, pack, {});
  const Clip* body = pack.clip(0, 5);
  ASSERT_NE(body, nullptr);
  ASSERT_EQ(body->tracks.size(), 4u);
  EXPECT_EQ(body->tracks[0], rest(frames(*body)));
  EXPECT_FALSE(body->tracks[2].channels.empty());
  EXPECT_TRUE(validate(&m.skeleton, &pack).empty());
  EXPECT_LE(engine_error(m.skeleton, pack, a, c, 5), 2 * (1 + 1e-6));
  // The severed tail (no part streams) cannot be driven: a clear error.
  Animated b = exported(m);
  animkit::Clip& d = b.clips[0];
  d.joints[9].rotation.add(0, axis_angle({1, 0, 0}, 0.4f));
  AnimPack other = m.pack;
  try {
    import_clips(b, m.skeleton, other, {});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the pack has no slot for it"), std::string::npos) << e.what();
  }
}

TEST(MhImport, DryRunReportsThePerJointErrorAndTheToleranceRefuses) {
  TempDir dir;
  const Monster m = mhfu_monster();
  write_file(dir.path / "m.pac", model_pac(m));
  Animated a = exported(m);
  edit(a, "entry_002", 5);
  ImportRequest request;
  request.source = through_glb(a);
  request.template_path = dir.path / "m.pac";
  request.dry_run = true;
  request.options = {{"tolerance", "3"}};
  const ImportResult r = import_gltf(request, true);
  const Json& report = r.report;
  EXPECT_EQ(report["game"], "mhfu");
  EXPECT_TRUE(report["within_tolerance"].get<bool>());
  EXPECT_DOUBLE_EQ(report["tolerance_rotation"].get<double>(), 3 * kRotStep);
  ASSERT_EQ(report["max_error"].size(), m.skeleton.bones.size());
  for (const auto& [joint, steps] : report["max_error"].items()) EXPECT_LE(steps.get<double>(), 3.0) << joint;
  const Json& entry2 = report["clips"][2];
  EXPECT_EQ(entry2["entry"], 2);
  EXPECT_EQ(entry2["frames"], 30);
  EXPECT_GT(entry2["max_error"]["bone_05"]["rotation"].get<double>(), 0.0);
  EXPECT_LE(entry2["max_error"]["bone_05"]["rotation"].get<double>(), 3 * kRotStep);
  EXPECT_EQ(report["clips"][0]["max_error"]["bone_05"]["steps"].get<double>() < 0.05, true);
  // Below the quantisation the engine cannot follow: the dry run says so, a real run refuses.
  request.options = {{"tolerance", "0.05"}, {"refit", "1"}};
  const ImportResult tight = import_gltf(request, true);
  EXPECT_FALSE(tight.report["within_tolerance"].get<bool>());
  request.dry_run = false;
  try {
    import_gltf(request, true);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("misses --tolerance 0.05"), std::string::npos) << e.what();
  }
}

TEST(MhImport, ARuleViolationRefusesWithTheRuleAndItsFix) {
  TempDir dir;
  Monster m = mhfu_monster();
  const Animated a = exported(m);
  // The template carries a scale channel (the engine crashes on it): the rule refuses.
  Clip& c = m.pack.clips[m.pack.streams[2][0]];
  c.tracks[0].channels.push_back({bits::kSclX, {{256, 0, 0, 0}}});
  write_file(dir.path / "m.pac", model_pac(m));
  ImportRequest request;
  request.source = a;
  request.template_path = dir.path / "m.pac";
  try {
    import_gltf(request, true);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("error SCALE_CHANNEL: stream 2 slot 0 track 0 (fix: drop them: the engine "
                        "crashes on the scale bits)"),
              std::string::npos)
        << what;
  }
}

TEST(MhImport, JointMismatchesAreClear) {
  const Monster m = mhfu_monster();
  Animated a = exported(m);
  a.skeleton.names[3] = "jaw";
  AnimPack pack = m.pack;
  try {
    import_clips(a, m.skeleton, pack, {});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("missing 1 joint(s) of the target: bone_03"), std::string::npos) << what;
    EXPECT_NE(what.find("1 joint(s) the target does not have: jaw"), std::string::npos) << what;
  }
}

TEST(MhImport, TargetsComeFromTheNameOrEntry) {
  const Monster m = mhfu_monster();
  Animated a = exported(m);
  a.clips.resize(1);
  a.clips[0].name = "walk";
  AnimPack pack = m.pack;
  EXPECT_THROW(import_clips(a, m.skeleton, pack, {}), Error);
  ImportSettings s;
  s.entry = 4;  // entry 0's motion into entry 4
  const std::vector<ClipImport> clips = import_clips(a, m.skeleton, pack, s);
  EXPECT_EQ(clips[0].target, 4);
  EXPECT_FALSE(*part_clip(pack, 0, 4) == *part_clip(m.pack, 0, 4));
  EXPECT_LE(engine_error(m.skeleton, pack, a, a.clips[0], 4), 2 * (1 + 1e-6));
  // MHP3rd: a clip id whose slot the pack does not have.
  const Monster p = mhp3rd_monster();
  Animated b = exported(p);
  b.clips.resize(1);
  AnimPack pp = p.pack;
  s.entry = 150;
  EXPECT_THROW(import_clips(b, p.skeleton, pp, s), Error);
}

}  // namespace
}  // namespace animkit::monster_hunter
