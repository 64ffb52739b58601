#include "animkit/core/error.h"

#include <fmt/format.h>

namespace animkit {

Error::Error(std::string message, std::optional<uint64_t> offset, std::string file)
    : std::runtime_error(format(file, offset, message)),
      message_(std::move(message)),
      offset_(offset),
      file_(std::move(file)) {}

Error Error::with_file(const std::string& file) const {
  return file_.empty() ? Error(message_, offset_, file) : *this;
}

std::string Error::format(const std::string& file, const std::optional<uint64_t>& offset,
                          const std::string& message) {
  std::string out;
  if (!file.empty()) out += file + ": ";
  if (offset) out += fmt::format("offset {:#x}: ", *offset);
  return out + message;
}

}  // namespace animkit
