// Ragdolls (spec: "Ragdolls"): the ring of eight powered ragdolls, the brain's controller
// selection, the rest test of the dead-body step, and the death settings copied at creation.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/shadow_of_war/ragdoll_behavior.h"

namespace animkit::shadow_of_war {

struct FloatRange {
  float min = 0, max = 0;
  bool contains(float v) const { return v >= min && v <= max; }
};

// The conditions of one Brain.BehaviorControllers entry; an unset condition always passes.
struct ControllerConditions {
  std::optional<FloatRange> Height, Velocity, AverageBodyVelocity, TimeOnGround, TimeInAir,
      TimeStationary, TimeMoving, TimeInBehavior, TimeTotal, SpineUpright;
  std::optional<bool> HeadSevered;
  std::vector<std::string> IncludeHints, ExcludeHints;
  std::optional<std::string> CurrentController, PriorController;
  std::optional<int32_t> CombatState;
};

struct BehaviorController {
  std::string name;
  ControllerConditions conditions;
  std::vector<std::string> BehaviorSets;  // candidates, by RequiredRagdollConfig
};

struct Brain {
  std::string name;                     // the ragdoll config (Orc_Base, OlogHai_Base)
  FloatRange OnGround{-1e30f, 30.f};    // height range: on the ground (else in the air)
  FloatRange Stationary{-1e30f, 15.f};  // velocity range: stationary (else moving)
  std::vector<BehaviorController> BehaviorControllers;  // walked in order
  const BehaviorLibrary* library = nullptr;              // the scene's behaviour records
};

// What the brain samples each step.
struct BrainSample {
  float height = 0;
  float velocity = 0;
  float average_body_velocity = 0;
  float spine_upright = 1;
  bool head_severed = false;
  std::vector<std::string> hints;
  int32_t combat_state = 0;
};

struct BrainTimers {
  float on_ground = 0, in_air = 0, stationary = 0, moving = 0, in_behavior = 0, total = 0;
};

// The controller at char+0x1AF8.
struct RagdollController {
  int32_t slot = -1;  // +0x2EC: the ring slot, -1 once released
  const Brain* brain = nullptr;
  int32_t current = -1, prior = -1;  // BehaviorControllers indices
  BrainTimers timers;
  // Started on the last change: the set, the behaviour and its running sequences.
  const BehaviorSet* behavior_set = nullptr;
  const Behavior* behavior = nullptr;
  std::vector<RunningSequence> sequences;

  // The brain step (0x30F6D4): runs only while the controller holds a slot; updates the timers
  // (OnGround and Stationary decide which run), then takes the first controller whose conditions
  // all pass; on a change records the prior controller, resets the behaviour timer, picks a
  // BehaviorSet whose RequiredRagdollConfig is the brain's config, its first behaviour
  // (README, Choices 14) and starts the behaviour's Sequences. Returns true on a change.
  bool step(const BrainSample& sample, float dt);
  const char* current_name() const;

 private:
  void start_behavior();
};

bool conditions_pass(const ControllerConditions& c, const BrainSample& s, const BrainTimers& t,
                     const Brain& brain, int32_t current, int32_t prior);

// The ring of eight ([base+0x26FFB90] controllers, [base+0x26FFB88] the cursor).
class RagdollRing {
 public:
  static constexpr int kSlots = 8;
  // 0x65C214: releases the controller in the cursor's slot, stores the new one, writes the slot
  // into controller+0x2EC and advances the cursor modulo 8. Returns the slot.
  int32_t claim(RagdollController& controller);
  // Empties the controller's slot (the body cleanup stops its powered ragdoll); +0x2EC -> -1.
  void release(RagdollController& controller);
  int held() const;
  const std::array<RagdollController*, kSlots>& slots() const { return slots_; }
  int32_t cursor() const { return cursor_; }

 private:
  std::array<RagdollController*, kSlots> slots_{};
  int32_t cursor_ = 0;
};

// Character/Models/Global body settings, copied into char+0x1E50 when a character is created
// (shipped values as defaults).
struct DeathSettings {
  bool BodyRagdoll = true;                  // +0x239
  float BodyDeathDirMinY = 0.4f;            // +0x218
  bool BodyDeathForce = true;               // +0x238
  float BodyDeathForceScale = 0.5f;         // +0x21C
  bool BodyDirDeathForce = true;            // +0x234
  float BodyDirDeathForceScale = 1.5f;      // +0x220
  float BodyStickDist = 400.f;              // +0x228
  float BodyStickTime = 0.3f;               // +0x22C
  float BodyDeathScaleVelocity = 1.0f;      // +0x230
  float BodyDeathClampVelocityMax = 800.f;  // +0x224
  friend bool operator==(const DeathSettings&, const DeathSettings&) = default;
};

Brain brain_from_json(const Json& j);
Json to_json(const DeathSettings& s);

}  // namespace animkit::shadow_of_war
