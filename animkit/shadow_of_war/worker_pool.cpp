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
constexpr size_t kNone = AnimJobThreadSystem::kNone;

// Waits until `flag` differs from `old`: a spin of up to `spins` pauses, then the futex wait of
// std::atomic, counted in `sleepers` so the side that changes `flag` calls notify only when
// someone sleeps on it. libstdc++ keys its waiters by address in a table of 16 (addr >> 2) % 16
// and every counter here is 64 bytes from the next, so they all share one entry: with the
// table's own count a worker asleep on `generation` made every queued() of the frame a futex
// syscall until it woke (issue 29: the 2-thread crowd's slow runs).
// seq_cst on both sides: either the notifier sees the sleeper, or the sleeper sees the change.
template <class T>
void await_change(const std::atomic<T>& flag, T old, std::atomic<int>& sleepers, int spins) {
  for (int spin = 0; spin < spins; ++spin) {
    if (flag.load(std::memory_order_acquire) != old) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  while (flag.load(std::memory_order_acquire) == old) {
    sleepers.fetch_add(1);
    flag.wait(old);
    sleepers.fetch_sub(1);
  }
}

template <class T>
void publish(std::atomic<T>& flag, T value, const std::atomic<int>& sleepers) {
  flag.store(value);
  if (sleepers.load() != 0) flag.notify_all();
}

// A job takes about a microsecond and the main thread queues one every ~0.1 us, so a thread
// waiting inside a frame waits briefly: spin for tens of microseconds before sleeping (a wake-up
// on this VM costs more). Between frames a worker sleeps at once, leaving the core to others.
constexpr int kFrameSpins = 8192;

// The most jobs one take hands a thread: ~0.15 ms of characters, what a worker the OS
// descheduled mid-run leaves for after it runs again.
constexpr size_t kMaxRun = 256;

}  // namespace

struct AnimJobThreadSystem::Impl {
  // The jobs no thread has taken, [front, back) packed as front | back << 32: the workers take
  // runs from the front as they are queued, the main thread (once it has queued every job) from
  // the back, last job first. So the main thread evaluates the characters it updated last
  // (still in its cache), and from frame to frame each character tends to stay with the same
  // thread, whose cache holds its output and cursors (issue 29: on this VM a line written by
  // the other core costs 0.1-0.7 us).
  alignas(kLine) std::atomic<uint64_t> untaken{0};
  alignas(kLine) std::atomic<size_t> ready{0};      // jobs [0, ready) are queued
  alignas(kLine) std::atomic<uint64_t> generation{0};  // bumped to start a frame (or stop)
  // Workers inside the current frame's drain. The main thread waits only for these: a worker
  // the OS has not run yet when the queue is empty would otherwise hold up the frame for a whole
  // scheduling delay on a loaded machine. `closed` (the generation whose queue is empty) tells a
  // late worker to stay out; seq_cst on both sides makes one of them see the other.
  alignas(kLine) std::atomic<int> active{0};
  alignas(kLine) std::atomic<uint64_t> closed{0};
  // Threads asleep on `ready`, on `active` (each on its own line: read by the notifier).
  alignas(kLine) std::atomic<int> ready_sleepers{0};
  alignas(kLine) std::atomic<int> active_sleepers{0};
  std::atomic<bool> cancelled{false};
  const Job* job = nullptr;
  const Ahead* ahead = nullptr;
  size_t count = 0;
  size_t min_run = 1;      // the fewest jobs taken at once (while that many are left)
  size_t share_divisor = 4;  // a take is at most 1/share_divisor of the jobs left
  bool stop = false;
  std::mutex error_mutex;
  std::exception_ptr error;  // of the lowest job index that threw: error_job
  size_t error_job = 0;
  std::vector<std::thread> threads;

  static uint64_t pack(size_t front, size_t back) { return front | uint64_t{back} << 32; }
  // Takes a run of jobs from the front (or the back): [first, end), false when none is left.
  // Guided runs: a share of what is left, between min_run and kMaxRun jobs, so a large frame
  // needs few takes (each moves `untaken`'s line between the cores: 1,280 a frame at 20,480
  // characters with runs of 16) and the runs shrink towards the end, where the threads must
  // finish together.
  bool take(bool from_back, size_t& first, size_t& end) {
    uint64_t u = untaken.load(std::memory_order_relaxed);
    for (;;) {
      const size_t front = u & 0xffffffffu, back = u >> 32;
      if (front >= back) return false;
      const size_t run =
          std::min(back - front, std::clamp((back - front) / share_divisor, min_run, kMaxRun));
      first = from_back ? back - run : front;
      end = from_back ? back : front + run;
      const uint64_t v = from_back ? pack(front, first) : pack(end, back);
      if (untaken.compare_exchange_weak(u, v, std::memory_order_relaxed)) return true;
    }
  }

  void run_job(size_t i, size_t after, size_t later, size_t thread) {
    try {
      if (ahead) (*ahead)(i, after, later, thread);
      (*job)(i, thread);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error || i < error_job) error = std::current_exception(), error_job = i;
    }
  }

  // A worker: takes runs from the front until every job is taken; runs each job of a run as
  // soon as it is queued (waiting for the whole run kept a worker asleep while the main thread
  // had queued its first jobs).
  void drain(size_t thread) {
    size_t have = ready.load(std::memory_order_acquire), first, end;
    while (take(false, first, end)) {
      for (size_t i = first; i < end; ++i) {
        while (have <= i) {
          await_change(ready, have, ready_sleepers, kFrameSpins);
          have = ready.load(std::memory_order_acquire);
        }
        if (cancelled.load(std::memory_order_relaxed)) break;
        run_job(i, i + 1 < std::min(end, have) ? i + 1 : kNone, i + 2 < count ? i + 2 : kNone,
                thread);
      }
    }
  }

  // The main thread, every job queued: runs from the back, each from its last job down.
  void drain_back() {
    size_t first, end;
    while (take(true, first, end)) {
      for (size_t i = end; i-- > first;) {
        if (cancelled.load(std::memory_order_relaxed)) break;
        run_job(i, i > first ? i - 1 : kNone, i >= 2 ? i - 2 : kNone, 0);
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
      if (active.fetch_sub(1) == 1 && active_sleepers.load() != 0) active.notify_all();
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
  if (count > 0xffffffffu) throw Error(fmt::format("{} jobs in one frame: at most 2^32 - 1", count));
  p.error = nullptr;
  p.job = &job;
  p.ahead = ahead;
  p.count = count;
  // The last runs are about 1/8 of a thread's share, at most 16 jobs: small enough that the
  // threads finish together.
  p.min_run = std::clamp<size_t>(count / (8 * threads()), 1, 16);
  p.share_divisor = 4 * threads();
  p.cancelled.store(false, std::memory_order_relaxed);
  p.ready.store(0, std::memory_order_relaxed);
  p.untaken.store(Impl::pack(0, count), std::memory_order_relaxed);
  if (workers_ > 0 && count > 1) {
    p.generation.fetch_add(1, std::memory_order_release);
    p.generation.notify_all();
  }
}

void AnimJobThreadSystem::queued(size_t n) {
  Impl& p = *impl_;
  publish(p.ready, std::min(n, p.count), p.ready_sleepers);
}

void AnimJobThreadSystem::cancel() {
  impl_->cancelled.store(true, std::memory_order_relaxed);
  finish();
}

void AnimJobThreadSystem::finish() {
  Impl& p = *impl_;
  queued(p.count);
  p.drain_back();  // the main thread helps drain the queue
  // Every job is taken; wait for the workers still running theirs.
  p.closed.store(p.generation.load());
  for (int a = p.active.load(); a != 0; a = p.active.load())
    await_change(p.active, a, p.active_sleepers, kFrameSpins);
  p.job = nullptr;
  p.ahead = nullptr;
  if (p.error && !p.cancelled.load(std::memory_order_relaxed)) std::rethrow_exception(p.error);
}

void AnimJobThreadSystem::run(size_t count, const Job& job, const Ahead* ahead) {
  begin(count, job, ahead);
  finish();
}

}  // namespace animkit::shadow_of_war
