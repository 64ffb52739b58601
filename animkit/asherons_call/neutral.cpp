#include "animkit/asherons_call/neutral.h"

#include <fmt/format.h>

#include <cmath>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/frame_ops.h"

namespace animkit::asherons_call {

namespace {

Skeleton make_skeleton(uint32_t num_parts, const Parts* parts) {
  Skeleton sk;
  sk.add_joint("root", -1, Transform::identity());
  const uint32_t n = parts ? static_cast<uint32_t>(parts->names.size()) : num_parts;
  for (uint32_t i = 0; i < n; ++i) {
    const int parent = parts ? parts->parents[i] + 1 : 0;  // flat: children of the root
    sk.add_joint(parts ? parts->names[i] : fmt::format("part_{}", i), parent,
                 Transform::identity());
  }
  return sk;
}

// Object-space part frames into parent-local transforms.
void add_pose(Clip& clip, const Skeleton& sk, const AnimationFrame& frame, const AFrame& root,
              float t) {
  clip.joints[0].translation.add(t, root.origin);
  clip.joints[0].rotation.add(t, root.orientation);
  const size_t n = sk.num_joints() - 1;
  for (size_t p = 0; p < n; ++p) {
    const AFrame f = p < frame.parts.size() ? frame.parts[p] : AFrame{};
    Vec3 pos = f.origin;
    Quat rot = f.orientation;
    const int parent = sk.parents[p + 1] - 1;
    if (parent >= 0 && static_cast<size_t>(parent) < frame.parts.size()) {
      const AFrame& pf = frame.parts[static_cast<size_t>(parent)];
      const Quat inv = conjugate(normalize(pf.orientation));
      pos = rotate(inv, pos - pf.origin);
      rot = normalize(inv * rot);
    }
    clip.joints[p + 1].translation.add(t, pos);
    clip.joints[p + 1].rotation.add(t, rot);
  }
}

// One clip of a MotionData's nodes played back to back at their own rates (step keys: the
// client never interpolates between keyframes).
std::optional<Clip> motion_clip(const std::string& name, const MotionData& md,
                                const AnimationStore& store, const Skeleton& sk, bool looping) {
  Clip clip;
  clip.name = name;
  clip.looping = looping;
  clip.joints.resize(sk.num_joints());
  float t = 0;
  AFrame root;
  bool any = false;
  for (const AnimData& d : md.anims) {
    const Animation* anim = store.find(d.anim_id);
    if (!anim || anim->frames.empty()) continue;
    const AnimSequenceNode node(d, anim);
    const float rate = std::fabs(node.framerate);
    if (!(rate > kEpsilon) || !std::isfinite(rate)) continue;
    if (!any) clip.frame_rate = rate;
    any = true;
    const int step = node.framerate >= 0 ? 1 : -1;
    for (int64_t i = step > 0 ? node.low_frame : node.high_frame;
         step > 0 ? i <= node.high_frame : i >= node.low_frame; i += step) {
      if (const AFrame* p = node.get_pos_frame(i))
        step > 0 ? combine(root, *p) : subtract(root, *p);
      const AnimationFrame* pf = node.get_part_frame(i);
      if (!pf) continue;
      add_pose(clip, sk, *pf, root, t);
      for (const AnimHook& h : pf->hooks) {
        const std::string_view hn = hook_type_name(h.type);
        clip.events.push_back({t, std::string(hn.empty() ? "hook" : hn), to_json(h).dump()});
      }
      t += 1.0f / rate;
    }
  }
  if (!any) return std::nullopt;
  clip.duration = t;
  for (JointTracks& jt : clip.joints) {
    jt.translation.interpolation = Interpolation::kStep;
    jt.rotation.interpolation = Interpolation::kStep;
  }
  return clip;
}

uint32_t max_parts(const AnimationStore& store) {
  uint32_t n = 0;
  for (const auto& [id, a] : store.all()) n = std::max(n, a.num_parts);
  return n;
}

}  // namespace

Animated table_to_neutral(const MotionTable& table, const AnimationStore& store,
                          const Parts* parts) {
  Animated out;
  out.skeleton = make_skeleton(max_parts(store), parts);
  size_t skipped = 0;
  for (const KeyedMotion& k : table.cycles) {
    auto c = motion_clip("cycle " + motion_key_label(k.key), k.data, store, out.skeleton, true);
    if (c)
      out.clips.push_back(std::move(*c));
    else
      ++skipped;
  }
  for (const LinkSet& l : table.links) {
    for (const LinkTarget& t : l.targets) {
      auto c = motion_clip("link " + motion_key_label(l.key) + " -> " + command_label(t.to_motion),
                           t.data, store, out.skeleton, false);
      if (c)
        out.clips.push_back(std::move(*c));
      else
        ++skipped;
    }
  }
  out.notes.push_back(fmt::format("{} cycles and links as clips over {} parts ({}), step keys",
                                  out.clips.size(), out.skeleton.num_joints() - 1,
                                  parts ? "part hierarchy" : "flat"));
  if (skipped)
    out.notes.push_back(fmt::format("{} cycles/links have no loadable animation", skipped));
  return out;
}

Animated animation_to_neutral(const Animation& animation, const Parts* parts) {
  AnimationStore store;
  store.add(animation);
  Animated out;
  out.skeleton = make_skeleton(animation.num_parts, parts);
  MotionData md;
  md.anims.push_back({animation.id, 0, -1, 30.0f});
  if (auto c = motion_clip(hex32(animation.id), md, store, out.skeleton, false))
    out.clips.push_back(std::move(*c));
  out.notes.push_back("played at 30 frames per second (an animation carries no rate of its own)");
  return out;
}

}  // namespace animkit::asherons_call
