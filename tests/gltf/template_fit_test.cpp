// fit_to_template (issue 32, item 2): a file whose bones are turned and moved differently from
// the template's (as Blender's glTF importer turns every bone toward its child) is re-expressed
// against the template's rest. The file is built here from the template by the rule
// file_model = template_model * C (C per joint, arbitrary rigid turns), so the expected keys are
// the template's own.
#include <gtest/gtest.h>

#include <cmath>

#include "animkit/gltf/template_fit.h"

namespace animkit {
namespace {

Transform inverse_rigid(const Transform& t) {
  Transform out;
  out.rotation = conjugate(t.rotation);
  out.translation = rotate(out.rotation, t.translation * -1.f);
  return out;
}

float angle(Quat a, Quat b) {
  const Quat r = normalize(a) * conjugate(normalize(b));
  return 2.f * std::atan2(std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z), std::fabs(r.w));
}

struct Case {
  Animated templ, file;
};

// root -> arm -> hand; a rotation track on arm and hand, a translation track on root.
Case make_case() {
  Case c;
  Skeleton& t = c.templ.skeleton;
  t.add_joint("root", -1, Transform{});
  t.add_joint("arm", 0, Transform{{0, 1, 0}, axis_angle({0, 0, 1}, 0.3f), {1, 1, 1}});
  t.add_joint("hand", 1, Transform{{0, 2, 0}, Quat{}, {1, 1, 1}});
  Clip clip;
  clip.name = "wave";
  clip.duration = 1;
  clip.events = {{0.5f, "apex", "{}"}};
  clip.joints.resize(3);
  clip.joints[0].translation.add(0, {0, 0, 0});
  clip.joints[0].translation.add(1, {0.5f, 0, 0});
  clip.joints[1].rotation.interpolation = Interpolation::kSlerp;
  clip.joints[1].rotation.add(0, axis_angle({0, 0, 1}, 0.3f));
  clip.joints[1].rotation.add(0.5f, axis_angle({0, 0, 1}, 1.1f));
  clip.joints[1].rotation.add(1, axis_angle({1, 0, 0}, 0.4f));
  clip.joints[2].rotation.add(0, Quat{});  // the template's own rest keys: kept as they are
  clip.joints[2].rotation.add(1, Quat{});
  c.templ.clips.push_back(clip);

  // The file: bone frames turned by C (a Blender-like turn, plus a moved origin on the hand).
  const Transform C[3] = {{{0, 0, 0}, axis_angle({1, 0, 0}, 1.5707964f), {1, 1, 1}},
                          {{0, 0, 0}, axis_angle({0.6f, 0, 0.8f}, 2.0f), {1, 1, 1}},
                          {{0.1f, 0, 0}, axis_angle({0, 1, 0}, -0.7f), {1, 1, 1}}};
  Skeleton& f = c.file.skeleton;
  for (size_t j = 0; j < 3; ++j) {
    const int p = t.parents[j];
    const Transform pc = p < 0 ? Transform{} : inverse_rigid(C[p]);
    f.add_joint(t.names[j], p, compose(compose(pc, t.rest[j]), C[j]));
  }
  Clip fc = clip;
  fc.events.clear();
  fc.duration = 0.9f;  // another tool ends the clip at its last key
  for (size_t j = 0; j < 3; ++j) {
    const int p = t.parents[j];
    const Transform pc = p < 0 ? Transform{} : inverse_rigid(C[p]);
    JointTracks& jt = fc.joints[j];
    // Every channel keyed at 0, 0.5 and 1 with the full local transform (as Blender writes).
    JointTracks full;
    full.rotation.interpolation = Interpolation::kSlerp;
    for (float time : {0.f, 0.5f, 1.f}) {
      Transform local = t.rest[j];
      auto sample = [&](const auto& track, auto rest) {
        if (track.empty()) return rest;
        size_t k = 0;
        while (k + 1 < track.times.size() && track.times[k + 1] <= time) ++k;
        return track.values[k];  // (exact for arm's keys; root's value at 0.5 is set below)
      };
      local.translation = sample(clip.joints[j].translation, local.translation);
      local.rotation = sample(clip.joints[j].rotation, local.rotation);
      const Transform l = compose(compose(pc, local), C[j]);
      full.translation.add(time, l.translation);
      full.rotation.add(time, l.rotation);
      full.scale.add(time, {1, 1, 1});
    }
    jt = full;
  }
  c.file.clips.push_back(fc);
  return c;
}

TEST(TemplateFit, KeysComeBackInTheTemplatesFramesAndRestOnlyChannelsGo) {
  Case c = make_case();
  // Root's translation at 0.5 on the template's line: (0.25, 0, 0) in the file's frames.
  c.file.clips[0].joints[0].translation.values[1] = Vec3{0.25f, 0, 0};
  const std::vector<std::string> notes = gltf::fit_to_template(c.file, {"wave"}, c.templ);
  const Clip& got = c.file.clips[0];
  const Clip& want = c.templ.clips[0];
  // arm: the template's keys at 0, 0.5, 1.
  ASSERT_EQ(got.joints[1].rotation.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_LT(angle(got.joints[1].rotation.values[k], want.joints[1].rotation.values[k]), 1e-5f) << k;
  }
  // root: its translation lies on the template's line: the template's two keys, exactly.
  EXPECT_EQ(got.joints[0].translation.times, want.joints[0].translation.times);
  // hand: its rotation resamples the template's track (its two keys come back); its
  // translation and every scale restate the rest where the template has no track: none.
  EXPECT_EQ(got.joints[2].rotation.times, want.joints[2].rotation.times);
  EXPECT_TRUE(got.joints[2].translation.empty());
  EXPECT_TRUE(got.joints[2].scale.empty());
  EXPECT_TRUE(got.joints[1].scale.empty());
  // The rest is the template's; the length and events too (the file carried no extras).
  for (size_t j = 0; j < 3; ++j) {
    EXPECT_LT(angle(c.file.skeleton.rest[j].rotation, c.templ.skeleton.rest[j].rotation), 1e-6f);
  }
  EXPECT_FLOAT_EQ(got.duration, 1.f);
  ASSERT_EQ(got.events.size(), 1u);
  EXPECT_EQ(got.events[0].name, "apex");
  ASSERT_GE(notes.size(), 2u);
  EXPECT_NE(notes[0].find("re-expressed"), std::string::npos) << notes[0];
}

TEST(TemplateFit, ExtrasWinAndOtherSkeletonsAreLeftToTheFormat) {
  Case c = make_case();
  c.file.clips[0].duration = 1.2f;
  c.file.clips[0].events = {{0.1f, "step", "{}"}};
  gltf::fit_to_template(c.file, {}, c.templ);  // the clip carried extras: they stand
  EXPECT_FLOAT_EQ(c.file.clips[0].duration, 1.2f);
  ASSERT_EQ(c.file.clips[0].events.size(), 1u);
  EXPECT_EQ(c.file.clips[0].events[0].name, "step");

  Case d = make_case();
  d.file.skeleton.names[2] = "finger";  // not the template's joints: untouched
  const Animated before = d.file;
  EXPECT_TRUE(gltf::fit_to_template(d.file, {"wave"}, d.templ).empty());
  EXPECT_EQ(d.file.clips[0].joints[1].rotation.values.size(), before.clips[0].joints[1].rotation.values.size());
  EXPECT_EQ(d.file.skeleton.rest[1], before.skeleton.rest[1]);
}

}  // namespace
}  // namespace animkit
