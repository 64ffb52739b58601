// Writes a .dat from objects, as the container page lays one out (sections 1-3): the header at
// 0x140, each object in a chain of blocks, a B-tree directory built bottom-up. For tests, the
// fuzzer's seeds and the benchmark; not a repacker of retail files (no free list, no LRU).
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/asherons_call/dat.h"

namespace animkit::asherons_call {

struct DatObject {
  uint32_t id = 0;
  std::vector<uint8_t> bytes;
};

struct DatWriteOptions {
  uint32_t block_size = 1024;
  uint32_t max_entries = kDatMaxEntries;  // per node (smaller makes deeper trees in tests)
  bool add_iteration = true;              // object 0xFFFF0001 (container page 1)
  int32_t iteration = 1;
  uint32_t data_set = 1;
  uint32_t date = 0;  // every entry's date
};

// Throws animkit::Error on duplicate ids or options out of range.
std::vector<uint8_t> write_dat(std::vector<DatObject> objects, const DatWriteOptions& options = {});

// Object 0xFFFF0001: i32 total, then one pair (-total, 1) as DRW writes it (container page 1).
std::vector<uint8_t> iteration_object(int32_t total);

}  // namespace animkit::asherons_call
