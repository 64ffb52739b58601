#include "http_server.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <random>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <list>
#include <memory>
#include <sstream>
#include <system_error>
#include <thread>

#include "animkit/core/error.h"

namespace animkit::cli {

namespace {

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
             bool head, const char* extra = "") {
  const std::string header = fmt::format(
      "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n"
      "{}Connection: close\r\n\r\n",
      status, reason, type, body.size(), extra);
  if (send_all(fd, header.data(), header.size()) && !head) send_all(fd, body.data(), body.size());
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The value of header `name` (lower case) in a request head, spaces trimmed; empty when absent.
std::string header_value(const std::string& head, const std::string& name) {
  std::istringstream lines(head);
  std::string line;
  std::getline(lines, line);  // the request line
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t colon = line.find(':');
    if (colon == std::string::npos || colon != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < colon; ++i) {
      same = same && std::tolower(static_cast<unsigned char>(line[i])) == name[i];
    }
    if (!same) continue;
    const size_t first = line.find_first_not_of(" \t", colon + 1);
    const size_t last = line.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : line.substr(first, last + 1 - first);
  }
  return {};
}

// After refusing a request the client is still sending: stop writing and discard what comes
// until the client closes or the deadline passes, so the answer is not lost to a reset (closing
// with unread bytes sends RST). Memory stays one buffer; time stays the deadline.
void drain(int fd, std::chrono::steady_clock::time_point give_up) {
  ::shutdown(fd, SHUT_WR);
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        give_up - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) return;
    if (::recv(fd, buf, sizeof buf, 0) <= 0) return;
  }
}

// True when `file` is `root` or lies below it (both canonical).
bool lies_inside(const std::filesystem::path& file, const std::filesystem::path& root) {
  auto f = file.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++f) {
    if (f == file.end() || *f != *r) return false;
  }
  return true;
}

// A path for the log: control bytes shown as \xNN, so a request cannot write to the terminal.
std::string printable(const std::string& s) {
  std::string out;
  for (const unsigned char c : s) {
    out += c < 0x20 || c == 0x7f ? fmt::format("\\x{:02x}", c) : std::string(1, static_cast<char>(c));
  }
  return out;
}

}  // namespace

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

StaticServer::StaticServer(std::vector<Mount> mounts, uint16_t port,
                           std::chrono::milliseconds deadline)
    : mounts_(std::move(mounts)), deadline_(deadline) {
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
  namespace fs = std::filesystem;
  const Mount* best = nullptr;
  for (const Mount& m : mounts_) {
    if (url_path.compare(0, m.prefix.size(), m.prefix) == 0 &&
        (!best || m.prefix.size() > best->prefix.size())) {
      best = &m;
    }
  }
  if (!best) return {};
  const std::string rest = url_path.substr(best->prefix.size());
  // Lexically first: no ".." segment, no backslash (a cheap early no for the common probes).
  if (rest.find('\\') != std::string::npos) return {};
  std::stringstream segments(rest);
  for (std::string s; std::getline(segments, s, '/');) {
    if (s == "..") return {};
  }
  // Then through the file system: the real file (every symlink followed) must lie inside the
  // real folder. `relative_path` drops a leading '/', so "//etc/passwd" stays under the folder.
  std::error_code ec;
  const fs::path root = fs::canonical(best->dir, ec);
  if (ec) return {};
  fs::path file = fs::canonical(root / fs::path(rest).relative_path(), ec);
  if (ec) return {};
  if (fs::is_directory(file, ec)) file = fs::canonical(file / "index.html", ec);
  if (ec || !lies_inside(file, root) || !fs::is_regular_file(file, ec)) return {};
  return file;
}

bool StaticServer::host_allowed(const std::string& host) const {
  for (const char* name : {"127.0.0.1", "localhost", "[::1]"}) {
    if (host == fmt::format("{}:{}", name, port_)) return true;
  }
  return false;
}

void StaticServer::handle(int fd) const {
  const auto give_up = std::chrono::steady_clock::now() + deadline_;
  const timeval send_timeout{static_cast<time_t>(deadline_.count() / 1000),
                             static_cast<suseconds_t>(deadline_.count() % 1000 * 1000)};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof send_timeout);
  // The request head, within the deadline as a whole (a client sending a byte a second is
  // dropped like one that sends nothing) and within kMaxHead bytes.
  std::string request;
  char buf[2048];
  while (request.find("\r\n\r\n") == std::string::npos) {
    if (request.size() > kMaxHead) {
      const bool line_too_long = request.find("\r\n") == std::string::npos;
      if (line_too_long) {
        respond(fd, 414, "URI Too Long", "text/plain", "request line too long\n", false);
      } else {
        respond(fd, 431, "Request Header Fields Too Large", "text/plain", "headers too large\n",
                false);
      }
      drain(fd, give_up);
      return;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        give_up - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      respond(fd, 408, "Request Timeout", "text/plain", "request timeout\n", false);
      return;
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;  // the deadline is checked above
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    request.append(buf, static_cast<size_t>(n));
  }
  const std::string head = request.substr(0, request.find("\r\n\r\n"));
  std::istringstream line(head.substr(0, head.find("\r\n")));
  std::string method, target;
  line >> method >> target;
  const bool is_head = method == "HEAD";
  if (method != "GET" && !is_head) {
    respond(fd, 405, "Method Not Allowed", "text/plain", "GET or HEAD only\n", false,
            "Allow: GET, HEAD\r\n");
    return;
  }
  if (!host_allowed(header_value(head, "host"))) {
    respond(fd, 403, "Forbidden", "text/plain", "forbidden host\n", is_head);
    return;
  }
  std::string path;
  if (target.empty() || target[0] != '/' ||
      !url_decode(target.substr(0, target.find_first_of("?#")), path)) {
    respond(fd, 400, "Bad Request", "text/plain", "bad request\n", is_head);
    return;
  }
  const std::filesystem::path file = resolve(path);
  std::ifstream in(file, std::ios::binary);
  if (file.empty() || !in) {
    respond(fd, 404, "Not Found", "text/plain", "not found\n", is_head);
    std::cerr << "view: 404 " << printable(path) << "\n";
    return;
  }
  std::ostringstream body;
  body << in.rdbuf();
  respond(fd, 200, "OK", content_type(file), body.str(), is_head);
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
    if (workers.size() >= kMaxConnections) {  // busy: a short answer, no thread
      respond(fd, 503, "Service Unavailable", "text/plain", "busy\n", false);
      ::close(fd);
      continue;
    }
    Worker& w = workers.emplace_back();
    try {
      w.thread = std::thread([this, fd, &w] {
        handle(fd);
        ::close(fd);
        w.done = true;
      });
    } catch (const std::system_error&) {  // no thread to be had: this connection goes unanswered
      ::close(fd);
      workers.pop_back();
    }
  }
  for (Worker& w : workers) w.thread.join();
}

std::string random_token() {
  std::array<uint8_t, 16> bytes{};
  bool filled = false;
  if (std::ifstream urandom("/dev/urandom", std::ios::binary); urandom) {
    filled = static_cast<bool>(
        urandom.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())));
  }
  if (!filled) {
    std::random_device device;
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(device());
  }
  std::string token;
  for (const uint8_t b : bytes) token += fmt::format("{:02x}", b);
  return token;
}

}  // namespace animkit::cli
