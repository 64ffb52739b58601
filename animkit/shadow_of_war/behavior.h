// Behaviour states (spec: "Behaviour graphs (.bvr)", "The behaviour state of a character"): a
// graph of BlendState records (Mirrored, Priority, DefaultBlendTime, StartPct, Rate, Gravity,
// Looping, Links) and StateTransition links with predicates, described in JSON (the .bvr GameDB
// container itself is not read: README). Characters on one graph point into its records, so a
// change to a record reaches every character using the graph.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"

namespace animkit::shadow_of_war {

// Predicate.And / Or / Not and float comparisons on named character values.
struct Predicate {
  enum class Kind : uint8_t { kTrue, kAnd, kOr, kNot, kCompare };
  enum class Compare : uint8_t { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual };
  Kind kind = Kind::kTrue;
  std::vector<Predicate> children;
  uint32_t value = 0;  // index into BlendGraph::value_names
  Compare compare = Compare::kGreater;
  float than = 0;
  bool evaluate(const std::vector<float>& values) const;
};

struct StateTransition {
  std::string name;
  int32_t target = -1;   // state index; -1: no target (the link never fires)
  float BlendTime = -1;  // < 0: the target's DefaultBlendTime
  Predicate predicate;
};

struct BlendState {
  std::string name;
  bool Mirrored = false;
  int32_t Priority = 0;
  float DefaultBlendTime = 0.2f;
  float StartPct = 0;
  float Rate = 1;
  bool Gravity = true;
  bool Looping = true;
  std::vector<int32_t> Links;  // StateTransition indices, tried in order
  std::string clip;            // Animation.SimpleAnimation: the clip by name
  std::string weight_set;      // a named weight set of the scenario ("" : all joints)
  std::vector<std::string> Tags;  // names a keyword query tests by name (0x1BDEA50; README)
};

struct BlendGraph {
  std::string name;
  std::vector<BlendState> states;
  std::vector<StateTransition> transitions;
  std::vector<std::string> value_names;  // [0] "state_time", [1] "state_pct", then the named ones
  int32_t start = 0;

  int32_t find_state(std::string_view name) const;    // -1 when absent
  uint32_t value_index(std::string_view name) const;  // throws when absent
  // Declares a character value no predicate reads (before characters are created).
  uint32_t add_value(const std::string& name);
  // The first link of `state` whose predicate passes, or -1.
  int32_t first_passing_link(int32_t state, const std::vector<float>& values) const;
};

inline constexpr uint32_t kValueStateTime = 0;  // seconds in the current state
inline constexpr uint32_t kValueStatePct = 1;   // state time / the state's clip duration

// Throws animkit::Error naming what is wrong (an unknown state, a bad predicate).
BlendGraph blend_graph_from_json(const Json& j);
Json to_json(const BlendGraph& graph);

}  // namespace animkit::shadow_of_war
