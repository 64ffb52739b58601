#include "memory_budget.h"

#include <malloc.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#include "animkit/core/limits.h"
#include "animkit/core/memory_limit.h"

namespace animkit::cli {

namespace {

std::atomic<uint64_t> g_held{0};
std::atomic<uint64_t> g_peak{0};
std::atomic<uint64_t> g_cap{UINT64_MAX};  // no cap until armed

// Counts `p` (just allocated) in, or frees it and says no when it takes the heap past the cap.
bool admit(void* p) {
  const uint64_t size = malloc_usable_size(p);
  const uint64_t now = g_held.fetch_add(size, std::memory_order_relaxed) + size;
  if (now > g_cap.load(std::memory_order_relaxed)) {
    g_held.fetch_sub(size, std::memory_order_relaxed);
    std::free(p);
    return false;
  }
  for (uint64_t peak = g_peak.load(std::memory_order_relaxed);
       now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed);) {
  }
  return true;
}

void* allocate(std::size_t size, std::size_t align, bool nothrow) {
  if (size == 0) size = 1;
  void* p = nullptr;
  if (align <= alignof(std::max_align_t)) {
    p = std::malloc(size);
  } else if (::posix_memalign(&p, align, size) != 0) {
    p = nullptr;
  }
  if (p && admit(p)) return p;
  if (nothrow) return nullptr;
  if (p) throw MemoryLimitExceeded();  // allocated, but over the budget
  throw std::bad_alloc();
}

void release(void* p) noexcept {
  if (!p) return;
  g_held.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
  std::free(p);
}

}  // namespace

void arm_memory_budget(uint64_t max_memory) {
  const uint64_t base = g_held.load() + kMemorySlack;
  g_cap = max_memory > UINT64_MAX - base ? UINT64_MAX : base + max_memory;
}

uint64_t heap_bytes() { return g_held.load(); }
uint64_t heap_peak() { return g_peak.load(); }

}  // namespace animkit::cli

using animkit::cli::allocate;
using animkit::cli::release;
constexpr std::size_t kPlain = alignof(std::max_align_t);

void* operator new(std::size_t n) { return allocate(n, kPlain, false); }
void* operator new[](std::size_t n) { return allocate(n, kPlain, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n, kPlain, true);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void* operator new(std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a), false);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return allocate(n, static_cast<std::size_t>(a), false);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return allocate(n, static_cast<std::size_t>(a), true);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
  return operator new(n, a, t);
}
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
