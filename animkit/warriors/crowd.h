// Many characters updated once per frame across the cores (oneTBB): each character exactly as
// the player updates one (warriors.txt, "The task stack": advance, the deferred release, sample,
// the bone transforms, Human_ApplyRootMotion), the same floats on any number of threads.
#pragma once

#include <memory>
#include <vector>

#include "animkit/warriors/instance.h"

namespace animkit::warriors {

// One update of a character with no actions between its steps: begin_update, advance(dt),
// flush_deferred, sample (on `work`), apply_root_motion(dt). The player (scenario.cpp) runs the
// same steps with the update's actions after the release.
void update_character(CharacterInstance& character, float dt, SampleWorkspace& work);

class Crowd {
 public:
  // Characters per work item: about 64 us of work at ~1 us each, far above oneTBB's per-task
  // cost, and still 32 items per thread for a crowd of 4,096 on two cores.
  static constexpr int kGrain = 64;

  // `threads` 0: all the cores oneTBB sees.
  explicit Crowd(int threads = 0);
  ~Crowd();
  Crowd(const Crowd&) = delete;
  Crowd& operator=(const Crowd&) = delete;

  CharacterInstance& add(std::unique_ptr<CharacterInstance> character);
  int size() const { return static_cast<int>(characters_.size()); }
  CharacterInstance& operator[](int i) { return *characters_[i]; }
  int threads() const;

  // Every character's update, in parallel: characters share only their clips (read-only); each
  // thread samples on its own workspace, so the transient poses stay in its cache, and asks for
  // the next character's state ahead of its update (CharacterInstance::prefetch).
  void update(float dt);

 private:
  struct Parallel;  // the oneTBB arena and the per-thread workspaces
  std::unique_ptr<Parallel> parallel_;
  std::vector<std::unique_ptr<CharacterInstance>> characters_;
};

}  // namespace animkit::warriors
