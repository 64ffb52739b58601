// The animation worker threads (spec: "Per frame", workers): jobs are queued on a pool of worker
// threads (EngineAnimationJobThread1-3: three by default, configurable), either as the main
// thread submits them or all at once, and the main thread drains the same queue once it has
// queued the last one.
// std::thread workers take runs of job indices from one shared atomic counter (README, Choices:
// std threads rather than oneTBB, whose arena caps the workers at the core count).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace animkit::shadow_of_war {

inline constexpr int kDefaultWorkers = 3;

class AnimJobThreadSystem {
 public:
  // job(index, thread): thread 0 is the calling thread, k in [1, workers] worker k.
  using Job = std::function<void(size_t index, size_t thread)>;
  // ahead(index, after, later, thread): see begin().
  using Ahead = std::function<void(size_t index, size_t after, size_t later, size_t thread)>;
  static constexpr size_t kNone = SIZE_MAX;

  explicit AnimJobThreadSystem(int workers = kDefaultWorkers);
  ~AnimJobThreadSystem();
  AnimJobThreadSystem(const AnimJobThreadSystem&) = delete;
  AnimJobThreadSystem& operator=(const AnimJobThreadSystem&) = delete;

  int workers() const { return workers_; }
  size_t threads() const { return static_cast<size_t>(workers_) + 1; }

  // A frame of `count` jobs: begin(); queued(n) each time jobs [0, n) are ready (n only grows;
  // a worker may run job i as soon as n > i); finish() queues the rest, runs jobs on the calling
  // thread until none is left, waits for the workers and rethrows the exception of the lowest
  // job index that threw (the same one for any number of workers). `job` must outlive finish().
  // Between begin() and finish() the calling thread may not touch what a queued job uses.
  // `ahead`, when given, is called as ahead(i, after, later, thread) just before job(i): `after`
  // is the job this thread runs next, queued (its data may be read), or kNone; `later` a job it
  // may run after that, perhaps not yet queued (only its address may be used), or kNone. Where a
  // job asks for the memory of the ones after it. The workers take jobs from the front as they
  // are queued, the calling thread in finish() from the back; at most 2^32 - 1 jobs a frame.
  void begin(size_t count, const Job& job, const Ahead* ahead = nullptr);
  void queued(size_t ready);
  void finish();
  // Ends a frame whose producer failed: the jobs not yet started are skipped.
  void cancel();
  // begin(count, job, ahead), finish(): every job queued at once.
  void run(size_t count, const Job& job, const Ahead* ahead = nullptr);

 private:
  void stop_threads();  // wakes, stops and joins every worker started
  int workers_;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace animkit::shadow_of_war
