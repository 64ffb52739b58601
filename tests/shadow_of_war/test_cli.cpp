// `animkit export` -> `animkit import --as sow-anix` through the animkit program (issue 17,
// item 5): an unchanged export imports back to the original bytes, an edited event reaches the
// file and `dump`, anything else is refused (exit 1). Issue 29: `dump` and `sow events` of a
// file of a million events in bounded memory, `sow build` refusing what it cannot write.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "animkit/core/registry.h"
#include "fixtures.h"
#include "tests/common/run_cli.h"

namespace animkit::shadow_of_war {
namespace {

using Result = test::CliResult;
using SowCli = test::CliFixture;

TEST_F(SowCli, ExportImportRoundTripAndEventEdit) {
  AnixBuild b = testing::one_clip();
  EventDictionary d;
  d.path = "orc/idle.anix";
  d.strings = {"footstep"};
  d.clips = {{"orc_idle", 60, 2000, {event_word(0, 250)}}};
  b.events = d;
  const std::vector<uint8_t> bytes = build_anix_bytes(b);
  const std::string original(bytes.begin(), bytes.end());
  write_text(dir_ / "orc.anix", original);

  Result r = Run("export " + P("orc.anix") + " -o " + P("orc.gltf"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = Run("import " + P("orc.gltf") + " --as sow-anix --template " + P("orc.anix") + " -o " +
          P("same.anix"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Slurp(P("same.anix")), original);
  EXPECT_NE(r.out.find("no event changed"), std::string::npos) << r.out;

  // Move the footstep to 1 s and add a DESTROY keyword at 1.5 s, as a glTF editor would.
  Json g = Json::parse(Slurp(P("orc.gltf")));
  Json& events = g["animations"][0]["extras"]["events"];
  ASSERT_EQ(events.size(), 1u);
  events[0]["time"] = 1.0;
  events.push_back({{"time", 1.5}, {"name", "DESTROY"}, {"payload", "{}"}});
  write_text(dir_ / "edited.gltf", g.dump());
  r = Run("import " + P("edited.gltf") + " --as sow-anix --template " + P("orc.anix") + " -o " +
          P("edited.anix") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["report"]["strings_added"], Json::array({"DESTROY"}));
  r = Run("dump " + P("edited.anix") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json dump = Json::parse(r.out);
  const std::string text = dump.dump();
  EXPECT_NE(text.find("\"ms\":1000"), std::string::npos);
  EXPECT_NE(text.find("\"ms\":1500"), std::string::npos);
  EXPECT_NE(text.find("\"DESTROY\""), std::string::npos);
  r = Run("sow events " + P("edited.anix"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("DESTROY"), std::string::npos) << r.out;

  // Anything but events cannot be written: a renamed clip, a changed duration.
  g["animations"][0]["extras"]["duration"] = 3.0;
  write_text(dir_ / "longer.gltf", g.dump());
  r = Run("import " + P("longer.gltf") + " --as sow-anix --template " + P("orc.anix") + " -o " +
          P("x.anix"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("clip 'orc_idle': its duration 3 s is not the template's 2 s"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(P("x.anix")));
  // The template is required.
  r = Run("import " + P("orc.gltf") + " --as sow-anix -o " + P("x.anix"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("needs --template"), std::string::npos) << r.err;
}

// Issue 29: the peak resident memory (KB) of `animkit ARGS` (stdout discarded) and its exit
// code. It runs under a child of its own: ru_maxrss of RUSAGE_CHILDREN is the largest child a
// process ever waited for, so the test process's earlier children must not count.
std::pair<long, int> peak_rss_kb(const std::string& args) {
  int fd[2];
  if (pipe(fd) != 0) return {-1, -1};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const int status = std::system((std::string(ANIMKIT_BINARY) + " " + args + " >/dev/null 2>&1").c_str());
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    const long out[2] = {usage.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128};
    const ssize_t n = write(fd[1], out, sizeof out);
    _exit(n == sizeof out ? 0 : 1);
  }
  close(fd[1]);
  long out[2] = {-1, -1};
  const ssize_t n = read(fd[0], out, sizeof out);
  close(fd[0]);
  waitpid(pid, nullptr, 0);
  if (n != sizeof out) return {-1, -1};
  return {out[0], static_cast<int>(out[1])};
}

// The file: 1 M events on one clip and 65,535 tracks, about 4.4 MB.
std::vector<uint8_t> million_events() {
  AnixBuild b = testing::one_clip();
  std::vector<uint32_t> nodes(65'535);
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<uint32_t>(0x10000 + i);
  b.track_runs = {{kRotationChannel, nodes}};
  EventDictionary d{"many.anix", {"footstep", "RAGDOLL"}, {{"orc_idle", 60, 2000, {}}}, {}, {}};
  d.clips[0].events.resize(1'000'000);
  for (size_t i = 0; i < d.clips[0].events.size(); ++i)
    d.clips[0].events[i] = event_word(i % 2, static_cast<uint32_t>(i % 2000));
  b.events = d;
  return build_anix_bytes(b);
}

TEST_F(SowCli, AMillionEventsArePrintedInBoundedMemory) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "peak RSS is checked in the release pass: ASan's shadow memory inflates it";
#endif
  const std::vector<uint8_t> bytes = million_events();
  ASSERT_GT(bytes.size(), 4'000'000u);
  write_file(dir_ / "big.anix", bytes);
  for (const char* verb : {"dump --json", "dump", "sow events --json", "sow events"}) {
    const auto [kb, code] = peak_rss_kb(std::string(verb) + " " + P("big.anix"));
    EXPECT_EQ(code, 0) << verb;
    EXPECT_GT(kb, 0) << verb;
    EXPECT_LT(kb, 200 * 1024) << verb << ": peak " << kb << " KB";
  }
  // --max-memory is honoured: the parsed file would need more than 1 MB.
  const Result r = Run("--max-memory 1000000 dump --json " + P("big.anix"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("(--max-memory)"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(SowCli, BuildRefusesAHugeOffsetAndWritesNothing) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "peak RSS is checked in the release pass: ASan's shadow memory inflates it";
#endif
  write_file(dir_ / "one.anix", build_anix_bytes(testing::one_clip()));
  Result r = Run("dump --json " + P("one.anix"));
  ASSERT_EQ(r.code, 0) << r.err;
  Json j = Json::parse(r.out);
  j["header"]["anim_chunk_offset"] = "0x7fffffff";
  write_text(dir_ / "far.json", j.dump());
  const auto [kb, code] = peak_rss_kb("--max-memory 100000000 sow build " + P("far.json") + " -o " + P("far.anix"));
  EXPECT_EQ(code, 1);
  EXPECT_LT(kb, 100 * 1024);
  EXPECT_FALSE(std::filesystem::exists(P("far.anix")));
  r = Run("sow build " + P("far.json") + " -o " + P("far.anix"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("far.json: $.header.anim_chunk_offset: "), std::string::npos) << r.err;
}

// 1 M events took over 100 s (quadratic JSON parsing); linear, it is about a second. The bound
// is loose (sanitizer builds, a loaded machine): the quadratic step would need minutes.
TEST_F(SowCli, BuildOfAMillionEventsIsLinear) {
  write_file(dir_ / "big.anix", million_events());
  const Result dump = Run("dump --json " + P("big.anix"));
  ASSERT_EQ(dump.code, 0) << dump.err;
  std::filesystem::copy_file(P("out"), P("big.json"));  // Run's next stdout is `out`
  const auto start = std::chrono::steady_clock::now();
  const Result r = Run("sow build " + P("big.json") + " -o " + P("back.anix"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.code, 0) << r.err;
  // Wall time of the child: the sanitizers' slowdown and a loaded machine (32.6 s was seen under
  // ASan with a build beside it) get room; the quadratic step would need many minutes.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
  EXPECT_LT(seconds, 120.0);
#else
  EXPECT_LT(seconds, 30.0);
#endif
  EXPECT_EQ(Slurp(P("back.anix")), Slurp(P("big.anix")));
}

TEST_F(SowCli, EventsWithoutADictionarySayWhy) {
  write_file(dir_ / "one.anix", build_anix_bytes(testing::one_clip()));
  const Result r = Run("sow events " + P("one.anix"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no event dictionary: the anim chunk's event dictionary offset (+0x0C) is "
                       "0, the file has none"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace animkit::shadow_of_war
