#include "animkit/warriors/demo.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <ostream>

#include "animkit/core/demo_gltf.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/clock.h"
#include "animkit/warriors/document.h"
#include "animkit/warriors/instance.h"

namespace animkit::warriors {

namespace {
Quat about(Vec3 axis, float angle) { return axis_angle(axis, angle); }
}  // namespace

AnmClip synthetic_gait_clip(const std::string& name, int frames, float swing, float speed) {
  ClipBuilder b;
  b.name = name;
  b.frames = frames;
  b.displacement_y = speed * frames / 30.0f;
  const auto& ref = reference_pose();
  const float two_pi = 2 * std::numbers::pi_v<float>;
  for (int f = 0; f <= frames; f += 3) {
    const int key = std::min(f, frames);
    const float phase = two_pi * key / frames;
    b.velocity.push_back({key, {0, speed, 0}});
    b.translation.push_back({key, {0, 0, 0.95f + 0.03f * std::cos(2 * phase)}});
    b.rotations[1].push_back({key, ref[1]});
    b.rotations[3].push_back({key, ref[3] * about({0, 0, 1}, 0.05f * std::sin(phase))});
    b.rotations[28].push_back({key, ref[28] * about({0, 0, 1}, swing * std::sin(phase))});
    b.rotations[31].push_back({key, ref[31] * about({0, 0, 1}, -swing * std::sin(phase))});
    b.rotations[29].push_back(
        {key, ref[29] * about({0, 0, 1}, 0.5f * swing * (1 - std::cos(phase)))});
    b.rotations[32].push_back(
        {key, ref[32] * about({0, 0, 1}, 0.5f * swing * (1 + std::cos(phase)))});
  }
  for (int contact : {0, frames / 2}) {
    AnimEvent e;
    e.frame = static_cast<uint16_t>(contact);
    e.type = 0x0b;
    e.position = {static_cast<int16_t>(100 + contact), 0, 0};  // sound id
    b.events.push_back(e);
  }
  return b.build();
}

AnmClip synthetic_idle_clip() {
  ClipBuilder b;
  b.name = "idle";
  b.frames = 60;
  const auto& ref = reference_pose();
  for (int f = 0; f <= 60; f += 10) {
    const float phase = 2 * std::numbers::pi_v<float> * f / 60;
    b.translation.push_back({f, {0, 0, 0.95f}});
    b.rotations[3].push_back({f, ref[3] * about({0, 0, 1}, 0.03f * std::sin(phase))});
  }
  return b.build();
}

void run_demo(DemoContext& ctx) {
  const AnmClip walk = synthetic_gait_clip("walk", 36, 0.35f, 1.5f);
  const AnmClip jog = synthetic_gait_clip("jog", 24, 0.6f, 3.5f);
  const AnmClip run = synthetic_gait_clip("run", 20, 0.85f, 6.0f);
  const AnmClip idle = synthetic_idle_clip();
  // The clips as .anm resources, and a scenario that plays them (`animkit play`).
  const std::filesystem::path dir = ctx.out_dir;
  for (const AnmClip* c : {&walk, &jog, &run, &idle}) {
    Writer w;
    write_resource(w, make_anm_resource(*c));
    write_file(dir / fmt::format("warriors-{}.anm", c->descriptor.name_text()), w.bytes());
  }
  // The same clips as a character resource (ids 4, 5, 6, 388; the gaits with flag 0x1000) and a
  // pack holding it and the standalone idle.
  Resource character = make_character_resource("demo", {walk, jog, run, idle}, {4, 5, 6, 388},
                                               {{4, 0x1000}, {5, 0x1000}, {6, 0x1000}});
  {
    Writer w;
    write_resource(w, character);
    write_file(dir / "warriors-character.res", w.bytes());
    Writer pw;
    write_pack(pw, make_pack({character, make_anm_resource(idle)}));
    write_file(dir / "warriors-pack.pak", pw.bytes());
  }
  const Json scenario = {
      {"engine", "warriors"},
      {"clips",
       {{"4", "warriors-walk.anm"},
        {"5", "warriors-jog.anm"},
        {"6", "warriors-run.anm"},
        {"388", "warriors-idle.anm"}}},
      {"anim_speeds", {0.75, 0.8, 1.0, 0.9}},
      {"range_flags", {{"4", 4096}, {"5", 4096}, {"6", 4096}}},
      {"updates", 90},
      {"actions",
       {{{"at", 0}, {"do", "gait"}, {"anims", {4, 5, 6, 6, 6}}, {"value", 0}, {"flags", 705}},
        {{"at", 1}, {"do", "gait_target"}, {"value", 3}},
        {{"at", 60}, {"do", "change"}, {"fade", 0.3}, {"task", {{"do", "loop"}, {"anim", 388}}}}}}};
  write_text(dir / "warriors-scenario.json", scenario.dump(1) + "\n");

  // Play it here too, recording the pose of every update as a clip of its own.
  PlayClip pw = make_play_clip(walk, 4), pj = make_play_clip(jog, 5), pr = make_play_clip(run, 6),
           pi = make_play_clip(idle, 388);
  CharacterInstance inst;
  auto gait = std::make_unique<GaitTask>(
      &inst, std::array<const PlayClip*, 5>{&pw, &pj, &pr, &pr, &pr}, 0.0f, 1.0f);
  gait->set_flags(kLocomotionFlags);
  inst.insert_bottom(std::move(gait));
  Clip played;
  played.name = "gait_0_to_3_then_idle";
  played.frame_rate = 30;
  played.joints.resize(kNumBones);
  int events = 0, leader_changes = 0, last_anim = -1;
  for (int k = 0; k < 90; ++k) {
    inst.begin_update();
    inst.advance(kDt);
    inst.flush_deferred();
    if (k == 1) inst.find_top(12)->set_blend_target(3.0f);
    if (k == 60) {
      auto idle_task = std::make_unique<ClipTask>(1, &inst, &pi, 0.75f);
      inst.change(std::move(idle_task), 0.3f);
    }
    const WarPose& pose = inst.sample();
    inst.apply_root_motion(kDt);
    events += static_cast<int>(inst.events().size());
    if (inst.human.playing_anim != last_anim) ++leader_changes;
    last_anim = inst.human.playing_anim;
    const float t = k * kDt;
    played.joints[1].translation.add(t, pose.root_translation);
    for (int b = 1; b < kNumBones; ++b) played.joints[b].rotation.add(t, pose.rotations[b]);
  }
  played.duration = 89 * kDt;
  for (auto& j : played.joints) j.rotation.interpolation = Interpolation::kSlerp;
  Animated out;
  out.skeleton = neutral_skeleton(nullptr);
  for (const AnmClip* c : {&walk, &jog, &run, &idle}) out.clips.push_back(neutral_clip(*c, 0));
  out.clips.push_back(std::move(played));
  const auto path = dir / "warriors.glb";
  write_demo_gltf(out, path);
  ctx.out << fmt::format(
      "warriors: synthetic walk (36 f), jog (24 f), run (20 f) and idle (60 f) written as .anm "
      "resources, a character resource and a pack; warriors-scenario.json plays them\n");
  ctx.out << fmt::format(
      "warriors: gait blend 0 -> 3 (flags 0x2c1: no root velocity, as the locomotion plays it) "
      "for 60 updates, then a 0.3 s fade to the idle loop: {} playing-anim changes, {} footstep "
      "events, root moved {:.2f} m\n",
      leader_changes, events, length(inst.human.position));
  ctx.out << fmt::format("warriors: wrote {} (34 joints, {} clips; reference pose, unit offsets)\n",
                         path.string(), out.clips.size());
}

}  // namespace animkit::warriors
