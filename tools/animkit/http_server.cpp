#include "http_server.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <list>
#include <memory>
#include <sstream>
#include <thread>

#include "animkit/core/error.h"

namespace animkit::cli {

namespace {

constexpr size_t kMaxRequest = 16 * 1024;

bool send_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

void respond(int fd, int status, const char* reason, const char* type, const std::string& body,
             bool head) {
  const std::string header = fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n"
      "Connection: close\r\n\r\n",
      status, reason, type, body.size());
  if (send_all(fd, header.data(), header.size()) && !head) send_all(fd, body.data(), body.size());
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding; false on a malformed escape or a NUL.
bool url_decode(const std::string& in, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex_digit(in[i + 1]), lo = hex_digit(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '\0') return false;
    out.push_back(c);
  }
  return true;
}

}  // namespace

const char* content_type(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".glb") return "model/gltf-binary";
  if (ext == ".gltf") return "model/gltf+json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".wasm") return "application/wasm";
  if (ext == ".txt" || ext == ".md") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

StaticServer::StaticServer(std::vector<Mount> mounts, uint16_t port) : mounts_(std::move(mounts)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw Error(fmt::format("socket: {}", std::strerror(errno)));
  const int yes = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // 127.0.0.1 only: never reachable from outside
  addr.sin_port = htons(port);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 64) != 0) {
    const std::string why = std::strerror(errno);
    ::close(listen_fd_);
    listen_fd_ = -1;
    throw Error(fmt::format("cannot listen on 127.0.0.1:{}: {}", port, why));
  }
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
}

StaticServer::~StaticServer() {
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

std::filesystem::path StaticServer::resolve(const std::string& url_path) const {
  const Mount* best = nullptr;
  for (const Mount& m : mounts_) {
    if (url_path.compare(0, m.prefix.size(), m.prefix) == 0 &&
        (!best || m.prefix.size() > best->prefix.size())) {
      best = &m;
    }
  }
  if (!best) return {};
  std::string rest = url_path.substr(best->prefix.size());
  // Refuse any ".." segment (and backslashes), so a request cannot leave its folder.
  std::stringstream segments(rest);
  for (std::string s; std::getline(segments, s, '/');) {
    if (s == "..") return {};
  }
  if (rest.find('\\') != std::string::npos) return {};
  std::filesystem::path p = best->dir / rest;
  std::error_code ec;
  if (std::filesystem::is_directory(p, ec)) p /= "index.html";
  if (!std::filesystem::is_regular_file(p, ec)) return {};
  return p;
}

void StaticServer::handle(int fd) const {
  timeval timeout{5, 0};  // a connection that says nothing is dropped after 5 s
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  std::string request;
  char buf[4096];
  while (request.find("\r\n\r\n") == std::string::npos && request.size() < kMaxRequest) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    request.append(buf, static_cast<size_t>(n));
  }
  std::istringstream line(request.substr(0, request.find("\r\n")));
  std::string method, target;
  line >> method >> target;
  const bool head = method == "HEAD";
  if (method != "GET" && !head) {
    respond(fd, 405, "Method Not Allowed", "text/plain", "GET or HEAD only\n", false);
    return;
  }
  std::string path;
  if (target.empty() || target[0] != '/' ||
      !url_decode(target.substr(0, target.find_first_of("?#")), path)) {
    respond(fd, 400, "Bad Request", "text/plain", "bad request\n", head);
    return;
  }
  const std::filesystem::path file = resolve(path);
  std::ifstream in(file, std::ios::binary);
  if (file.empty() || !in) {
    respond(fd, 404, "Not Found", "text/plain", "not found: " + path + "\n", head);
    std::cerr << "view: 404 " << path << "\n";
    return;
  }
  std::ostringstream body;
  body << in.rdbuf();
  respond(fd, 200, "OK", content_type(file), body.str(), head);
}

void StaticServer::serve(const volatile std::sig_atomic_t& stop) {
  struct Worker {
    std::thread thread;
    std::atomic<bool> done{false};
  };
  std::list<Worker> workers;
  while (!stop) {
    pollfd p{listen_fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, 200);
    for (auto it = workers.begin(); it != workers.end();) {  // reap finished connections
      if (it->done) {
        it->thread.join();
        it = workers.erase(it);
      } else {
        ++it;
      }
    }
    if (ready <= 0 || !(p.revents & POLLIN)) continue;  // timeout, or EINTR from Ctrl-C
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    Worker& w = workers.emplace_back();
    w.thread = std::thread([this, fd, &w] {
      handle(fd);
      ::close(fd);
      w.done = true;
    });
  }
  for (Worker& w : workers) w.thread.join();
}

}  // namespace animkit::cli
