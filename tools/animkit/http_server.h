// A small static file server for `animkit view`: HTTP/1.1 GET and HEAD on 127.0.0.1 only, one
// short-lived thread per connection, `Connection: close`. Folders are mounted at URL prefixes
// ("/" -> web/, "/node_modules/" -> node_modules/, "/files/" -> the converted files).
#pragma once

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
  // Binds 127.0.0.1:port (0: a free port the system picks); throws animkit::Error when it cannot.
  StaticServer(std::vector<Mount> mounts, uint16_t port);
  ~StaticServer();
  StaticServer(const StaticServer&) = delete;
  StaticServer& operator=(const StaticServer&) = delete;

  uint16_t port() const { return port_; }
  // Serves until `stop` becomes nonzero (looked at several times a second), then waits for the
  // connections in flight.
  void serve(const volatile std::sig_atomic_t& stop);

 private:
  void handle(int fd) const;
  // The file a URL path names, or empty when it names none (unknown prefix, "..", ...).
  std::filesystem::path resolve(const std::string& url_path) const;

  std::vector<Mount> mounts_;
  int listen_fd_ = -1;
  uint16_t port_ = 0;
};

// The Content-Type for a file name.
const char* content_type(const std::filesystem::path& path);

}  // namespace animkit::cli
