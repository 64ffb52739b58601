// Test fixtures: .pk3 (zip) archives written with libzip, and game folders on disk. One folder per
// test and process (ctest runs tests in parallel).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>
#include <zip.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace animkit::call_of_duty::testing {

// Writes `entries` (name, bytes) in order; deflated unless `stored`.
inline void write_zip(const std::filesystem::path& path,
                      const std::vector<std::pair<std::string, std::string>>& entries,
                      bool stored = false) {
  int err = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  ASSERT_NE(z, nullptr) << "zip_open " << err;
  for (const auto& [name, data] : entries) {
    zip_source_t* src = zip_source_buffer(z, data.data(), data.size(), 0);
    ASSERT_NE(src, nullptr);
    const zip_int64_t i = zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_RAW);
    ASSERT_GE(i, 0) << zip_strerror(z);
    if (stored) zip_set_file_compression(z, static_cast<zip_uint64_t>(i), ZIP_CM_STORE, 0);
  }
  ASSERT_EQ(zip_close(z), 0) << zip_strerror(z);  // the data is read here, while still alive
}

// A temporary folder named after the running test.
struct TempDir {
  std::filesystem::path dir;
  TempDir() {
    dir = std::filesystem::temp_directory_path() /
          ("animkit_cod_" +
           std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
           std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~TempDir() { std::filesystem::remove_all(dir); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path write(const std::string& rel, const std::string& bytes) const {
    const std::filesystem::path p = dir / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  std::filesystem::path mkdir(const std::string& rel) const {
    std::filesystem::create_directories(dir / rel);
    return dir / rel;
  }
};

// The 9-byte xanim v14 header (cod-xanim-format.md §1.1) with no parts: enough for the tree
// builder's looped flag and length.
inline std::string xanim_header(uint16_t frames, uint8_t flags, int16_t frame_rate = 30,
                                int16_t parts = 0) {
  std::string s;
  auto u16 = [&](uint16_t v) {
    s += static_cast<char>(v & 0xFF);
    s += static_cast<char>(v >> 8);
  };
  u16(14);
  u16(frames);
  u16(static_cast<uint16_t>(parts));
  s += static_cast<char>(flags);
  u16(static_cast<uint16_t>(frame_rate));
  return s;
}

}  // namespace animkit::call_of_duty::testing
