#include "animkit/call_of_duty/tokenizer.h"

#include <algorithm>
#include <cstring>

#include "animkit/call_of_duty/diagnostic.h"

namespace animkit::call_of_duty {

std::string Diagnostic::to_string() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
  if (!s.empty()) s += ": ";
  if (level == Level::kWarning) s += "warning: ";
  return s + message;
}

bool has_error(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.is_error(); });
}

LineCursor::Place LineCursor::at(size_t offset) {
  offset = std::min(offset, text_.size());
  if (offset < pos_) {
    // Back a little (error recovery places a token before one already placed).
    for (size_t i = offset; i < pos_; ++i) line_ -= text_[i] == '\n';
    pos_ = offset;
    line_start_ = 0;
    for (size_t i = offset; i > 0; --i) {
      if (text_[i - 1] == '\n') {
        line_start_ = i;
        break;
      }
    }
  }
  while (pos_ < offset) {
    const void* nl = std::memchr(text_.data() + pos_, '\n', offset - pos_);
    if (!nl) {
      pos_ = offset;
      break;
    }
    pos_ = static_cast<size_t>(static_cast<const char*>(nl) - text_.data()) + 1;
    line_start_ = pos_;
    ++line_;
  }
  return {line_, static_cast<int>(offset - line_start_) + 1};
}

namespace {

// Com_Parse compares `signed char` values with ' ': bytes 0x80-0xFF count as white space.
bool is_space(char c) { return static_cast<signed char>(c) <= ' '; }

}  // namespace

// "Tokens": the data is a C string; it ends at its first NUL byte.
Tokenizer::Tokenizer(std::string_view text) : text_(text.substr(0, text.find('\0'))) {}

Token Tokenizer::next() { return read(true); }
Token Tokenizer::next_on_line() { return read(false); }

void Tokenizer::skip_line() {
  for (;;) {
    const size_t before = pos_;
    Token t = next_on_line();
    if (t.eof || (t.empty() && !t.quoted)) {
      if (!t.eof) pos_ = before;  // leave the newline for the next read
      return;
    }
  }
}

Token Tokenizer::read(bool allow_line_breaks) {
  bool crossed_newline = false;
  const size_t n = text_.size();
  for (;;) {
    // Skip white space, noting a newline.
    while (pos_ < n && is_space(text_[pos_])) {
      if (text_[pos_] == '\n') crossed_newline = true;
      ++pos_;
    }
    if (pos_ >= n) return Token{{}, n, true, false};
    if (crossed_newline && !allow_line_breaks) return Token{{}, pos_, false, false};
    // Comments start only where a token would start.
    if (text_[pos_] == '/' && pos_ + 1 < n && text_[pos_ + 1] == '/') {
      while (pos_ < n && text_[pos_] != '\n') ++pos_;
      continue;
    }
    if (text_[pos_] == '/' && pos_ + 1 < n && text_[pos_ + 1] == '*') {
      // A block comment over several lines is not the newline of a "parse on line" read.
      const size_t start = pos_;
      pos_ += 2;
      while (pos_ < n && !(text_[pos_] == '*' && pos_ + 1 < n && text_[pos_ + 1] == '/')) ++pos_;
      if (pos_ >= n) unterminated_comment_ = start;  // the rest of the data is the comment
      pos_ = std::min(n, pos_ + 2);
      continue;
    }
    break;
  }
  Token token;
  token.offset = pos_;
  if (text_[pos_] == '"') {
    token.quoted = true;
    ++pos_;
    while (pos_ < n) {
      const char c = text_[pos_++];
      if (c == '\\' && pos_ < n && text_[pos_] == '"') {
        token.text += '"';
        ++pos_;
        continue;
      }
      if (c == '"') break;
      token.text += c;
    }
    return token;
  }
  const size_t start = pos_;
  while (pos_ < n && !is_space(text_[pos_])) ++pos_;
  token.text.assign(text_.substr(start, pos_ - start));
  return token;
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string to_lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return r;
}

}  // namespace animkit::call_of_duty
