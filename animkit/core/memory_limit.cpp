#include "animkit/core/memory_limit.h"

#include <cstdio>

#include "animkit/core/limits.h"

namespace animkit {

const char* MemoryLimitExceeded::what() const noexcept {
  thread_local char text[128];  // formatted without the heap: it is full
  std::snprintf(text, sizeof text, "the run's memory budget ran out (--max-memory %llu bytes)",
                static_cast<unsigned long long>(limits().max_memory));
  return text;
}

}  // namespace animkit
