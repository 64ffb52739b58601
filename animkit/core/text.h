// Text helpers the modules share (issue 16, item 5): bytes read from a file made safe for JSON,
// hex dumps, and byte offsets mapped to lines and columns. One behaviour for every module.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace animkit {

// Which text printable() passes as it is.
enum class Keep : uint8_t {
  kUtf8,   // every valid UTF-8 sequence: text the file writes as UTF-8 (PC games' paths, names)
  kAscii,  // ASCII only, every byte >= 0x80 escaped: fixed-size name fields of console games,
           // whose bytes are ASCII or a legacy code page (Shift-JIS, Latin-1), never UTF-8, so a
           // sequence that happens to be valid UTF-8 would print as a character nobody wrote
};

// Whether printable() escapes the backslash. kKept reads Windows paths as written
// ("orc\anims\run"), but the text alone is then not reversible ("\x41" could be four bytes or
// 'A'): a caller that keeps it carries the bytes beside the text (Shadow of War's `<key>_hex`).
enum class Backslash : uint8_t { kEscaped, kKept };

// Bytes from a file as valid UTF-8 text, reversibly: every complete, valid UTF-8 sequence (no
// overlong form, no surrogate, at most U+10FFFF; with Keep::kAscii, ASCII only) passes as it
// is, except the control characters U+0000-U+001F and U+007F and the backslash; those and every
// byte outside a kept sequence become "\xNN" (two lowercase hex digits). from_printable() gives
// the bytes back.
std::string printable(std::string_view bytes, Keep keep = Keep::kUtf8,
                      Backslash backslash = Backslash::kEscaped);
std::string printable(std::span<const uint8_t> bytes, Keep keep = Keep::kUtf8,
                      Backslash backslash = Backslash::kEscaped);
// Whether the bytes are valid UTF-8 (RFC 3629, as printable() reads it; controls included).
bool is_utf8(std::string_view bytes);
// The inverse of printable(): "\xNN" becomes its byte; any other text is copied. Throws
// animkit::Error on a backslash not followed by 'x' and two hex digits.
std::string from_printable(std::string_view text);

// Lowercase hex, two digits per byte, no separators.
std::string to_hex(std::span<const uint8_t> bytes);
// Hex digits in either case; spaces, tabs, newlines, ':' and '-' between bytes are skipped.
// Throws animkit::Error on another character or an odd number of digits.
std::vector<uint8_t> parse_hex(std::string_view text);

// Maps byte offsets to 1-based lines and columns; lines count '\n' bytes (a CRLF file gives the
// same line numbers as its LF form; the '\r' counts as a column). An offset past the end maps to
// the last line.
class LineMap {
 public:
  explicit LineMap(std::string_view text);
  int line(size_t offset) const;
  int column(size_t offset) const;
  int lines() const { return static_cast<int>(starts_.size()); }

 private:
  std::vector<size_t> starts_;  // the offset of each line's first byte
};

}  // namespace animkit
