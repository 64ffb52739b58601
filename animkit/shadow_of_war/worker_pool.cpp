#include "animkit/shadow_of_war/worker_pool.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace animkit::shadow_of_war {

struct AnimJobThreadSystem::Impl {
  std::vector<std::thread> threads;
  std::mutex mutex;
  std::condition_variable wake, finished;
  const std::function<void(size_t)>* job = nullptr;
  size_t count = 0;
  std::atomic<size_t> next{0};
  uint64_t generation = 0;
  int idle_workers = 0;  // workers done with the current generation
  bool stop = false;
  std::exception_ptr error;

  // Takes jobs from the shared queue until it is empty.
  void drain() {
    for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      try {
        (*job)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!error) error = std::current_exception();
      }
    }
  }

  void worker() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stop || generation != seen; });
        if (stop) return;
        seen = generation;
      }
      drain();
      {
        std::lock_guard<std::mutex> lock(mutex);
        ++idle_workers;
      }
      finished.notify_one();
    }
  }
};

AnimJobThreadSystem::AnimJobThreadSystem(int workers)
    : workers_(workers < 0 ? 0 : workers), impl_(std::make_unique<Impl>()) {
  for (int i = 0; i < workers_; ++i) impl_->threads.emplace_back([this] { impl_->worker(); });
}

AnimJobThreadSystem::~AnimJobThreadSystem() {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stop = true;
  }
  impl_->wake.notify_all();
  for (std::thread& t : impl_->threads) t.join();
}

void AnimJobThreadSystem::run(size_t count, const std::function<void(size_t)>& job) {
  Impl& p = *impl_;
  p.error = nullptr;
  p.job = &job;
  p.count = count;
  p.next.store(0);
  if (workers_ > 0 && count > 1) {
    {
      std::lock_guard<std::mutex> lock(p.mutex);
      p.idle_workers = 0;
      ++p.generation;
    }
    p.wake.notify_all();
    p.drain();  // the main thread helps drain the queue
    std::unique_lock<std::mutex> lock(p.mutex);
    p.finished.wait(lock, [&] { return p.idle_workers == workers_; });
  } else {
    p.drain();
  }
  p.job = nullptr;
  if (p.error) std::rethrow_exception(p.error);
}

}  // namespace animkit::shadow_of_war
