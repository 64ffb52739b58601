// One update's pose as a neutral skeleton + a one-key clip (`animkit warriors pose`): the 34
// local rotations and the root translation the task stack gave (warriors.txt, "The pose",
// "Bone transforms"), on the instance's bone offsets.
#pragma once

#include <string>

#include "animkit/core/registry.h"
#include "animkit/warriors/instance.h"

namespace animkit::warriors {

// The skeleton's rest is the pose itself (a viewer that ignores animations still shows it); the
// clip `name` holds the same values as one key at time 0. Bone 0 is the identity at the origin
// (its turn is motion, never drawn); bone 1 takes the root translation and its rotation as is.
Animated pose_to_neutral(const CharacterInstance& instance, const std::string& name);

}  // namespace animkit::warriors
