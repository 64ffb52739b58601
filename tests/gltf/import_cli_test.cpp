// `animkit import` bounded by --max-memory before the work (issue 32, item 5; the rule in
// animkit/gltf/import_budget.h), measured by the process's peak resident memory, and the reader's
// notes printed (issue 32: the bind pose taken as the rest, a keyless joint's node kept).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "bent_spine.h"
#include "spin_gltf.h"
#include "tests/common/run_cli.h"

namespace animkit::gltf {
namespace {

class ImportCli : public animkit::test::CliFixture {
 protected:
  std::string Write(const std::string& name, const std::vector<uint8_t>& bytes) const {
    std::ofstream(P(name), std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                   static_cast<std::streamsize>(bytes.size()));
    return P(name);
  }
  // `animkit ARGS` exec'd by sh, its exit code and its own peak resident set in bytes (wait4).
  std::pair<int, uint64_t> Measured(const std::string& args) const {
    const std::string cmd = std::string("exec ") + ANIMKIT_BINARY + " " + args + " >" + P("out") +
                            " 2>" + P("err");
    const pid_t pid = fork();
    if (pid == 0) {
      execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
            static_cast<uint64_t>(usage.ru_maxrss) * 1024};
  }
};

constexpr uint64_t kMiB = uint64_t{1} << 20;

// A claimed count of 2^31 keys in a 40-byte buffer, and 200,000 keys (4 MB) that 40 channels
// share (160 MB of keys to decode) under --max-memory 16,000,000: both refused before decoding.
// The peak resident memory stays within what the program and the file take (the program's own,
// measured by a run that reads nothing, + 24 MiB for the file, tinygltf's copy of it and the
// JSON); decoding the shared keys would have taken the heap to the budget's 16 MB + 32 MiB.
TEST_F(ImportCli, HostileAndLargeCountsAreRefusedBeforeDecoding) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "peak RSS is checked in the release pass: ASan's shadow memory inflates it";
#endif
  const auto [base_code, base] = Measured("info --formats");
  ASSERT_EQ(base_code, 0);

  testing::Spin hostile;
  hostile.claimed = uint64_t{1} << 31;
  const std::string h = Write("hostile.glb", testing::spin_glb(hostile));
  auto [code, rss] = Measured("import " + h + " --as neutral-json -o " + P("h.json") + " --max-memory 16000000");
  EXPECT_EQ(code, 1);
  EXPECT_EQ(Slurp(dir_ / "err"),
            "error: " + h + ": animation 'spin' channel 0 input: accessor 0 (2147483648 elements of 4 "
            "bytes, stride 4) does not fit its buffer view (8 bytes at 0 in a buffer of 40)\n");
  EXPECT_LT(rss, base + 8 * kMiB) << rss << " vs " << base;

  testing::Spin large;
  large.keys = 200000;
  large.channels = 40;
  const std::string l = Write("large.glb", testing::spin_glb(large));
  std::tie(code, rss) = Measured("import " + l + " --as neutral-json -o " + P("l.json") + " --max-memory 16000000");
  EXPECT_EQ(code, 1);
  // Each channel: 200,000 x (4 + 16) bytes of track and (200,000 + 800,000) x 4 of decode
  // buffers; the fourth (channel 3) brings 12,000,000 + 8,000,000 past 16,000,000.
  EXPECT_EQ(Slurp(dir_ / "err"),
            "error: " + l + ": animation 'spin' channel 3 (accessors 0 and 1, 200000 keys): decoding "
            "needs 20000000 bytes (12000000 for the keys read before it), over the memory limit of "
            "16000000 bytes (--max-memory)\n");
  EXPECT_LT(rss, base + 24 * kMiB) << rss << " vs " << base;
  EXPECT_FALSE(std::filesystem::exists(P("l.json")));
}

// The output bound (check 2): an Animation frame holds 28 bytes per part; 30,000 s at 30 frames
// per second is 900,001 frames: 25,200,028 bytes with the 2 keys' 40, over 16,000,000. 300 s
// (9,001 frames, 252,028 bytes) is written.
TEST_F(ImportCli, OutputLayoutIsBoundedBeforeWriting) {
  testing::Spin s;
  s.extras = R"({"duration": 30000, "frame_rate": 30})";
  const std::string f = Write("long.glb", testing::spin_glb(s));
  auto r = Run("import " + f + " --as ac-animation -o " + P("long.anim") + " --max-memory 16000000");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "error: " + f + ": import --as ac-animation: animation 'spin' (30000 s at 30 frames "
                   "per second: 900001 frames x 1 animated joints x 28 bytes the format samples, and 40 "
                   "bytes of keys) needs 25200068 bytes, over the memory limit of 16000000 bytes "
                   "(--max-memory)\n");
  EXPECT_FALSE(std::filesystem::exists(P("long.anim")));
  s.extras = R"({"duration": 300, "frame_rate": 30})";
  const std::string g = Write("short.glb", testing::spin_glb(s));
  r = Run("import " + g + " --as ac-animation -o " + P("short.anim") + " --max-memory 16000000");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(P("short.anim")));
}

// The reader's notes reach the user: the bind pose taken as the rest, the spine's node kept.
TEST_F(ImportCli, ReaderNotesArePrinted) {
  const std::string f = Write("bent.glb", testing::bent_spine(true));
  const auto r = Run("import " + f + " --as neutral-json --dry-run");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("note: the rest pose is the skin's bind pose (its inverse bind matrices differ "
                       "from the nodes' rest)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: joint 'spine': its node transform, which differs from the bind pose and "
                       "has no keys, is kept as a constant channel\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace animkit::gltf
