// A read-only memory map of a whole file (POSIX mmap): a retail client_portal.dat is ~1.5 GB,
// and opening or listing it must touch only the header and the directory pages.
#pragma once

#include <cstdint>
#include <filesystem>

#include "animkit/core/reader.h"

namespace animkit::asherons_call {

class MappedFile {
 public:
  // Throws animkit::Error naming the file when it cannot be opened or mapped.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  Bytes bytes() const { return {data_, size_}; }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace animkit::asherons_call
