#include "animkit/call_of_duty/level_script.h"

#include <cctype>
#include <string>

namespace animkit::call_of_duty {

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool path_char(char c) { return word_char(c) || c == '\\' || c == '/'; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (c == '\\') c = '/';
  }
  return out;
}

}  // namespace

bool main_calls_load_main(std::string_view s) {
  int depth = 0;
  int main_depth = -1;        // the depth of main's body while inside it
  bool main_header = false;   // `main(...)` seen at the top level, its `{` expected
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      ++i;
    } else if (c == '{') {
      ++depth;
      if (main_header && depth == 1) main_depth = 1;
      main_header = false;
      ++i;
    } else if (c == '}') {
      if (main_depth == depth) return false;  // main's body ended without the call
      if (depth > 0) --depth;
      ++i;
    } else if (path_char(c)) {
      size_t end = i;
      while (end < s.size() && path_char(s[end])) ++end;
      const std::string_view word = s.substr(i, end - i);
      if (main_depth > 0 && end + 1 < s.size() && s[end] == ':' && s[end + 1] == ':') {
        size_t f = end + 2;
        while (f < s.size() && word_char(s[f])) ++f;
        if (lower(word) == "maps/_load" && lower(s.substr(end + 2, f - end - 2)) == "main") {
          return true;
        }
        i = f;
        continue;
      }
      if (depth == 0 && main_depth < 0 && lower(word) == "main") {
        size_t k = end;
        while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
        main_header = k < s.size() && s[k] == '(';
      }
      i = end;
    } else {
      if (c == ';' && depth == 0) main_header = false;
      ++i;
    }
  }
  return false;
}

}  // namespace animkit::call_of_duty
