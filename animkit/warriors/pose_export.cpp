#include "animkit/warriors/pose_export.h"

namespace animkit::warriors {

Animated pose_to_neutral(const CharacterInstance& instance, const std::string& name) {
  const WarPose& pose = instance.pose();
  Animated out;
  Clip clip;
  clip.name = name;
  clip.duration = 0;
  clip.frame_rate = 30;
  clip.joints.resize(kNumBones);
  for (int b = 0; b < kNumBones; ++b) {
    Transform t;
    if (b >= 1) t.rotation = tagged(pose.rotations[b], false);
    if (b == 1) t.translation = tagged(pose.root_translation, false);
    if (b >= 2) t.translation = instance.offsets()[b];
    out.skeleton.add_joint(bone_name(b), kParents[b], t);
    clip.joints[b].rotation.add(0, t.rotation);
    if (b == 1) clip.joints[b].translation.add(0, t.translation);
  }
  out.clips.push_back(std::move(clip));
  out.notes.push_back("one update's pose: the skeleton's rest and a one-key clip");
  return out;
}

}  // namespace animkit::warriors
