// One diagnostic of the loader, the script scanner or the linter, with the `file:line:column` of
// the token the stock loader blames (cod-animtrees-loader.md, "The parse, token by token":
// "Diagnostics report the offset of the last token").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace animkit::call_of_duty {

struct Diagnostic {
  enum class Level { kError, kWarning };
  Level level = Level::kError;
  std::string file;
  int line = 0;    // 1-based; 0 when the diagnostic has no place in a file
  int column = 0;  // 1-based byte column
  uint64_t offset = 0;
  std::string message;

  bool is_error() const { return level == Level::kError; }
  // `file:line:column: message` (the place left out when unknown).
  std::string to_string() const;
};

// True when any diagnostic is an error.
bool has_error(const std::vector<Diagnostic>& diagnostics);

}  // namespace animkit::call_of_duty
