#include "animkit/gltf/export.h"

#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <cmath>
#include <cstring>

#include "animkit/core/local_to_model_job.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/synthetic.h"

namespace animkit::gltf {
namespace {

tinygltf::Model LoadGlb(const std::vector<uint8_t>& glb) {
  tinygltf::TinyGLTF loader;
  tinygltf::Model model;
  std::string err, warn;
  EXPECT_TRUE(loader.LoadBinaryFromMemory(&model, &err, &warn, glb.data(),
                                          static_cast<unsigned>(glb.size())))
      << err;
  return model;
}

std::vector<float> ReadFloats(const tinygltf::Model& m, int accessor_index) {
  const tinygltf::Accessor& a = m.accessors[accessor_index];
  const tinygltf::BufferView& v = m.bufferViews[a.bufferView];
  const size_t comps = tinygltf::GetNumComponentsInType(a.type);
  std::vector<float> out(a.count * comps);
  std::memcpy(out.data(), m.buffers[v.buffer].data.data() + v.byteOffset + a.byteOffset,
              out.size() * sizeof(float));
  return out;
}

TEST(GltfExport, SkeletonBecomesNodesAndSkin) {
  const Animated arm = synthetic_arm();
  const tinygltf::Model m = LoadGlb(to_glb(build(arm)));
  ASSERT_EQ(m.nodes.size(), 5u);
  EXPECT_EQ(m.nodes[0].name, "root");
  EXPECT_EQ(m.nodes[1].children, (std::vector<int>{2}));
  ASSERT_EQ(m.skins.size(), 1u);
  EXPECT_EQ(m.skins[0].joints.size(), 5u);
  // Inverse bind matrix of the tip undoes its rest model transform (translation 0, 2.15, 0).
  const std::vector<float> ibm = ReadFloats(m, m.skins[0].inverseBindMatrices);
  EXPECT_NEAR(ibm[4 * 16 + 13], -2.15f, 1e-5f);
  ASSERT_EQ(m.scenes.size(), 1u);
  EXPECT_EQ(m.scenes[0].nodes, (std::vector<int>{0}));
}

TEST(GltfExport, ClipsBecomeAnimationsWithTimesMinMaxAndEvents) {
  const Animated arm = synthetic_arm();
  const tinygltf::Model m = LoadGlb(to_glb(build(arm)));
  ASSERT_EQ(m.animations.size(), 2u);
  const tinygltf::Animation& wave = m.animations[0];
  EXPECT_EQ(wave.name, "wave");
  EXPECT_EQ(wave.channels.size(), 3u);  // rotations of shoulder, elbow, wrist
  for (const tinygltf::AnimationSampler& s : wave.samplers) {
    const tinygltf::Accessor& in = m.accessors[s.input];
    ASSERT_EQ(in.minValues.size(), 1u);
    EXPECT_EQ(in.minValues[0], 0.0);
    EXPECT_NEAR(in.maxValues[0], 1.0, 1e-6);
    EXPECT_EQ(s.interpolation, "LINEAR");
    const std::vector<float> q = ReadFloats(m, s.output);
    for (size_t k = 0; k < q.size(); k += 4) {
      EXPECT_NEAR(q[k] * q[k] + q[k + 1] * q[k + 1] + q[k + 2] * q[k + 2] + q[k + 3] * q[k + 3], 1.f, 1e-6f);
    }
  }
  ASSERT_TRUE(wave.extras.Has("events"));
  const tinygltf::Value& e = wave.extras.Get("events").Get(0);
  EXPECT_EQ(e.Get("name").Get<std::string>(), "apex");
  EXPECT_NEAR(e.Get("time").GetNumberAsDouble(), 0.5, 1e-7);
  EXPECT_EQ(e.Get("payload").Get("joint").Get<std::string>(), "tip");
}

TEST(GltfExport, HermiteTrackIsResampledAtTheFrameRateExactly) {
  const Animated arm = synthetic_arm();
  const tinygltf::Model m = LoadGlb(to_glb(build(arm)));
  const tinygltf::Animation& bend = m.animations[1];
  const Track<Vec3>& lift = arm.clips[1].joints[0].translation;
  bool found = false;
  for (const tinygltf::AnimationChannel& c : bend.channels) {
    if (c.target_node != 0 || c.target_path != "translation") continue;
    found = true;
    const tinygltf::AnimationSampler& s = bend.samplers[c.sampler];
    const std::vector<float> times = ReadFloats(m, s.input);
    const std::vector<float> values = ReadFloats(m, s.output);
    ASSERT_EQ(times.size(), 31u);  // 1 s at 30 frames per second
    for (size_t k = 0; k < times.size(); ++k) {
      EXPECT_NEAR(times[k], k / 30.f, 1e-6f);
      const Vec3 expected = evaluate(lift, times[k], find_key(lift.times, times[k], 0));
      EXPECT_EQ(values[k * 3 + 1], expected.y);
    }
  }
  EXPECT_TRUE(found);
}

TEST(GltfExport, StepTracksStayStep) {
  Animated a;
  a.skeleton.add_joint("only", -1, {});
  Clip c;
  c.name = "steps";
  c.duration = 1;
  c.joints.resize(1);
  c.joints[0].translation.interpolation = Interpolation::kStep;
  c.joints[0].translation.add(0, {0, 0, 0});
  c.joints[0].translation.add(0.5f, {1, 0, 0});
  a.clips.push_back(c);
  const tinygltf::Model m = LoadGlb(to_glb(build(a)));
  EXPECT_EQ(m.animations[0].samplers[0].interpolation, "STEP");
}

TEST(GltfExport, ClipWithoutTracksStillHasAChannel) {
  Animated a;
  a.skeleton.add_joint("only", -1, {});
  Clip c;
  c.name = "empty";
  c.joints.resize(1);
  a.clips.push_back(c);
  const tinygltf::Model m = LoadGlb(to_glb(build(a)));
  ASSERT_EQ(m.animations.size(), 1u);
  EXPECT_EQ(m.animations[0].channels.size(), 1u);
}

TEST(GltfExport, ZeroDurationSingleKeyClipExports) {
  Animated a;
  a.skeleton.add_joint("only", -1, {});
  Clip c;
  c.name = "pose";
  c.duration = 0;
  c.joints.resize(1);
  c.joints[0].rotation.add(0, axis_angle({0, 1, 0}, 0.5f));
  a.clips.push_back(c);
  const tinygltf::Model m = LoadGlb(to_glb(build(a)));
  ASSERT_EQ(m.animations.size(), 1u);
  const tinygltf::Accessor& in = m.accessors[m.animations[0].samplers[0].input];
  EXPECT_EQ(in.count, 1u);
  EXPECT_EQ(in.maxValues[0], 0.0);
}

TEST(GltfExport, TextFormLoadsWithTheSameContent) {
  const Animated arm = synthetic_arm();
  const std::string text = to_gltf_text(build(arm));
  tinygltf::TinyGLTF loader;
  tinygltf::Model m;
  std::string err, warn;
  ASSERT_TRUE(loader.LoadASCIIFromString(&m, &err, &warn, text.data(),
                                         static_cast<unsigned>(text.size()), ""))
      << err;
  EXPECT_EQ(m.nodes.size(), 5u);
  EXPECT_EQ(m.animations.size(), 2u);
}

TEST(GltfExport, RejectsMalformedInput) {
  Animated a;
  EXPECT_THROW(build(a), Error);  // no joints
  a.skeleton.add_joint("j", -1, {});
  Clip c;
  c.joints.resize(2);  // does not fit the skeleton
  a.clips.push_back(c);
  EXPECT_THROW(build(a), Error);
}

TEST(GltfExport, RestPoseMatchesLocalToModel) {
  const Animated w = synthetic_workload(16, 1, 30);
  const tinygltf::Model m = LoadGlb(to_glb(build(w)));
  std::vector<Mat4> model(16);
  LocalToModelJob{&w.skeleton, w.skeleton.rest, nullptr, model}.run();
  const std::vector<float> ibm = ReadFloats(m, m.skins[0].inverseBindMatrices);
  for (int j = 0; j < 16; ++j) {
    Mat4 inv;
    std::memcpy(inv.m.data(), ibm.data() + j * 16, 64);
    const Mat4 id = model[j] * inv;
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) EXPECT_NEAR(id.at(r, c), r == c ? 1.f : 0.f, 1e-4f);
    }
  }
}

}  // namespace
}  // namespace animkit::gltf
