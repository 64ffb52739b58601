#include "animkit/asherons_call/creature.h"

#include <fmt/format.h>

#include <functional>
#include <queue>

#include <cmath>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/frame_ops.h"

namespace animkit::asherons_call {

// ---- axes (container page 6, "Axes") ---------------------------------------------------------

Vec3 to_gltf_axes(Vec3 v) { return {-v.x, v.z, v.y}; }
Quat to_gltf_axes(Quat q) { return {-q.x, q.z, q.y, q.w}; }
Vec3 from_gltf_axes(Vec3 v) { return {-v.x, v.z, v.y}; }
Quat from_gltf_axes(Quat q) { return {-q.x, q.z, q.y, q.w}; }
AFrame to_gltf_axes(const AFrame& f) {
  return {to_gltf_axes(f.origin), to_gltf_axes(f.orientation)};
}
AFrame from_gltf_axes(const AFrame& f) {
  return {from_gltf_axes(f.origin), from_gltf_axes(f.orientation)};
}

// ---- the rig ---------------------------------------------------------------------------------

std::vector<int> rig_parents(const Setup& setup, Rig rig) {
  const size_t n = setup.parts.size();
  std::vector<int> flat(n, -1);
  if (rig == Rig::kFlat || !(setup.flags & kSetupHasParent) || setup.parent_index.size() != n)
    return flat;
  std::vector<int> parents(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t p = setup.parent_index[i];
    if (p == kNoParent || p >= n) continue;  // container page 6: a root
    if (p == i) return flat;                 // a part its own parent: not a forest
    parents[i] = static_cast<int>(p);
  }
  // Issue 28: a parent listed after its child is still a forest ([2, -1, 1, 1]); only a cycle
  // is not (part_joints finds it).
  if (part_joints(parents).empty() && n > 0) return flat;
  return parents;
}

std::vector<int> part_joints(const std::vector<int>& parents) {
  // Kahn's order, smallest part first: part order itself when every parent precedes its child.
  const size_t n = parents.size();
  std::vector<std::vector<int>> children(n);
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (parents[i] < 0)
      ready.push(static_cast<int>(i));
    else
      children[static_cast<size_t>(parents[i])].push_back(static_cast<int>(i));
  }
  std::vector<int> joint(n, -1);
  int next = 1;  // joint 0 is the root
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    joint[static_cast<size_t>(i)] = next++;
    for (int c : children[static_cast<size_t>(i)]) ready.push(c);
  }
  if (static_cast<size_t>(next - 1) != n) return {};  // a cycle
  return joint;
}

std::string part_joint_name(size_t part) { return fmt::format("part_{}", part); }

std::vector<AFrame> rest_parts(const Setup& setup) {
  std::vector<AFrame> parts(setup.parts.size(), AFrame{});
  if (const PlacementFrame* rest = setup.rest_placement()) apply_pose(parts, rest->frame);
  return parts;
}

void apply_pose(std::vector<AFrame>& parts, const AnimationFrame& pose) {
  // Container page 6, "Composition": i < min(N, pose.count); the rest keep their frame.
  const size_t n = std::min(parts.size(), pose.parts.size());
  for (size_t i = 0; i < n; ++i) parts[i] = pose.parts[i];
}

namespace {

// Part i's glTF-space local transform: object space under the root, or relative to its parent
// part (container page 6, "Hierarchical rig": q_loc = conj(q_p) q_i, t_loc = rotate(conj(q_p),
// t_i - t_p)).
AFrame local_frame(const std::vector<AFrame>& parts, const std::vector<int>& parents, size_t i) {
  AFrame f = parts[i];
  if (const int p = parents[i]; p >= 0) {
    const Quat inv = conjugate(normalize(parts[static_cast<size_t>(p)].orientation));
    f.origin = rotate(inv, f.origin - parts[static_cast<size_t>(p)].origin);
    f.orientation = inv * f.orientation;
  }
  return to_gltf_axes(f);
}

Transform transform_of(const AFrame& f) {
  Transform t;
  t.translation = f.origin;
  t.rotation = f.orientation;
  return t;
}

void add_key(JointTracks& jt, float t, const AFrame& f) {
  jt.translation.add(t, f.origin);
  jt.rotation.add(t, f.orientation);
}

std::optional<Clip> creature_clip(const std::string& name, const MotionData& md,
                                  const AnimationStore& store, const Setup& setup,
                                  const std::vector<int>& parents, bool looping) {
  float end = 0;
  const std::vector<ShownFrame> shown = shown_frames(md, store, &end);
  if (shown.empty()) return std::nullopt;
  Clip clip;
  clip.name = name;
  clip.looping = looping;
  clip.duration = end;
  clip.joints.resize(setup.parts.size() + 1);
  for (const AnimData& d : md.anims) {
    const float r = std::fabs(d.framerate);
    if (r > kEpsilon && std::isfinite(r)) {
      clip.frame_rate = r;
      break;
    }
  }
  std::vector<AFrame> parts = rest_parts(setup);
  const std::vector<int> joint = part_joints(parents);
  for (const ShownFrame& s : shown) {
    apply_pose(parts, *s.pose);
    add_key(clip.joints[0], s.time, to_gltf_axes(s.root));
    for (size_t i = 0; i < parts.size(); ++i)
      add_key(clip.joints[static_cast<size_t>(joint[i])], s.time, local_frame(parts, parents, i));
    for (const AnimHook& h : s.pose->hooks) {
      const std::string_view hn = hook_type_name(h.type);
      clip.events.push_back({s.time, std::string(hn.empty() ? "hook" : hn), to_json(h).dump()});
    }
  }
  for (JointTracks& jt : clip.joints) {
    jt.translation.interpolation = Interpolation::kStep;
    jt.rotation.interpolation = Interpolation::kStep;
  }
  return clip;
}

std::string rig_note(const Setup& setup, const std::vector<int>& parents, Rig rig) {
  bool any = false;
  for (int p : parents) any |= p >= 0;
  if (any) return "parts hang by the Setup's parent_index (parent-relative per pose)";
  if (rig == Rig::kFlat) return "flat rig (asked for): every part under the object's root joint";
  if (setup.flags & kSetupHasParent)
    return "flat rig: the Setup's parent_index is not a forest (a cycle)";
  return "flat rig: every part under the object's root joint";
}

}  // namespace

Skeleton creature_skeleton(const Setup& setup, const std::vector<int>& parents) {
  Skeleton sk;
  sk.add_joint("root", -1, Transform::identity());
  const std::vector<AFrame> rest = rest_parts(setup);
  const std::vector<int> joint = part_joints(parents);
  std::vector<size_t> part_at(setup.parts.size() + 1, 0);
  for (size_t i = 0; i < setup.parts.size(); ++i) part_at[static_cast<size_t>(joint[i])] = i;
  for (size_t j = 1; j <= setup.parts.size(); ++j) {
    const size_t i = part_at[j];
    const int parent = parents[i] < 0 ? 0 : joint[static_cast<size_t>(parents[i])];
    sk.add_joint(part_joint_name(i), parent, transform_of(local_frame(rest, parents, i)));
  }
  return sk;
}

std::vector<ShownFrame> shown_frames(const MotionData& md, const AnimationStore& store,
                                     float* end) {
  std::vector<ShownFrame> out;
  AFrame root;
  float t = 0;
  bool first = true;
  for (const AnimData& d : md.anims) {
    const Animation* anim = store.find(d.anim_id);
    if (!anim || anim->frames.empty()) continue;
    const AnimSequenceNode node(d, anim);  // runtime 1.1: the clamps
    const float fr = node.framerate;
    if (!(std::fabs(fr) > kEpsilon) || !std::isfinite(fr)) continue;
    const float step = 1.0f / std::fabs(fr);
    auto show = [&](int64_t i) {
      if (const AnimationFrame* pose = node.get_part_frame(i))
        out.push_back({d.anim_id, i, pose, root, t});
      t += step;
    };
    if (fr > 0) {
      // advance_to_next_animation: a node entered forward combines its starting pos frame;
      // the first node of an empty sequence is only appended (runtime 1.2).
      if (!first) {
        if (const AFrame* p = node.get_pos_frame(node.low_frame)) combine(root, *p);
      }
      for (int64_t i = node.low_frame; i <= node.high_frame; ++i) {
        show(i);
        // Leaving frame i combines pos_frame[i]; the last frame (high) is never left forward.
        if (i < node.high_frame) {
          if (const AFrame* p = node.get_pos_frame(i)) combine(root, *p);
        }
      }
    } else {
      // Backwards from high (high + 1 - EPS floors to high): leaving frame i subtracts it; the
      // low frame's is subtracted as the node is left (advance, outgoing fr < 0).
      for (int64_t i = node.high_frame; i >= node.low_frame; --i) {
        show(i);
        if (const AFrame* p = node.get_pos_frame(i)) subtract(root, *p);
      }
    }
    first = false;
  }
  if (end) *end = t;
  return out;
}

Animated creature_to_neutral(const Setup& setup, const MotionTable* table,
                             const AnimationStore& store, const CreatureOptions& options) {
  Animated out;
  const std::vector<int> parents = rig_parents(setup, options.rig);
  out.skeleton = creature_skeleton(setup, parents);
  size_t skipped = 0;
  auto add = [&](std::optional<Clip> c) {
    if (c)
      out.clips.push_back(std::move(*c));
    else
      ++skipped;
  };
  if (table) {
    for (const KeyedMotion& k : table->cycles)
      add(creature_clip("cycle " + motion_key_label(k.key), k.data, store, setup, parents, true));
    for (const KeyedMotion& k : table->modifiers)
      add(creature_clip("modifier " + motion_key_label(k.key), k.data, store, setup, parents,
                        true));
    for (const LinkSet& l : table->links) {
      for (const LinkTarget& lt : l.targets) {
        add(creature_clip(
            "link " + motion_key_label(l.key) + " -> " + command_label(lt.to_motion), lt.data,
            store, setup, parents, false));
      }
    }
  }
  out.notes.push_back(fmt::format(
      "Setup {}: {} parts; {}; rest pose {}", hex32(setup.id), setup.parts.size(),
      rig_note(setup, parents, options.rig),
      setup.rest_placement() ? fmt::format("placement {}", setup.rest_placement()->key)
                             : std::string("identity (no placement 101 or 0)")));
  if (table) {
    out.notes.push_back(fmt::format(
        "motion table {}: {} cycles, modifiers and links as clips (step keys, frames as the "
        "client shows them; axes: AC Z-up -> glTF Y-up)",
        hex32(table->id), out.clips.size()));
  }
  if (skipped)
    out.notes.push_back(fmt::format("{} cycles/modifiers/links have no loadable animation", skipped));
  size_t mismatched = 0;
  for (const auto& [id, a] : store.all()) mismatched += a.num_parts != setup.parts.size();
  if (mismatched) {
    out.notes.push_back(fmt::format(
        "{} animation(s) have a part count other than the Setup's {}: the first min parts are "
        "posed, the rest hold",
        mismatched, setup.parts.size()));
  }
  return out;
}

Animated creature_animation_to_neutral(const Setup& setup, const Animation& animation, float rate,
                                       const CreatureOptions& options) {
  AnimationStore store;
  store.add(animation);
  Animated out;
  const std::vector<int> parents = rig_parents(setup, options.rig);
  out.skeleton = creature_skeleton(setup, parents);
  MotionData md;
  md.anims.push_back({animation.id, 0, -1, rate});
  if (auto c = creature_clip(hex32(animation.id), md, store, setup, parents, false))
    out.clips.push_back(std::move(*c));
  out.notes.push_back(fmt::format("Setup {}: {} parts; {}", hex32(setup.id), setup.parts.size(),
                                  rig_note(setup, parents, options.rig)));
  out.notes.push_back(fmt::format(
      "animation {} played at {} frames a second (an animation carries no rate of its own)",
      hex32(animation.id), rate));
  return out;
}

}  // namespace animkit::asherons_call
