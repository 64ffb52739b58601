// A small static file server for `animkit view`: HTTP/1.1 GET and HEAD on 127.0.0.1 only, one
// short-lived thread per connection, `Connection: close`. Folders are mounted at URL prefixes
// ("/" -> web/, "/node_modules/" -> node_modules/, "/TOKEN/files/" -> the converted files).
//
// Safe at the edges (issue 30): a path is percent-decoded, then resolved through the file system
// (symlinks included) and served only when the real file lies inside the real mounted folder; a
// request whose Host is not this server (127.0.0.1, localhost or [::1] with its port) is refused,
// which defeats DNS rebinding; the request head is at most 8 KiB and must arrive within a
// deadline; at most 64 connections are served at once.
#pragma once

#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace animkit::cli {

struct Mount {
  std::string prefix;  // starts and ends with '/'
  std::filesystem::path dir;
};

class StaticServer {
 public:
  static constexpr size_t kMaxHead = 8 * 1024;  // request line + headers (414 / 431 beyond)
  static constexpr size_t kMaxConnections = 64;  // more at once are closed unanswered
  static constexpr std::chrono::milliseconds kDefaultDeadline{5000};

  // Binds 127.0.0.1:port (0: a free port the system picks); throws animkit::Error when it cannot.
  // A client has `deadline` to send its request head, and each send of the answer as long.
  StaticServer(std::vector<Mount> mounts, uint16_t port,
               std::chrono::milliseconds deadline = kDefaultDeadline);
  ~StaticServer();
  StaticServer(const StaticServer&) = delete;
  StaticServer& operator=(const StaticServer&) = delete;

  uint16_t port() const { return port_; }
  // Serves until `stop` becomes nonzero (looked at several times a second), then waits for the
  // connections in flight.
  void serve(const volatile std::sig_atomic_t& stop);

  // The file a decoded URL path names, or empty when it names none inside a mounted folder
  // (unknown prefix, "..", an absolute rest, a symlink that leads out, a missing file).
  std::filesystem::path resolve(const std::string& url_path) const;

 private:
  void handle(int fd) const;
  bool host_allowed(const std::string& host) const;

  std::vector<Mount> mounts_;
  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::chrono::milliseconds deadline_;
};

// The Content-Type for a file name.
const char* content_type(const std::filesystem::path& path);

// Percent-decoding; false on a malformed escape or a NUL byte (raw or encoded).
bool url_decode(const std::string& in, std::string& out);

// 32 hex digits from the system's random source (/dev/urandom, else std::random_device): the
// secret URL prefix of the converted files.
std::string random_token();

}  // namespace animkit::cli
