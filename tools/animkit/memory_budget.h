// The run's memory budget (issue 30, "Budgets that bound a run"): the CLI replaces the global
// operator new / delete with counting ones, so everything a run holds on the heap is one sum,
// whatever the engine or library that allocates it. Once armed, an allocation that would take
// the heap above what it held at arming + --max-memory + kMemorySlack throws
// animkit::MemoryLimitExceeded (a std::bad_alloc), which the CLI reports as one error line.
// Only the CLI links this file: the libraries and their tests keep the plain allocator.
#pragma once

#include <cstdint>

namespace animkit::cli {

// Room above --max-memory for what any run needs besides its input (the registry, CLI11, fmt's
// buffers, a trace line), so a small budget still bounds the input and not the program.
constexpr uint64_t kMemorySlack = uint64_t{32} << 20;

// Starts counting against `max_memory` (+ kMemorySlack) from the heap held now.
void arm_memory_budget(uint64_t max_memory);
// Bytes the heap holds now (as malloc_usable_size counts them), and the most it has held.
uint64_t heap_bytes();
uint64_t heap_peak();

}  // namespace animkit::cli
