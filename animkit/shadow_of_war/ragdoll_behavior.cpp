#include "animkit/shadow_of_war/ragdoll_behavior.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "animkit/core/error.h"

namespace animkit::shadow_of_war {

double Sequence::time_at(double elapsed) const {
  const double len = length();
  if (!(len > 0.0)) return 0.0;
  if (mode == Mode::kClamp) return std::min(elapsed, len);
  const double t = std::fmod(elapsed, 2.0 * len);  // PingPong: forward, then back
  return t <= len ? t : 2.0 * len - t;
}

const std::string* Sequence::pose_at(double t) const {
  const std::string* pose = nullptr;
  for (const SequenceKey& k : keys)
    if (k.time <= t + 1e-6) pose = &k.pose;  // within a float dt sum of the key
  return pose;
}

const BehaviorSet* BehaviorLibrary::pick_set(const std::vector<std::string>& candidates,
                                             const std::string& config) const {
  for (const std::string& c : candidates)
    for (const BehaviorSet& s : sets)
      if (s.name == c && s.RequiredRagdollConfig == config) return &s;
  return nullptr;
}

const Behavior* BehaviorLibrary::behavior(const std::string& name) const {
  auto it = behaviors.find(name);
  return it == behaviors.end() ? nullptr : &it->second;
}

const Sequence* BehaviorLibrary::sequence(const std::string& name) const {
  auto it = sequences.find(name);
  return it == sequences.end() ? nullptr : &it->second;
}

BehaviorLibrary behavior_library_from_json(const Json& s) {
  BehaviorLibrary lib;
  auto items = [&](const char* key) {
    static const Json none = Json::array();
    return s.contains(key) ? s[key] : none;
  };
  try {
    for (const Json& p : items("TargetPoses")) {
      TargetPose t{p.at("name").get<std::string>(), {}};
      for (const Json& j : p.value("joints", Json::array()))
        t.joints.push_back({j.at("Index").get<int32_t>(), j.value("Pitch", 0.f),
                            j.value("Yaw", 0.f), j.value("Roll", 0.f)});
      lib.poses[t.name] = std::move(t);
    }
    for (const Json& q : items("Sequences")) {
      Sequence seq;
      seq.name = q.at("name").get<std::string>();
      const std::string mode = q.value("Mode", std::string("Clamp"));
      if (mode != "Clamp" && mode != "PingPong")
        throw Error(fmt::format("sequence '{}': Mode '{}' is neither Clamp nor PingPong",
                                seq.name, mode));
      seq.mode = mode == "PingPong" ? Sequence::Mode::kPingPong : Sequence::Mode::kClamp;
      for (const Json& k : q.value("keys", Json::array())) {
        SequenceKey key{k.at("time").get<double>(), k.at("pose").get<std::string>()};
        if (!lib.poses.count(key.pose))
          throw Error(fmt::format("sequence '{}': no target pose '{}'", seq.name, key.pose));
        seq.keys.push_back(std::move(key));
      }
      std::stable_sort(seq.keys.begin(), seq.keys.end(),
                       [](const SequenceKey& a, const SequenceKey& b) { return a.time < b.time; });
      lib.sequences[seq.name] = std::move(seq);
    }
    auto range = [](const Json& r) {
      if (!r.is_array() || r.size() != 2) throw Error("a range is [min, max]");
      return std::pair{r[0].get<float>(), r[1].get<float>()};
    };
    for (const Json& b : items("Behaviors")) {
      Behavior beh;
      beh.name = b.at("name").get<std::string>();
      if (b.contains("Strength")) beh.Strength = range(b["Strength"]);
      if (b.contains("Stiffness")) beh.Stiffness = range(b["Stiffness"]);
      beh.JointMask = b.value("JointMask", std::vector<int32_t>{});
      beh.ScalarMappings = b.value("ScalarMappings", std::map<std::string, float>{});
      beh.Sequences = b.value("Sequences", std::vector<std::string>{});
      for (const std::string& q : beh.Sequences)
        if (!lib.sequences.count(q))
          throw Error(fmt::format("behavior '{}': no sequence '{}'", beh.name, q));
      lib.behaviors[beh.name] = std::move(beh);
    }
    for (const Json& b : items("BehaviorSets")) {
      BehaviorSet set{b.at("name").get<std::string>(),
                      b.value("RequiredRagdollConfig", std::string()),
                      b.value("Behaviors", std::vector<std::string>{})};
      for (const std::string& n : set.Behaviors)
        if (!lib.behaviors.count(n))
          throw Error(fmt::format("behavior set '{}': no behavior '{}'", set.name, n));
      lib.sets.push_back(std::move(set));
    }
  } catch (const Json::exception& e) {
    throw Error(std::string("ragdoll behaviours: ") + e.what());
  }
  return lib;
}

}  // namespace animkit::shadow_of_war
