#include "animkit/shadow_of_war/dead_body.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/character.h"

namespace animkit::shadow_of_war {

const std::array<Keyword, 2> kRagdollQueryKeys = {kRagdollKeywords[0], kRagdollKeywords[2]};
const std::array<Keyword, 1> kDestroyQueryKeys = {kRagdollKeywords[1]};

bool at_rest(double t, double speed, const RestSettings& s) {
  const double reached = t + kTimeTolerance;
  return (s.rest_time_enabled && reached >= s.rest_time) ||
         (s.slow_rest_enabled && reached >= s.slow_rest_time && speed < s.AtRestSpeed);
}

void DeadBody::start(RagdollRing& ring, const Brain* brain) {
  controller.brain = brain;
  ring.claim(controller);
}

double DeadBody::rest_speed(const RestSettings& s) const {
  return cleanup && cleanup->AtRestSpeed ? *cleanup->AtRestSpeed : s.AtRestSpeed;
}

void DeadBody::update(const BrainSample& sample, double speed, double dt,
                      const RestSettings& settings, RagdollRing& ring) {
  if (removed) return;
  ++frames_since_stamp;
  since_stamp += dt;
  // Step 4: the brain first (it steps only while its controller holds a slot) ...
  controller.step(sample, static_cast<float>(dt));
  // ... then the rest test, counted in world time from the stamp (README, Choices 15).
  if (!resting) {
    RestSettings s = settings;
    s.AtRestSpeed = rest_speed(settings);
    if (at_rest(since_stamp, speed, s)) {
      resting = true;
      rest_at = since_stamp;
    }
  }
  // "A resting body that is not the player goes to the body cleanup 0x6C00A0 (Lifetime,
  // SinkDistance); otherwise 0x145218 relaxes the hit reaction."
  if (resting && !player) {
    if (!in_cleanup) {
      in_cleanup = true;
      ring.release(controller);  // README, Choices 15a
    }
    if (cleanup && cleanup->Lifetime &&
        since_stamp - rest_at + kTimeTolerance >= *cleanup->Lifetime)
      removed = true;
  } else {
    relax_time += dt;
  }
}

namespace {

bool equal_any_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && keyword_hash(a) == keyword_hash(b) &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto up = [](char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; };
           return up(x) == up(y);
         });
}

bool clip_carries(const ClipTable& table, const Clip& clip, std::span<const Keyword> keys) {
  const AnimObject* o = table.object_of(keyword_hash(clip.name));
  const ClipEvents* ce = o ? o->events_of(clip) : nullptr;
  if (!ce) return false;
  for (const Keyword& k : keys)
    if (o->events->carries_keyword(*ce, k.hash)) return true;
  return false;
}

}  // namespace

bool clip_shows(const Character& c, const Attack* attack, std::span<const Keyword> keys) {
  // 0x4CAB0C: the clip the character is playing, while the combat object names one.
  if (c.combat_anim != -1) {
    for (const Keyword& k : keys)
      if (c.playing_clip_carries(k.hash)) return true;
    return false;
  }
  // 0x2C5E10: the attack's own animation.
  if (!attack) return false;
  if (!attack->AnimationName.empty()) {
    const Clip* clip = c.table() ? c.table()->find(attack->AnimationName) : nullptr;
    return clip && clip_carries(*c.table(), *clip, keys);
  }
  if (!attack->BehaviorNode.empty()) {
    const int32_t s = c.graph().find_state(attack->BehaviorNode);
    if (s < 0) return false;
    for (const Keyword& k : keys)
      for (const std::string& tag : c.graph().states[s].Tags)
        if (equal_any_case(tag, k.name)) return true;
  }
  return false;
}

void run_death_frame(DeadBody& body, const DeathContext& ctx, RagdollRing& ring) {
  Character& c = *ctx.character;
  DeathRecord& d = body.death;
  body.player = c.player;
  body.cleanup = ctx.cleanup;
  // Step 1: Combat/Category.RagdollReaction of the killing attack; with a ragdoll pending, its
  // InitalVelocityScale and ForceValue (README, Choices 17: pending = BodyRagdoll and a reaction).
  if (ctx.attack) {
    d.attack = ctx.attack->name;
    d.reaction = ctx.attack->Reaction;
    d.ragdoll_pending = d.reaction && c.death_settings().BodyRagdoll;
  }
  // Step 2: a ring slot; with a config its joints, the ragdoll enabled and its brain started;
  // otherwise the controller with no config and no brain.
  if (ctx.config) {
    d.config = ctx.config->name;
    setup_joints(c.physics, ctx.config->Constraints, &d.skipped_constraints);
    c.physics.enabled = true;
  }
  body.start(ring, ctx.config ? &ctx.config->brain : nullptr);
  // The keyword gates (spec, "Clip keywords"), asked of the clip before the switch.
  DeadBodyFlags& f = body.flags;
  if (f.b35A) {
    d.ragdoll_query = clip_shows(c, ctx.attack, kRagdollQueryKeys);  // not tested
    f.b35A = false;
  }
  const bool destroy = clip_shows(c, ctx.attack, kDestroyQueryKeys);
  d.destroy_query = destroy;
  if (f.b353) {
    if (!destroy) {
      if (!(ctx.attack && ctx.attack->SuppressDeathAnimGroundCheck)) f.phase = 5;
      // 0x190E80: the attack's multi-hit record (the first of MultiHitRecords).
      if (ctx.attack && !ctx.attack->MultiHitRecords.empty()) {
        d.multi_hit_destroy = clip_shows(c, &ctx.attack->MultiHitRecords.front(),
                                         kDestroyQueryKeys);
        if (*d.multi_hit_destroy) f.b356 = true;
      }
    }
  } else if (!destroy) {
    f.b35C = true;
    f.b35D = true;
  }
  // Step 3: DeathProjectiles, RigidBody, RagdollDeathAnimation on the base, the audio hook.
  for (const Buff& b : ctx.buffs)
    for (const std::string& p : b.DeathProjectiles)
      d.death_projectiles.push_back(b.name + ": " + p);
  d.death_animation = ctx.RagdollDeathAnimation;
  c.die(ctx.RagdollDeathAnimation);
  d.audio_hook = "CharacterSwitchesToRagdoll";
}

RagdollConfig ragdoll_config_from_json(const Json& j) {
  RagdollConfig r;
  r.brain = brain_from_json(j);
  r.name = r.brain.name;
  if (j.contains("Constraints")) r.Constraints = constraints_from_json(j["Constraints"]);
  return r;
}

Attack attack_from_json(const std::string& name, const Json& j) {
  if (!j.is_object()) throw Error(fmt::format("attack '{}': expected an object", name));
  Attack a;
  try {
    a.name = name;
    if (j.contains("Category")) {
      const Json& c = j["Category"];
      a.Category = c.value("name", std::string());
      if (c.contains("RagdollReaction") && !c["RagdollReaction"].is_null()) {
        const Json& r = c["RagdollReaction"];
        a.Reaction = RagdollReaction{r.value("name", std::string()),
                                     r.value("InitalVelocityScale", 1.0),
                                     r.value("ForceValue", 0.0)};
      }
    }
    if (j.contains("AnimationData")) {
      a.AnimationName = j["AnimationData"].value("Name", std::string());
      a.BehaviorNode = j["AnimationData"].value("BehaviorNode", std::string());
    }
    if (j.contains("AttackPostData"))
      a.SuppressDeathAnimGroundCheck =
          j["AttackPostData"].value("SuppressDeathAnimGroundCheck", false);
    if (j.contains("MultiHitRecords")) {
      const Json& list = j["MultiHitRecords"];
      for (size_t k = 0; k < list.size(); ++k) {
        const std::string fallback = fmt::format("{}.MultiHitRecords[{}]", name, k);
        a.MultiHitRecords.push_back(
            attack_from_json(list[k].is_object() ? list[k].value("name", fallback) : fallback,
                             list[k]));
      }
    }
  } catch (const Json::exception& e) {
    throw Error(fmt::format("attack '{}': {}", name, e.what()));
  }
  return a;
}

Json to_json(const DeathRecord& d) {
  Json j{{"attack", d.attack.empty() ? Json(nullptr) : Json(d.attack)}};
  if (d.reaction) {
    j["RagdollReaction"] = {{"name", d.reaction->name}};
    if (d.ragdoll_pending) {
      j["RagdollReaction"]["InitalVelocityScale"] =
          json_float(static_cast<float>(d.reaction->InitalVelocityScale));
      j["RagdollReaction"]["ForceValue"] = json_float(static_cast<float>(d.reaction->ForceValue));
    }
  } else {
    j["RagdollReaction"] = nullptr;
  }
  j["config"] = d.config.empty() ? Json(nullptr) : Json(d.config);
  j["DeathProjectiles"] = d.death_projectiles;
  j["physics"] = "RigidBody";
  j["RagdollDeathAnimation"] = d.death_animation.empty() ? Json(nullptr) : Json(d.death_animation);
  j["audio"] = d.audio_hook;
  j["queries"] = {{"RAGDOLL", d.ragdoll_query},
                  {"DESTROY", d.destroy_query ? Json(*d.destroy_query) : Json(nullptr)},
                  {"multi_hit_DESTROY",
                   d.multi_hit_destroy ? Json(*d.multi_hit_destroy) : Json(nullptr)}};
  if (!d.skipped_constraints.empty()) j["skipped_constraints"] = d.skipped_constraints;
  return j;
}

Json to_json(const DeadBodyFlags& f) {
  return {{"+0x353", f.b353}, {"+0x356", f.b356}, {"+0x35A", f.b35A},
          {"+0x35C", f.b35C}, {"+0x35D", f.b35D}, {"phase", f.phase}};
}

}  // namespace animkit::shadow_of_war
