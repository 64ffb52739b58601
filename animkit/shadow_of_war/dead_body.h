// The dead-body step 0x2F8460(state = char+0x1AF0, character) (spec: "The dead-body step",
// "Clip keywords", "The ring of eight"): on the frame of death steps 1-3 (the killing attack's
// RagdollReaction, the ring slot, the joint setup and the brain, DeathProjectiles, the switch to
// RigidBody, RagdollDeathAnimation, the audio hook) and the keyword gates; on every later frame
// step 4 (the brain, the rest test, then the body cleanup or the hit-reaction relax).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/shadow_of_war/keyword.h"
#include "animkit/shadow_of_war/physics_ragdoll.h"
#include "animkit/shadow_of_war/ragdoll.h"

namespace animkit::shadow_of_war {

class Character;

// The rest test (step 4): counting from the state's time stamp (world time since death; README,
// Choices 15: "the brain's running time"), a body is at rest after 15 s, or after 3 s once its
// speed falls below AtRestSpeed (Character/Models/BodyCleanup; 15 cm/s without a record). The
// thresholds are initialised data read only by this step: [base+0x26736A4] 15.0,
// [base+0x26736AC] 15.0, [base+0x26736B0] 3.0, with the enable bytes [base+0x26736A8] and
// [base+0x26736C0].
struct RestSettings {
  double AtRestSpeed = 15.0;      // cm/s, without a BodyCleanup record
  double rest_time = 15.0;        // s
  double slow_rest_time = 3.0;    // s
  bool rest_time_enabled = true;  // the 15 s rule
  bool slow_rest_enabled = true;  // the 3 s rule
};
// Times within this of a threshold count as reached: dt values printed in JSON (0.1, 1/60 as
// 0.016666668) are not exact binary fractions (README, Choices 15).
inline constexpr double kTimeTolerance = 1e-6;
bool at_rest(double seconds_since_stamp, double speed, const RestSettings& settings = {});

// A Character/Models/BodyCleanup record (Troll, Fellbeast): the rest speed and what the body
// cleanup 0x6C00A0 reads. Without a record: the default speed and no Lifetime (the body stays).
struct BodyCleanup {
  std::string name;
  std::optional<double> AtRestSpeed;  // cm/s; Troll and Fellbeast ship 1,000,000
  std::optional<double> Lifetime;     // s a resting body stays before it is removed
  double SinkDistance = 0;            // cm it sinks when removed
};

// A ragdoll config (Ragdoll: Orc_Base, OlogHai_Base): its brain and its joint constraints.
struct RagdollConfig {
  std::string name;
  Brain brain;
  std::vector<RagdollConstraint> Constraints;
};
RagdollConfig ragdoll_config_from_json(const Json& j);

// Combat/Category.RagdollReaction of the killing attack (11 of 2,559 categories set one).
struct RagdollReaction {
  std::string name;
  double InitalVelocityScale = 1;  // the spec's spelling
  double ForceValue = 0;
};

// The killing attack (Combat/Attack): its category's RagdollReaction, its AnimationData, its
// AttackPostData and its MultiHitRecords.
struct Attack {
  std::string name;
  std::string Category;
  std::optional<RagdollReaction> Reaction;
  std::string AnimationName;  // AnimationData.Name: a clip of the character's set
  std::string BehaviorNode;   // AnimationData.BehaviorNode: a graph state, keys tested by name
  bool SuppressDeathAnimGroundCheck = false;  // AttackPostData
  std::vector<Attack> MultiHitRecords;
};
Attack attack_from_json(const std::string& name, const Json& j);

// A Combat/Buffs record on the character.
struct Buff {
  std::string name;
  std::vector<std::string> DeathProjectiles;
};

// The key sets the step passes: 0x75BB34 copies the RAGDOLL and RESUMERAGDOLL entries, 0x2C5DD8
// uses DESTROY (spec, "Clip keywords").
extern const std::array<Keyword, 2> kRagdollQueryKeys;
extern const std::array<Keyword, 1> kDestroyQueryKeys;

// 0x4CAB0C / 0x2C5E10: does the character's clip show one of `keys`. When the combat object's
// animation index [[char+0x26A8]+0x114] is not -1, the events of the clip the character is
// playing; otherwise the attack's own animation: the clip named by AnimationData.Name (looked up
// in the character's set, 0x4C8A0C), or without one the AnimationData.BehaviorNode, where each
// key is tested by name (0x1BDEA50: the state's Tags, any case).
bool clip_shows(const Character& character, const Attack* attack, std::span<const Keyword> keys);

// The state bytes of the dead-body state the keyword gates read and write (char+0x1AF0 + n).
struct DeadBodyFlags {
  bool b353 = true;   // gates the DESTROY branch (README, Choices 17: set at death by default)
  bool b356 = false;  // set when the multi-hit record shows DESTROY
  bool b35A = true;   // the RAGDOLL query runs while set, then clears it
  bool b35C = false, b35D = false;  // set by the other branch when no DESTROY shows
  int32_t phase = 0;                // 5: entered by the DESTROY gate
};

// What the death frame's call did (steps 1-3 and the gates), for the trace.
struct DeathRecord {
  std::string attack;                    // "" : none given
  std::optional<RagdollReaction> reaction;  // read from the attack's category
  bool ragdoll_pending = false;          // the reaction's values read (BodyRagdoll and a reaction)
  std::string config;                    // "" : none (controller without config and brain)
  std::vector<std::string> death_projectiles;  // "buff: projectile" fired
  std::string death_animation;           // the clip played on the base ("" : none)
  std::string audio_hook;                // "CharacterSwitchesToRagdoll"
  bool ragdoll_query = false;            // 0x75BB34's result (not tested by the step)
  std::optional<bool> destroy_query;     // 0x2C5DD8 on the killing attack
  std::optional<bool> multi_hit_destroy; // 0x2C5DD8 on the record 0x190E80 returns
  std::vector<int32_t> skipped_constraints;  // indexes past the ragdoll's joints
};

// A dead body's part of the dead-body step.
struct DeadBody {
  RagdollController controller;
  DeadBodyFlags flags;
  DeathRecord death;
  int64_t frames_since_stamp = 0;  // later frames stepped
  double since_stamp = 0;          // s of world time since the stamp
  bool resting = false;
  double rest_at = 0;  // since_stamp when it came to rest
  bool player = false;
  const BodyCleanup* cleanup = nullptr;  // the model's record, or none
  bool in_cleanup = false;
  bool removed = false;     // Lifetime over: the body cleanup removed it
  double relax_time = 0;    // s during which the hit reaction was relaxed
  std::vector<std::string> hints;  // what the brain sampled last

  // Step 2 alone: claims a ring slot; the brain starts only with a config.
  void start(RagdollRing& ring, const Brain* brain);
  // Step 4: runs the brain, then tests for rest; then the cleanup or the relax.
  void update(const BrainSample& sample, double speed, double dt, const RestSettings& settings,
              RagdollRing& ring);
  double rest_speed(const RestSettings& settings) const;
};

// Everything the death frame's call reads.
struct DeathContext {
  Character* character = nullptr;
  const Attack* attack = nullptr;           // the killing attack, or none
  const RagdollConfig* config = nullptr;    // the model's Character/Models.RagdollConfig
  const BodyCleanup* cleanup = nullptr;     // the model's BodyCleanup record
  std::span<const Buff> buffs;              // the character's Combat/Buffs
  std::string RagdollDeathAnimation;        // Character/Models/Global.RagdollDeathAnimation
};

// The death frame's call of 0x2F8460: steps 1-3 and the keyword gates. The character leaves its
// locomotion graph and plays the death animation on its base tracker.
void run_death_frame(DeadBody& body, const DeathContext& context, RagdollRing& ring);

Json to_json(const DeathRecord& death);
Json to_json(const DeadBodyFlags& flags);

}  // namespace animkit::shadow_of_war
