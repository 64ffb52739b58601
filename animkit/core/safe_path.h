// Files named from input, kept inside the output folder (issue 30, "Every written file under
// -o"). A resource, clip or entry name read from a file becomes a file name with safe_file_name;
// a verb that writes several files claims each name from one OutputFolder, which numbers
// collisions and writes only directly inside its folder, never through an existing symlink.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <span>
#include <string>
#include <string_view>

namespace animkit {

// The most bytes safe_file_name keeps: room under the 255-byte name limit of common file systems
// for a "-NNNN" collision number and an extension.
constexpr size_t kMaxSafeNameBytes = 200;

// `name` as one file name: '/' '\' and control bytes (below 0x20, 0x7f) become '_', leading dots
// become '_' (no "..", no hidden file), cut to kMaxSafeNameBytes at a UTF-8 character boundary;
// "unnamed" when nothing is left. Pure: the same name always gives the same file name.
std::string safe_file_name(std::string_view name);

class OutputFolder {
 public:
  // Creates the folder (and its parents) when missing; throws animkit::Error naming it when it
  // cannot, or when it exists and is not a folder.
  explicit OutputFolder(std::filesystem::path dir);

  // A file name for `name` + `ext` (ext like ".anm", written as given): safe_file_name(name),
  // numbered "-2", "-3", ... when this folder already handed out the same name (compared without
  // case, so case-insensitive file systems get distinct files too).
  std::string claim(std::string_view name, std::string_view ext);

  // Writes `bytes` as the file `file_name` directly inside the folder. Refuses (animkit::Error
  // naming the path) a name with a separator, "." or "..", an existing symlink at that name, and
  // anything existing that is not a regular file (a FIFO, a device, a folder).
  void write(const std::string& file_name, std::span<const uint8_t> bytes) const;

  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
  std::set<std::string> taken_;  // lower-cased names handed out
};

}  // namespace animkit
