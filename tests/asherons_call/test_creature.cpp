// Issue 13 item 2: a creature exported as glTF (asherons-call-dat-container.md section 6, "Setup
// + Animation -> skeleton"). The glTF is read back with tinygltf and each part's world transform
// at each shown frame is checked against the page's composition, computed here independently:
// world_i = O . f_i with O the running product of pos_frames, f_i the animation's part frame
// (the rest placement past the pose count), mapped (x, y, z) -> (-x, z, y).
#include <gtest/gtest.h>
#include <tiny_gltf.h>
#include <unistd.h>

#include <cmath>
#include <cstring>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/creature.h"
#include "animkit/asherons_call/dat_writer.h"
#include "animkit/asherons_call/module.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/core/error.h"
#include "animkit/gltf/export.h"

namespace animkit::asherons_call {
namespace {

// ---- an independent frame algebra (double precision, w-first arrays) -------------------------

struct F {  // origin, quaternion (w, x, y, z)
  double t[3] = {0, 0, 0};
  double q[4] = {1, 0, 0, 0};
};

void qmul(const double a[4], const double b[4], double out[4]) {
  out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}
void qrot(const double q[4], const double v[3], double out[3]) {
  const double p[4] = {0, v[0], v[1], v[2]};
  const double c[4] = {q[0], -q[1], -q[2], -q[3]};
  double tmp[4], r[4];
  qmul(q, p, tmp);
  qmul(tmp, c, r);
  out[0] = r[1];
  out[1] = r[2];
  out[2] = r[3];
}
F of(const AFrame& f) {
  F r;
  r.t[0] = f.origin.x, r.t[1] = f.origin.y, r.t[2] = f.origin.z;
  r.q[0] = f.orientation.w, r.q[1] = f.orientation.x, r.q[2] = f.orientation.y,
  r.q[3] = f.orientation.z;
  return r;
}
F mul(const F& a, const F& b) {  // a then b in a's space
  F r;
  double v[3];
  qrot(a.q, b.t, v);
  for (int i = 0; i < 3; ++i) r.t[i] = a.t[i] + v[i];
  qmul(a.q, b.q, r.q);
  return r;
}
F inv(const F& a) {
  F r;
  r.q[0] = a.q[0], r.q[1] = -a.q[1], r.q[2] = -a.q[2], r.q[3] = -a.q[3];
  double v[3];
  qrot(r.q, a.t, v);
  for (int i = 0; i < 3; ++i) r.t[i] = -v[i];
  return r;
}
// Container page 6, "Axes".
F gltf_axes(const F& f) {
  F r;
  r.t[0] = -f.t[0], r.t[1] = f.t[2], r.t[2] = f.t[1];
  r.q[0] = f.q[0], r.q[1] = -f.q[1], r.q[2] = f.q[3], r.q[3] = f.q[2];
  return r;
}

// ---- the fixture: 4 parts, a 3-part animation with pos frames, a table ---------------------

Vec3 normalize3(Vec3 v) { return v * (1.0f / length(v)); }

AFrame frame(float x, float y, float z, Vec3 axis, float angle) {
  return AFrame{{x, y, z}, axis_angle(axis, angle)};
}

asherons_call::Setup test_setup(bool parents_first = true) {
  asherons_call::Setup s;
  s.id = 0x02000010;
  s.flags = kSetupHasParent;
  s.parts = {0x01000010, 0x01000011, 0x01000012, 0x01000013};
  s.parent_index = parents_first ? std::vector<uint32_t>{kNoParent, 0, 1, 0}
                                 : std::vector<uint32_t>{kNoParent, 2, 0, 0};
  AnimationFrame dflt, rest;
  for (int i = 0; i < 4; ++i) {
    dflt.parts.push_back(frame(0, 0, 1.0f + 0.1f * static_cast<float>(i), {0, 0, 1}, 0));
    rest.parts.push_back(frame(0.1f * static_cast<float>(i), 0.05f, 0.8f + 0.2f * static_cast<float>(i),
                               {0, 1, 0}, 0.1f * static_cast<float>(i + 1)));
  }
  s.placement_frames.push_back({kPlacementDefault, dflt});
  s.placement_frames.push_back({kPlacementResting, rest});
  s.default_motion_table = 0x09000010;
  return s;
}

Animation test_animation(uint32_t id, int frames, float phase) {
  Animation a;
  a.id = id;
  a.flags = kHasPosFrames;
  a.num_parts = 3;  // fewer than the Setup's 4: part 3 holds its rest placement
  for (int k = 0; k < frames; ++k) {
    const float u = static_cast<float>(k) + phase;
    AnimationFrame f;
    f.parts.push_back(frame(0.01f * u, 0, 1.0f, {0, 0, 1}, 0.3f * u));
    f.parts.push_back(frame(0, 0.2f, 1.3f - 0.02f * u, {1, 0, 0}, -0.2f * u));
    f.parts.push_back(frame(0.05f, 0.3f + 0.01f * u, 1.6f, normalize3({1, 1, 0}), 0.15f * u));
    if (k == 2) f.hooks.push_back(AnimHook{1, 0, {0x0A000007u}});
    a.frames.push_back(std::move(f));
    a.pos_frames.push_back(frame(0.02f, 0.1f + 0.01f * u, 0, {0, 0, 1}, 0.05f + 0.01f * u));
  }
  return a;
}

MotionTable test_table() {
  MotionTable t;
  t.id = 0x09000010;
  t.default_style = motion::kNonCombat;
  t.style_defaults.push_back({motion::kNonCombat, motion::kReady});
  t.cycles.push_back({motion_key(motion::kNonCombat, motion::kReady),
                      motion_data(0x03000020, 10.0f)});
  // A link of two nodes: forward at 10, then another animation backwards at -5.
  MotionData two = motion_data(0x03000020, 10.0f);
  two.anims.push_back({0x03000021, 0, -1, -5.0f});
  t.links.push_back({motion_key(motion::kNonCombat, motion::kReady), {{motion::kWalkForward, two}}});
  return t;
}

std::vector<uint8_t> test_dat(const asherons_call::Setup& setup) {
  return write_dat({{setup.id, write_setup(setup)},
                    {0x09000010, write_motion_table(test_table())},
                    {0x03000020, write_animation(test_animation(0x03000020, 4, 0))},
                    {0x03000021, write_animation(test_animation(0x03000021, 4, 0.5f))}});
}

// ---- reading the glTF back ---------------------------------------------------------------------

tinygltf::Model load(const std::vector<uint8_t>& glb) {
  tinygltf::TinyGLTF loader;
  tinygltf::Model model;
  std::string err, warn;
  EXPECT_TRUE(loader.LoadBinaryFromMemory(&model, &err, &warn, glb.data(),
                                          static_cast<unsigned>(glb.size())))
      << err;
  return model;
}

std::vector<float> floats(const tinygltf::Model& m, int accessor) {
  const tinygltf::Accessor& a = m.accessors[static_cast<size_t>(accessor)];
  const tinygltf::BufferView& v = m.bufferViews[static_cast<size_t>(a.bufferView)];
  std::vector<float> out(a.count * static_cast<size_t>(tinygltf::GetNumComponentsInType(a.type)));
  std::memcpy(out.data(), m.buffers[static_cast<size_t>(v.buffer)].data.data() + v.byteOffset +
                              a.byteOffset,
              out.size() * sizeof(float));
  return out;
}

// A node's local frame at time t: its TRS, with each animated channel's STEP key in force.
F node_local(const tinygltf::Model& m, const tinygltf::Animation& anim, int node, double t) {
  const tinygltf::Node& n = m.nodes[static_cast<size_t>(node)];
  F f;
  if (n.translation.size() == 3)
    for (int i = 0; i < 3; ++i) f.t[i] = n.translation[static_cast<size_t>(i)];
  if (n.rotation.size() == 4) {
    f.q[0] = n.rotation[3], f.q[1] = n.rotation[0], f.q[2] = n.rotation[1], f.q[3] = n.rotation[2];
  }
  for (const tinygltf::AnimationChannel& c : anim.channels) {
    if (c.target_node != node) continue;
    const tinygltf::AnimationSampler& s = anim.samplers[static_cast<size_t>(c.sampler)];
    EXPECT_EQ(s.interpolation, "STEP");
    const std::vector<float> times = floats(m, s.input);
    const std::vector<float> values = floats(m, s.output);
    size_t key = 0;
    for (size_t k = 0; k < times.size(); ++k)
      if (times[k] <= t + 1e-6) key = k;
    if (c.target_path == "translation") {
      for (int i = 0; i < 3; ++i) f.t[i] = values[key * 3 + static_cast<size_t>(i)];
    } else if (c.target_path == "rotation") {
      f.q[0] = values[key * 4 + 3], f.q[1] = values[key * 4], f.q[2] = values[key * 4 + 1],
      f.q[3] = values[key * 4 + 2];
    }
  }
  return f;
}

F node_world(const tinygltf::Model& m, const tinygltf::Animation& anim, int node, double t) {
  F w = node_local(m, anim, node, t);
  for (int child = node;;) {
    int parent = -1;
    for (size_t p = 0; p < m.nodes.size(); ++p) {
      for (int c : m.nodes[p].children)
        if (c == child) parent = static_cast<int>(p);
    }
    if (parent < 0) break;
    w = mul(node_local(m, anim, parent, t), w);
    child = parent;
  }
  return w;
}

void expect_same(const F& got, const F& want, const std::string& what) {
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got.t[i], want.t[i], 2e-5) << what << " t" << i;
  double d = 0;
  for (int i = 0; i < 4; ++i) d += got.q[i] * want.q[i];
  EXPECT_NEAR(std::fabs(d), 1.0, 2e-6) << what << " rotation";
}

const tinygltf::Animation& animation_named(const tinygltf::Model& m, const std::string& name) {
  for (const tinygltf::Animation& a : m.animations)
    if (a.name == name) return a;
  ADD_FAILURE() << "no animation " << name;
  return m.animations.front();
}

int node_named(const tinygltf::Model& m, const std::string& name) {
  for (size_t i = 0; i < m.nodes.size(); ++i)
    if (m.nodes[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no node " << name;
  return 0;
}

Animated export_setup(const std::vector<uint8_t>& dat_bytes, Options options) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("animkit-ac-creature-" + std::to_string(::getpid()) + ".dat");
  write_file(path, dat_bytes);
  Registry registry;
  register_module(registry);
  Animated a = registry.open(path, options)->to_neutral().value();
  std::filesystem::remove(path);
  return a;
}

// The page's composition, per part and shown frame, against the exported glTF's world transforms
// (both rigs): the cycle (one node forward) and the link (forward, then backwards at -5).
void check_composition(Rig rig) {
  const asherons_call::Setup setup = test_setup();
  Options options{{"setup", "0x02000010"}};
  if (rig == Rig::kFlat) options["rig"] = "flat";
  const Animated animated = export_setup(test_dat(setup), options);
  ASSERT_EQ(animated.skeleton.num_joints(), 5u);
  const tinygltf::Model m = load(gltf::to_glb(gltf::build(animated)));
  const Animation a = test_animation(0x03000020, 4, 0);
  const Animation b = test_animation(0x03000021, 4, 0.5f);
  const std::vector<AFrame> rest = setup.placement_frames[1].frame.parts;  // 101 Resting

  // The frames shown, the time each shows from, and the object frame O at it.
  struct Shown {
    const Animation* anim;
    int frame;
    double time;
    F object;
  };
  std::vector<Shown> cycle, link;
  F o;
  for (int k = 0; k < 4; ++k) {
    cycle.push_back({&a, k, 0.1 * k, o});
    link.push_back({&a, k, 0.1 * k, o});
    if (k < 3) o = mul(o, of(a.pos_frames[static_cast<size_t>(k)]));  // crossing k -> k+1
  }
  // Node 2 runs backwards from its high frame; leaving frame k subtracts pos_frames[k].
  for (int k = 3; k >= 0; --k) {
    link.push_back({&b, k, 0.4 + 0.2 * (3 - k), o});
    o = mul(o, inv(of(b.pos_frames[static_cast<size_t>(k)])));
  }
  auto check = [&](const std::string& clip, const std::vector<Shown>& shown) {
    const tinygltf::Animation& anim = animation_named(m, clip);
    for (const Shown& s : shown) {
      const double t = s.time + 0.01;  // inside the frame's display
      for (size_t i = 0; i < 4; ++i) {
        const AFrame part = i < 3 ? s.anim->frames[static_cast<size_t>(s.frame)].parts[i] : rest[i];
        const F want = gltf_axes(mul(s.object, of(part)));
        expect_same(node_world(m, anim, node_named(m, part_joint_name(i)), t), want,
                    clip + " frame " + std::to_string(s.frame) + " part " + std::to_string(i));
      }
      expect_same(node_world(m, anim, node_named(m, "root"), t), gltf_axes(s.object),
                  clip + " root");
    }
  };
  check("cycle NonCombat/Ready", cycle);
  check("link NonCombat/Ready -> WalkForward", link);
}

TEST(AcCreature, PartWorldTransformsFollowThePageCompositionParentsRig) {
  check_composition(Rig::kParents);
}

TEST(AcCreature, PartWorldTransformsFollowThePageCompositionFlatRig) {
  check_composition(Rig::kFlat);
}

// The joints: root, then part_<i> with the Setup's parents; the rest pose is placement 101
// (Resting) over 0 (Default), parent-relative; no scale on any joint.
TEST(AcCreature, SkeletonFromTheSetup) {
  const asherons_call::Setup setup = test_setup();
  const Skeleton sk = creature_skeleton(setup, rig_parents(setup, Rig::kParents));
  ASSERT_EQ(sk.num_joints(), 5u);
  EXPECT_EQ(sk.names[0], "root");
  EXPECT_EQ(sk.names[3], "part_2");
  EXPECT_EQ(sk.parents, (std::vector<int16_t>{-1, 0, 1, 2, 1}));
  // part_2 under part_1: rest local = conj(q1) (t2 - t1), conj(q1) q2, in glTF axes.
  const std::vector<AFrame>& rest = setup.placement_frames[1].frame.parts;
  const F want = gltf_axes(mul(inv(of(rest[1])), of(rest[2])));
  const Transform& got = sk.rest[3];
  EXPECT_NEAR(got.translation.x, want.t[0], 1e-6);
  EXPECT_NEAR(got.translation.y, want.t[1], 1e-6);
  EXPECT_NEAR(got.translation.z, want.t[2], 1e-6);
  EXPECT_NEAR(std::fabs(got.rotation.w * want.q[0] + got.rotation.x * want.q[1] +
                        got.rotation.y * want.q[2] + got.rotation.z * want.q[3]),
              1.0, 1e-6);
  for (const Transform& t : sk.rest) EXPECT_EQ(t.scale, (Vec3{1, 1, 1}));
  // Without placement 101 the rest is 0 (Default); with none, identity.
  asherons_call::Setup only_default = setup;
  only_default.placement_frames.pop_back();
  EXPECT_EQ(rest_parts(only_default), only_default.placement_frames[0].frame.parts);
  only_default.placement_frames.clear();
  EXPECT_EQ(rest_parts(only_default), std::vector<AFrame>(4, AFrame{}));
}

// Container page 6: out-of-range indices and 0xFFFFFFFF are roots; a Setup without HasParent, or
// whose parents hold a cycle, is flat; a parent after its child is still a forest (issue 28).
TEST(AcCreature, RigParents) {
  asherons_call::Setup s = test_setup();
  EXPECT_EQ(rig_parents(s, Rig::kParents), (std::vector<int>{-1, 0, 1, 0}));
  EXPECT_EQ(rig_parents(s, Rig::kFlat), (std::vector<int>{-1, -1, -1, -1}));
  s.parent_index[3] = 99;
  EXPECT_EQ(rig_parents(s, Rig::kParents), (std::vector<int>{-1, 0, 1, -1}));
  EXPECT_EQ(rig_parents(test_setup(false), Rig::kParents), (std::vector<int>{-1, 2, 0, 0}));
  s.parent_index[1] = 1;  // itself: a cycle
  EXPECT_EQ(rig_parents(s, Rig::kParents), (std::vector<int>{-1, -1, -1, -1}));
  s = test_setup();
  s.flags = 0;
  EXPECT_EQ(rig_parents(s, Rig::kParents), (std::vector<int>{-1, -1, -1, -1}));
}

// Axes: a proper rotation, so composing then mapping equals mapping then composing.
TEST(AcCreature, AxisMapCommutesWithComposition) {
  EXPECT_EQ(to_gltf_axes(Vec3{1, 2, 3}), (Vec3{-1, 3, 2}));
  EXPECT_EQ(to_gltf_axes(Quat{0.1f, 0.2f, 0.3f, 0.9f}), (Quat{-0.1f, 0.3f, 0.2f, 0.9f}));
  EXPECT_EQ(from_gltf_axes(to_gltf_axes(Vec3{1, 2, 3})), (Vec3{1, 2, 3}));
  // AC +Y (forward) is glTF +Z; AC +Z (up) is glTF +Y.
  EXPECT_EQ(to_gltf_axes(Vec3{0, 1, 0}), (Vec3{0, 0, 1}));
  EXPECT_EQ(to_gltf_axes(Vec3{0, 0, 1}), (Vec3{0, 1, 0}));
  const AFrame a = frame(0.3f, -0.2f, 1.0f, normalize3({1, 2, 3}), 0.7f);
  const AFrame b = frame(-0.1f, 0.5f, 0.2f, normalize3({0, 1, 1}), -1.1f);
  const Vec3 v = rotate(a.orientation, b.origin);
  const Vec3 w = rotate(to_gltf_axes(a.orientation), to_gltf_axes(b.origin));
  EXPECT_NEAR(to_gltf_axes(v).x, w.x, 1e-6f);
  EXPECT_NEAR(to_gltf_axes(v).y, w.y, 1e-6f);
  EXPECT_NEAR(to_gltf_axes(v).z, w.z, 1e-6f);
}

// Timing (container page 6): key k of a node shows at (k - start) / |rate|; a negative rate plays
// high to low; hooks are events at their frame's time; clips name the table's keys.
TEST(AcCreature, ClipsTimingEventsAndNames) {
  const Animated animated = export_setup(test_dat(test_setup()), {{"setup", "0x02000010"}});
  ASSERT_EQ(animated.clips.size(), 2u);
  const Clip& cycle = animated.clips[0];
  EXPECT_EQ(cycle.name, "cycle NonCombat/Ready");
  EXPECT_TRUE(cycle.looping);
  EXPECT_FLOAT_EQ(cycle.duration, 0.4f);
  EXPECT_FLOAT_EQ(cycle.frame_rate, 10.0f);
  ASSERT_EQ(cycle.joints[1].rotation.times.size(), 4u);
  EXPECT_FLOAT_EQ(cycle.joints[1].rotation.times[3], 0.3f);
  EXPECT_EQ(cycle.joints[1].rotation.interpolation, Interpolation::kStep);
  ASSERT_EQ(cycle.events.size(), 1u);
  EXPECT_FLOAT_EQ(cycle.events[0].time, 0.2f);
  EXPECT_EQ(cycle.events[0].name, "Sound");
  const Clip& link = animated.clips[1];
  EXPECT_FALSE(link.looping);
  EXPECT_FLOAT_EQ(link.duration, 0.4f + 4 * 0.2f);
  ASSERT_EQ(link.events.size(), 2u);
  EXPECT_FLOAT_EQ(link.events[1].time, 0.4f + 0.2f);  // b's frame 2, second shown backwards
}

// `--setup ID --id ANIMATION` picks one animation (30 frames a second); a missing Setup, a
// non-Setup id and a Setup id without a dat are errors.
TEST(AcCreature, SetupOptionForms) {
  const std::vector<uint8_t> dat = test_dat(test_setup());
  const Animated one = export_setup(dat, {{"setup", "0x02000010"}, {"id", "0x03000021"}});
  ASSERT_EQ(one.clips.size(), 1u);
  EXPECT_EQ(one.clips[0].name, "0x03000021");
  EXPECT_FLOAT_EQ(one.clips[0].duration, 4.0f / 30.0f);
  // `--id SETUP` alone: the Setup with its default motion table.
  EXPECT_EQ(export_setup(dat, {{"id", "0x02000010"}}).clips.size(), 2u);
  EXPECT_THROW(export_setup(dat, {{"setup", "0x02000011"}}), Error);
  try {
    export_setup(dat, {{"setup", "0x09000010"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a Setup id"), std::string::npos) << e.what();
  }
  try {
    export_setup(dat, {{"setup", "0x02000010"}, {"rig", "tree"}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("expected flat or parents"), std::string::npos);
  }
}

}  // namespace
}  // namespace animkit::asherons_call
