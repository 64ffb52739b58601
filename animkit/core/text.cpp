#include "animkit/core/text.h"

#include <algorithm>

#include <fmt/format.h>

#include "animkit/core/error.h"

namespace animkit {

namespace {

// The length of the valid UTF-8 sequence at s[i] (RFC 3629), or 0.
size_t utf8_length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t min;
  if ((c & 0xE0) == 0xC0) {
    n = 2, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, min = 0x10000;
  } else {
    return 0;  // a continuation byte or 0xF8-0xFF cannot start a sequence
  }
  if (n > s.size() - i) return 0;
  uint32_t cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    const auto d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (d & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string printable(std::string_view s, Keep keep, Backslash backslash) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = keep == Keep::kAscii ? (c < 0x80 ? 1 : 0) : utf8_length(s, i);
    if (n == 0 || c < 0x20 || c == 0x7F || (c == '\\' && backslash == Backslash::kEscaped)) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

bool is_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string printable(std::span<const uint8_t> bytes, Keep keep, Backslash backslash) {
  return printable(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), keep,
                   backslash);
}

std::string from_printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    const bool escape = i + 3 < text.size() && text[i + 1] == 'x';
    const int hi = escape ? hex_digit(text[i + 2]) : -1;
    const int lo = escape ? hex_digit(text[i + 3]) : -1;
    if (hi < 0 || lo < 0) {
      throw Error(fmt::format("text: the '\\' at {} is not followed by x and two hex digits", i));
    }
    out += static_cast<char>(hi * 16 + lo);
    i += 3;
  }
  return out;
}

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(bytes.size() * 2, '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    s[2 * i] = kDigits[bytes[i] >> 4];
    s[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return s;
}

std::vector<uint8_t> parse_hex(std::string_view text) {
  std::vector<uint8_t> out;
  int hi = -1;
  for (char c : text) {
    const int v = hex_digit(c);
    if (v < 0) {
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ':' || c == '-') {
        continue;
      }
      throw Error(fmt::format("hex: unexpected character '{}'", printable(std::string_view(&c, 1))));
    }
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(static_cast<uint8_t>(hi * 16 + v));
      hi = -1;
    }
  }
  if (hi >= 0) throw Error("hex: odd number of digits");
  return out;
}

LineMap::LineMap(std::string_view text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
}

int LineMap::line(size_t offset) const {
  return static_cast<int>(std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin());
}

int LineMap::column(size_t offset) const {
  return static_cast<int>(offset - starts_[static_cast<size_t>(line(offset)) - 1]) + 1;
}

}  // namespace animkit
