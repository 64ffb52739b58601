// A little-endian reader over a byte span that checks every read against the end and reports the
// absolute offset of what failed: `offset 0x1a4: need 8 bytes, 3 left`.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "animkit/core/error.h"

namespace animkit {

using Bytes = std::span<const uint8_t>;

class Reader {
 public:
  // `base` is the absolute offset of data[0] in the file, so sub-readers report file offsets.
  explicit Reader(Bytes data, uint64_t base = 0) : data_(data), base_(base) {}

  size_t pos() const { return pos_; }                  // relative to this reader's start
  uint64_t offset() const { return base_ + pos_; }     // absolute, in the file
  uint64_t base() const { return base_; }
  size_t size() const { return data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }
  Bytes data() const { return data_; }

  void seek(size_t pos);
  void skip(size_t n);
  // Throws unless n bytes are left at the cursor.
  void need(size_t n) const;

  uint8_t u8() { return read<uint8_t>(); }
  int8_t i8() { return read<int8_t>(); }
  uint16_t u16() { return read<uint16_t>(); }
  int16_t i16() { return read<int16_t>(); }
  uint32_t u32() { return read<uint32_t>(); }
  int32_t i32() { return read<int32_t>(); }
  uint64_t u64() { return read<uint64_t>(); }
  float f32() { return std::bit_cast<float>(read<uint32_t>()); }
  Bytes bytes(size_t n);
  // A fixed-size text field, cut at its first NUL.
  std::string fixed_string(size_t n);
  // A NUL-terminated string (the NUL is consumed).
  std::string c_string();

  // A reader over [pos, pos + n) of this one, with absolute offsets; this cursor does not move.
  Reader sub(size_t pos, size_t n) const;

  // An error at the current offset (or at `pos`, relative to this reader).
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void fail_at(size_t pos, const std::string& message) const;

 private:
  template <class T>
  T read() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, data_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;  // the machines animkit targets are little-endian (static_assert in reader.cpp)
  }

  Bytes data_;
  uint64_t base_ = 0;
  size_t pos_ = 0;
};

}  // namespace animkit
