// `animkit view` names its converted files after the input files (issue 30, Deliver 2, "tests per
// verb with hostile names"): inputs named with a leading dot, ".." inside, control bytes, a
// non-UTF-8 byte, 250 bytes, and two with the same stem. Every converted file lies directly in
// the served folder, its name is safe (no separator, no leading dot, no control byte, within the
// name limit) and distinct, the index names each, and the running server serves each.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "animkit/asherons_call/animation.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/core/json_read.h"
#include "animkit/core/json_text.h"
#include "animkit/core/registry.h"
#include "tests/common/run_cli.h"

namespace animkit {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class ViewNames : public test::CliFixture {};

// GET `target` from 127.0.0.1:port (the Host the viewer accepts); the whole answer.
std::string http_get(uint16_t port, const std::string& target) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return {};
  }
  const std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" +
                          std::to_string(port) + "\r\nConnection: close\r\n\r\n";
  for (size_t sent = 0; sent < req.size();) {
    const ssize_t n = ::send(fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
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
  ::close(fd);
  return got;
}

std::string percent_encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += {'%', hex[c >> 4], hex[c & 15]};
    }
  }
  return out;
}

TEST_F(ViewNames, ConvertedFilesOfHostileInputNamesStayInTheServedFolder) {
  // The page's folder as the viewer looks for it (web/index.html, node_modules/three).
  fs::create_directories(dir_ / "root" / "web");
  fs::create_directories(dir_ / "root" / "node_modules" / "three");
  write_text(dir_ / "root" / "web" / "index.html", "<p>page</p>");
  // Asheron's Call animations of 1..7 parts: each its own skeleton, so each its own .glb.
  fs::create_directories(dir_ / "in" / "d1");
  fs::create_directories(dir_ / "in" / "d2");
  const std::vector<std::string> names{".hidden.bin",
                                       "a..b.bin",
                                       std::string("ctl\x01\x1f\x7f", 6) + ".bin",
                                       "bad\xff\xfe.bin",
                                       std::string(246, 'L') + ".bin",
                                       "d1/walk.bin",
                                       "d2/walk.bin"};
  ASSERT_EQ(names[4].size(), 250u);
  std::vector<std::string> argv_s{ANIMKIT_BINARY, "view", "--port", "0", "--json", "--root",
                                  (dir_ / "root").string()};
  for (size_t i = 0; i < names.size(); ++i) {
    const asherons_call::Animation a = asherons_call::synthetic_animation(
        0x03000100 + static_cast<uint32_t>(i), 3, static_cast<int>(i) + 1, false);
    write_file(dir_ / "in" / names[i], asherons_call::write_animation(a));
    argv_s.push_back((dir_ / "in" / names[i]).string());
  }

  const fs::path out_file = dir_ / "view.out";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (!std::freopen(out_file.c_str(), "w", stdout)) ::_exit(127);
    std::vector<char*> argv;
    for (std::string& s : argv_s) argv.push_back(s.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  // The one JSON line, printed once the files are converted and the server listens.
  std::string line;
  for (int i = 0; i < 200 && line.find('\n') == std::string::npos; ++i) {
    std::this_thread::sleep_for(50ms);
    line = test::slurp(out_file);
  }
  struct Stop {  // the viewer is stopped (SIGINT, as Ctrl-C) whatever the checks say
    pid_t pid;
    int status = -1;
    void now() {
      if (pid <= 0) return;
      ::kill(pid, SIGINT);
      for (int i = 0; i < 100; ++i) {
        if (::waitpid(pid, &status, WNOHANG) == pid) {
          pid = 0;
          return;
        }
        std::this_thread::sleep_for(50ms);
      }
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      pid = 0;
    }
    ~Stop() { now(); }
  } stop{pid};
  ASSERT_NE(line.find('\n'), std::string::npos) << "no JSON line from view: " << line;
  const Json j = parse_json(line, "view output");
  const fs::path folder = j["folder"].get<std::string>();
  const uint16_t port = j["port"].get<uint16_t>();
  const std::string url = j["url"].get<std::string>();
  const size_t host_end = url.find('/', std::string("http://").size());
  const std::string token = url.substr(host_end + 1, url.find('/', host_end + 1) - host_end - 1);
  ASSERT_EQ(token.size(), 32u) << url;

  // The folder holds the index and one .glb per input, nothing nested.
  std::set<std::string> listed, folded;
  for (const auto& e : fs::recursive_directory_iterator(folder)) {
    ASSERT_TRUE(e.is_regular_file()) << e.path();
    ASSERT_FALSE(e.is_symlink()) << e.path();
    EXPECT_EQ(e.path().parent_path(), folder) << e.path();
    listed.insert(e.path().filename().string());
  }
  EXPECT_EQ(listed.size(), names.size() + 1);
  EXPECT_EQ(listed.count("index.json"), 1u);
  std::set<std::string> indexed;
  ASSERT_EQ(j["files"].size(), names.size());
  for (const Json& f : j["files"]) {
    const std::string name = text_from_json(f, "name", "files[].name");
    indexed.insert(name);
    EXPECT_FALSE(f["copied"].get<bool>()) << name;  // converted, not served as it is
    EXPECT_TRUE(listed.count(name)) << name;
    // A safe name: one component, no leading dot, no control byte, within the name limit.
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name.front(), '.') << name;
    EXPECT_EQ(name.find('/'), std::string::npos) << name;
    EXPECT_LE(name.size(), 255u) << name;
    EXPECT_TRUE(name.ends_with(".glb")) << name;
    for (const unsigned char c : name) EXPECT_FALSE(c < 0x20 || c == 0x7f) << name;
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    EXPECT_TRUE(folded.insert(lower).second) << "two files differ only by case: " << name;
    // The server serves it, byte for byte, under the token.
    const std::string answer = http_get(port, "/" + token + "/files/" + percent_encode(name));
    EXPECT_EQ(answer.substr(0, answer.find("\r\n")), "HTTP/1.1 200 OK") << name;
    const size_t body = answer.find("\r\n\r\n");
    ASSERT_NE(body, std::string::npos) << name;
    EXPECT_EQ(answer.substr(body + 4), test::slurp(folder / name)) << name;
  }
  // By safe_file_name's rule (safe_path.h): leading dots and control bytes become '_', other
  // bytes stay (".." inside a name is no path), the 246-byte stem is cut to 200 bytes, and the
  // second "walk" is numbered.
  const std::set<std::string> want{"_hidden.glb", "a..b.glb", "ctl___.glb", "bad\xff\xfe.glb",
                                   std::string(200, 'L') + ".glb", "walk.glb", "walk-2.glb"};
  EXPECT_EQ(indexed, want);

  stop.now();
  EXPECT_TRUE(WIFEXITED(stop.status) && WEXITSTATUS(stop.status) == 0) << stop.status;
  EXPECT_FALSE(fs::exists(folder));  // the temporary folder goes with the viewer
  // Nothing was written beside the inputs.
  size_t inputs = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "in")) inputs += e.is_regular_file();
  EXPECT_EQ(inputs, names.size());
}

}  // namespace
}  // namespace animkit
