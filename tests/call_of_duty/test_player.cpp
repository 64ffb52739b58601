// The tree player (issue 26): cod-xanim-format.md §2.2 (blending), §2.4 (time), §2.5 (delta),
// §3 (notes) and the player choices of §6, on xanims built in code. Expected values are worked
// by hand from the spec's numbers and formulas (each test cites its section).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "animkit/call_of_duty/player_kernels.h"
#include "animkit/call_of_duty/tree_player.h"
#include "animkit/core/error.h"
#include "helpers.h"
#include "xanim_fixtures.h"

namespace animkit::call_of_duty {
namespace {

using testing::note;
using testing::part;
using testing::rot;
using testing::trans;

constexpr float kLane = 3.0518509447574615e-05f;  // §2.2

std::shared_ptr<const XAnimFile> file_of(XAnimFile f, const std::string& name) {
  return std::make_shared<XAnimFile>(parse_xanim(testing::xanim_bytes(std::move(f)), name));
}

// The §2.6 worked example, byte for byte.
std::shared_ptr<const XAnimFile> worked_example() {
  const std::vector<uint8_t> b = {0x0E, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x1E, 0x00, 0x00, 0x01,
                                  0x6A, 0x00, 0x02, 0x00, 0x00, 0x04, 0x00, 0x00, 0x82, 0x5A, 0x01,
                                  0x00, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00,
                                  0x40, 0x40, 0x01, 0x66, 0x69, 0x72, 0x65, 0x00, 0x02, 0x00};
  return std::make_shared<XAnimFile>(parse_xanim(b, "example"));
}

// One part "j", 2-component, a constant yaw key z (w rebuilt), F = 4 frames at 30 fps.
std::shared_ptr<const XAnimFile> yaw(int16_t z, bool sign = false, bool looped = false) {
  XAnimFile f;
  f.header.num_frames = looped ? 4 : 5;  // T = 5, N = 4 either way
  f.header.flags = looped ? XAnimHeader::kLooped : 0;
  f.header.frame_rate = 30;
  f.parts.push_back(part("j", sign, rot(true, {}, {z}), trans({}, {{float(z), 0, 0}})));
  return file_of(std::move(f), "yaw");
}

struct Built {
  std::unique_ptr<TreePlayer> player;
  LoadResult load;
  int32_t node(const std::string& name) const {
    for (size_t i = 0; i < load.anim->entries.size(); ++i) {
      if (load.anim->node_name(i) == name) return static_cast<int32_t>(i);
    }
    ADD_FAILURE() << "no node " << name;
    return 0;
  }
};

// A tree from text (com_animCheck 1: every node kept), leaves given their animations by name.
Built build(const std::string& text,
            const std::map<std::string, std::shared_ptr<const XAnimFile>>& files) {
  Built b;
  b.load = testing::load_all(text);
  EXPECT_TRUE(b.load.loaded());
  std::vector<PlayLeafAnim> anims(b.load.anim->entries.size());
  for (size_t i = 0; i < anims.size(); ++i) {
    auto it = files.find(std::string(b.load.anim->node_name(i)));
    if (it == files.end()) continue;
    anims[i].file = it->second;
    anims[i].looped = it->second->header.looped();
  }
  b.player = std::make_unique<TreePlayer>(*b.load.anim, std::move(anims));
  return b;
}

// §2.6: at t = 0.6 the lanes are z = 13902.0, w = 27008.8, scaled (0.42427, 0.82427), a yaw of
// 54.47°; translation (1, 2, 3); frequency 7.5/s; `fire` at 0.5, `end` at 1.0.
TEST(CodPlayer, WorkedExampleSection2_6) {
  Built b = build("clip\n", {{"clip", worked_example()}});
  TreePlayer& p = *b.player;
  const int32_t clip = b.node("clip");
  p.set_weight(clip, 1, 0);
  p.set_rate(clip, 0.8f);
  p.update(0.1f);  // step = f32(f32(7.5 x 0.8) x 0.1) = 0.6
  EXPECT_EQ(p.nodes()[clip].time, 0.6f);
  ASSERT_EQ(p.pose().size(), 1u);
  const PlayPart& j = p.pose()[0];
  EXPECT_EQ(p.part_names()[0], "j");
  EXPECT_EQ(j.lanes.x, 0.0f);
  EXPECT_EQ(j.lanes.y, 0.0f);
  // §2.1: ft = 0.6 x 4 = 2.4000001, sparse keys {0, 4}: frac = ft / 4; lerp z = 0 + 23170 frac,
  // scaled by f32(1 x 1/32767); a single leaf at weight 1 is divided by 1.
  const float frac = (0.6f * 4.0f) / 4.0f;
  EXPECT_EQ(j.lanes.z, (0.0f + 23170.0f * frac) * (1.0f * kLane));
  EXPECT_NEAR(j.lanes.z, 0.42427, 5e-6);
  EXPECT_NEAR(j.lanes.w, 0.82427, 5e-6);
  EXPECT_NEAR(j.lanes.w / kLane, 27008.8, 1e-3);
  EXPECT_NEAR(2 * std::atan2(j.lanes.z, j.lanes.w) * 180 / M_PI, 54.47, 5e-3);
  EXPECT_EQ(j.translation, (Vec3{1, 2, 3}));
  EXPECT_EQ(j.weight, 1.0f);
  // §3: `fire` (0.5) fires from S = 0 to C = 0.6; the client's fraction (0.5 - 0) / 0.6.
  ASSERT_EQ(p.server_notes().size(), 1u);
  EXPECT_EQ(p.notes(clip)[p.server_notes()[0].entry].name, "fire");
  ASSERT_EQ(p.client_notes().size(), 1u);
  EXPECT_EQ(p.client_notes()[0].fraction, 0.5f / 0.6f);
  // §2.4: not looped, 0.6 + 0.6 clamps to 1.0; §3: every remaining entry through `end` fires.
  p.update(0.1f);
  EXPECT_EQ(p.nodes()[clip].time, 1.0f);
  EXPECT_EQ(p.nodes()[clip].cycle, 0u);
  ASSERT_EQ(p.server_notes().size(), 1u);
  EXPECT_EQ(p.notes(clip)[p.server_notes()[0].entry].name, "end");
  // §2.1: t = 1.0 takes the last key: z = 23170 (w 23170).
  EXPECT_EQ(p.pose()[0].lanes.z, 23170 * kLane);
  EXPECT_EQ(p.pose()[0].lanes.w, 23170 * kLane);
  // §3 / §6.9: held at S = 1.0, only `end` fires, on every update.
  p.update(0.1f);
  ASSERT_EQ(p.server_notes().size(), 1u);
  EXPECT_EQ(p.server_notes()[0].entry, 1);
}

// §2.4: looped, t += frequency x rate x dt, subtract 1 and count the cycle; restart (§6.6).
TEST(CodPlayer, TimeWrapsWithTheCycleCounterSection2_4) {
  Built b = build("loop\nonce\n", {{"loop", yaw(0, false, true)}, {"once", yaw(0)}});
  TreePlayer& p = *b.player;
  const int32_t loop = b.node("loop"), once = b.node("once");
  p.set_weight(loop, 1, 0);
  p.set_weight(once, 1, 0);
  const float expected[][2] = {{0.75f, 0}, {0.5f, 1}, {0.25f, 2}, {0.0f, 3}};
  for (const auto& e : expected) {
    p.update(0.1f);  // frequency 30 / 4 = 7.5: a step of 0.75
    EXPECT_EQ(p.nodes()[loop].time, e[0]);
    EXPECT_EQ(p.nodes()[loop].cycle, static_cast<uint32_t>(e[1]));
  }
  EXPECT_EQ(p.nodes()[once].time, 1.0f);  // clamped, no cycle
  EXPECT_EQ(p.nodes()[once].cycle, 0u);
  p.restart(loop);
  p.update(0.0f);
  EXPECT_EQ(p.nodes()[loop].time, 0.0f);
  EXPECT_EQ(p.nodes()[loop].cycle, 0u);
  // Rate 0 stops time (§2.4: the step is 0).
  p.set_rate(loop, 0);
  p.update(1.0f);
  EXPECT_EQ(p.nodes()[loop].time, 0.0f);
}

// §3: stored order, the wrap (through `end`, then from entry 0 while tau < C), and the client's
// queue: fractions (cycle delta + tau - S) / step, sorted stably, two entries per step after the
// wrap.
TEST(CodPlayer, NotesAcrossTheWrapSection3) {
  XAnimFile f;
  f.header.num_frames = 4;  // looped: T = 5, N = 4
  f.header.flags = XAnimHeader::kLooped;
  f.header.frame_rate = 30;
  f.parts.push_back(part("j", false, rot(true, {}, {0}), trans({}, {})));
  f.notes = {note("start", 0), note("mid", 1), note("late", 3)};  // 0.0, 0.25, 0.75, end 1.0
  Built b = build("loop\n", {{"loop", file_of(std::move(f), "loop")}});
  TreePlayer& p = *b.player;
  const int32_t loop = b.node("loop");
  p.set_weight(loop, 1, 0);
  auto names = [&](const std::vector<PlayNote>& list) {
    std::vector<std::string> out;
    for (const PlayNote& n : list) out.push_back(p.notes(loop)[n.entry].name);
    return out;
  };
  p.update(0.1f);  // 0 -> 0.75: S <= tau < C
  EXPECT_EQ(names(p.server_notes()), (std::vector<std::string>{"start", "mid"}));
  p.update(0.1f);  // 0.75 -> 0.5 after a wrap
  EXPECT_EQ(names(p.server_notes()), (std::vector<std::string>{"late", "end", "start", "mid"}));
  // The client: step = 1 + 0.5 - 0.75 = 0.75; late (0 + 0.75 - 0.75) / 0.75 = 0, end
  // (1 - 0.75) / 0.75, then entries 0, 2, ... after the wrap: start (1 + 0 - 0.75) / 0.75 ties
  // with end and stays behind it; late (entry 2) is not < C.
  EXPECT_EQ(names(p.client_notes()), (std::vector<std::string>{"late", "end", "start"}));
  ASSERT_EQ(p.client_notes().size(), 3u);
  EXPECT_EQ(p.client_notes()[0].fraction, 0.0f);
  EXPECT_EQ(p.client_notes()[1].fraction, 0.25f / 0.75f);
  EXPECT_EQ(p.client_notes()[2].fraction, 0.25f / 0.75f);
}

// §3: a note at 1.0 (frame N) and `end` both fire when a non-looped leaf reaches C = 1.
TEST(CodPlayer, NoteAtTheEndOfANonLoopedLeafSection3) {
  XAnimFile f;
  f.header.num_frames = 5;
  f.header.frame_rate = 30;
  f.parts.push_back(part("j", false, rot(true, {}, {0}), trans({}, {})));
  f.notes = {note("finish", 4)};
  Built b = build("once\n", {{"once", file_of(std::move(f), "once")}});
  TreePlayer& p = *b.player;
  p.set_weight(b.node("once"), 1, 0);
  p.update(0.1f);
  EXPECT_TRUE(p.server_notes().empty());
  p.update(0.1f);  // 0.75 -> 1.0
  ASSERT_EQ(p.server_notes().size(), 2u);
  EXPECT_EQ(p.server_notes()[0].entry, 0);
  EXPECT_EQ(p.server_notes()[1].entry, 1);
}

// §2.2: two weighted leaves at the top: lanes += lerp x f32(weight / 32767), the sum divided by
// the accumulated weight; signs are not aligned (the second key is negated by its sign bit).
TEST(CodPlayer, TwoLeavesBlendWithoutSignAlignmentSection2_2) {
  Built b = build("a\nb\n", {{"a", yaw(0)}, {"b", yaw(23170, true)}});
  TreePlayer& p = *b.player;
  p.set_weight(b.node("a"), 0.5f, 0);
  p.set_weight(b.node("b"), 1.5f, 0);
  p.update(0);
  const PlayPart& j = p.pose()[0];
  // a: (0, 0, 0, 32767) at 0.5; b: (0, 0, -23170, -23170) at 1.5 (sign bit on key 0, §1.3).
  const float sa = 0.5f * kLane, sb = 1.5f * kLane;
  const float z = 0.0f * sa + -23170.0f * sb;
  const float w = 32767.0f * sa + -23170.0f * sb;
  EXPECT_EQ(j.weight, 2.0f);
  EXPECT_EQ(j.lanes.z, z / 2.0f);
  EXPECT_EQ(j.lanes.w, w / 2.0f);
  EXPECT_LT(j.lanes.w, 0.0f);  // aligned signs would give a positive w
  // Translation: f32(lerp x weight) summed, divided by the accumulated weight (§6.1).
  EXPECT_EQ(j.translation.x, (0.0f * 0.5f + 23170.0f * 1.5f) / 2.0f);
}

// §2.2 with §6.2-6.3: a sub-blend of two leaves is scaled to length = its weight before it is
// merged; a blend node with one weighted child is transparent (the child takes the node's weight).
TEST(CodPlayer, SubBlendScaledToItsWeightSection2_2) {
  Built b = build("c\ngroup\n{\n    a\n    b\n}\n",
                  {{"a", yaw(0)}, {"b", yaw(23170)}, {"c", yaw(-10000)}});
  TreePlayer& p = *b.player;
  p.set_weight(b.node("group"), 0.25f, 0);
  p.set_weight(b.node("a"), 1, 0);
  p.set_weight(b.node("b"), 1, 0);
  p.set_weight(b.node("c"), 0.75f, 0);
  p.update(0);
  // The sub-blend: a (0, 32767) + b (23170, 23170), each at weight 1.
  const float sz = 0.0f * kLane + 23170.0f * kLane;
  const float sw = 32767.0f * kLane + 23170.0f * kLane;
  float sum = 0.0f * 0.0f;
  sum = sum + 0.0f * 0.0f;
  sum = sum + sz * sz;
  sum = sum + sw * sw;
  const float scale = 0.25f / std::sqrt(sum);
  // c at the top: (-10000, w) with w = round(sqrt(32767² - 10000²)) = 31204.
  const float cs = 0.75f * kLane;
  const float z = sz * scale + -10000.0f * cs;
  const float w = sw * scale + 31204.0f * cs;
  const PlayPart& j = p.pose()[0];
  EXPECT_EQ(j.weight, 1.0f);  // 0.25 (the sub-blend) + 0.75
  EXPECT_EQ(j.lanes.z, z / 1.0f);
  EXPECT_EQ(j.lanes.w, w / 1.0f);
  // Translation of the sub-blend: its sum x (weight / its accumulated weight, 2).
  EXPECT_EQ(j.translation.x, (23170.0f * (0.25f / 2.0f) + -10000.0f * 0.75f) / 1.0f);
  // Now only a is weighted in the group: transparent, a takes the group's 0.25.
  p.set_weight(b.node("b"), 0, 0);
  p.update(0);
  const float z2 = 0.0f * (0.25f * kLane) + -10000.0f * cs;
  const float w2 = 32767.0f * (0.25f * kLane) + 31204.0f * cs;
  EXPECT_EQ(p.pose()[0].lanes.z, z2);
  EXPECT_EQ(p.pose()[0].lanes.w, w2);
}

// §2.2 / §6.1-6.3 on many parts: 12 dense parts (one 2-component) and a sparse one, in a leaf
// whose parts take consecutive pose slots (c: the player's 8- and 4-parts-at-a-time path) and in two whose
// parts take them in reverse (a, b: one part at a time), over updates that wrap (the sparse
// search moves back). Expected: the formulas written out here, one scalar step at a time.
std::shared_ptr<const XAnimFile> many_parts(int seed, bool reversed) {
  XAnimFile f;
  f.header.num_frames = 6;  // looped: T = 7, N = 6
  f.header.flags = XAnimHeader::kLooped;
  f.header.frame_rate = 30;
  for (int i = 0; i < 13; ++i) {
    const int q = reversed ? 12 - i : i;
    auto v = [&](int k, int lane) {
      return static_cast<int16_t>(((q * 53 + k * 97 + lane * 31 + seed * 71) % 300) * 100 - 15000);
    };
    std::vector<int16_t> stored;
    std::vector<Vec3> moves;
    const bool two = q == 6, sparse = q == 12;
    const int keys = sparse ? 4 : 7;
    for (int k = 0; k < keys; ++k) {
      if (!two) stored.push_back(v(k, 0));
      if (!two) stored.push_back(v(k, 1));
      stored.push_back(v(k, 2));
      moves.push_back({0.25f * v(k, 3), -0.5f * v(k, 4), 1.0f / 3.0f * v(k, 5)});
    }
    const std::vector<uint16_t> frames = sparse ? std::vector<uint16_t>{0, 2, 5, 6}
                                                : std::vector<uint16_t>{};
    f.parts.push_back(part("j" + std::to_string(q), (q + seed) % 3 == 0,
                           rot(two, frames, stored), trans(frames, moves)));
  }
  return file_of(std::move(f), "many" + std::to_string(seed));
}

// Every lane of the pose against §2.2's formulas written out scalar, bit for bit.
void check_many_parts() {
  const auto a = many_parts(1, true), b = many_parts(2, true), c = many_parts(3, false);
  Built built = build("c\ngroup\n{\n    a\n    b\n}\n", {{"a", a}, {"b", b}, {"c", c}});
  TreePlayer& p = *built.player;
  p.set_weight(built.node("group"), 0.6f, 0);
  p.set_weight(built.node("a"), 1, 0);
  p.set_weight(built.node("b"), 0.5f, 0);
  p.set_weight(built.node("c"), 0.4f, 0);
  p.set_rate(built.node("b"), 0.7f);
  p.set_rate(built.node("c"), 1.3f);
  struct Acc {
    float l[4] = {0, 0, 0, 0};
    float t[3] = {0, 0, 0};
    float w = 0;
  };
  // One leaf at time t and `weight` into `into` (by part name), §2.1-2.2.
  auto add = [](const XAnimFile& f, float t, float weight, std::map<std::string, Acc>& into) {
    const float n = static_cast<float>(f.frame_count_minus_one());
    const float ft = t * n;
    const auto fr = static_cast<uint32_t>(ft);
    auto span = [&](const std::vector<uint16_t>& frames, size_t count, size_t& k0, size_t& k1) {
      if (frames.empty()) {
        k0 = fr;
        k1 = fr + 1;
        return ft - static_cast<float>(fr);
      }
      size_t i = 0;
      while (i + 1 < frames.size() && frames[i + 1] <= fr) ++i;
      if (i + 1 >= count) {
        k0 = k1 = count - 1;
        return 0.0f;
      }
      k0 = i;
      k1 = i + 1;
      return (ft - static_cast<float>(frames[i])) /
             (static_cast<float>(frames[i + 1]) - static_cast<float>(frames[i]));
    };
    for (const XAnimPart& part : f.parts) {
      Acc& acc = into[part.name];
      size_t k0 = 0, k1 = 0;
      const auto& r = part.rotation;
      float frac = span(r.frames, r.keys.size(), k0, k1);
      const float scale = weight * kLane;
      for (int l = r.two_component ? 2 : 0; l < 4; ++l) {
        const float x0 = r.keys[k0][l], x1 = r.keys[k1][l];
        acc.l[l] = acc.l[l] + (x0 + (x1 - x0) * frac) * scale;
      }
      const auto& m = part.translation;
      frac = span(m.frames, m.values.size(), k0, k1);
      const float v0[3] = {m.values[k0].x, m.values[k0].y, m.values[k0].z};
      const float v1[3] = {m.values[k1].x, m.values[k1].y, m.values[k1].z};
      for (int l = 0; l < 3; ++l) acc.t[l] = acc.t[l] + (v0[l] + (v1[l] - v0[l]) * frac) * weight;
      acc.w = acc.w + weight;
    }
  };
  bool wrapped = false;
  for (int update = 0; update < 12; ++update) {
    p.update(0.07f);
    const auto time = [&](const char* name) { return p.nodes()[built.node(name)].time; };
    wrapped = wrapped || p.nodes()[built.node("c")].wraps > 0;
    std::map<std::string, Acc> top, sub;
    add(*c, time("c"), 0.4f, top);
    add(*a, time("a"), 1.0f, sub);
    add(*b, time("b"), 0.5f, sub);
    for (auto& [name, s] : sub) {
      float sum = s.l[0] * s.l[0];
      sum = sum + s.l[1] * s.l[1];
      sum = sum + s.l[2] * s.l[2];
      sum = sum + s.l[3] * s.l[3];
      const float scale = 0.6f / std::sqrt(sum), f = 0.6f / s.w;
      Acc& o = top[name];
      for (int l = 0; l < 4; ++l) o.l[l] = o.l[l] + s.l[l] * scale;
      for (int l = 0; l < 3; ++l) o.t[l] = o.t[l] + s.t[l] * f;
      o.w = o.w + 0.6f;
    }
    ASSERT_EQ(p.part_names().size(), 13u);
    for (size_t i = 0; i < 13; ++i) {
      const Acc& e = top[p.part_names()[i]];
      const PlayPart& got = p.pose()[i];
      SCOPED_TRACE("update " + std::to_string(update) + " part " + p.part_names()[i]);
      EXPECT_EQ(got.weight, e.w);
      EXPECT_EQ(got.lanes.x, e.l[0] / e.w);
      EXPECT_EQ(got.lanes.y, e.l[1] / e.w);
      EXPECT_EQ(got.lanes.z, e.l[2] / e.w);
      EXPECT_EQ(got.lanes.w, e.l[3] / e.w);
      EXPECT_EQ(got.translation.x, e.t[0] / e.w);
      EXPECT_EQ(got.translation.y, e.t[1] / e.w);
      EXPECT_EQ(got.translation.z, e.t[2] / e.w);
    }
  }
  EXPECT_TRUE(wrapped);
}

TEST(CodPlayer, ManyPartsBlendPartByPartSection2_2) { check_many_parts(); }

// The same through the 4-lane loops (the CPU's 8-lane AVX loops turned off).
TEST(CodPlayer, ManyPartsBlendFourLanesSection2_2) {
  if (!player_kernels::limit_to_four_lanes(true)) GTEST_SKIP() << "no 8-lane path here";
  check_many_parts();
  player_kernels::limit_to_four_lanes(false);
}

// §2.5: the delta from S to C, the looped wrap adding the last translation key, the result
// turned by the inverse of the yaw at C; XAnimCalcDelta's identity when a lane is 0.
TEST(CodPlayer, DeltaMotionSection2_5) {
  auto moving = [](bool looped, int16_t yaw_end) {
    XAnimFile f;
    f.header.num_frames = looped ? 4 : 5;  // N = 4
    f.header.flags = static_cast<uint8_t>(XAnimHeader::kDelta | (looped ? XAnimHeader::kLooped : 0));
    f.header.frame_rate = 30;
    f.delta_rotation = yaw_end == 0 ? rot(true, {}, {0}) : rot(true, {0, 4}, {0, yaw_end});
    f.delta_translation = trans({}, {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 1}});
    f.parts.push_back(part("j", false, rot(true, {}, {0}), trans({}, {})));
    return file_of(std::move(f), "move");
  };
  {
    Built b = build("walk\n", {{"walk", moving(true, 0)}});
    TreePlayer& p = *b.player;
    p.set_weight(b.node("walk"), 1, 0);
    p.update(0.1f);  // 0 -> 0.75: x 0 -> 3
    ASSERT_EQ(p.deltas().size(), 1u);
    EXPECT_EQ(p.deltas()[0].translation, (Vec3{3, 0, 0}));
    EXPECT_EQ(p.deltas()[0].rotation[0], 0.0f);  // no yaw: identity (0, 1)
    EXPECT_EQ(p.deltas()[0].rotation[1], 1.0f);
    p.update(0.1f);  // 0.75 -> 0.5 wrapped: (2 + last key 4) - 3 = 3; z (0 + 1) - 0
    EXPECT_EQ(p.deltas()[0].translation, (Vec3{3, 0, 1}));
    p.update(0.0f);  // S = C: exactly (0, 1) and no motion
    EXPECT_EQ(p.deltas()[0].rotation[1], 1.0f);
    EXPECT_EQ(p.deltas()[0].translation, (Vec3{0, 0, 0}));
  }
  {
    // Yaw 0 -> 90° over N; from 0 to t = 0.5: e = (11585, 27968.5), s = (0, 32767).
    Built b = build("turn\n", {{"turn", moving(false, 23170)}});
    TreePlayer& p = *b.player;
    p.set_weight(b.node("turn"), 1, 0);
    p.set_rate(b.node("turn"), 0.5f);
    p.update(0.1f);  // step f32(f32(7.5 x 0.5) x 0.1) = 0.375
    ASSERT_EQ(p.nodes()[b.node("turn")].time, 0.375f);
    // t = 0.375: ft = 1.5; yaw lanes z = 23170 x 0.375 = 8688.75, w = 32767 - 9597 x 0.375.
    const float ez = 8688.75f, ew = 32767.0f + -9597.0f * 0.375f;
    const PlayDelta& d = p.deltas()[0];
    EXPECT_NEAR(d.rotation[0], ez / 32767.0, 1e-6);  // (e_z s_w - e_w s_z) / 32767²
    EXPECT_NEAR(d.rotation[1], ew / 32767.0, 1e-6);
    // Translation (1.5, 0, 0) turned by the inverse of the yaw at e: angle 2 atan2(ez, ew).
    const double a = 2 * std::atan2(double(ez), double(ew));
    EXPECT_NEAR(d.translation.x, 1.5 * std::cos(a), 1e-5);
    EXPECT_NEAR(d.translation.y, -1.5 * std::sin(a), 1e-5);
  }
}

// The weight moves linearly to its goal over the blend time (README Choices).
TEST(CodPlayer, WeightBlendsOverItsBlendTime) {
  Built b = build("a\n", {{"a", yaw(0)}});
  TreePlayer& p = *b.player;
  const int32_t a = b.node("a");
  p.set_weight(a, 1, 0.2f);
  for (float expected : {0.25f, 0.5f, 0.75f, 1.0f, 1.0f}) {
    p.update(0.05f);
    EXPECT_NEAR(p.nodes()[a].weight, expected, 1e-6);
  }
  p.set_weight(a, 0, 0);
  p.update(0.05f);
  EXPECT_EQ(p.nodes()[a].weight, 0.0f);
  EXPECT_EQ(p.pose()[0].weight, 0.0f);  // no weighted leaf: the part is not animated
}

TEST(CodPlayer, RefusesWhatCannotBePlayed) {
  XAnimFile f;
  f.header.num_frames = 5;
  f.header.frame_rate = -30;
  f.parts.push_back(part("j", false, rot(true, {}, {0}), trans({}, {})));
  EXPECT_THROW(build("back\n", {{"back", file_of(std::move(f), "back")}}), Error);
  Built b = build("a\n", {{"a", yaw(0)}});
  EXPECT_THROW(b.player->set_rate(b.node("a"), -1), Error);
  EXPECT_THROW(b.player->set_weight(b.node("a"), std::nanf(""), 0), Error);
  EXPECT_THROW(b.player->set_weight(0, 1, 0), Error);  // the root's weight is 1
  EXPECT_THROW(b.player->set_weight(99, 1, 0), Error);
  EXPECT_THROW(b.player->update(-1), Error);
  // A step that does not fit float32 is an error, not an endless wrap.
  b.player->set_weight(b.node("a"), 1, 0);
  b.player->set_rate(b.node("a"), 3e38f);
  EXPECT_THROW(b.player->update(1e30f), Error);
}

}  // namespace
}  // namespace animkit::call_of_duty
