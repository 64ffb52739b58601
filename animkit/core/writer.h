// A little-endian byte writer, the mirror of Reader: formats write back byte for byte.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace animkit {

class Writer {
 public:
  size_t pos() const { return out_.size(); }
  const std::vector<uint8_t>& bytes() const { return out_; }
  std::vector<uint8_t> take() { return std::move(out_); }

  void u8(uint8_t v) { put(v); }
  void i8(int8_t v) { put(v); }
  void u16(uint16_t v) { put(v); }
  void i16(int16_t v) { put(v); }
  void u32(uint32_t v) { put(v); }
  void i32(int32_t v) { put(v); }
  void u64(uint64_t v) { put(v); }
  void f32(float v) { put(std::bit_cast<uint32_t>(v)); }
  void bytes(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void zeros(size_t n) { out_.resize(out_.size() + n, 0); }
  // A fixed-size text field: the text, then NULs (the text is cut to n bytes).
  void fixed_string(std::string_view s, size_t n) {
    const size_t len = s.size() < n ? s.size() : n;
    bytes({reinterpret_cast<const uint8_t*>(s.data()), len});
    zeros(n - len);
  }
  void c_string(std::string_view s) {
    bytes({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
    u8(0);
  }
  // Pads with zeros to a multiple of `alignment`.
  void align(size_t alignment) {
    while (out_.size() % alignment != 0) out_.push_back(0);
  }
  // Overwrites a value already written (for offsets known only later).
  template <class T>
  void patch(size_t pos, T v) {
    std::memcpy(out_.data() + pos, &v, sizeof(T));
  }

 private:
  template <class T>
  void put(T v) {
    uint8_t b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out_.insert(out_.end(), b, b + sizeof(T));
  }
  std::vector<uint8_t> out_;
};

}  // namespace animkit
