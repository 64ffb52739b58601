// The animation worker threads (spec: "Per frame", workers): pose jobs are queued on a pool of
// worker threads (EngineAnimationJobThread1-3: three by default, configurable) and the main
// thread helps drain the same queue. std::thread workers take job indices from one shared atomic
// counter; the calling thread takes them too until none is left (README, Choices: std threads
// rather than oneTBB, whose arena caps the workers at the core count).
#pragma once

#include <functional>
#include <memory>

namespace animkit::shadow_of_war {

inline constexpr int kDefaultWorkers = 3;

class AnimJobThreadSystem {
 public:
  explicit AnimJobThreadSystem(int workers = kDefaultWorkers);
  ~AnimJobThreadSystem();
  AnimJobThreadSystem(const AnimJobThreadSystem&) = delete;
  AnimJobThreadSystem& operator=(const AnimJobThreadSystem&) = delete;

  int workers() const { return workers_; }
  // Runs job(i) for i in [0, count) on the workers and the calling thread; returns when all are
  // done. The first exception a job throws is rethrown here.
  void run(size_t count, const std::function<void(size_t)>& job);

 private:
  int workers_;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace animkit::shadow_of_war
