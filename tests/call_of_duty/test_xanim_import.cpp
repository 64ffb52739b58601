// `animkit import --as cod-xanim` (issue 17, item 3): glTF -> xanim v14 (cod-xanim-format.md §1),
// checked by decoding what it writes with the module's reader (parse_xanim, sample_part) and by
// the round trips xanim -> glTF (export) -> xanim (import).
#include <gtest/gtest.h>

#include <cmath>

#include "animkit/call_of_duty/xanim_document.h"
#include "animkit/call_of_duty/xanim_import.h"
#include "animkit/call_of_duty/xanim_sample.h"
#include "animkit/core/error.h"
#include "animkit/core/sampling_job.h"
#include "animkit/gltf/export.h"
#include "animkit/gltf/import.h"
#include "xanim_fixtures.h"

namespace animkit::call_of_duty {
namespace {

using B = std::vector<uint8_t>;
using namespace testing;

// What `animkit export` writes for an xanim: the GLB bytes.
B export_glb(const B& xanim, const std::string& name = "anim") {
  return gltf::to_glb(gltf::build(xanim_to_neutral(parse_xanim(xanim, name))));
}

Animated read_glb(const B& glb) { return gltf::read("clip.glb", glb); }

XAnimImport import_glb(const B& glb, const XAnimFile* original = nullptr) {
  XAnimImportSettings s;
  s.original = original;
  return import_xanim(read_glb(glb), s);
}

// The angle between two rotations, computed here (not by the module).
double angle(Quat a, Quat b) {
  const double la = std::sqrt(double(a.x) * a.x + double(a.y) * a.y + double(a.z) * a.z + double(a.w) * a.w);
  const double lb = std::sqrt(double(b.x) * b.x + double(b.y) * b.y + double(b.z) * b.z + double(b.w) * b.w);
  const double d = std::fabs((double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z +
                              double(a.w) * b.w) / (la * lb));
  return 2 * std::acos(std::min(1.0, d));
}

Vec3 unit(Vec3 v) { return v * (1.0f / length(v)); }

// The game's normalised time of frame f (§2.1: t = 1 takes the last keys).
XAnimFrame at_frame(uint32_t f, uint16_t n) {
  return xanim_frame(n == 0 || f == n ? 1.0f : float(f) / float(n), n);
}

// §2.6: the 43-byte worked example comes back byte for byte from its export.
TEST(CodXAnimImport, WorkedExampleComesBack) {
  const unsigned char raw[] = {0x0E, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x1E, 0x00, 0x00, 0x01,
                               0x6A, 0x00, 0x02, 0x00, 0x00, 0x04, 0x00, 0x00, 0x82, 0x5A, 0x01,
                               0x00, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00,
                               0x40, 0x40, 0x01, 0x66, 0x69, 0x72, 0x65, 0x00, 0x02, 0x00};
  const B original(raw, raw + sizeof raw);
  EXPECT_EQ(import_glb(export_glb(original)).bytes, original);
}

// Several parts (full with sign bit and continuity flips, 2-component sparse, no rotation,
// constants), delta motion, looped, notetracks out of order: no template needed.
TEST(CodXAnimImport, UnchangedExportGivesTheOriginalBytes) {
  const B original = several_parts();
  const XAnimImport x = import_glb(export_glb(original));
  EXPECT_EQ(x.bytes, original);
  // And with the file as template, the same.
  const XAnimFile t = parse_xanim(original, "anim");
  EXPECT_EQ(import_glb(export_glb(original), &t).bytes, original);
  // The report names every joint; translations are float32 both sides. Rotations differ between
  // keys, where glTF slerps and the game lerps lanes: j_arm's 150-degree span is the worst.
  EXPECT_EQ(x.report["max_error"].size(), 6u);
  EXPECT_EQ(x.report["max_translation_error"].get<double>(), 0.0);
  EXPECT_GT(x.report["max_rotation_error"].get<double>(), 0.01);
  EXPECT_LE(x.report["max_error"]["j_hold"].get<double>(), 1e-4);  // a constant: no span
}

// Issue 32 item 4: a glTF rest pose other than the template's (identity: an xanim stores none)
// reaches the writer as a note naming the joint, never silently; an unchanged export has none.
TEST(CodXAnimImport, RestPoseDifferenceIsANoteNamingTheJoint) {
  const B original = several_parts();
  const XAnimFile t = parse_xanim(original, "anim");
  XAnimImportSettings s;
  s.original = &t;
  Animated a = read_glb(export_glb(original));
  for (const std::string& n : import_xanim(a, s).notes)
    EXPECT_EQ(n.find("rest pose"), std::string::npos) << n;
  const int still = *a.skeleton.find("j_still");
  const int hold = *a.skeleton.find("j_hold");
  a.skeleton.rest[still].translation = {0, 0, 1};
  a.skeleton.rest[hold].rotation = axis_angle({0, 0, 1}, 0.5f);
  const std::vector<std::string> notes = import_xanim(a, s).notes;
  int named = 0;
  for (const std::string& n : notes) {
    if (n.find("rest pose differs") == std::string::npos) continue;
    ++named;
    EXPECT_TRUE(n.starts_with("joint 'j_still'") || n.starts_with("joint 'j_hold'")) << n;
    if (n.starts_with("joint 'j_still'")) EXPECT_NE(n.find("by 1 and 0 rad"), std::string::npos) << n;
    if (n.starts_with("joint 'j_hold'")) EXPECT_NE(n.find("and 0.5 rad"), std::string::npos) << n;
  }
  EXPECT_EQ(named, 2);
}

TEST(CodXAnimImport, TwoByteFrameIndicesComeBack) {
  const B original = long_clip();
  EXPECT_EQ(import_glb(export_glb(original)).bytes, original);
}

// Layouts glTF does not carry: without the template another valid file (the same decoded
// motion), with it the original bytes.
TEST(CodXAnimImport, TemplateGivesBackWhatGltfDoesNotCarry) {
  const B original = template_only();
  const XAnimFile t = parse_xanim(original, "anim");
  const B glb = export_glb(original);
  const XAnimImport plain = import_glb(glb);
  EXPECT_NE(plain.bytes, original);
  const XAnimFile p = parse_xanim(plain.bytes, "plain");
  EXPECT_TRUE(p.tail.empty());
  EXPECT_TRUE(p.parts[0].rotation.two_component);      // yaw-only: the 2-component form
  EXPECT_EQ(p.parts[0].translation.key_count, 1);       // the constant as one key
  EXPECT_EQ(p.parts[1].rotation.frames, (std::vector<uint16_t>{0, 2, 3}));  // repeat dropped
  for (size_t i = 0; i < t.parts.size(); ++i) {
    for (uint32_t f = 0; f < t.total_frames(); ++f) {
      const XAnimFrame at = at_frame(f, t.frame_count_minus_one());
      EXPECT_LE(angle(sample_part(p.parts[i], at).rotation(), sample_part(t.parts[i], at).rotation()),
                1e-6) << t.parts[i].name << " frame " << f;
    }
  }
  EXPECT_EQ(import_glb(glb, &t).bytes, original);
}

// export -> import -> export is stable: a clip authored in glTF terms (slerp keys on frames with
// any sign, a cubic track, STEP translations, keys between frames) imports to A; A's export
// imports to A again, so the second export equals the first.
Animated authored() {
  Animated a;
  a.skeleton.add_joint("root", -1, Transform::identity());
  a.skeleton.add_joint("j_a", 0, Transform::identity());
  a.skeleton.add_joint("j_b", 0, Transform::identity());
  a.skeleton.add_joint("j_c", 0, Transform::identity());
  Clip c;
  c.name = "authored";
  c.duration = 1.0f;
  c.frame_rate = 30;
  c.joints.resize(4);
  Track<Quat>& ra = c.joints[1].rotation;
  ra.interpolation = Interpolation::kSlerp;
  for (int k = 0; k <= 6; ++k) {
    const float ang = 0.4f * k;
    Quat q = axis_angle(unit(Vec3{0.3f, 0.5f + 0.1f * k, 0.8f}), ang);
    if (k % 3 == 1) q = -q;  // glTF allows either sign
    ra.add(k * 5 / 30.0f, q);
  }
  Track<Quat>& rb = c.joints[2].rotation;
  rb.interpolation = Interpolation::kHermite;
  rb.add(0.0f, axis_angle({0, 0, 1}, 0.0f), {0, 0, 0, 0}, {0, 0, 0.5f, 0});
  rb.add(0.55f, axis_angle({0, 0, 1}, 1.0f), {0, 0, 0.2f, 0}, {0, 0, 0.2f, 0});
  rb.add(1.0f, axis_angle({0, 0, 1}, 0.5f), {0, 0, 0, 0}, {0, 0, 0, 0});
  Track<Vec3>& tc = c.joints[3].translation;
  tc.interpolation = Interpolation::kStep;
  tc.add(0.0f, {1, 2, 3});
  tc.add(0.5f, {4, 5, 6});
  Track<Vec3>& td = c.joints[0].translation;  // delta motion, keys between frames
  td.add(0.0f, {0, 0, 0});
  td.add(0.51f, {10, 0, 0});
  td.add(1.0f, {20, 1, 0});
  c.events.push_back({0.5f, "fire", "{}"});
  a.clips.push_back(std::move(c));
  return a;
}

TEST(CodXAnimImport, ExportImportExportIsStable) {
  const XAnimImport first = import_xanim(authored(), {});
  const B glb1 = export_glb(first.bytes);
  const XAnimImport second = import_glb(glb1);
  EXPECT_EQ(second.bytes, first.bytes);
  EXPECT_EQ(export_glb(second.bytes), glb1);
  // The first quantisation is within the stated bound at the authored keys (README: 1e-4 rad).
  const XAnimFile x = parse_xanim(first.bytes, "a");
  const Animated src = authored();
  const Track<Quat>& ra = src.clips[0].joints[1].rotation;
  for (size_t k = 0; k < ra.size(); ++k) {
    const uint32_t f = static_cast<uint32_t>(std::lround(ra.times[k] * 30));
    EXPECT_LE(angle(sample_part(x.parts[0], at_frame(f, 30)).rotation(), ra.values[k]), 1e-4) << k;
  }
}

// An independent decode of what import writes against the glTF, frame by frame: a baked clip
// (a key on every frame) with a yaw-only part and a pose held over frames 10-20.
TEST(CodXAnimImport, DecodedFileMatchesTheGltfFrameByFrame) {
  Animated a;
  a.skeleton.add_joint("j_torso", -1, Transform::identity());
  a.skeleton.add_joint("j_head", 0, {{0, 0, 5}, Quat::identity(), {1, 1, 1}});
  a.skeleton.add_joint("j_turn", 0, Transform::identity());
  Clip c;
  c.name = "baked";
  c.duration = 40 / 30.0f;
  c.frame_rate = 30;
  c.looping = false;
  c.joints.resize(3);
  for (int f = 0; f <= 40; ++f) {
    const float t = f / 30.0f;
    const int h = std::clamp(f, 10, 20) == f ? 10 : f;  // held from 10 to 20
    c.joints[0].rotation.add(t, axis_angle(unit(Vec3{1, 1, 0.2f}), -1.5f + 0.07f * h));
    c.joints[0].rotation.interpolation = Interpolation::kSlerp;
    c.joints[0].translation.add(t, {0.25f * h, 0, 1});
    c.joints[1].translation.add(t, {0, 0.1f * f, 5.5f});
    c.joints[2].rotation.add(t, axis_angle({0, 0, 1}, 0.05f * f - 1.0f));
    c.joints[2].rotation.interpolation = Interpolation::kSlerp;
  }
  a.clips.push_back(std::move(c));
  const XAnimImport imp = import_xanim(a, {});
  const XAnimFile x = parse_xanim(imp.bytes, "baked");
  ASSERT_EQ(x.parts.size(), 3u);
  EXPECT_FALSE(x.has_delta);
  EXPECT_EQ(x.total_frames(), 41u);
  EXPECT_FALSE(x.parts[0].rotation.two_component);
  EXPECT_TRUE(x.parts[2].rotation.two_component);  // yaw-only
  // The held frames 11..19 are not stored (sparse keys where frames repeat).
  EXPECT_EQ(x.parts[0].rotation.key_count, 41 - 9);
  EXPECT_EQ(x.parts[0].rotation.frames.size(), 32u);
  EXPECT_EQ(x.parts[2].rotation.key_count, 41);  // dense
  EXPECT_TRUE(x.parts[2].rotation.frames.empty());
  const Clip& src = a.clips[0];
  for (uint32_t f = 0; f <= 40; ++f) {
    const XAnimFrame at = at_frame(f, 40);
    for (size_t i = 0; i < 3; ++i) {
      const XAnimPartPose pose = sample_part(x.parts[i], at);
      const JointTracks& jt = src.joints[i];
      if (!jt.rotation.empty()) {
        EXPECT_LE(angle(pose.rotation(), jt.rotation.values[f]), 1e-4) << i << " frame " << f;
      }
      // Translations are float32 offsets from the rest translation (§2.3 adds the base).
      const Vec3 want = jt.translation.empty() ? Vec3{} : jt.translation.values[f] - a.skeleton.rest[i].translation;
      EXPECT_EQ(pose.translation.x, want.x) << i << " frame " << f;
      EXPECT_EQ(pose.translation.y, want.y);
      EXPECT_EQ(pose.translation.z, want.z);
    }
  }
}

// A cubic track is sampled at every frame and the decoded file follows it there.
TEST(CodXAnimImport, CubicTrackIsSampledAtEveryFrame) {
  const Animated a = authored();
  const XAnimImport imp = import_xanim(a, {});
  const XAnimFile x = parse_xanim(imp.bytes, "a");
  const Track<Quat>& rb = a.clips[0].joints[2].rotation;
  EXPECT_EQ(x.parts[1].rotation.key_count, 31);
  for (uint32_t f = 0; f <= 30; ++f) {
    const float t = f / 30.0f;
    const Quat want = evaluate(rb, t, find_key(rb.times, t, 0));
    EXPECT_LE(angle(sample_part(x.parts[1], at_frame(f, 30)).rotation(), want), 1e-4) << f;
  }
  // STEP translation: held, changing at frame 15 (sparse {0, 14, 15, 30}).
  EXPECT_EQ(x.parts[2].translation.frames, (std::vector<uint16_t>{0, 14, 15, 30}));
  // The delta motion joint: translation keys between frames, sampled; no rotation track.
  EXPECT_TRUE(x.has_delta);
  EXPECT_EQ(x.delta_rotation.key_count, 0);
  ASSERT_EQ(x.notes.size(), 1u);
  EXPECT_EQ(x.notes[0].name, "fire");
  EXPECT_EQ(x.notes[0].frame, 15);
}

// --dry-run --json: per joint, the largest error of the decoded file against the glTF.
TEST(CodXAnimImport, ReportGivesThePerJointMaximumError) {
  Animated a;
  a.skeleton.add_joint("root", -1, Transform::identity());
  a.skeleton.add_joint("j_a", 0, Transform::identity());
  Clip c;
  c.name = "tilt";
  c.duration = 0.1f;
  c.frame_rate = 30;
  c.joints.resize(2);
  // The delta motion keeps only the yaw: a 0.2 rad tilt about X is lost entirely.
  c.joints[0].rotation.add(0, axis_angle({1, 0, 0}, 0.2f));
  c.joints[1].rotation.add(0, axis_angle(unit(Vec3{1, 2, 3}), 0.7f));
  a.clips.push_back(std::move(c));
  const XAnimImport imp = import_xanim(a, {});
  EXPECT_NEAR(imp.report["max_error"]["root"].get<double>(), 0.2, 1e-5);
  EXPECT_GT(imp.report["max_error"]["j_a"].get<double>(), 0.0);
  EXPECT_LE(imp.report["max_error"]["j_a"].get<double>(), 1e-4);
  ASSERT_EQ(imp.report["joints"].size(), 2u);
  EXPECT_EQ(imp.report["joints"][0]["kind"], "delta");
  EXPECT_NEAR(imp.report["max_rotation_error"].get<double>(), 0.2, 1e-5);
  bool noted = false;
  for (const std::string& n : imp.notes) noted |= n.find("only the yaw") != std::string::npos;
  EXPECT_TRUE(noted);
}

// --frame-rate: the clip resampled at another rate; notetracks follow.
TEST(CodXAnimImport, FrameRateResamples) {
  XAnimImportSettings s;
  s.frame_rate = 15;
  const Animated a = authored();
  const XAnimFile x = parse_xanim(import_xanim(a, s).bytes, "a");
  EXPECT_EQ(x.header.frame_rate, 15);
  EXPECT_EQ(x.total_frames(), 16u);
  EXPECT_EQ(x.notes[0].frame, 8);  // 0.5 s x 15 = 7.5, rounded half away from zero
  const Track<Quat>& ra = a.clips[0].joints[1].rotation;
  for (uint32_t f = 0; f <= 15; ++f) {
    const float t = f / 15.0f;
    const Quat want = evaluate(ra, t, find_key(ra.times, t, 0));
    EXPECT_LE(angle(sample_part(x.parts[0], at_frame(f, 15)).rotation(), want), 1e-4) << f;
  }
  s.frame_rate = 29.97;
  EXPECT_THROW(import_xanim(a, s), Error);
}

// --tolerance: frames are added in the gaps where the game's lerp departs from glTF's slerp.
TEST(CodXAnimImport, ToleranceAddsFramesWhereLerpDepartsFromSlerp) {
  const B original = several_parts();
  const B glb = export_glb(original);
  XAnimImportSettings s;
  s.tolerance = 1e-3;
  const XAnimImport x = import_xanim(read_glb(glb), s);
  EXPECT_NE(x.bytes, original);
  EXPECT_LE(x.report["max_rotation_error"].get<double>(), 1e-3 + 1e-4);
  const XAnimFile f = parse_xanim(x.bytes, "a");
  EXPECT_EQ(f.parts[2].rotation.key_count, 7);  // j_arm: the span 1..6 filled, so dense
  EXPECT_EQ(f.parts[4].rotation.key_count, 1);  // j_hold: constant, nothing to add
  s.tolerance = 10.0;  // nothing departs that far: the original keys
  EXPECT_EQ(import_xanim(read_glb(glb), s).bytes, original);
}

TEST(CodXAnimImport, JointMismatchIsAClearError) {
  const B original = several_parts();
  const XAnimFile t = parse_xanim(original, "walk");
  Animated a = read_glb(export_glb(original));
  a.skeleton.names[2] = "j_yaw_renamed";
  XAnimImportSettings s;
  s.original = &t;
  try {
    import_xanim(a, s);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "the glTF joints do not match the parts of the template 'walk' (by name; the delta "
              "motion joint is 'root'): missing 1 part(s) of the template: j_yaw; 1 joint(s) the "
              "template does not have: j_yaw_renamed");
  }
}

TEST(CodXAnimImport, LimitsAreErrors) {
  Animated a = authored();
  a.clips.push_back(a.clips[0]);
  a.clips[1].name = "second";
  try {
    import_xanim(a, {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("choose one with --clip"), std::string::npos) << e.message();
  }
  XAnimImportSettings s;
  s.clip = "second";
  EXPECT_NO_THROW(import_xanim(a, s));
  Animated many = authored();
  for (int i = 0; i < 256; ++i) many.clips[0].events.push_back({0.0f, "n", "{}"});
  EXPECT_THROW(import_xanim(many, {}), Error);  // 257 notetracks > 255
  Animated wide;
  Clip c;
  c.duration = 0.1f;
  for (int i = 0; i < 129; ++i) wide.skeleton.add_joint("p" + std::to_string(i), -1, Transform::identity());
  c.joints.resize(129);
  wide.clips.push_back(c);
  EXPECT_THROW(import_xanim(wide, {}), Error);  // 129 parts > 128
}

}  // namespace
}  // namespace animkit::call_of_duty
