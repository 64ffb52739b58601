// xanim v14 files (cod-xanim-format.md): layout (§1), key decoding (§1.3), pose evaluation
// (§2.1-2.2), notetracks (§1.5), the loader's errors (§1.6), the `cod-xanim` document.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "animkit/call_of_duty/xanim_document.h"
#include "animkit/call_of_duty/xanim_file.h"
#include "animkit/call_of_duty/xanim_sample.h"
#include "animkit/core/error.h"

namespace animkit::call_of_duty {
namespace {

using B = std::vector<uint8_t>;

// Fixture bytes written straight from the tables of §1 (not by write_xanim).
struct Bytes_ {
  B b;
  Bytes_& u8(uint8_t v) {
    b.push_back(v);
    return *this;
  }
  Bytes_& u16(uint16_t v) { return u8(v & 0xFF).u8(v >> 8); }
  Bytes_& i16(int16_t v) { return u16(static_cast<uint16_t>(v)); }
  Bytes_& f32(float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u16(u & 0xFFFF).u16(u >> 16);
  }
  Bytes_& str(const std::string& s) {
    for (char c : s) u8(static_cast<uint8_t>(c));
    return u8(0);
  }
  Bytes_& header(uint16_t frames, int16_t parts, uint8_t flags, int16_t rate) {
    return i16(14).u16(frames).i16(parts).u8(flags).i16(rate);
  }
};

// §2.6, the worked example (43 bytes).
B worked_example() {
  const char* hex =
      "0E0005000100001E00"
      "0001"
      "6A00"
      "020000040000825A"
      "01000000803F0000004000004040"
      "01666972650002 00";
  B out;
  std::string h;
  for (const char* p = hex; *p; ++p) {
    if (*p != ' ') h += *p;
  }
  for (size_t i = 0; i < h.size(); i += 2) {
    out.push_back(static_cast<uint8_t>(std::stoi(h.substr(i, 2), nullptr, 16)));
  }
  return out;
}

TEST(CodXAnimFile, WorkedExampleDecodes) {
  const B bytes = worked_example();
  ASSERT_EQ(bytes.size(), 43u);
  const XAnimFile f = parse_xanim(bytes, "j_anim");
  EXPECT_EQ(f.header.num_frames, 5);
  EXPECT_EQ(f.total_frames(), 5u);  // not looped: T = F
  EXPECT_EQ(f.frame_count_minus_one(), 4);
  EXPECT_FLOAT_EQ(f.header.frequency(), 7.5f);
  EXPECT_EQ(f.header.length(), 4.0f / 30.0f);
  ASSERT_EQ(f.parts.size(), 1u);
  const XAnimPart& j = f.parts[0];
  EXPECT_EQ(j.name, "j");
  EXPECT_TRUE(j.rotation.two_component);
  EXPECT_EQ(j.rotation.frames, (std::vector<uint16_t>{0, 4}));
  // "Key 0 decodes to (z,w) = (0, 32767), key 1 to (23170, 23170)".
  ASSERT_EQ(j.rotation.keys.size(), 2u);
  EXPECT_EQ(j.rotation.keys[0], (XAnimQuatKey{0, 0, 0, 32767}));
  EXPECT_EQ(j.rotation.keys[1], (XAnimQuatKey{0, 0, 23170, 23170}));
  ASSERT_EQ(j.translation.values.size(), 1u);
  EXPECT_EQ(j.translation.values[0], (Vec3{1, 2, 3}));
  // "fire has time 0.5 and end has time 1.0".
  const auto notes = xanim_notes(f);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].name, "fire");
  EXPECT_EQ(notes[0].time, 0.5f);
  EXPECT_EQ(notes[1].name, "end");
  EXPECT_EQ(notes[1].time, 1.0f);
  EXPECT_TRUE(f.tail.empty());
  EXPECT_TRUE(check_xanim(f).empty());
}

TEST(CodXAnimSample, WorkedExampleAtSixTenths) {
  const XAnimFile f = parse_xanim(worked_example(), "j_anim");
  // "At t = 0.6: ft = 2.4000001, f = 2, i = 0, frac = 0.6."
  const XAnimFrame at = xanim_frame(0.6f, f.frame_count_minus_one());
  EXPECT_FALSE(at.last);
  EXPECT_EQ(at.ft, 2.4000001f);
  EXPECT_EQ(at.f, 2u);
  const XAnimKeySpan span = xanim_span(at, 2, f.parts[0].rotation.frames);
  EXPECT_EQ(span.first, 0u);
  EXPECT_EQ(span.second, 1u);
  EXPECT_NEAR(span.frac, 0.6f, 1e-7);
  const XAnimPartPose p = sample_part(f.parts[0], at);
  // "Lanes z = 13902.0 and w = 27008.8; scaled: (0.42427, 0.82427)."
  EXPECT_EQ(p.lanes.x, 0.0f);
  EXPECT_EQ(p.lanes.y, 0.0f);
  EXPECT_NEAR(p.lanes.z, 13902.0 / 32767.0, 1e-6);
  EXPECT_NEAR(p.lanes.w, 27008.8 / 32767.0, 1e-6);
  EXPECT_NEAR(p.lanes.z, 0.42427, 5e-6);
  EXPECT_NEAR(p.lanes.w, 0.82427, 5e-6);
  // "The matrix therefore yaws 54.47 degrees (slerp would give 54)."
  const double yaw = 2.0 * std::atan2(p.lanes.z, p.lanes.w) * 180.0 / M_PI;
  EXPECT_NEAR(yaw, 54.47, 0.005);
  // "Translation is (1,2,3) at every time."
  EXPECT_EQ(p.translation, (Vec3{1, 2, 3}));
  EXPECT_EQ(sample_part(f.parts[0], xanim_frame(0.0f, 4)).translation, (Vec3{1, 2, 3}));
}

TEST(CodXAnimSample, EndAndOneFrameTakeTheLastKey) {
  const XAnimFile f = parse_xanim(worked_example(), "j_anim");
  // §2.1: "t = 1.0 or N = 0 -> take the last stored key of every stream."
  const XAnimPartPose end = sample_part(f.parts[0], xanim_frame(1.0f, 4));
  EXPECT_EQ(end.lanes.z, 23170 * 3.0518509447574615e-05f);
  EXPECT_EQ(end.lanes.w, 23170 * 3.0518509447574615e-05f);
  EXPECT_TRUE(xanim_frame(0.3f, 0).last);
  const XAnimPartPose start = sample_part(f.parts[0], xanim_frame(0.0f, 4));
  EXPECT_EQ(start.lanes.z, 0.0f);
  EXPECT_EQ(start.lanes.w, 32767 * 3.0518509447574615e-05f);
}

TEST(CodXAnimSample, WindowsTakesTheFrameFromTheUnroundedProduct) {
  // §2.1: 0.7f x 10 is 6.99999988 exactly, which rounds to the float 7.0.
  EXPECT_EQ(xanim_frame(0.7f, 10, XAnimPlatform::kLinux).f, 7u);
  EXPECT_EQ(xanim_frame(0.7f, 10, XAnimPlatform::kWindows).f, 6u);
  EXPECT_EQ(xanim_frame(0.75f, 10, XAnimPlatform::kWindows).f, 7u);
}

TEST(CodXAnimKeys, RebuildW) {
  // §1.3: w = floor(sqrt(32767^2 - x^2 - y^2 - z^2) + 0.5), 0 when not positive.
  EXPECT_EQ(rebuild_w(0, 0, 0), 32767);
  EXPECT_EQ(rebuild_w(0, 0, 23170), 23170);
  EXPECT_EQ(rebuild_w(32767, 0, 0), 0);
  EXPECT_EQ(rebuild_w(20000, 20000, 20000), 0);  // negative: 0
  // 32767^2 - 100^2 - 200^2 - 300^2 = 1073536289: sqrt = 32764.86...
  EXPECT_EQ(rebuild_w(100, 200, 300), 32765);
}

TEST(CodXAnimKeys, SignOfKeyZeroAndContinuity) {
  // Full form, sign bit set, three dense keys (T = 3): key 0 negated; key 1 then has a negative
  // dot product with it and is negated; key 2 follows key 1.
  Bytes_ b;
  b.header(3, 1, 0, 30).u8(0x01).u8(0x00).str("bone");
  b.u16(3).i16(100).i16(0).i16(0).i16(200).i16(0).i16(0).i16(300).i16(0).i16(0);
  b.u16(0).u8(0);
  const XAnimFile f = parse_xanim(b.b, "s");
  const int16_t w0 = rebuild_w(100, 0, 0), w1 = rebuild_w(200, 0, 0), w2 = rebuild_w(300, 0, 0);
  const auto& k = f.parts[0].rotation.keys;
  ASSERT_EQ(k.size(), 3u);
  EXPECT_EQ(k[0], (XAnimQuatKey{-100, 0, 0, static_cast<int16_t>(-w0)}));
  EXPECT_EQ(k[1], (XAnimQuatKey{-200, 0, 0, static_cast<int16_t>(-w1)}));
  EXPECT_EQ(k[2], (XAnimQuatKey{-300, 0, 0, static_cast<int16_t>(-w2)}));
  EXPECT_TRUE(f.parts[0].rotation.frames.empty());  // K = T: dense
  // Dense interpolation at t = 0.25: ft = 0.5 between keys 0 and 1.
  const XAnimPartPose p = sample_part(f.parts[0], xanim_frame(0.25f, 2));
  EXPECT_EQ(p.lanes.x, -150.0f * 3.0518509447574615e-05f);
  // A continuity flip on a 2-component stream uses lanes z and w only.
  XAnimRotationStream s;
  s.two_component = true;
  s.key_count = 2;
  s.stored = {1000, -1000};
  const auto d = decode_rotation(s, false);
  EXPECT_EQ(d[1][2], -1000);  // dot = 1000*-1000 + w*w > 0: kept
}

TEST(CodXAnimFile, SparseTwoByteIndicesLoopedAndDelta) {
  // Looped F = 300: T = 301, N = 300 >= 256, so 2-byte indices. Delta motion present.
  Bytes_ b;
  b.header(300, 2, 0x03, 30);
  b.u16(2).u16(0).u16(300).i16(0).i16(23170);                            // delta rotation
  b.u16(2).u16(0).u16(300).f32(0).f32(0).f32(0).f32(30).f32(0).f32(0);  // delta translation
  b.u8(0x00).u8(0x02).str("pelvis").str("spine");  // spine (bit 1) is 2-component
  b.u16(1).i16(10).i16(20).i16(30);  // pelvis: K = 1, constant
  b.u16(0);                          // no translation
  b.u16(3).u16(0).u16(100).u16(300).i16(0).i16(5000).i16(10000);  // spine: sparse 2-component
  b.u16(2).u16(0).u16(300).f32(1).f32(1).f32(1).f32(4).f32(7).f32(10);
  b.u8(2).str("a").u16(150).str("b").u16(300);
  b.u8(0xAB).u8(0xCD);  // a tail: ignored, kept
  const XAnimFile f = parse_xanim(b.b, "big");
  EXPECT_EQ(f.total_frames(), 301u);
  EXPECT_FALSE(f.header.small_indices());
  EXPECT_TRUE(f.has_delta);
  EXPECT_EQ(f.parts[1].rotation.frames, (std::vector<uint16_t>{0, 100, 300}));
  EXPECT_EQ(f.tail, (B{0xAB, 0xCD}));
  // At t = 0.5: ft = 150, the span 100..300 with frac 0.25.
  const XAnimFrame at = xanim_frame(0.5f, 300);
  const XAnimPartPose spine = sample_part(f.parts[1], at);
  EXPECT_EQ(spine.lanes.z, (5000.0f + 5000.0f * 0.25f) * 3.0518509447574615e-05f);
  EXPECT_EQ(spine.translation, (Vec3{2.5f, 4, 5.5f}));
  const XAnimPartPose pelvis = sample_part(f.parts[0], at);
  EXPECT_EQ(pelvis.lanes.x, 10 * 3.0518509447574615e-05f);
  EXPECT_FALSE(pelvis.has_translation);
  EXPECT_EQ(pelvis.translation, (Vec3{0, 0, 0}));
  const XAnimDeltaSample d = sample_delta(f, at);
  EXPECT_EQ(d.z, 11585.0f);
  EXPECT_EQ(d.translation, (Vec3{15, 0, 0}));
  // Lossless: the same bytes back, tail included.
  EXPECT_EQ(write_xanim(f), b.b);
  EXPECT_EQ(write_xanim(parse_xanim(write_xanim(f), "big")), b.b);
  EXPECT_EQ(write_xanim(parse_xanim(worked_example(), "j")), worked_example());
}

std::string error_of(const B& bytes) {
  try {
    parse_xanim(bytes, "x");
  } catch (const Error& e) {
    return (e.offset() ? fmt::format("{:#x}: ", *e.offset()) : std::string()) + e.message();
  }
  return "no error";
}

TEST(CodXAnimFile, LoadErrors) {
  // §1.1 / §1.6: the game's out-of-date message; the rest are the port's `malformed xanim`.
  Bytes_ old;
  old.header(5, 0, 0, 30);
  old.b[0] = 13;
  EXPECT_EQ(error_of(old.b), "0x0: xanim 'x' out of date (version 13, expecting 14)");
  B cut = worked_example();
  cut.resize(20);
  EXPECT_EQ(error_of(cut),
            "0x11: malformed xanim 'x': truncated: the rotation of part 0 'j' keys needs 4 bytes, "
            "3 left");
  Bytes_ name;
  name.header(5, 1, 0, 30).u8(0).u8(1).u8('j');
  EXPECT_EQ(error_of(name.b), "0xb: malformed xanim 'x': unterminated string: part name 0");
  Bytes_ neg;
  neg.header(5, -1, 0, 30);
  EXPECT_EQ(error_of(neg.b), "0x4: malformed xanim 'x': invalid part count -1");
  B no_notes = worked_example();
  no_notes.resize(35);
  EXPECT_EQ(error_of(no_notes),
            "0x23: malformed xanim 'x': truncated: the notetrack count needs 1 bytes, 0 left");
}

TEST(CodXAnimFile, ValidateFindings) {
  Bytes_ b;
  b.header(5, 1, 0, 30).u8(0).u8(0).str("j");  // an uncompressed part ...
  b.u16(0);                                     // ... with no rotation
  b.u16(2).u8(1).u8(4).f32(0).f32(0).f32(0).f32(1).f32(1).f32(1);  // indices start at 1
  b.u8(1).str("late").u16(9);                                       // past N = 4
  const std::vector<XAnimFinding> f = check_xanim(parse_xanim(b.b, "v"));
  ASSERT_EQ(f.size(), 3u);
  EXPECT_TRUE(f[0].error);
  EXPECT_EQ(f[0].offset, 0x0du);
  EXPECT_EQ(f[0].message,
            "part 0 'j': uncompressed part has no rotation (the game reads a missing stream)");
  EXPECT_FALSE(f[1].error);
  EXPECT_TRUE(f[1].hardening);
  EXPECT_EQ(f[1].offset, 0x11u);
  EXPECT_EQ(f[1].message, "part 0 'j' translation: the first frame index is 1, not 0");
  EXPECT_FALSE(f[2].hardening);
  EXPECT_EQ(f[2].message, "notetrack 0 'late': frame 9 is past N = 4 (time 2.25 > 1)");
}

// Issue 26: `validate` reports as errors what `export` refuses: a negative frameRate, sparse
// indices that do not rise, translations that are not finite.
TEST(CodXAnimFile, ValidateErrorsWhatExportRefuses) {
  B bytes = worked_example();
  bytes[7] = 0xE2;  // frameRate -30
  bytes[8] = 0xFF;
  std::vector<XAnimFinding> f = check_xanim(parse_xanim(bytes, "x"));
  ASSERT_FALSE(f.empty());
  EXPECT_TRUE(f[0].error);
  EXPECT_EQ(f[0].offset, 7u);
  EXPECT_EQ(f[0].message, "frame rate -30 is negative: time would run backwards");
  bytes = worked_example();
  bytes[16] = 0x00;  // rotation frame indices {0, 0}
  f = check_xanim(parse_xanim(bytes, "x"));
  bool rising = false;
  for (const XAnimFinding& x : f) {
    if (x.message.find("does not rise") != std::string::npos) rising = x.error;
  }
  EXPECT_TRUE(rising);
  bytes = worked_example();
  bytes[25] = 0xC0;  // translation x = 1.0f (00 00 80 3F) -> 00 00 C0 7F, a NaN
  bytes[26] = 0x7F;
  f = check_xanim(parse_xanim(bytes, "x"));
  ASSERT_FALSE(f.empty());
  EXPECT_TRUE(f.back().error);
  EXPECT_EQ(f.back().message, "part 0 'j' translation: key 0 is not finite (`export` refuses it)");
}

TEST(CodXAnimDocument, SniffAndNeutral) {
  const B bytes = worked_example();
  EXPECT_TRUE(sniff_xanim("j_anim", bytes));
  const std::string atr = "main\n{\n    walk\n}\n";
  EXPECT_FALSE(sniff_xanim("x", {reinterpret_cast<const uint8_t*>(atr.data()), atr.size()}));
  // §1.2 "Bytes after them are ignored" and §1.1 "other bits ignored": the game loads both, so
  // the content sniff accepts them (issue 26).
  B tail = bytes;
  tail.push_back(0);
  tail.push_back(0xFF);
  EXPECT_TRUE(sniff_xanim("x", tail));
  B flags = bytes;
  flags[6] |= 0xFC;
  EXPECT_TRUE(sniff_xanim("x", flags));
  // §1.1: frameRate is "not checked (0 stops time)": a 0 or negative rate is still a file the
  // game loads, so it is recognised (and `validate` then reports what `export` refuses).
  for (const int16_t rate : {0, -30}) {
    B r = bytes;
    r[7] = static_cast<uint8_t>(rate & 0xFF);
    r[8] = static_cast<uint8_t>((rate >> 8) & 0xFF);
    EXPECT_TRUE(sniff_xanim("x", r)) << rate;
  }
  B cut(bytes.begin(), bytes.end() - 1);  // the notetracks cut short: not a whole file
  EXPECT_FALSE(sniff_xanim("x", cut));
  const Animated a = xanim_to_neutral(parse_xanim(bytes, "j_anim"));
  ASSERT_EQ(a.skeleton.names, (std::vector<std::string>{"root", "j"}));
  EXPECT_EQ(a.skeleton.parents[1], 0);
  ASSERT_EQ(a.clips.size(), 1u);
  const Clip& c = a.clips[0];
  EXPECT_EQ(c.duration, 4.0f / 30.0f);
  EXPECT_EQ(c.validate(2), "");
  EXPECT_EQ(c.joints[1].rotation.times, (std::vector<float>{0.0f, 4.0f / 30.0f}));
  EXPECT_NEAR(c.joints[1].rotation.values[1].z, std::sqrt(0.5f), 1e-6);
  EXPECT_EQ(c.joints[1].translation.values, (std::vector<Vec3>{{1, 2, 3}}));
  ASSERT_EQ(c.events.size(), 2u);
  EXPECT_EQ(c.events[0].name, "fire");
  EXPECT_FLOAT_EQ(c.events[0].time, 2.0f / 30.0f);
  EXPECT_EQ(c.events[1].name, "end");
  // The sample JSON of `cod sample`.
  const Json j = sample_json(parse_xanim(bytes, "j_anim"), 0.6f, XAnimPlatform::kLinux);
  EXPECT_EQ(j["frame"], 2);
  EXPECT_EQ(j["parts"][0]["translation"], Json::parse("[1.0, 2.0, 3.0]"));
}

}  // namespace
}  // namespace animkit::call_of_duty

namespace animkit::call_of_duty {
namespace {

std::vector<XAnimTimedNote> timed(std::initializer_list<std::pair<const char*, float>> list) {
  std::vector<XAnimTimedNote> out;
  for (const auto& [name, time] : list) out.push_back({name, time, 0});
  out.push_back({"end", 1.0f, -1});
  return out;
}

TEST(CodXAnimNotes, Firing) {
  // cod-xanim-format.md §3.
  const auto notes = timed({{"a", 0.25f}, {"b", 0.5f}, {"c", 0.75f}});
  using I = std::vector<size_t>;
  // S <= tau < C.
  EXPECT_EQ(xanim_fired_notes(notes, 0.25f, 0.75f, false), (I{0, 1}));
  EXPECT_EQ(xanim_fired_notes(notes, 0.3f, 0.4f, false), (I{}));
  // A non-looped end (C = 1.0): everything remaining through `end`.
  EXPECT_EQ(xanim_fired_notes(notes, 0.6f, 1.0f, false), (I{2, 3}));
  // S = 1.0: only `end`.
  EXPECT_EQ(xanim_fired_notes(notes, 1.0f, 1.0f, false), (I{3}));
  // Looped wrap (C < S): from the next note through `end`, then from entry 0 while tau < C.
  EXPECT_EQ(xanim_fired_notes(notes, 0.6f, 0.3f, true), (I{2, 3, 0}));
  EXPECT_EQ(xanim_fired_notes(notes, 0.8f, 0.1f, true), (I{3}));
  // Ties: the first in file order is the next note.
  const auto tie = timed({{"x", 0.5f}, {"y", 0.5f}});
  EXPECT_EQ(xanim_fired_notes(tie, 0.5f, 0.6f, false), (I{0, 1}));
}

}  // namespace
}  // namespace animkit::call_of_duty
