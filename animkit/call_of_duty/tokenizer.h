// The shared script tokenizer in its space-delimited mode, as the tree loader uses it
// (cod-animtrees-loader.md, "Tokens"): a token is a run of bytes above the space character
// compared as signed chars (so 0x80-0xFF are white space), `"` starts a quoted token with `\"` as
// an escape, `//` and `/*` start comments only where a token would start, and a read "on line"
// returns an empty token once white space containing a newline is crossed (a `/* */` comment over
// several lines does not count as that newline). The data ends at the first NUL byte, as the
// C string the stock loader reads does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animkit/core/text.h"

namespace animkit::call_of_duty {

struct Token {
  std::string text;   // the token (a quoted token without its quotes)
  size_t offset = 0;  // of its first byte (the quote for a quoted token); end of data at EOF
  bool eof = false;   // no token: end of data
  bool quoted = false;
  bool empty() const { return text.empty(); }
};

// Byte offsets to 1-based lines and columns ('\n' counts lines, so CRLF files give the same line
// numbers as LF files): core text.h's LineMap.
using animkit::LineMap;

// The same for offsets asked mostly in increasing order (a parse): counts newlines forward from
// the last answer (and back, for the few places error recovery asks out of order).
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : text_(text) {}
  struct Place {
    int line;
    int column;
  };
  Place at(size_t offset);

 private:
  std::string_view text_;
  size_t pos_ = 0;         // offsets before pos_ are counted
  size_t line_start_ = 0;  // of the line holding pos_
  int line_ = 1;
};

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text);

  // The next token, crossing line breaks (Com_Parse). At the end of data: eof, empty text.
  Token next();
  // The next token on the current line (Com_ParseOnLine): empty (not eof) once a newline is
  // crossed; eof at the end of data.
  Token next_on_line();
  // Reads and drops the rest of the current line.
  void skip_line();

  size_t position() const { return pos_; }
  void set_position(size_t pos) { pos_ = pos; }
  size_t size() const { return text_.size(); }
  // The offset of a `/*` that reached the end of the data, once one has.
  std::optional<size_t> unterminated_comment() const { return unterminated_comment_; }

 private:
  Token read(bool allow_line_breaks);
  std::string_view text_;
  size_t pos_ = 0;
  std::optional<size_t> unterminated_comment_;
};

// True for one or more ASCII letters, digits or underscores (a leading digit is allowed).
bool is_identifier(std::string_view s);
std::string to_lower(std::string_view s);

}  // namespace animkit::call_of_duty
