#include "animkit/shadow_of_war/ragdoll.h"

#include <algorithm>

#include "animkit/core/error.h"

namespace animkit::shadow_of_war {

namespace {
bool in(const std::optional<FloatRange>& r, float v) { return !r || r->contains(v); }
bool has_hint(const std::vector<std::string>& hints, const std::string& h) {
  return std::find(hints.begin(), hints.end(), h) != hints.end();
}
}  // namespace

bool conditions_pass(const ControllerConditions& c, const BrainSample& s, const BrainTimers& t,
                     const Brain& brain, int32_t current, int32_t prior) {
  if (!in(c.Height, s.height) || !in(c.Velocity, s.velocity) ||
      !in(c.AverageBodyVelocity, s.average_body_velocity) || !in(c.TimeOnGround, t.on_ground) ||
      !in(c.TimeInAir, t.in_air) || !in(c.TimeStationary, t.stationary) ||
      !in(c.TimeMoving, t.moving) || !in(c.TimeInBehavior, t.in_behavior) ||
      !in(c.TimeTotal, t.total) || !in(c.SpineUpright, s.spine_upright))
    return false;
  if (c.HeadSevered && *c.HeadSevered != s.head_severed) return false;
  for (const std::string& h : c.IncludeHints)
    if (!has_hint(s.hints, h)) return false;
  for (const std::string& h : c.ExcludeHints)
    if (has_hint(s.hints, h)) return false;
  auto name_of = [&](int32_t i) {
    return i >= 0 ? brain.BehaviorControllers[i].name : std::string();
  };
  if (c.CurrentController && *c.CurrentController != name_of(current)) return false;
  if (c.PriorController && *c.PriorController != name_of(prior)) return false;
  if (c.CombatState && *c.CombatState != s.combat_state) return false;
  return true;
}

bool RagdollController::step(const BrainSample& s, float dt) {
  if (slot < 0 || !brain) return false;
  // The OnGround and Stationary ranges decide which timers run; the other of each pair restarts
  // (README, Choices).
  if (brain->OnGround.contains(s.height)) {
    timers.on_ground += dt;
    timers.in_air = 0;
  } else {
    timers.in_air += dt;
    timers.on_ground = 0;
  }
  if (brain->Stationary.contains(s.velocity)) {
    timers.stationary += dt;
    timers.moving = 0;
  } else {
    timers.moving += dt;
    timers.stationary = 0;
  }
  timers.in_behavior += dt;
  timers.total += dt;
  for (RunningSequence& r : sequences) r.elapsed += dt;
  const auto& list = brain->BehaviorControllers;
  for (size_t i = 0; i < list.size(); ++i) {
    if (!conditions_pass(list[i].conditions, s, timers, *brain, current, prior)) continue;
    const int32_t next = static_cast<int32_t>(i);
    if (next == current) return false;
    prior = current;
    current = next;
    timers.in_behavior = 0;
    start_behavior();
    return true;
  }
  return false;
}

void RagdollController::start_behavior() {
  behavior_set = nullptr;
  behavior = nullptr;
  sequences.clear();
  if (!brain->library || current < 0) return;
  const BehaviorLibrary& lib = *brain->library;
  behavior_set = lib.pick_set(brain->BehaviorControllers[current].BehaviorSets, brain->name);
  if (!behavior_set || behavior_set->Behaviors.empty()) return;
  behavior = lib.behavior(behavior_set->Behaviors.front());
  if (!behavior) return;
  for (const std::string& q : behavior->Sequences)
    if (const Sequence* seq = lib.sequence(q)) sequences.push_back({seq, 0.0});
}

const char* RagdollController::current_name() const {
  return brain && current >= 0 ? brain->BehaviorControllers[current].name.c_str() : "";
}

int32_t RagdollRing::claim(RagdollController& c) {
  if (RagdollController* old = slots_[cursor_]) old->slot = -1;  // 0x65C528 releases it
  slots_[cursor_] = &c;
  c.slot = cursor_;
  const int32_t slot = cursor_;
  cursor_ = (cursor_ + 1) % kSlots;
  return slot;
}

void RagdollRing::release(RagdollController& c) {
  if (c.slot >= 0 && c.slot < kSlots && slots_[c.slot] == &c) slots_[c.slot] = nullptr;
  c.slot = -1;
}

int RagdollRing::held() const {
  return static_cast<int>(std::count_if(slots_.begin(), slots_.end(),
                                        [](const RagdollController* c) { return c != nullptr; }));
}

Brain brain_from_json(const Json& j) {
  Brain b;
  try {
    b.name = j.value("name", std::string("brain"));
    auto range = [](const Json& r) {
      if (!r.is_array() || r.size() != 2) throw Error("brain: a float range is [min, max]");
      return FloatRange{r[0].get<float>(), r[1].get<float>()};
    };
    if (j.contains("OnGround")) b.OnGround = range(j["OnGround"]);
    if (j.contains("Stationary")) b.Stationary = range(j["Stationary"]);
    static const Json none = Json::array();
    const Json& controllers = j.contains("BehaviorControllers") ? j["BehaviorControllers"] : none;
    for (const Json& c : controllers) {
      BehaviorController bc;
      bc.name = c.at("name").get<std::string>();
      ControllerConditions& k = bc.conditions;
      const std::pair<const char*, std::optional<FloatRange>*> ranges[] = {
          {"Height", &k.Height},
          {"Velocity", &k.Velocity},
          {"AverageBodyVelocity", &k.AverageBodyVelocity},
          {"TimeOnGround", &k.TimeOnGround},
          {"TimeInAir", &k.TimeInAir},
          {"TimeStationary", &k.TimeStationary},
          {"TimeMoving", &k.TimeMoving},
          {"TimeInBehavior", &k.TimeInBehavior},
          {"TimeTotal", &k.TimeTotal},
          {"SpineUpright", &k.SpineUpright}};
      for (const auto& [n, field] : ranges)
        if (c.contains(n)) *field = range(c[n]);
      if (c.contains("HeadSevered")) k.HeadSevered = c["HeadSevered"].get<bool>();
      k.IncludeHints = c.value("IncludeHints", std::vector<std::string>{});
      k.ExcludeHints = c.value("ExcludeHints", std::vector<std::string>{});
      if (c.contains("CurrentController"))
        k.CurrentController = c["CurrentController"].get<std::string>();
      if (c.contains("PriorController"))
        k.PriorController = c["PriorController"].get<std::string>();
      if (c.contains("CombatState")) k.CombatState = c["CombatState"].get<int32_t>();
      bc.BehaviorSets = c.value("BehaviorSets", std::vector<std::string>{});
      b.BehaviorControllers.push_back(std::move(bc));
    }
  } catch (const Json::exception& e) {
    throw Error(std::string("brain: ") + e.what());
  }
  return b;
}

Json to_json(const DeathSettings& s) {
  return {{"BodyRagdoll", s.BodyRagdoll},
          {"BodyDeathDirMinY", json_float(s.BodyDeathDirMinY)},
          {"BodyDeathForce", s.BodyDeathForce},
          {"BodyDeathForceScale", json_float(s.BodyDeathForceScale)},
          {"BodyDirDeathForce", s.BodyDirDeathForce},
          {"BodyDirDeathForceScale", json_float(s.BodyDirDeathForceScale)},
          {"BodyStickDist", json_float(s.BodyStickDist)},
          {"BodyStickTime", json_float(s.BodyStickTime)},
          {"BodyDeathScaleVelocity", json_float(s.BodyDeathScaleVelocity)},
          {"BodyDeathClampVelocityMax", json_float(s.BodyDeathClampVelocityMax)}};
}

}  // namespace animkit::shadow_of_war
