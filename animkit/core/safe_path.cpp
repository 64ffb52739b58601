#include "animkit/core/safe_path.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

#include "animkit/core/error.h"

namespace animkit {

namespace {

bool is_utf8_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string safe_file_name(std::string_view name) {
  std::string out;
  for (const unsigned char c : name) {
    const bool unsafe = c == '/' || c == '\\' || c < 0x20 || c == 0x7f;
    out.push_back(unsafe ? '_' : static_cast<char>(c));
  }
  for (char& c : out) {  // leading dots: "..", ".", ".hidden"
    if (c != '.') break;
    c = '_';
  }
  if (out.size() > kMaxSafeNameBytes) {
    size_t cut = kMaxSafeNameBytes;
    while (cut > 0 && is_utf8_continuation(static_cast<unsigned char>(out[cut]))) --cut;
    out.resize(cut);
  }
  return out.empty() ? std::string("unnamed") : out;
}

OutputFolder::OutputFolder(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (!std::filesystem::is_directory(dir_, ec)) {
    throw Error(ec ? "cannot make the output folder: " + ec.message() : "not a folder",
                std::nullopt, dir_.string());
  }
}

std::string OutputFolder::claim(std::string_view name, std::string_view ext) {
  const std::string stem = safe_file_name(name);
  std::string file = stem + std::string(ext);
  for (int n = 2; !taken_.insert(lower(file)).second; ++n) {
    file = fmt::format("{}-{}{}", stem, n, ext);
  }
  return file;
}

void OutputFolder::write(const std::string& file_name, std::span<const uint8_t> bytes) const {
  const std::string shown = (dir_ / file_name).string();
  if (file_name.empty() || file_name == "." || file_name == ".." ||
      file_name.find('/') != std::string::npos) {
    throw Error("refusing to write: the name is not a plain file name", std::nullopt, shown);
  }
  const int dir_fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) {
    throw Error(fmt::format("cannot open the output folder: {}", std::strerror(errno)),
                std::nullopt, dir_.string());
  }
  // O_NOFOLLOW: an existing symlink fails (ELOOP) instead of being followed; O_NONBLOCK: an
  // existing FIFO fails or opens at once instead of waiting for a reader (refused just below).
  const int fd = ::openat(dir_fd, file_name.c_str(),
                          O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  const int open_errno = errno;
  ::close(dir_fd);
  if (fd < 0) {
    throw Error(open_errno == ELOOP ? std::string("refusing to write through a symlink")
                                    : fmt::format("cannot write the file: {}", std::strerror(open_errno)),
                std::nullopt, shown);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error("refusing to write: not a regular file", std::nullopt, shown);
  }
  bool ok = ::ftruncate(fd, 0) == 0;
  for (size_t done = 0; ok && done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  ok = ::close(fd) == 0 && ok;
  if (!ok) throw Error("cannot write the file", std::nullopt, shown);
}

}  // namespace animkit
