// The CLI tests' shared harness: the animkit binary run as a user runs it (through the shell),
// its exit code, stdout and stderr captured, in a fresh directory per test. A test target
// defines ANIMKIT_BINARY (the binary's path, `$<TARGET_FILE:animkit>`) and derives its fixture
// from CliFixture, or calls run_cli() itself.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace animkit::test {

struct CliResult {
  int code;         // the exit code; 128 + the signal when the process was killed by one
  std::string out;  // stdout
  std::string err;  // stderr
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `binary args` through the shell (args are shell words: quote what needs it), stdout and stderr
// into `dir`/out and `dir`/err.
inline CliResult run_cli(const std::string& binary, const std::string& args,
                         const std::filesystem::path& dir) {
  const std::string cmd = binary + " " + args + " >" + (dir / "out").string() + " 2>" +
                          (dir / "err").string();
  const int status = std::system(cmd.c_str());
  const int code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  return {code, slurp(dir / "out"), slurp(dir / "err")};
}

// A directory of its own per test (named after the suite, the test and the process, so tests
// running in parallel never share one), removed after the test; Run() on ANIMKIT_BINARY.
class CliFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "-" + info->name();
    for (char& c : name) c = c == '/' ? '_' : c;  // parameterised tests: Suite/Test/0
    dir_ = std::filesystem::temp_directory_path() /
           ("animkit-cli-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

#ifdef ANIMKIT_BINARY
  CliResult Run(const std::string& args) const { return run_cli(ANIMKIT_BINARY, args, dir_); }
#endif
  static std::string Slurp(const std::filesystem::path& p) { return slurp(p); }
  // A file of this test's directory.
  std::string P(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

}  // namespace animkit::test
