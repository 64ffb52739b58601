// glTF -> neutral (issue 17): what `animkit export` writes reads back as it was; hand-made files
// exercise what other tools write (CUBICSPLINE, normalised integer rotations, child-first skins,
// no skin) and every malformed accessor is an error, not a crash.
#include "animkit/gltf/import.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "animkit/core/error.h"
#include "animkit/core/joint_match.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/synthetic.h"
#include "animkit/gltf/export.h"
#include "bent_spine.h"

namespace animkit::gltf {
namespace {

Animated read_glb(const std::vector<uint8_t>& glb, const ImportOptions& options = {}) {
  return read("test.glb", glb, options);
}

// A GLB from a hand-written document and raw buffer bytes.
std::vector<uint8_t> make_glb(Json json, std::vector<uint8_t> buffer) {
  Document d;
  json["asset"] = {{"version", "2.0"}};
  json["buffers"] = Json::array({{{"byteLength", buffer.size()}}});
  d.json = std::move(json);
  d.buffer = std::move(buffer);
  return to_glb(d);
}

void put(std::vector<uint8_t>& b, const std::vector<float>& v) {
  const size_t at = b.size();
  b.resize(at + v.size() * 4);
  std::memcpy(b.data() + at, v.data(), v.size() * 4);
}

TEST(GltfImport, ExportedArmReadsBackJointForJoint) {
  const Animated arm = synthetic_arm();
  const Animated back = read_glb(to_glb(build(arm)));
  ASSERT_EQ(back.skeleton.num_joints(), arm.skeleton.num_joints());
  for (size_t j = 0; j < arm.skeleton.num_joints(); ++j) {
    EXPECT_EQ(back.skeleton.names[j], arm.skeleton.names[j]);
    EXPECT_EQ(back.skeleton.parents[j], arm.skeleton.parents[j]);
    EXPECT_EQ(back.skeleton.rest[j].translation, arm.skeleton.rest[j].translation);
  }
  ASSERT_EQ(back.clips.size(), 2u);
  const Clip& wave = back.clips[0];
  EXPECT_EQ(wave.name, "wave");
  EXPECT_EQ(wave.duration, 1.f);
  EXPECT_EQ(wave.frame_rate, 30.f);
  EXPECT_TRUE(wave.looping);
  EXPECT_FALSE(back.clips[1].looping);
  ASSERT_EQ(wave.events.size(), 1u);
  EXPECT_EQ(wave.events[0].time, 0.5f);
  EXPECT_EQ(wave.events[0].name, "apex");
  EXPECT_EQ(Json::parse(wave.events[0].payload), Json::parse(R"({"joint":"tip"})"));
  // glTF LINEAR rotations are spherical.
  EXPECT_EQ(wave.joints[1].rotation.interpolation, Interpolation::kSlerp);
  ASSERT_EQ(wave.joints[1].rotation.size(), 31u);
  const Quat a = arm.clips[0].joints[1].rotation.values[7];
  const Quat b = wave.joints[1].rotation.values[7];
  EXPECT_NEAR(dot(a, b), 1.f, 1e-6f);
  // The Hermite lift was resampled at 30/s as LINEAR keys; the keys are the curve's values.
  const Track<Vec3>& lift = back.clips[1].joints[0].translation;
  EXPECT_EQ(lift.interpolation, Interpolation::kLinear);
  ASSERT_EQ(lift.size(), 31u);
  const Track<Vec3>& hermite = arm.clips[1].joints[0].translation;
  EXPECT_EQ(lift.values[10].y, evaluate(hermite, lift.times[10], find_key(hermite.times, lift.times[10], 0)).y);
}

TEST(GltfImport, ExportImportExportIsStable) {
  const Animated arm = synthetic_arm();
  const Document first = build(arm);
  const Document second = build(read_glb(to_glb(first)));
  EXPECT_EQ(first.json.dump(), second.json.dump());
  ASSERT_EQ(first.buffer.size(), second.buffer.size());
  // Floats may move by the last bit where the exporter normalises a quaternion again.
  for (size_t i = 0; i < first.buffer.size(); i += 4) {
    float a, b;
    std::memcpy(&a, first.buffer.data() + i, 4);
    std::memcpy(&b, second.buffer.data() + i, 4);
    ASSERT_NEAR(a, b, 1.2e-7f * std::max(1.f, std::fabs(a))) << "float " << i / 4;
  }
}

TEST(GltfImport, OneClipByName) {
  const std::vector<uint8_t> glb = to_glb(build(synthetic_arm()));
  const Animated bend = read_glb(glb, {.clip = "bend"});
  ASSERT_EQ(bend.clips.size(), 1u);
  EXPECT_EQ(bend.clips[0].name, "bend");
  try {
    read_glb(glb, {.clip = "run"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "no animation named 'run' (the file has: wave, bend)");
  }
}

// A two-node chain listed child first in the skin, with a CUBICSPLINE translation on the root
// and a normalised-short rotation on the child.
std::vector<uint8_t> hand_made(bool child_first) {
  std::vector<uint8_t> buf;
  put(buf, {0, 1});                                       // 0: times (8 bytes)
  put(buf, {0, 0, 0, 0, 0, 0, 2, 0, 0,                    // 8: in, value, out per key
            -4, 0, 0, 3, 0, 0, 0, 0, 0});
  const int16_t q[8] = {0, 0, 0, 32767, 0, 0, 23170, 23170};  // 80: identity, 90 deg about z
  const size_t at = buf.size();
  buf.resize(at + sizeof q);
  std::memcpy(buf.data() + at, q, sizeof q);
  Json j;
  j["nodes"] = Json::array({{{"name", "hips"}, {"children", {1}}, {"translation", {0, 1, 0}}},
                            {{"name", "spine"}, {"translation", {0, 0.5, 0}}}});
  j["skins"] = Json::array({{{"joints", child_first ? Json{1, 0} : Json{0, 1}}}});
  j["scenes"] = Json::array({{{"nodes", {0}}}});
  j["bufferViews"] = Json::array({{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 8}},
                                  {{"buffer", 0}, {"byteOffset", 8}, {"byteLength", 72}},
                                  {{"buffer", 0}, {"byteOffset", 80}, {"byteLength", 16}}});
  j["accessors"] = Json::array(
      {{{"bufferView", 0}, {"componentType", 5126}, {"count", 2}, {"type", "SCALAR"},
        {"min", {0}}, {"max", {1}}},
       {{"bufferView", 1}, {"componentType", 5126}, {"count", 6}, {"type", "VEC3"}},
       {{"bufferView", 2}, {"componentType", 5122}, {"normalized", true}, {"count", 2}, {"type", "VEC4"}}});
  j["animations"] = Json::array(
      {{{"name", "hop"},
        {"samplers", Json::array({{{"input", 0}, {"output", 1}, {"interpolation", "CUBICSPLINE"}},
                                  {{"input", 0}, {"output", 2}, {"interpolation", "STEP"}}})},
        {"channels", Json::array({{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}},
                                  {{"sampler", 1}, {"target", {{"node", 1}, {"path", "rotation"}}}}})}}});
  return make_glb(j, buf);
}

TEST(GltfImport, CubicSplineBecomesHermiteWithTheFilesTangents) {
  const Animated a = read_glb(hand_made(false));
  const Clip& hop = a.clips[0];
  EXPECT_EQ(hop.duration, 1.f);  // no extras: the last key
  EXPECT_EQ(hop.frame_rate, 30.f);
  const Track<Vec3>& t = hop.joints[0].translation;
  ASSERT_EQ(t.interpolation, Interpolation::kHermite);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.values[1].x, 3.f);
  EXPECT_EQ(t.out_slopes[0].x, 2.f);
  EXPECT_EQ(t.in_slopes[1].x, -4.f);
  // glTF 2.0, Appendix C: p(s) = (2s^3-3s^2+1) p0 + (s^3-2s^2+s) td b0 + (-2s^3+3s^2) p1 + (s^3-s^2) td a1.
  const float s = 0.25f;
  const float expected = (s * s * s - 2 * s * s + s) * 2 + (-2 * s * s * s + 3 * s * s) * 3 +
                         (s * s * s - s * s) * -4;
  EXPECT_NEAR(evaluate(t, s, 0).x, expected, 1e-6f);
}

TEST(GltfImport, NormalisedShortRotationsDecode) {
  const Animated a = read_glb(hand_made(false));
  const Track<Quat>& r = a.clips[0].joints[1].rotation;
  ASSERT_EQ(r.interpolation, Interpolation::kStep);
  EXPECT_EQ(r.values[0].w, 1.f);                 // 32767 / 32767
  EXPECT_EQ(r.values[1].z, 23170.f / 32767.f);   // glTF: c / 32767
}

TEST(GltfImport, ChildFirstSkinIsReorderedAndSaysSo) {
  const Animated a = read_glb(hand_made(true));
  ASSERT_EQ(a.skeleton.names, (std::vector<std::string>{"hips", "spine"}));
  EXPECT_EQ(a.skeleton.parents[1], 0);
  EXPECT_EQ(a.notes.front(), "joints reordered so that parents come before children");
  // The channels follow their nodes.
  EXPECT_EQ(a.clips[0].joints[0].translation.size(), 2u);
  EXPECT_EQ(a.clips[0].joints[1].rotation.size(), 2u);
}

TEST(GltfImport, MatrixRestIsDecomposed) {
  std::vector<uint8_t> buf(4, 0);
  Json j;
  // Rotation of 90 degrees about y, scale 2, translation (1, 2, 3), column-major.
  j["nodes"] = Json::array({{{"name", "a"}, {"matrix", {0, 0, -2, 0, 0, 2, 0, 0, 2, 0, 0, 0, 1, 2, 3, 1}}}});
  j["scenes"] = Json::array({{{"nodes", {0}}}});
  const Animated a = read_glb(make_glb(j, buf));
  const Transform& t = a.skeleton.rest[0];
  EXPECT_EQ(t.translation, (Vec3{1, 2, 3}));
  EXPECT_NEAR(t.scale.x, 2.f, 1e-6f);
  EXPECT_NEAR(t.scale.y, 2.f, 1e-6f);
  EXPECT_NEAR(std::fabs(t.rotation.y), std::sqrt(0.5f), 1e-6f);
  EXPECT_NEAR(std::fabs(t.rotation.w), std::sqrt(0.5f), 1e-6f);
}

std::string error_of(const std::vector<uint8_t>& glb) {
  try {
    read_glb(glb);
  } catch (const Error& e) {
    return e.message();
  }
  return "no error";
}

TEST(GltfImport, KeylessJointKeepsItsNodeTransformOverTheBindPose) {
  const Animated a = read_glb(testing::bent_spine(true));
  ASSERT_EQ(a.skeleton.num_joints(), 3u);
  // The rest is the bind pose: the spine stands straight.
  EXPECT_NEAR(a.skeleton.rest[1].rotation.w, 1, 1e-6);
  EXPECT_NEAR(a.skeleton.rest[1].translation.y, 0.5f, 1e-6);
  const Clip& c = a.clips.at(0);
  // The spine's bend is a constant channel: one key at 0, the node's rotation; its translation
  // (the same in the node and the bind pose) and the head (likewise) get none.
  ASSERT_EQ(c.joints[1].rotation.size(), 1u);
  EXPECT_EQ(c.joints[1].rotation.times[0], 0.f);
  const Quat q = c.joints[1].rotation.values[0];
  EXPECT_NEAR(q.x, 0.7071068f, 1e-6);
  EXPECT_NEAR(q.w, 0.7071068f, 1e-6);
  EXPECT_TRUE(c.joints[1].translation.empty());
  EXPECT_TRUE(c.joints[2].translation.empty() && c.joints[2].rotation.empty() && c.joints[2].scale.empty());
  EXPECT_EQ(c.joints[0].rotation.size(), 2u);  // the keyed hips as they were
  // At any time the clip poses the spine as the glTF does: its node's rotation.
  for (float t : {0.f, 0.5f, 1.f}) {
    const Quat at = evaluate(c.joints[1].rotation, t, 0);
    EXPECT_NEAR(std::fabs(at.x * 0.7071068f + at.w * 0.7071068f), 1, 1e-6) << t;
  }
  const std::vector<std::string> expected = {
      "the rest pose is the skin's bind pose (its inverse bind matrices differ from the nodes' rest)",
      "joint 'spine': its node transform, which differs from the bind pose and has no keys, is kept "
      "as a constant channel"};
  EXPECT_EQ(a.notes, expected);
  // The notes a caller asks for (`animkit import` prints them) are the reader's own.
  std::vector<std::string> notes;
  ImportOptions o;
  o.notes = &notes;
  read_glb(testing::bent_spine(true), o);
  EXPECT_EQ(notes, expected);
  // Without inverse bind matrices the nodes are the rest: nothing to keep, nothing said.
  const Animated plain = read_glb(testing::bent_spine(false));
  EXPECT_TRUE(plain.notes.empty());
  EXPECT_TRUE(plain.clips.at(0).joints[1].rotation.empty());
  EXPECT_NEAR(plain.skeleton.rest[1].rotation.x, 0.7071068f, 1e-6);
}

TEST(GltfImport, AccessorOutsideItsViewIsAnError) {
  std::vector<uint8_t> buf;
  put(buf, {0, 1});
  Json j;
  j["nodes"] = Json::array({{{"name", "a"}}});
  j["skins"] = Json::array({{{"joints", {0}}}});
  j["bufferViews"] = Json::array({{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 8}}});
  j["accessors"] = Json::array({{{"bufferView", 0}, {"componentType", 5126}, {"count", 2}, {"type", "SCALAR"}},
                                {{"bufferView", 0}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}}});
  j["animations"] = Json::array(
      {{{"name", "x"},
        {"samplers", Json::array({{{"input", 0}, {"output", 1}}})},
        {"channels", Json::array({{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}})}}});
  const std::string e = error_of(make_glb(j, buf));
  // tinygltf may refuse it first; either way it is an error naming the problem, not a crash.
  EXPECT_NE(e, "no error");
  EXPECT_TRUE(e.find("does not fit") != std::string::npos || e.find("glTF") != std::string::npos) << e;
}

TEST(GltfImport, NotGltfAndTruncatedGlbAreErrors) {
  const std::string text = "hello";
  EXPECT_NE(error_of({text.begin(), text.end()}), "no error");
  std::vector<uint8_t> glb = to_glb(build(synthetic_arm()));
  glb.resize(glb.size() / 2);
  EXPECT_NE(error_of(glb), "no error");
}

TEST(GltfImport, TwoChannelsOnOnePathAreAnError) {
  std::vector<uint8_t> buf;
  put(buf, {0, 1, 0, 0, 0, 1, 1, 1});
  Json j;
  j["nodes"] = Json::array({{{"name", "a"}}});
  j["bufferViews"] = Json::array({{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 8}},
                                  {{"buffer", 0}, {"byteOffset", 8}, {"byteLength", 24}}});
  j["accessors"] = Json::array({{{"bufferView", 0}, {"componentType", 5126}, {"count", 2},
                                 {"type", "SCALAR"}, {"min", {0}}, {"max", {1}}},
                                {{"bufferView", 1}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}}});
  const Json channel = {{"sampler", 0}, {"target", {{"node", 0}, {"path", "scale"}}}};
  j["animations"] = Json::array({{{"name", "x"},
                                  {"samplers", Json::array({{{"input", 0}, {"output", 1}}})},
                                  {"channels", Json::array({channel, channel})}}});
  j["scenes"] = Json::array({{{"nodes", {0}}}});
  EXPECT_EQ(error_of(make_glb(j, buf)), "animation 'x' channel 1: a second channel drives scale of joint 'a'");
}

TEST(JointMatch, MissingAndExtraJointsAreNamed) {
  Animated src = synthetic_arm();
  Skeleton target = src.skeleton;
  target.names[4] = "finger";
  try {
    match_joints(src, target);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "the glTF skeleton does not match the template's (by joint name): missing 1 joint(s) "
              "of the target: finger; 1 joint(s) the target does not have: tip");
  }
}

TEST(JointMatch, ReordersByNameAndReportsARestDifference) {
  Animated src = synthetic_arm();
  Skeleton target;  // same joints, the root's rest moved by 0.5
  for (size_t j = 0; j < src.skeleton.num_joints(); ++j) {
    Transform rest = src.skeleton.rest[j];
    if (j == 0) rest.translation.y += 0.5f;
    target.add_joint(src.skeleton.names[j], src.skeleton.parents[j], rest);
  }
  const JointMatch m = match_joints(src, target);
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("joint 'root': rest pose differs"), std::string::npos);
  EXPECT_EQ(m.clips[0].joints[1].rotation.size(), 31u);
}

}  // namespace
}  // namespace animkit::gltf
