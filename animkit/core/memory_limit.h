// What the CLI's counting allocator throws (tools/animkit/memory_budget.h, issue 30) when a run's
// heap would pass --max-memory: a std::bad_alloc whose what() names the budget, so whoever
// catches it (the registry naming the file, the CLI's last resort) can say which limit ran out.
#pragma once

#include <new>

namespace animkit {

class MemoryLimitExceeded : public std::bad_alloc {
 public:
  const char* what() const noexcept override;
};

}  // namespace animkit
