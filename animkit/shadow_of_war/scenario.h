// `animkit play` for "engine": "shadow_of_war": a scene (skeleton, loaded files, skeleton
// families' clip tables, one behaviour graph, characters) built from JSON and run frame by
// frame; each trace line gives per character the state, the trackers (clip, time, weight) and
// the pose job's operations in order. The demo and the benchmark build scenes the same way.
//
//   {"engine": "shadow_of_war", "joints": 34, "frames": 60, "dt": 0.016666668,
//    "files": [{"path": "orc/loco.anix", "clips": [{"name": "Idle", "duration": 2}]},
//              {"path": "orc/deaths.anix", "anix": "deaths.anix"}],
//    "families": [{"name": "orc", "members": ["orc/loco.anix"]}],
//    "weight_sets": {"upper": {"joint": "joint9"}},
//    "graph": {...},   (behavior.h)
//    "characters": [{"name": "orc_0", "family": "orc", "values": {"speed": 0}}],
//    "script": [{"frame": 10, "character": "orc_0", "values": {"speed": 3}},
//               {"frame": 20, "record": "Run", "fields": {"Rate": 1.5}},
//               {"frame": 30, "unload": "orc/loco.anix"}, {"frame": 31, "load": "orc/loco.anix"},
//               {"frame": 40, "character": "orc_0", "die": true}],
//    "brain": {...} (ragdoll.h, brain_from_json), "AtRestSpeed": 15}
// A dead character's brain samples its values "height", "velocity", "average_body_velocity",
// "spine_upright", "head_severed" (non-zero: true) and "combat_state"; the rest test reads
// "velocity" as its speed.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "animkit/core/registry.h"
#include "animkit/shadow_of_war/character.h"
#include "animkit/shadow_of_war/dead_body.h"

namespace animkit::shadow_of_war {

// A deterministic synthetic clip on `skeleton` (per-joint rotation waves, root translation).
Clip synthetic_clip(const std::string& name, const Skeleton& skeleton, float duration, bool looping,
                    float amplitude, float frequency);
// Tracker 0's clip when no `base_clip` is named: the skeleton's rest pose as one key per joint
// ("the model's base pose"), named "base".
Clip base_pose_clip(const Skeleton& skeleton);
// The chain-and-branch skeleton of `joints` joints (core's synthetic workload skeleton).
Skeleton synthetic_skeleton(int joints);

// A Character/Models record: the ragdoll config it names (Character/Models.RagdollConfig, "" :
// none) and its BodyCleanup record ("" : none).
struct CharacterModel {
  std::string name;
  std::string RagdollConfig;
  std::string BodyCleanup;
  int32_t ragdoll_bodies = 20;  // orcs, ologs, trolls 20; humans, wargs 21
};

struct Scene {
  Skeleton skeleton;
  std::vector<std::shared_ptr<AnimObject>> files;  // every file the scene knows (kept alive)
  std::vector<std::unique_ptr<ClipTable>> tables;
  std::map<std::string, std::vector<float>> weight_sets;
  std::shared_ptr<BlendGraph> graph;
  std::unique_ptr<Clip> base_pose;  // tracker 0's clip unless "base_clip" names one
  std::unique_ptr<Crowd> crowd;
  DeathSettings global;  // Character/Models/Global
  // Ragdolls: the ring of eight, the brain of the scene's ragdoll config (when given), the rest
  // settings, and the dead bodies by character name.
  RagdollRing ring;
  std::string default_config;  // "brain": the ragdoll config of characters without a model
  std::map<std::string, RagdollConfig> ragdoll_configs;  // Ragdoll configs (Orc_Base ...)
  std::unique_ptr<BehaviorLibrary> behaviors;  // BehaviorSets, Behaviors, Sequences, TargetPoses
  std::map<std::string, BodyCleanup> body_cleanups;  // Character/Models/BodyCleanup records
  std::map<std::string, CharacterModel> models;      // Character/Models records
  std::map<std::string, Attack> attacks;             // Combat/Attack records by name
  std::map<std::string, std::vector<Buff>> buffs;    // Combat/Buffs by character name
  std::string RagdollDeathAnimation;                 // Character/Models/Global
  RestSettings rest;
  std::map<std::string, std::unique_ptr<DeadBody>> dead;
  // Bodies whose death frame this is: the death frame's call of the dead-body step claims the
  // slot and starts the brain (steps 1-3); the brain and the rest test run on every later frame.
  std::vector<const DeadBody*> died_this_frame;
  // The death frame's call of the dead-body step (steps 1-3); `attack`: "" for none.
  void kill(Character& character, const std::string& attack = {}, const DeadBodyFlags& flags = {});
  void update_dead(float dt);
  int corpses() const;  // dead bodies the cleanup has not removed

  ClipTable* table(const std::string& family);
  std::vector<ClipTable*> table_list();
  const std::shared_ptr<AnimObject>& file(const std::string& path);
};

// Builds the scene; `workers` < 0: the engine's default (3).
Scene scene_from_json(const Json& scenario, const std::filesystem::path& base, int workers);
// One trace record of the current frame.
Json frame_json(const Scene& scene, int frame, float time);
std::string frame_text(const Scene& scene, int frame, float time);

int play(const Json& scenario, const std::filesystem::path& base, const PlayOptions& options,
         std::ostream& out);

}  // namespace animkit::shadow_of_war
