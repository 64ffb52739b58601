// The viewer's file server at its edges (issue 30, Deliver 1): hostile requests over raw sockets
// against a StaticServer started in-process on a free port, serving a folder that holds a page,
// a secret folder of "converted files", and a symlink that leads out of it.
#include "http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace animkit::cli {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// A connected socket to 127.0.0.1:port.
int connect_to(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  return fd;
}

bool send_all(int fd, const std::string& s) {
  size_t sent = 0;
  while (sent < s.size()) {
    const ssize_t n = ::send(fd, s.data() + sent, s.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;  // the server may close a connection it refuses mid-request
    sent += static_cast<size_t>(n);
  }
  return true;
}

// Everything the server sends until it closes (at most 10 s).
std::string read_all(int fd) {
  std::string got;
  char buf[4096];
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < give_up) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  return got;
}

class HttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("animkit-http-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "web");
    fs::create_directories(dir_ / "files");
    write(dir_ / "web" / "index.html", "<p>page</p>");
    write(dir_ / "files" / "core.glb", "glb bytes");
    write(dir_ / "secret.txt", "outside the served folders");
    fs::create_symlink(dir_ / "secret.txt", dir_ / "files" / "leak.txt");
    fs::create_directory_symlink(dir_, dir_ / "files" / "up");
    server_ = std::make_unique<StaticServer>(
        std::vector<Mount>{{"/", dir_ / "web"}, {"/" + kToken + "/files/", dir_ / "files"}}, 0,
        1000ms);
    thread_ = std::thread([this] { server_->serve(stop_); });
  }
  void TearDown() override {
    stop_ = 1;
    thread_.join();
    server_.reset();
    fs::remove_all(dir_);
  }

  // The answer to a raw request.
  std::string Ask(const std::string& request) const {
    const int fd = connect_to(server_->port());
    send_all(fd, request);
    std::string got = read_all(fd);
    ::close(fd);
    return got;
  }
  std::string Get(const std::string& target, const std::string& host = "") const {
    const std::string h = host.empty() ? "127.0.0.1:" + std::to_string(server_->port()) : host;
    return Ask("GET " + target + " HTTP/1.1\r\nHost: " + h + "\r\n\r\n");
  }
  static std::string Status(const std::string& answer) { return answer.substr(0, answer.find("\r\n")); }

  const std::string kToken = "0123456789abcdef0123456789abcdef";
  fs::path dir_;
  std::unique_ptr<StaticServer> server_;
  volatile std::sig_atomic_t stop_ = 0;
  std::thread thread_;
};

TEST_F(HttpServerTest, ServesThePageAndTheTokenGuardedFiles) {
  const std::string page = Get("/");
  EXPECT_EQ(Status(page), "HTTP/1.1 200 OK");
  EXPECT_NE(page.find("<p>page</p>"), std::string::npos);
  const std::string glb = Get("/" + kToken + "/files/core.glb");
  EXPECT_EQ(Status(glb), "HTTP/1.1 200 OK");
  EXPECT_NE(glb.find("glb bytes"), std::string::npos);
  // Without the token the file is not found (the page's folder has no such file).
  EXPECT_EQ(Status(Get("/files/core.glb")), "HTTP/1.1 404 Not Found");
  EXPECT_EQ(Status(Get("/0123456789abcdef0123456789abcdee/files/core.glb")), "HTTP/1.1 404 Not Found");
}

TEST_F(HttpServerTest, PathsThatLeaveTheServedFoldersAreNotFound) {
  for (const std::string& target : std::vector<std::string>{"//etc/passwd", "/%2Fetc/passwd", "/%2fetc%2fpasswd", "/..%2f..%2f..%2fetc/passwd",
        "/..%2f..%2f", "/../secret.txt", "/%2e%2e/secret.txt", "/" + kToken + "/files/..%2fsecret.txt",
        "/" + kToken + "/files//" + (dir_ / "secret.txt").string(),
        "/" + kToken + "/files/leak.txt", "/" + kToken + "/files/up/secret.txt",
        "/" + kToken + "/files/up/web/index.html", "/" + kToken + "/files/..\\secret.txt"}) {
    const std::string got = Get(target);
    EXPECT_EQ(Status(got), "HTTP/1.1 404 Not Found") << target;
    EXPECT_EQ(got.find("outside the served folders"), std::string::npos) << target;
    EXPECT_EQ(got.find("root:"), std::string::npos) << target;
  }
}

TEST_F(HttpServerTest, NulBytesAndBadEscapesAreBadRequests) {
  EXPECT_EQ(Status(Get("/index.html%00.png")), "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(Status(Get("/%00")), "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(Status(Get("/%zz")), "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(Status(Get("/%4")), "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(Status(Get("etc/passwd")), "HTTP/1.1 400 Bad Request");
}

TEST_F(HttpServerTest, OnlyGetAndHead) {
  const std::string port = std::to_string(server_->port());
  const std::string head = Ask("HEAD / HTTP/1.1\r\nHost: localhost:" + port + "\r\n\r\n");
  EXPECT_EQ(Status(head), "HTTP/1.1 200 OK");
  EXPECT_EQ(head.find("<p>page</p>"), std::string::npos);  // no body
  for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS", "TRACE", "get"}) {
    const std::string got =
        Ask(std::string(method) + " / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n");
    EXPECT_EQ(Status(got), "HTTP/1.1 405 Method Not Allowed") << method;
    EXPECT_NE(got.find("Allow: GET, HEAD"), std::string::npos) << method;
  }
}

TEST_F(HttpServerTest, OnlyThisServersHostNames) {
  const std::string port = std::to_string(server_->port());
  for (const std::string& host : {"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}) {
    EXPECT_EQ(Status(Get("/", host)), "HTTP/1.1 200 OK") << host;
  }
  const std::string other_port = std::to_string(server_->port() == 1 ? 2 : server_->port() - 1);
  for (const std::string& host : std::vector<std::string>{"evil.example:" + port, "evil.example", "127.0.0.1",
                                 "127.0.0.1:" + other_port, "localhost.evil.example:" + port,
                                 "127.0.0.1:" + port + ".evil.example"}) {
    EXPECT_EQ(Status(Get("/" + kToken + "/files/core.glb", host)), "HTTP/1.1 403 Forbidden")
        << host;
  }
  EXPECT_EQ(Status(Ask("GET / HTTP/1.1\r\n\r\n")), "HTTP/1.1 403 Forbidden");  // no Host at all
  // The header name is case-insensitive (RFC 9110).
  EXPECT_EQ(Status(Ask("GET / HTTP/1.1\r\nhOsT:  localhost:" + port + " \r\n\r\n")),
            "HTTP/1.1 200 OK");
}

TEST_F(HttpServerTest, RequestHeadIsBounded) {
  const std::string port = std::to_string(server_->port());
  // A 1 MB request line: refused once 8 KiB have come, without reading the rest.
  const std::string long_line = Ask("GET /" + std::string(1 << 20, 'a') + " HTTP/1.1\r\n\r\n");
  EXPECT_EQ(Status(long_line), "HTTP/1.1 414 URI Too Long");
  // A short line and 1 MB of headers.
  std::string headers = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n";
  for (int i = 0; i < 20000; ++i) headers += "X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
  EXPECT_EQ(Status(Ask(headers + "\r\n")), "HTTP/1.1 431 Request Header Fields Too Large");
}

TEST_F(HttpServerTest, SlowClientIsDroppedWhileOthersAreServed) {
  const std::string port = std::to_string(server_->port());
  const auto start = std::chrono::steady_clock::now();
  // A client that trickles its request a byte every 200 ms never finishes within the 1 s deadline.
  std::thread slow([&] {
    const int fd = connect_to(server_->port());
    const std::string request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n";
    for (const char c : request) {
      if (!send_all(fd, std::string(1, c))) break;
      std::this_thread::sleep_for(200ms);
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 0) > 0) break;  // the server has answered (or closed)
    }
    const std::string got = read_all(fd);
    ::close(fd);
    EXPECT_EQ(Status(got), "HTTP/1.1 408 Request Timeout");
  });
  std::this_thread::sleep_for(300ms);
  // Meanwhile another client is served at once.
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_EQ(Status(Get("/")), "HTTP/1.1 200 OK");
  EXPECT_LT(std::chrono::steady_clock::now() - asked, 500ms);
  slow.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 4s);  // dropped near its deadline
}

TEST(HttpServer, RandomTokensAre32HexDigitsAndDiffer) {
  const std::string a = random_token(), b = random_token();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace animkit::cli
