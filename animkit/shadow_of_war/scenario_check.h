// A play scenario checked whole before frame 0 (issue 29): every mistake the run would meet late
// — a script event setting a value no one declared, a clip whose duration is not a positive
// finite number, a negative count, a state or death animation naming a clip no file holds — is
// an animkit::Error naming the JSON path (a JSON Pointer, "/script/3/values/x: ..."), before the
// first trace line. (README, Choices 15c.)
#pragma once

#include "animkit/core/json_util.h"

namespace animkit::shadow_of_war {

struct Scene;

// The scenario's own shape, before anything is built from it: numbers that must be finite,
// durations > 0, counts and frames >= 0, event times that fit 24-bit ms.
void check_scenario_values(const Json& scenario);
// What the scenario names against the scene built from it: characters, declared values, states,
// files, attacks and clips (the "anix" files' clips included).
void check_scenario_names(const Json& scenario, const Scene& scene);

}  // namespace animkit::shadow_of_war
