// `animkit import --as warriors-anm` and `warriors rebuild --put` (issue 17): fixtures built by the
// module's writers (ClipBuilder, make_anm_resource, make_character_resource, make_pack), exported
// to glTF by the real export path, read back by the real glTF reader, imported, and checked
// against the original bytes and against an independent decode (the module's reader).
#include "animkit/gltf/import.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "animkit/core/sampling_job.h"
#include "animkit/gltf/export.h"
#include "animkit/warriors/anm_import.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/cursor.h"
#include "animkit/warriors/document.h"
#include "animkit/warriors/pose.h"
#include "animkit/warriors/rebuild.h"

namespace animkit::warriors {
namespace {

std::vector<uint8_t> bytes_of(const Resource& r) {
  Writer w;
  write_resource(w, r);
  return w.take();
}

Quat axis(float x, float y, float z, float degrees) {
  const Vec3 v{x, y, z};
  return axis_angle(v * (1.f / length(v)), degrees * 3.14159265f / 180.f);
}

// A clip with every section, several key spacings, byte +1 set, and events of many types.
AnmClip walk_clip() {
  ClipBuilder b;
  b.name = "walk_fwd";
  b.frames = 30;
  b.displacement_x = 0.125f;  // not what section A integrates to: the template's value stands
  b.displacement_y = 1.75f;
  b.flags = 0x1000a;
  b.velocity = {{0, {0, 0, 0}}, {1, {0.01f, 1.5f, 0}}, {29, {0.02f, 1.45f, 0.001f}}};
  b.translation = {{0, {0.01f, -0.02f, 0.03f}},
                   {5, {0.02f, 0.0f, -0.05f}},
                   {12, {0.0f, 0.04f, 0.0f}},
                   {30, {0.01f, -0.02f, 0.03f}}};
  b.rotations[0] = {{0, axis(0, 0, 1, 0)}, {10, axis(0, 0, 1, 2)}};
  b.rotations[1] = {{0, axis(1, 0, 0, 10)},
                    {7, axis(1, 1, 0, 40)},
                    {20, axis(0, 1, 1, 170)},
                    {29, axis(1, 0, 0, 12)}};
  b.rotations[2] = {{0, {-0.5f, 0.5f, -0.5f, 0.5f}}};
  b.rotations[5] = {{0, axis(0, 1, 0, -20)},
                    {1, axis(0, 1, 0, -21)},
                    {2, axis(0, 1, 0, -25)},
                    {3, axis(0, 1, 0, -20)},
                    {4, axis(0, 1, 0, -20)}};
  b.rotations[17] = {{0, axis(1, 2, 3, 60)}, {15, axis(-1, 2, 0, 120)}, {30, axis(1, 2, 3, 60)}};
  b.rotations[33] = {{0, axis(0, 0, 1, 5)}, {255, axis(0, 0, 1, 6)}};  // the largest delta
  AnimEvent sound{3, 0x0b};
  sound.position = {1234, 0, 0};
  sound.arg0 = 7;  // not in the payload: kept from the template
  AnimEvent effect{10, 0x21};
  effect.arg1 = 19;
  effect.position = {102, -205, 4094};
  effect.rotation = {0, 0, 16384};
  effect.code = {'b', 'l', 'd', 0};
  AnimEvent partner{0, 0x08};
  partner.position = {389, 1035, 0};
  AnimEvent fov{12, 0x3a};
  fov.position = {0, static_cast<int16_t>(0xbf80)};  // -1.0f as the word at +8
  AnimEvent shake{14, 0x20, 3, 0};
  AnimEvent unknown{20, 0x15, 5, 6};  // an undocumented type: its bytes only in the template
  unknown.position = {1, 2, 3};
  unknown.code = {9, 8, 7, 6};
  b.events = {sound, effect, partner, fov, shake, unknown};
  AnmClip c = b.build();
  c.keyframes.section_c[2].keys[0].unknown = 0x5a;  // byte +1, not read by the sampler
  c.keyframes.section_b[0].keys[1].unknown = 3;
  return c;
}

// No section A, no bone 0, bone 2 left out, one key per channel, the descriptor chunk first.
AnmClip grab_clip() {
  ClipBuilder b;
  b.name = "grab_hold_loop_with_a_long_name_cut";
  b.frames = 1;
  b.translation = {{0, {0, 0, 0.9f}}};
  b.rotations[1] = {{0, {-0.4912f, -0.5087f, 0.4912f, 0.5087f}}};
  b.rotations[3] = {{0, axis(1, 0, 0, -100)}};  // w < 0 before the flip
  AnimEvent late{9, 0x2e};                      // an event at or after F, kept
  b.events = {late, AnimEvent{0, 0x2f}};
  return b.build();
}

// Collinear and repeated keys (reduction would drop them), and keys past F.
AnmClip redundant_clip() {
  ClipBuilder b;
  b.name = "idle";
  b.frames = 60;
  b.translation = {{0, {0, 0, 0}}, {10, {0.1f, 0, 0}}, {20, {0.2f, 0, 0}}, {70, {0.2f, 0, 0}}};
  b.rotations[1] = {{0, axis(1, 0, 0, 10)}, {30, axis(1, 0, 0, 10)}, {60, axis(1, 0, 0, 10)}};
  b.rotations[6] = {{0, axis(0, 1, 0, 10)}};
  return b.build();
}

// The angle of the rotation between two quaternions, 2 acos |a . b| (issue 32, item 4: the
// rotation turns by twice the angle between the quaternions), in double from the normalised
// components: independent of the core's rotation_angle, precise to ~1e-8 rad near 0.
double angle(Quat a, Quat b) {
  const double na = std::sqrt(double(a.x) * a.x + double(a.y) * a.y + double(a.z) * a.z + double(a.w) * a.w);
  const double nb = std::sqrt(double(b.x) * b.x + double(b.y) * b.y + double(b.z) * b.z + double(b.w) * b.w);
  const double d = (double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z + double(a.w) * b.w) / (na * nb);
  return 2 * std::acos(std::min(1.0, std::fabs(d)));
}

// Odd bytes: a duration off the 30 Hz grid, a NaN word as the fov, a non-printable effect code,
// a keyframes tail longer than the padding, descriptor runtime words set.
AnmClip odd_clip() {
  ClipBuilder b;
  b.name = "odd";
  b.frames = 15;
  b.translation = {{0, {0.5f, 0.25f, -1}}, {14, {0.5f, 0.25f, 1}}};
  b.rotations[7] = {{0, normalize(Quat{0.3f, 0.3f, 0.3f, 0.1f})},
                    {3, normalize(Quat{-0.3f, 0.3f, 0.3f, 0.1f})}};
  AnimEvent fov{2, 0x3a};
  fov.position = {0x0001, static_cast<int16_t>(0x7fc0)};  // a NaN bit pattern
  AnimEvent code{3, 0x21};
  code.code = {'a', 0x01, 'c', 0x7f};
  b.events = {code, fov};
  AnmClip c = b.build();
  c.descriptor.duration = 0.51f;
  c.descriptor.reference_count = 2;
  c.descriptor.keyframes_pointer = 0x00123450;
  c.descriptor.tail = {1, 2, 3, 4, 5, 6, 7, 8};
  c.keyframes.tail.resize(c.keyframes.tail.size() + 32, 0xee);
  return c;
}

Animated export_neutral(const std::vector<uint8_t>& anm) {
  auto doc = open_document("t.anm", anm, FileKind::kAnm);
  return *doc->to_neutral();
}

// Through glTF bytes, as `animkit export` then `animkit import` do.
Animated through_glb(const Animated& a) {
  const std::vector<uint8_t> glb = gltf::to_glb(gltf::build(a));
  return gltf::read("t.glb", glb);
}

std::vector<uint8_t> import_bytes(const Animated& gl, const std::vector<uint8_t>& tmpl_bytes,
                                  float tolerance = 0, Json* report = nullptr) {
  const AnmTemplate t = read_anm_template(tmpl_bytes);
  AnmImportOptions o;
  o.tolerance = tolerance;
  AnmImport r = import_anm(gl, &t, o);
  if (report) *report = r.report;
  Writer w;
  write_resource(w, r.resource);
  w.bytes(r.tail);
  return w.take();
}

// Issue 17: "import of an unchanged export gives back the original file byte for byte".
TEST(WarriorsImport, UnchangedExportComesBackByteForByte) {
  struct Case {
    AnmClip clip;
    bool descriptor_first;
  };
  for (const Case& c : {Case{walk_clip(), false}, Case{grab_clip(), true},
                        Case{redundant_clip(), false}, Case{odd_clip(), false}}) {
    const std::vector<uint8_t> original = bytes_of(make_anm_resource(c.clip, c.descriptor_first));
    const Animated gl = through_glb(export_neutral(original));
    EXPECT_EQ(import_bytes(gl, original), original) << c.clip.descriptor.name_text();
    // The default options are the same as tolerance 0.
    const AnmTemplate t = read_anm_template(original);
    AnmImport r = import_anm(gl, &t);
    EXPECT_EQ(bytes_of(r.resource), original);
  }
}

// The same with the 2,048-byte padding of a WAD entry after the resource.
TEST(WarriorsImport, TemplateTailIsKept) {
  std::vector<uint8_t> original = bytes_of(make_anm_resource(walk_clip()));
  original.resize((original.size() + 2047) / 2048 * 2048, 0);
  const Animated gl = through_glb(export_neutral(original));
  EXPECT_EQ(import_bytes(gl, original), original);
}

// A glTF as an animation tool makes it: 24 fps keys (off the 30 Hz grid), values between the
// quantisation steps, a quaternion with w < 0.
Animated authored() {
  Animated a;
  a.skeleton = neutral_skeleton(nullptr);
  Clip c;
  c.name = "walk_fwd";
  c.duration = 1.0f;
  c.frame_rate = 24;
  c.joints.resize(kNumBones);
  Track<Vec3>& t = c.joints[1].translation;
  t.interpolation = Interpolation::kLinear;
  Track<Quat>& r1 = c.joints[1].rotation;
  Track<Quat>& r17 = c.joints[17].rotation;
  r1.interpolation = r17.interpolation = Interpolation::kSlerp;
  for (int i = 0; i <= 24; ++i) {
    const float s = i / 24.f;
    t.add(s, {0.0123f * std::sin(6.2832f * s), 0.01f * i, 0.0456f * std::cos(6.2832f * s)});
    r1.add(s, axis(1, 0.2f, 0, 30 * std::sin(6.2832f * s)));
    r17.add(s, -axis(0.3f, 1, 0.1f, 80 + 70 * s));  // w < 0: flipped on writing
  }
  c.events.push_back({0.1f, "sound", R"({"sound_id": 42})"});
  c.events.push_back(
      {0.5f, "named_effect",
       R"({"code": "dus", "bone": 5, "position": [0.1, 0.2, 0.3], "rotation": [0, 0, 0, 1]})"});
  a.clips.push_back(std::move(c));
  return a;
}

// Issue 17: "export -> import -> export is stable": the second export equals the first (README:
// exactly at tolerance 0, and within the tolerance when keys are reduced).
TEST(WarriorsImport, ExportImportExportIsStable) {
  const std::vector<uint8_t> tmpl = bytes_of(make_anm_resource(walk_clip()));
  const Animated source = through_glb(authored());
  const std::vector<uint8_t> first = import_bytes(source, tmpl);
  const Animated export1 = through_glb(export_neutral(first));
  const std::vector<uint8_t> second = import_bytes(export1, first);
  EXPECT_EQ(second, first);
  const Animated export2 = export_neutral(second);
  const Animated e1 = export_neutral(first);
  ASSERT_EQ(e1.clips.size(), 1u);
  for (int b = 0; b < kNumBones; ++b) {
    EXPECT_EQ(export2.clips[0].joints[b].rotation.values, e1.clips[0].joints[b].rotation.values);
    EXPECT_EQ(export2.clips[0].joints[b].translation.values,
              e1.clips[0].joints[b].translation.values);
  }

  // With reduction: the second export is within the tolerance of the first at every frame.
  const float tol = 0.01f;
  const std::vector<uint8_t> r1 = import_bytes(source, tmpl, tol);
  const Animated x1 = through_glb(export_neutral(r1));
  const std::vector<uint8_t> r2 = import_bytes(x1, r1, tol);
  const PlayClip p1 = make_play_clip(read_anm_template(r1).clip);
  const PlayClip p2 = make_play_clip(read_anm_template(r2).clip);
  for (uint32_t f = 0; f < p1.frame_count; ++f) {
    for (int b = 1; b < kNumBones; ++b) {
      if (!p1.has_bone(b)) continue;
      const Quat a = evaluate_channel(p1, p1.bones[b], f, true);
      const Quat c = evaluate_channel(p2, p2.bones[b], f, true);
      EXPECT_LE(angle(a, c), tol + 2e-4f) << b << " " << f;
    }
    const Quat a = evaluate_channel(p1, p1.translation, f, false);
    const Quat c = evaluate_channel(p2, p2.translation, f, false);
    EXPECT_LE(length(Vec3{a.x - c.x, a.y - c.y, a.z - c.z}), tol + 1e-3f) << f;
  }
}

// Issue 17: "an independent decode of what import writes compares with the glTF frame by frame
// within the stated tolerance". The decode here is the module's reader (read_warriors_file,
// make_play_clip, evaluate_channel), the truth the glTF's own tracks evaluated at f / 30 s.
TEST(WarriorsImport, IndependentDecodeMatchesTheGltfWithinTolerance) {
  const std::vector<uint8_t> tmpl = bytes_of(make_anm_resource(walk_clip()));
  const Animated source = through_glb(authored());
  for (float tol : {0.f, 0.002f, 0.02f}) {
    const std::vector<uint8_t> out = import_bytes(source, tmpl, tol);
    const WarriorsFile f = read_warriors_file(out, FileKind::kAnm);
    const AnmClip& clip = f.sets[0].clips[0].clip;
    EXPECT_TRUE(validate_clip(clip, "x").empty() ||
                std::none_of(validate_clip(clip, "x").begin(), validate_clip(clip, "x").end(),
                             [](const Finding& x) { return x.level == Finding::Level::kError; }));
    const PlayClip p = make_play_clip(clip);
    ASSERT_EQ(p.frame_count, 30u);
    const Clip& g = source.clips[0];
    // Quantisation alone: half a step of x^2^15 per component (rotations, a few 1e-5 rad) and
    // half of 1/1023 m per axis (translations).
    const float rot_q = 1.5e-4f,  // README: 1.5e-4 rad for w >= 0.1 (bone 17's w >= 0.26 here)
        pos_q = std::sqrt(2 * 0.25f / (1023.f * 1023.f) + 0.25f / (2047.f * 2047.f));
    for (uint32_t fr = 0; fr < p.frame_count; ++fr) {
      const float time = fr / 30.f;
      for (int b : {1, 17}) {
        const Track<Quat>& tr = g.joints[b].rotation;
        const Quat want = evaluate(tr, time, find_key(tr.times, time, 0));
        const Quat got = evaluate_channel(p, p.bones[b], fr, true);
        const double e = angle(want, got);
        EXPECT_LE(e, std::max(tol, rot_q) + 1e-5f)
            << "tol " << tol << " bone " << b << " frame " << fr << " want " << want.x << " "
            << want.y << " " << want.z << " " << want.w << " got " << got.x << " " << got.y << " "
            << got.z << " " << got.w;
      }
      const Track<Vec3>& tt = g.joints[1].translation;
      const Vec3 want = evaluate(tt, time, find_key(tt.times, time, 0));
      const Quat got = evaluate_channel(p, p.translation, fr, false);
      EXPECT_LE(length(want - Vec3{got.x, got.y, got.z}), std::max(tol, pos_q) + 1e-6f)
          << "tol " << tol << " frame " << fr;
    }
    // Reduction drops keys once the tolerance allows it.
    if (tol >= 0.02f) {
      EXPECT_LT(p.bones[1].count, 31u);
    }
    if (tol == 0.f) {
      EXPECT_EQ(p.bones[1].count, 31u);  // frames 0-30: every whole frame
    }
    // Events from extras.events with their payloads.
    ASSERT_EQ(clip.keyframes.events.size(), 2u);
    EXPECT_EQ(clip.keyframes.events[0].type, 0x0b);
    EXPECT_EQ(clip.keyframes.events[0].frame, 3);
    EXPECT_EQ(clip.keyframes.events[0].position[0], 42);
    EXPECT_EQ(clip.keyframes.events[0].arg0, 0);  // a new event: nothing from the template
    const AnimEvent& fx = clip.keyframes.events[1];
    EXPECT_EQ(fx.type, 0x21);
    EXPECT_EQ(fx.frame, 15);
    EXPECT_EQ(fx.arg1, 5);
    EXPECT_EQ((std::array<uint8_t, 4>{'d', 'u', 's', 0}), fx.code);
    EXPECT_EQ((std::array<int16_t, 3>{102, 205, 614}),
              fx.position);  // 0.1*1023, 0.2*1023, 0.3*2047
    // The w < 0 key was flipped: every written key has w >= 0 by construction, and the decoded
    // value is the glTF's up to sign.
    EXPECT_GE(p.values[p.bones[17].first].w, 0.f);
    // Descriptor fields from the template, duration and frame count from the clip.
    EXPECT_EQ(clip.descriptor.flags, 0x1000au);
    EXPECT_EQ(clip.descriptor.name, walk_clip().descriptor.name);
    EXPECT_FLOAT_EQ(clip.descriptor.duration, 1.0f);
    // Section A and bone 0 are the template's (glTF does not carry root motion).
    EXPECT_EQ(clip.keyframes.section_a, walk_clip().keyframes.section_a);
    EXPECT_TRUE(clip.descriptor.has_bone(0));
    EXPECT_EQ(clip.keyframes.section_c[0], walk_clip().keyframes.section_c[0]);
    // Bones the glTF leaves without a track have no channel (the reference pose fills them).
    EXPECT_FALSE(clip.descriptor.has_bone(2));
    EXPECT_EQ(clip.descriptor.num_channels, 3);
  }
}

Animated a_skeleton_with(const Clip& c) {
  Animated a;
  a.skeleton = neutral_skeleton(nullptr);
  a.clips.push_back(c);
  return a;
}

// With T > 0 the bound holds at every frame even where the glTF's keys are far apart: glTF slerps
// between them, the engine nlerps, so keys are added where the two part by more than T.
TEST(WarriorsImport, ReductionBoundHoldsBetweenSparseKeys) {
  const std::vector<uint8_t> original = bytes_of(make_anm_resource(walk_clip()));
  const Animated gl = through_glb(export_neutral(original));
  const float tol = 0.005f;
  const PlayClip p = make_play_clip(read_anm_template(import_bytes(gl, original, tol)).clip);
  const PlayClip o = make_play_clip(walk_clip());
  float worst_original = 0;
  for (int b : {1, 17}) {
    const Track<Quat>& tr = gl.clips[0].joints[b].rotation;
    for (uint32_t f = 0; f < p.frame_count; ++f) {
      const Quat want = evaluate(tr, f / 30.f, find_key(tr.times, f / 30.f, 0));
      EXPECT_LE(angle(evaluate_channel(p, p.bones[b], f, true), want), tol + 1e-6) << b << " " << f;
      worst_original =
          std::max<float>(worst_original, angle(evaluate_channel(o, o.bones[b], f, true), want));
    }
  }
  EXPECT_GT(worst_original, tol);  // the original's own keys are not within T of its export
}

// Quantisation exactly as warriors.txt "Decoding" reads it: x/1023, y/1023, z/2047, x 2^15.
TEST(WarriorsImport, QuantisesAsTheSpecDecodes) {
  Animated a;
  a.skeleton = neutral_skeleton(nullptr);
  Clip c;
  c.name = "q";
  c.duration = 2 / 30.f;
  c.joints.resize(kNumBones);
  c.joints[1].translation.add(0, {10.4f / 1023, -3.6f / 1023, 100.5f / 2047});
  const Quat q = normalize({0.25f + 0.3f / 32768, -0.5f, 0.125f - 0.7f / 32768, -0.8f});
  c.joints[5].rotation.add(0, q);
  a.clips.push_back(c);
  const AnmImport r = import_anm(a, nullptr);
  const Key& t = r.clip.keyframes.section_b[0].keys[0];
  EXPECT_EQ(t.x, 10);
  EXPECT_EQ(t.y, -4);
  EXPECT_EQ(t.z, 101);  // 100.5 rounds away from zero (a float a hair above .5 at worst)
  const Key& k = r.clip.keyframes.section_c[0].keys[0];
  // w < 0: the quaternion's sign flipped, then each of x, y, z x 2^15 rounded down or up, the
  // rounding whose decoded quaternion (w rebuilt) is nearest: never farther than rounding each
  // to nearest.
  const Quat f = -q;
  EXPECT_NEAR(k.x, f.x * 32768, 1.0);
  EXPECT_NEAR(k.y, f.y * 32768, 1.0);
  EXPECT_NEAR(k.z, f.z * 32768, 1.0);
  // Rounding each to nearest, when that leaves x^2 + y^2 + z^2 <= 1 (else w cannot be rebuilt:
  // validate's ROTATION_LENGTH; such a rounding is never written).
  const auto nearest_error = [](Quat g) {
    const auto r = [](float v) { return std::clamp(std::lround(v * 32768), -32768L, 32767L); };
    const long x = r(g.x), y = r(g.y), z = r(g.z);
    if (x * x + y * y + z * z > 32768L * 32768L) return 1e9;
    return angle(
        decode_rotation(static_cast<int16_t>(x), static_cast<int16_t>(y), static_cast<int16_t>(z)),
        g);
  };
  EXPECT_LE(angle(decode_rotation(k), f), nearest_error(f) + 1e-7);
  // Where w is small the rebuilt w amplifies the rounding: the search is strictly better there.
  int better = 0;
  double worst_nearest = 0, worst = 0;
  for (int i = 0; i < 2000; ++i) {
    const float w = 0.002f + 0.0001f * (i % 50);
    const float a = 0.37f * i, b = 0.11f * i;
    const Quat g =
        normalize({std::cos(a) * std::sin(b), std::sin(a) * std::sin(b), std::cos(b), w});
    Clip one = c;
    one.joints[5].rotation = {};
    one.joints[5].rotation.add(0, g);
    Animated x = a_skeleton_with(one);
    const Key got = import_anm(x, nullptr).clip.keyframes.section_c[0].keys[0];
    const double e = angle(decode_rotation(got), g), n = nearest_error(g);
    const Key& kk = got;
    EXPECT_LE(int64_t{kk.x} * kk.x + int64_t{kk.y} * kk.y + int64_t{kk.z} * kk.z,
              int64_t{32768} * 32768);
    if (n > 1) continue;
    EXPECT_LE(e, n + 1e-7) << got.x << " " << got.y << " " << got.z << " g " << g.x * 32768 << " "
                           << g.y * 32768 << " " << g.z * 32768 << " " << g.w;
    better += e < n - 1e-6;
    worst = std::max(worst, e);
    worst_nearest = std::max(worst_nearest, n);
  }
  EXPECT_GT(better, 100);
  RecordProperty("worst_nearest_rad", std::to_string(worst_nearest));
  RecordProperty("worst_search_rad", std::to_string(worst));
  std::printf("w in [0.002, 0.007): worst error nearest rounding %.6f rad, searched %.6f rad\n",
              worst_nearest, worst);
  // No template: a new clip named by the animation, hashes by the writer's rule.
  EXPECT_EQ(r.clip.descriptor.name_text(), "q");
  EXPECT_EQ(r.resource.header.name_hash, crc32("q.anm"));
  EXPECT_EQ(r.clip.descriptor.duration, 2 / 30.f);
}

// A STEP track is held between its keys in glTF; the engine lerps, so the step becomes two keys a
// frame apart (sampled at every frame, then reduced).
TEST(WarriorsImport, StepTrackBecomesTwoKeysAFrameApart) {
  Clip c;
  c.name = "s";
  c.duration = 20 / 30.f;
  c.joints.resize(kNumBones);
  Track<Vec3>& t = c.joints[1].translation;
  t.interpolation = Interpolation::kStep;
  t.add(0, {0, 0, 0});
  t.add(10 / 30.f, {0.5f, 0, 0});
  const AnmImport r = import_anm(a_skeleton_with(c), nullptr, {"", 1e-3f});
  const PlayClip p = make_play_clip(r.clip);
  for (uint32_t f = 0; f < 20; ++f) {
    EXPECT_FLOAT_EQ(evaluate_channel(p, p.translation, f, false).x, f < 10 ? 0.f : 512 / 1023.f)
        << f;  // 0.5 m x 1023 rounds to 512
  }
  ASSERT_EQ(r.clip.keyframes.section_b[0].keys.size(), 3u);  // frames 0, 9, 10
  EXPECT_EQ(r.clip.keyframes.section_b[0].keys[1].delta, 9);
  EXPECT_EQ(r.clip.keyframes.section_b[0].keys[2].delta, 1);
}

// Issue 17: "--dry-run --json reporting the per-joint maximum error of the quantised result".
TEST(WarriorsImport, ReportsPerJointMaximumError) {
  Animated a;
  a.skeleton = neutral_skeleton(nullptr);
  Clip c;
  c.name = "e";
  c.duration = 10 / 30.f;
  c.joints.resize(kNumBones);
  c.joints[1].translation.add(0, {10.4f / 1023, 0, 0});  // 0.4 / 1023 m off after rounding
  c.joints[1].translation.add(9 / 30.f, {10.4f / 1023, 0, 0});
  const Quat q = axis(0, 0, 1, 37);
  c.joints[4].rotation.add(0, q);
  a.clips.push_back(c);
  const AnmImport r = import_anm(a, nullptr);
  const Json& e = r.report.at("max_error");
  EXPECT_NEAR(e.at("pelvis").at("translation").get<double>(), 0.4 / 1023, 1e-6);
  // The rotation error from the spec's decoding of the rounded components.
  const Quat d = decode_rotation(static_cast<int16_t>(std::lround(q.x * 32768)),
                                 static_cast<int16_t>(std::lround(q.y * 32768)),
                                 static_cast<int16_t>(std::lround(q.z * 32768)));
  const double want = angle(d, q);
  EXPECT_NEAR(e.at("spine1").at("rotation").get<double>(), want, 2e-5);
  EXPECT_GT(e.at("spine1").at("rotation").get<double>(), 0.0);
  EXPECT_FALSE(e.contains("hips"));  // no channel, no error to report
  EXPECT_EQ(r.report.at("frames"), 10);
}

// Issue 17: "joint matching by name with a clear error for a missing or extra joint".
TEST(WarriorsImport, JointMatchingErrors) {
  const std::vector<uint8_t> original = bytes_of(make_anm_resource(walk_clip()));
  const AnmTemplate t = read_anm_template(original);
  Animated gl = through_glb(export_neutral(original));
  Animated extra = gl;
  extra.skeleton.add_joint("tail_bone", 7, Transform{});
  for (Clip& c : extra.clips) c.joints.emplace_back();
  try {
    import_anm(extra, &t);
    FAIL() << "an extra joint was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tail_bone"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("does not have"), std::string::npos) << e.what();
  }
  Animated renamed = gl;
  renamed.skeleton.names[30] = "r_foot_old";
  try {
    import_anm(renamed, &t);
    FAIL() << "a missing joint was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("r_foot"), std::string::npos) << e.what();
  }
  // A different rest rotation is reported, not re-targeted.
  Animated rest = gl;
  rest.skeleton.rest[2].rotation = Quat::identity();
  const AnmImport r = import_anm(rest, &t);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes[0].find("hips"), std::string::npos) << r.notes[0];
}

// warriors.txt "Descriptor" +0x04: the root's displacement. Same frame count: the template's;
// otherwise section A's travel over the clip (each of F updates moves by the velocity in force x
// 1/30 s), or without section A the template's speed x the new duration (README).
TEST(WarriorsImport, DisplacementRecomputedWhenTheLengthChanges) {
  ClipBuilder b;
  b.name = "run";
  b.frames = 30;
  b.displacement_y = 9.f;  // deliberately not section A's travel (1.5 m/s x 1 s)
  b.velocity = {{0, {0, 1.5f, 0}}};
  b.translation = {{0, {0, 0, 0}}};
  b.rotations[1] = {{0, axis(1, 0, 0, 10)}};
  const std::vector<uint8_t> run = bytes_of(make_anm_resource(b.build()));
  Animated gl = through_glb(export_neutral(run));
  gl.clips[0].duration = 45 / 30.f;
  Json report;
  const AnmClip longer = read_anm_template(import_bytes(gl, run, 0, &report)).clip;
  EXPECT_NEAR(longer.descriptor.displacement_y, 1.5f * 45 / 30.f, 1e-3f);  // 1533/1023 x 1.5 s
  EXPECT_EQ(report.at("displacement_from"), "section A travel");
  EXPECT_FLOAT_EQ(longer.descriptor.duration, 1.5f);

  b.velocity.clear();
  b.displacement_y = 2.f;  // a gait: 2 m over 1 s is its speed
  const std::vector<uint8_t> gait = bytes_of(make_anm_resource(b.build()));
  Animated g2 = through_glb(export_neutral(gait));
  g2.clips[0].duration = 15 / 30.f;
  const AnmClip shorter = read_anm_template(import_bytes(g2, gait)).clip;
  EXPECT_FLOAT_EQ(shorter.descriptor.displacement_y, 1.f);
}

// Edited events: a moved event keeps its template bytes; an unknown name is an error.
TEST(WarriorsImport, EventsFromExtras) {
  const std::vector<uint8_t> original = bytes_of(make_anm_resource(walk_clip()));
  const AnmTemplate t = read_anm_template(original);
  Animated gl = through_glb(export_neutral(original));
  gl.clips[0].events[0].time = 8 / 30.f;  // the sound moved from frame 3 to 8
  const AnmImport r = import_anm(gl, &t);
  const AnimEvent& moved = r.clip.keyframes.events[0];
  EXPECT_EQ(moved.frame, 8);
  EXPECT_EQ(moved.arg0, 7);  // the template's byte, carried with the event
  EXPECT_EQ(moved.position[0], 1234);
  gl.clips[0].events.push_back({0.2f, "footstep", "{}"});
  EXPECT_THROW(import_anm(gl, &t), Error);
  gl.clips[0].events.back().name = "type_0x44";
  const AnmImport r2 = import_anm(gl, &t);
  EXPECT_EQ(r2.clip.keyframes.events.back().type, 0x44);
  EXPECT_EQ(r2.clip.keyframes.events.back().frame, 6);
}

// A Blender-like round trip: every joint baked at every frame (slerp between the export's keys),
// translations and scales at the rest on every joint. Bones the template leaves out stay out (their
// tracks are at the reference pose); with a tolerance that covers slerp against nlerp between the
// template's keys, the template's channels come back as they are, so the file does too.
TEST(WarriorsImport, BakedRoundTripKeepsTheTemplateLayout) {
  const std::vector<uint8_t> original = bytes_of(make_anm_resource(walk_clip()));
  const Animated exported = through_glb(export_neutral(original));
  Animated baked = exported;
  Clip& c = baked.clips[0];
  const int last = 40;  // past F = 30, as far as the longest exported track needs (bone 33: 255)
  for (int b = 0; b < kNumBones; ++b) {
    JointTracks& jt = c.joints[b];
    const Transform& rest = baked.skeleton.rest[b];
    Track<Quat> r;
    r.interpolation = Interpolation::kSlerp;
    Track<Vec3> t, sc;
    for (int f = 0; f <= last; ++f) {
      const float time = f / 30.f;
      const Track<Quat>& src = exported.clips[0].joints[b].rotation;
      r.add(time, src.empty() ? rest.rotation : evaluate(src, time, find_key(src.times, time, 0)));
      const Track<Vec3>& st = exported.clips[0].joints[b].translation;
      t.add(time, st.empty() ? rest.translation : evaluate(st, time, find_key(st.times, time, 0)));
      sc.add(time, {1, 1, 1});
    }
    if (b == 0) continue;  // joint 0 carries nothing (and would only be noted)
    jt.rotation = r;
    jt.translation = t;
    jt.scale = sc;
  }
  // Tolerance 0: every frame a key, but the bones the template leaves out stay out.
  Json report;
  const AnmClip zero = read_anm_template(import_bytes(baked, original, 0, &report)).clip;
  EXPECT_EQ(zero.descriptor.bone_mask, walk_clip().descriptor.bone_mask);
  EXPECT_EQ(report.at("keys").at("hips").at("template"), true);  // one constant key: it fits
  EXPECT_EQ(report.at("keys").at("r_upperarm").at("template"), false);
  EXPECT_EQ(zero.keyframes.section_c[2].keys.size(), 1u);  // bone 2, its one key
  // A tolerance above slerp against nlerp between the template's keys: the original, byte for byte.
  // (The pelvis turns 130 degrees over 13 frames there: nlerp and slerp part by up to ~0.1 rad.)
  EXPECT_EQ(import_bytes(baked, original, 0.15f, &report), original) << report.dump();
}

// `animkit import --as warriors-character / warriors-pack`: a character with bone offsets (0x28,
// the pelvis bind height added to section B by the export) exported whole, imported back onto
// itself: byte for byte; one clip edited goes to its place and nothing else changes.
TEST(WarriorsImport, ContainerImportPutsEveryClipBack) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("animkit-wimport-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  BoneOffsets off;
  for (int b = 0; b < kNumBones; ++b)
    off.entries[b] = {0.1f * (b % 5) + 0.05f, 0.02f * b, -0.01f * b, 0};
  off.entries[1][1] = 0.93f;  // the bind height
  Resource chr =
      make_character_resource("chr", {walk_clip(), grab_clip(), odd_clip()}, {408, 73, 5}, {});
  chr.chunks.push_back(make_bone_offsets_chunk(off));
  update_sizes(chr);
  for (bool pack : {false, true}) {
    const WadEntry entry =
        pack ? WadEntry{make_pack({make_anm_resource(walk_clip()), chr}), {}} : WadEntry{chr, {}};
    const std::vector<uint8_t> bytes = write_entry(entry);
    const std::filesystem::path file = dir / (pack ? "set.pak" : "chr.res");
    write_file(file, bytes);
    auto doc = open_document(file, bytes, pack ? FileKind::kPack : FileKind::kCharacter);
    const Animated gl = through_glb(*doc->to_neutral());
    ASSERT_NEAR(gl.skeleton.rest[1].translation.z, 0.93f, 1e-6f);
    ImportRequest req;
    req.source = gl;
    req.template_path = file;
    ImportResult r = import_warriors_container(req, pack);
    EXPECT_EQ(r.bytes, bytes);
    EXPECT_TRUE(r.report.at("identical").get<bool>());
    // One clip edited (a section B key 5 cm higher): only its chunks change.
    req.clip = "walk_fwd";
    for (Vec3& v : req.source.clips[0].joints[1].translation.values) v.z += 0.05f;
    r = import_warriors_container(req, pack);
    const WarriorsFile out =
        read_warriors_file(r.bytes, pack ? FileKind::kPack : FileKind::kCharacter);
    const ClipSet& set = out.sets.back();
    const Key& k = set.clips[0].clip.keyframes.section_b[0].keys[0];
    EXPECT_EQ(k.z, walk_clip().keyframes.section_b[0].keys[0].z + 102);  // 0.05 x 2047 = 102.35
    EXPECT_EQ(set.clips[1].clip, grab_clip());
    EXPECT_EQ(set.bone_offsets, off);
    if (pack) {
      EXPECT_EQ(out.sets[0].clips[0].clip.keyframes.section_b[0].keys[0].z, k.z);  // same name
    }
  }
  std::filesystem::remove_all(dir);
}

// `warriors rebuild --put`: a clip into a character resource and a pack, in place.
TEST(WarriorsRebuild, OwnUnchangedClipIsByteIdentical) {
  const AnmClip walk = walk_clip(), grab = grab_clip(), idle = redundant_clip();
  const Resource character =
      make_character_resource("rembrandt", {walk, grab, idle}, {408, 73, 388}, {{408, 0x1000}});
  Pack pack = make_pack({make_anm_resource(idle), character, make_anm_resource(walk)});
  for (const WadEntry& original :
       {WadEntry{character, {}}, WadEntry{pack, std::vector<uint8_t>(48, 0)}}) {
    const std::vector<uint8_t> bytes = write_entry(original);
    WadEntry e = read_entry(bytes);
    const auto placed = put_clip(e, read_anm_template(bytes_of(make_anm_resource(walk))).clip);
    EXPECT_EQ(write_entry(e), bytes);
    for (const ClipPlacement& p : placed) EXPECT_FALSE(p.changed);
    EXPECT_EQ(placed.size(), original.is_pack() ? 2u : 1u);
    // By anim id: 73 is the grab.
    WadEntry e2 = read_entry(bytes);
    const auto by_id = put_clip(e2, grab, 73);
    ASSERT_EQ(by_id.size(), 1u);
    EXPECT_EQ(by_id[0].replaced, grab.descriptor.name_text());
    EXPECT_EQ(write_entry(e2), bytes);
  }
}

// A changed clip (an import with fewer keys) put into a pack: sizes follow, everything else stays.
TEST(WarriorsRebuild, ChangedClipUpdatesSizesOnly) {
  const AnmClip walk = walk_clip(), idle = redundant_clip();
  const Resource character = make_character_resource("chr", {walk, idle}, {408, 388}, {});
  const Pack pack = make_pack({character, make_anm_resource(idle)});
  const std::vector<uint8_t> bytes = write_entry(WadEntry{pack, {}});
  const std::vector<uint8_t> anm = bytes_of(make_anm_resource(walk));
  const std::vector<uint8_t> reduced = import_bytes(through_glb(authored()), anm, 0.05f);
  ASSERT_NE(reduced, anm);
  const AnmClip changed = read_anm_template(reduced).clip;
  WadEntry e = read_entry(bytes);
  const auto placed = put_clip(e, changed);
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_TRUE(placed[0].changed);
  const std::vector<uint8_t> out = write_entry(e);
  const WarriorsFile f = read_warriors_file(out, FileKind::kPack);
  auto doc = open_document("p", out, FileKind::kPack);
  for (const Finding& x : doc->validate()) EXPECT_NE(x.level, Finding::Level::kError) << x.message;
  EXPECT_EQ(f.sets[0].clips[0].clip, changed);
  EXPECT_EQ(f.sets[0].clips[1].clip, idle);
  EXPECT_EQ(f.sets[1].clips[0].clip, idle);
  const WadEntry before = read_entry(bytes);
  const Pack& p = std::get<Pack>(before.content);
  const Pack& q = std::get<Pack>(f.entry.content);
  EXPECT_EQ(q.resources[0].chunks[0].header.hash, p.resources[0].chunks[0].header.hash);
  EXPECT_EQ(q.resources[0].chunks[4].data, p.resources[0].chunks[4].data);  // Character Data
  EXPECT_EQ(q.resources[1], p.resources[1]);
  // Nothing of that name: an error naming it.
  AnmClip stranger = changed;
  stranger.descriptor.set_name("nobody");
  EXPECT_THROW(put_clip(e, stranger), Error);
}

}  // namespace
}  // namespace animkit::warriors
