#include "animkit/core/reader.h"

#include <fmt/format.h>

namespace animkit {

static_assert(std::endian::native == std::endian::little, "animkit reads little-endian data");

void Reader::need(size_t n) const {
  if (n > remaining()) fail(fmt::format("need {} bytes, {} left", n, remaining()));
}

void Reader::seek(size_t pos) {
  if (pos > data_.size()) fail(fmt::format("seek to {:#x} past the end ({:#x})", base_ + pos,
                                           base_ + data_.size()));
  pos_ = pos;
}

void Reader::skip(size_t n) {
  need(n);
  pos_ += n;
}

Bytes Reader::bytes(size_t n) {
  need(n);
  Bytes out = data_.subspan(pos_, n);
  pos_ += n;
  return out;
}

std::string Reader::fixed_string(size_t n) {
  Bytes b = bytes(n);
  size_t len = 0;
  while (len < n && b[len] != 0) ++len;
  return std::string(reinterpret_cast<const char*>(b.data()), len);
}

std::string Reader::c_string() {
  size_t end = pos_;
  while (end < data_.size() && data_[end] != 0) ++end;
  if (end == data_.size()) fail("string runs past the end without a terminating NUL");
  std::string s(reinterpret_cast<const char*>(data_.data() + pos_), end - pos_);
  pos_ = end + 1;
  return s;
}

Reader Reader::sub(size_t pos, size_t n) const {
  if (pos > data_.size() || n > data_.size() - pos) {
    fail_at(std::min(pos, data_.size()),
            fmt::format("range of {} bytes at {:#x} exceeds the {} bytes available", n,
                        base_ + pos, pos > data_.size() ? 0 : data_.size() - pos));
  }
  return Reader(data_.subspan(pos, n), base_ + pos);
}

void Reader::fail(const std::string& message) const { throw Error(message, offset()); }

void Reader::fail_at(size_t pos, const std::string& message) const {
  throw Error(message, base_ + pos);
}

}  // namespace animkit
