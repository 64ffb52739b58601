#include "animkit/asherons_call/synthetic.h"

#include <cmath>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/dat_writer.h"

namespace animkit::asherons_call {

using namespace motion;

MotionData motion_data(uint32_t anim_id, float framerate, Vec3 velocity, Vec3 omega,
                       uint8_t bitfield) {
  MotionData md;
  md.bitfield = bitfield;
  if (anim_id != 0) md.anims.push_back({anim_id, 0, -1, framerate});
  if (velocity != Vec3{}) {
    md.flags |= kHasVelocity;
    md.velocity = velocity;
  }
  if (omega != Vec3{}) {
    md.flags |= kHasOmega;
    md.omega = omega;
  }
  return md;
}

MotionTable humanoid_table() {
  MotionTable t;
  t.id = 0x09000101;
  t.default_style = kNonCombat;
  t.style_defaults.push_back({kNonCombat, kReady});
  auto key = [](uint32_t m) { return motion_key(kNonCombat, m); };
  t.cycles.push_back({key(kReady), motion_data(0x03000100)});
  t.cycles.push_back({key(kWalkForward), motion_data(0x03000101, 30, {0, 3.12f, 0})});
  t.cycles.push_back({key(kRunForward), motion_data(0x03000102, 30, {0, 4.0f, 0})});
  t.cycles.push_back(
      {key(kSideStepRight), motion_data(0x03000103, 30, {1.25f, 0, 0}, {}, kOnlyFromDefault)});
  t.cycles.push_back(
      {key(kTurnRight), motion_data(0x03000104, 30, {}, {0, 0, -1.5f}, kOnlyFromDefault)});
  t.modifiers.push_back({key(kSideStepRight), motion_data(0, 30, {1.25f, 0, 0})});
  t.modifiers.push_back({kTurnRight & 0xFFFFFFu, motion_data(0, 30, {}, {0, 0, -1.5f})});
  LinkSet from_ready{key(kReady), {}};
  from_ready.targets.push_back({kWalkForward, motion_data(0x03000110)});
  from_ready.targets.push_back({kSideStepRight, motion_data(0x03000115)});
  from_ready.targets.push_back({kRunForward, motion_data(0x03000116)});
  LinkSet from_walk{key(kWalkForward), {}};
  from_walk.targets.push_back({kRunForward, motion_data(0x03000111)});
  from_walk.targets.push_back({kReady, motion_data(0x03000113)});
  LinkSet from_run{key(kRunForward), {}};
  from_run.targets.push_back({kWalkForward, motion_data(0x03000112)});
  from_run.targets.push_back({kReady, motion_data(0x03000114)});
  t.links = {from_ready, from_walk, from_run};
  return t;
}

Animation synthetic_animation(uint32_t id, int frames, int parts, bool pos_frames) {
  Animation a;
  a.id = id;
  a.num_parts = static_cast<uint32_t>(parts);
  a.flags = pos_frames ? kHasPosFrames : 0u;
  const Vec3 offsets[] = {
      {0, 0, 1.0f}, {0, 0, 1.3f}, {0, 0, 1.7f}, {0.15f, 0, 0.9f}, {-0.15f, 0, 0.9f}};
  for (int f = 0; f < frames; ++f) {
    const float phase = 6.2831853f * static_cast<float>(f) / static_cast<float>(frames);
    AnimationFrame fr;
    for (int p = 0; p < parts; ++p) {
      AFrame part;
      part.origin = offsets[p % 5];
      float swing = 0;
      if (p % 5 == 3) swing = 0.5f * std::sin(phase);
      if (p % 5 == 4) swing = -0.5f * std::sin(phase);
      if (p % 5 == 1) swing = 0.05f * std::sin(2 * phase);
      part.orientation = axis_angle({1, 0, 0}, swing);
      fr.parts.push_back(part);
    }
    a.frames.push_back(std::move(fr));
    if (pos_frames) a.pos_frames.push_back({{0, 0.02f, 0}, Quat::identity()});
  }
  return a;
}

std::vector<Animation> humanoid_animations() {
  std::vector<Animation> out;
  out.push_back(synthetic_animation(0x03000100, 10, 5, false));
  Animation walk = synthetic_animation(0x03000101, 30, 5, false);
  AnimHook step;
  step.type = static_cast<uint32_t>(HookType::kSound);
  step.direction = 0;
  step.words = {0x0A000001u};
  walk.frames[0].hooks.push_back(step);
  walk.frames[15].hooks.push_back(step);
  out.push_back(std::move(walk));
  out.push_back(synthetic_animation(0x03000102, 20, 5, false));
  out.push_back(synthetic_animation(0x03000103, 20, 5, false));
  out.push_back(synthetic_animation(0x03000104, 20, 5, false));
  for (uint32_t id = 0x03000110; id <= 0x03000116; ++id) {
    Animation link = synthetic_animation(id, id == 0x03000114 ? 8 : 6, 5, true);
    link.frames.back().hooks.push_back(
        AnimHook{static_cast<uint32_t>(HookType::kAnimationDone), 1, {}});
    out.push_back(std::move(link));
  }
  return out;
}

const char* humanoid_parts_json() {
  return R"({"asherons_call": "parts", "parts": [
  {"name": "pelvis", "parent": -1}, {"name": "torso", "parent": 0}, {"name": "head", "parent": 1},
  {"name": "left_leg", "parent": 0}, {"name": "right_leg", "parent": 0}]})";
}

Setup humanoid_setup() {
  Setup s;
  s.id = 0x02000001;
  s.flags = kSetupHasParent | kSetupAllowFreeHeading;
  s.parts = {0x01000001, 0x01000002, 0x01000003, 0x01000004, 0x01000005};
  s.parent_index = {kNoParent, 0, 1, 0, 0};
  const Animation pose = synthetic_animation(0x03000000, 1, 5, false);
  s.placement_frames.push_back({kPlacementDefault, pose.frames[0]});
  AnimationFrame resting = pose.frames[0];
  for (AFrame& f : resting.parts) f.origin.z -= 0.1f;
  resting.parts[1].orientation = axis_angle({1, 0, 0}, 0.2f);
  s.placement_frames.push_back({kPlacementResting, resting});
  s.height = 1.8f;
  s.radius = 0.4f;
  s.step_up_height = 0.4f;
  s.step_down_height = 0.4f;
  s.sorting_sphere = {{0, 0, 0.9f}, 1.0f};
  s.selection_sphere = {{0, 0, 0.9f}, 1.0f};
  s.default_motion_table = 0x09000101;
  return s;
}

std::vector<uint8_t> humanoid_dat() {
  std::vector<DatObject> objects;
  objects.push_back({0x02000001, write_setup(humanoid_setup())});
  objects.push_back({0x09000101, write_motion_table(humanoid_table())});
  for (const Animation& a : humanoid_animations()) objects.push_back({a.id, write_animation(a)});
  return write_dat(std::move(objects));
}

}  // namespace animkit::asherons_call
