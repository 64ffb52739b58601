// A worker thread the system will not start is an error, never std::terminate (issue 30,
// Deliver 4): the Shadow of War pool asked for 64 workers in a child process whose address
// space has room for the process as it is and for about two 8 MiB thread stacks more.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/worker_pool.h"

namespace animkit {
namespace {

// VmSize of this process in KiB (/proc/self/status).
long vm_size_kib() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmSize:", 0) == 0) return std::stol(line.substr(7));
  }
  return -1;
}

TEST(WorkerThreads, AThreadThatCannotStartIsAnError) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's shadow memory does not live under an address-space cap";
#endif
  const pid_t pid = ::fork();
  if (pid == 0) {
    const long vm = vm_size_kib();
    if (vm < 0) ::_exit(5);
    const rlim_t cap = static_cast<rlim_t>(vm + 20 * 1024) * 1024;
    const rlimit as{cap, cap};
    if (::setrlimit(RLIMIT_AS, &as) != 0) ::_exit(6);
    try {
      shadow_of_war::AnimJobThreadSystem pool(64);
      ::_exit(2);  // all 64 started: the cap did not bite
    } catch (const Error& e) {
      ::_exit(std::string(e.what()).find("cannot start worker thread") != std::string::npos ? 0
                                                                                             : 3);
    } catch (...) {
      ::_exit(4);
    }
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace animkit
