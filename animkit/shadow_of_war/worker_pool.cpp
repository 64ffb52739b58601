#include "animkit/shadow_of_war/worker_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "animkit/core/error.h"

namespace animkit::shadow_of_war {

namespace {

// Each counter gets its own cache line: the workers' fetch_add on `next` must not evict the
// line the main thread writes `ready` to (false sharing).
constexpr size_t kLine = 64;

// Waits until `flag` differs from `old`: a short spin (a job takes about a microsecond, so the
// main thread usually queues the next run within it), then the futex wait of std::atomic.
template <class T>
void await_change(const std::atomic<T>& flag, T old) {
  for (int spin = 0; spin < 256; ++spin) {
    if (flag.load(std::memory_order_acquire) != old) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  while (flag.load(std::memory_order_acquire) == old) flag.wait(old, std::memory_order_acquire);
}

}  // namespace

struct AnimJobThreadSystem::Impl {
  alignas(kLine) std::atomic<size_t> next{0};       // the first job no thread has taken
  alignas(kLine) std::atomic<size_t> ready{0};      // jobs [0, ready) are queued
  alignas(kLine) std::atomic<uint64_t> generation{0};  // bumped to start a frame (or stop)
  // Workers inside the current frame's drain. The main thread waits only for these: a worker
  // the OS has not run yet when the queue is empty would otherwise hold up the frame for a whole
  // scheduling delay on a loaded machine. `closed` (the generation whose queue is empty) tells a
  // late worker to stay out; seq_cst on both sides makes one of them see the other.
  alignas(kLine) std::atomic<int> active{0};
  alignas(kLine) std::atomic<uint64_t> closed{0};
  std::atomic<bool> cancelled{false};
  const Job* job = nullptr;
  const Ahead* ahead = nullptr;
  size_t count = 0;
  size_t run_length = 1;  // jobs taken per fetch_add
  bool stop = false;
  std::mutex error_mutex;
  std::exception_ptr error;
  std::vector<std::thread> threads;

  // Takes runs of jobs until every job is taken; waits for a run to be queued.
  void drain(size_t thread) {
    for (;;) {
      const size_t first = next.fetch_add(run_length, std::memory_order_relaxed);
      if (first >= count) return;
      const size_t end = std::min(count, first + run_length);
      for (size_t have = ready.load(std::memory_order_acquire); have < end;
           have = ready.load(std::memory_order_acquire))
        await_change(ready, have);
      for (size_t i = first; i < end; ++i) {
        if (cancelled.load(std::memory_order_relaxed)) break;
        try {
          if (ahead) (*ahead)(i, end, thread);
          (*job)(i, thread);
        } catch (...) {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (!error) error = std::current_exception();
        }
      }
    }
  }

  void worker(size_t thread) {
    uint64_t seen = 0;
    for (;;) {
      while (generation.load(std::memory_order_acquire) == seen) generation.wait(seen);
      seen = generation.load(std::memory_order_acquire);
      if (stop) return;
      active.fetch_add(1);
      if (closed.load() < seen) drain(thread);  // generations only grow
      if (active.fetch_sub(1) == 1) active.notify_one();
    }
  }
};

AnimJobThreadSystem::AnimJobThreadSystem(int workers)
    : workers_(workers < 0 ? 0 : workers), impl_(std::make_unique<Impl>()) {
  try {
    for (int i = 0; i < workers_; ++i)
      impl_->threads.emplace_back([this, i] { impl_->worker(static_cast<size_t>(i) + 1); });
  } catch (const std::exception& e) {  // std::system_error, or std::bad_alloc for its state
    // Issue 30: the threads already started are stopped and joined (a joinable std::thread
    // destroyed would call std::terminate), and the failure is an error.
    const size_t started = impl_->threads.size();
    stop_threads();
    const auto* system = dynamic_cast<const std::system_error*>(&e);
    throw Error(fmt::format("cannot start worker thread {} of {}: {}", started + 1, workers_,
                            system ? system->code().message() : std::string(e.what())));
  }
}

void AnimJobThreadSystem::stop_threads() {
  impl_->stop = true;
  impl_->generation.fetch_add(1, std::memory_order_release);
  impl_->generation.notify_all();
  for (std::thread& t : impl_->threads) t.join();
  impl_->threads.clear();
}

AnimJobThreadSystem::~AnimJobThreadSystem() { stop_threads(); }

void AnimJobThreadSystem::begin(size_t count, const Job& job, const Ahead* ahead) {
  Impl& p = *impl_;
  p.error = nullptr;
  p.job = &job;
  p.ahead = ahead;
  p.count = count;
  // Runs of about 1/8 of a thread's share, at most 16 jobs: few enough fetch_adds, small enough
  // that a worker the OS descheduled holds up little of the frame.
  p.run_length = std::clamp<size_t>(count / (8 * threads()), 1, 16);
  p.cancelled.store(false, std::memory_order_relaxed);
  p.ready.store(0, std::memory_order_relaxed);
  p.next.store(0, std::memory_order_relaxed);
  if (workers_ > 0 && count > 1) {
    p.generation.fetch_add(1, std::memory_order_release);
    p.generation.notify_all();
  }
}

void AnimJobThreadSystem::queued(size_t n) {
  Impl& p = *impl_;
  p.ready.store(std::min(n, p.count), std::memory_order_release);
  p.ready.notify_all();
}

void AnimJobThreadSystem::cancel() {
  impl_->cancelled.store(true, std::memory_order_relaxed);
  finish();
}

void AnimJobThreadSystem::finish() {
  Impl& p = *impl_;
  queued(p.count);
  p.drain(0);  // the main thread helps drain the queue
  // Every job is taken; wait for the workers still running theirs.
  p.closed.store(p.generation.load());
  for (int a = p.active.load(); a != 0; a = p.active.load()) await_change(p.active, a);
  p.job = nullptr;
  p.ahead = nullptr;
  if (p.error && !p.cancelled.load(std::memory_order_relaxed)) std::rethrow_exception(p.error);
}

void AnimJobThreadSystem::run(size_t count, const Job& job) {
  begin(count, job);
  finish();
}

}  // namespace animkit::shadow_of_war
