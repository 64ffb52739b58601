// A humanoid-like motion table and its animations, built in code (never copied from a game): the
// demo's, the tests' and the benchmark's fixture.
//
//   style NonCombat (default), default substate Ready
//   cycles   Ready 0x03000100 (10 frames), WalkForward 0x03000101 (30 frames, velocity y 3.12),
//            RunForward 0x03000102 (20 frames, velocity y 4.0), SideStepRight 0x03000103 and
//            TurnRight 0x03000104 (bitfield 2: only from Ready)
//   modifiers SideStepRight (style-qualified, velocity x 1.25), TurnRight (bare key, omega z -1.5)
//   links    Ready->Walk 0x03000110, Walk->Run 0x03000111, Run->Walk 0x03000112,
//            Walk->Ready 0x03000113, Run->Ready 0x03000114, Ready->SideStepRight 0x03000115,
//            Ready->Run 0x03000116 (6 frames each, 30 fps; Run->Ready 8)
//   every animation has 5 parts (pelvis, torso, head, left leg, right leg); the walk cycle has a
//   Sound hook on frames 0 and 15; links carry pos_frames and a data AnimationDone hook on their
//   last frame.
#pragma once

#include <vector>

#include "animkit/asherons_call/animation.h"
#include "animkit/asherons_call/motion_table.h"
#include "animkit/asherons_call/setup.h"

namespace animkit::asherons_call {

MotionTable humanoid_table();
std::vector<Animation> humanoid_animations();
// An animation of `frames` frames and `parts` parts swinging the legs (phase per frame).
Animation synthetic_animation(uint32_t id, int frames, int parts, bool pos_frames);
// A MotionData of one AnimData (whole animation, at `framerate`).
MotionData motion_data(uint32_t anim_id, float framerate = 30.f, Vec3 velocity = {},
                       Vec3 omega = {}, uint8_t bitfield = 0);
// The part hierarchy of the humanoid as the parts JSON `--parts` reads.
const char* humanoid_parts_json();
// The humanoid's Setup 0x02000001 (container page 5): the 5 parts with parent_index (pelvis,
// torso, head, left and right leg), placements 0 Default and 101 Resting (a lower stance), and
// default motion table 0x09000101.
Setup humanoid_setup();
// A client_portal-shaped dat of the Setup, the table and its animations (the demo's and the
// tests' creature).
std::vector<uint8_t> humanoid_dat();

}  // namespace animkit::asherons_call
