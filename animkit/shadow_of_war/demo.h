// The shadow_of_war part of `animkit demo`, and the crowd scene it shares with the benchmark.
#pragma once

#include "animkit/core/registry.h"

namespace animkit::shadow_of_war {

// A crowd scene: `characters` characters on one locomotion graph (Idle, IdleToRun, Run,
// RunToIdle, Fidget), 34-joint synthetic skeleton, each character's speed on its own schedule.
Json crowd_scenario(int characters, int frames);
void demo(DemoContext& context);

}  // namespace animkit::shadow_of_war
