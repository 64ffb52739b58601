// The one error type of animkit: what went wrong, where (file, byte offset), printed by the CLI as
// `FILE: offset 0x1a4: message` (DESIGN.md, principle 4).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace animkit {

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message, std::optional<uint64_t> offset = std::nullopt,
                 std::string file = {});

  const std::string& message() const { return message_; }
  const std::optional<uint64_t>& offset() const { return offset_; }
  const std::string& file() const { return file_; }

  // The same error, naming the file it came from (kept when one is already named).
  Error with_file(const std::string& file) const;

 private:
  static std::string format(const std::string& file, const std::optional<uint64_t>& offset,
                            const std::string& message);
  std::string message_;
  std::optional<uint64_t> offset_;
  std::string file_;
};

}  // namespace animkit
