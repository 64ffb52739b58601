// The command line at the edges of the machine (issue 30, Deliver 3-5): inputs that are not
// files, --threads beyond its cap, survey with entries that cannot be looked at, and the budgets
// of a whole run measured as the child process's peak RSS. Fixtures come from `animkit demo`
// (synthetic, made by the program's own writers) and from code.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/registry.h"
#include "animkit/core/writer.h"
#include "animkit/warriors/builder.h"
#include "tests/call_of_duty/zip_writer.h"
#include "tests/common/run_cli.h"

namespace animkit {
namespace {

namespace fs = std::filesystem;
using test::CliResult;

constexpr long kSlackKiB = 64 * 1024;  // the "--max-memory + 64 MB"

// The time bounds are the release build's; ASan + UBSan run the same code several times slower.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kSanitizerSlowdown = 4;
#else
constexpr int kSanitizerSlowdown = 1;
#endif

// The number of lines in `text` (a last line without '\n' counts).
size_t lines(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n + (!text.empty() && text.back() != '\n');
}

class Edges : public test::CliFixture {
 protected:
  // `animkit args`, with the peak RSS (KiB) of the processes it ran: measured in a forked child
  // whose only children are this command's, so RUSAGE_CHILDREN is theirs alone.
  CliResult RunMeasured(const std::string& args, long& peak_kib) const {
    const fs::path rss = dir_ / "rss";
    const pid_t pid = ::fork();
    if (pid == 0) {
      const CliResult r = test::run_cli(ANIMKIT_BINARY, args, dir_);
      rusage u{};
      ::getrusage(RUSAGE_CHILDREN, &u);
      std::ofstream(rss) << u.ru_maxrss;
      ::_exit(r.code);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    peak_kib = std::stol(Slurp(rss));
    return {WEXITSTATUS(status), Slurp(dir_ / "out"), Slurp(dir_ / "err")};
  }
  // `animkit demo` into demo/ (its files are the synthetic fixtures below).
  fs::path Demo() const {
    const CliResult r = Run("demo --out " + P("demo"));
    EXPECT_EQ(r.code, 0) << r.err;
    return dir_ / "demo";
  }
};

TEST_F(Edges, InputsThatAreNotFilesAreOneErrorLine) {
  CliResult r = Run("info /dev/zero");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "error: /dev/zero: not a regular file (a device, FIFO or socket); animkit "
                   "reads files\n");
  fs::create_directories(dir_ / "folder");
  r = Run("dump " + P("folder"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "error: " + P("folder") + ": is a folder, not a file\n");
  ASSERT_EQ(::mkfifo(P("fifo").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  r = Run("info " + P("fifo"));  // opening a FIFO would wait for a writer for ever
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(P("fifo")), std::string::npos) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  r = Run("info " + P("missing.anm"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("error: " + P("missing.anm") + ": ", 0), 0u) << r.err;
}

TEST_F(Edges, ThreadsAboveTheCapAreAUsageError) {
  write_text(dir_ / "s.json", "{}");
  for (const char* n : {"100000", "257", "-1"}) {
    const CliResult r = Run("play " + P("s.json") + " --threads " + n);
    EXPECT_EQ(r.code, 2) << n << ": " << r.err;
    EXPECT_NE(r.err.find("--threads"), std::string::npos) << r.err;
  }
  // 4 x the hardware threads, at most 256: one hardware thread's worth is always allowed.
  const CliResult r = Run("play " + P("s.json") + " --threads 4");
  EXPECT_EQ(r.code, 1) << r.err;  // past the option: the empty scenario names no engine
}

TEST_F(Edges, SurveyRecordsEachBadEntryAndAlwaysReports) {
  const fs::path demo = Demo();
  fs::create_directories(dir_ / "tree" / "sub");
  fs::copy_file(demo / "warriors-walk.anm", dir_ / "tree" / "walk.anm");
  fs::copy_file(demo / "warriors-walk.anm", dir_ / "tree" / "sub" / "w\xff\xfe.anm");  // not UTF-8
  fs::create_symlink("loop", dir_ / "tree" / "loop");  // refers to itself
  fs::create_directory_symlink(dir_ / "tree", dir_ / "tree" / "sub" / "up");  // a cycle
  CliResult r = Run("survey " + P("tree") + " --json");
  EXPECT_EQ(r.code, 1) << r.err;
  const Json j = Json::parse(r.out);  // valid UTF-8 JSON whatever the names' bytes
  EXPECT_EQ(j["files"], 3);
  EXPECT_EQ(j["kinds"]["warriors-anm"], 2) << r.out;
  ASSERT_EQ(j["failures"].size(), 1u) << r.out;
  EXPECT_EQ(j["failures"][0]["file"], P("tree") + "/loop");
  EXPECT_NE(j["failures"][0]["error"].get<std::string>().find("symbolic links"), std::string::npos);
  r = Run("survey " + P("tree"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("3 files, 2 recognised, 1 failed"), std::string::npos) << r.out;
}

// survey PATH... --json --each: one line per file, folders and files named alike (issue 33's
// animkit.batch streams these lines), a name that is not there a failure of its own.
TEST_F(Edges, SurveyEachPrintsOneLinePerFile) {
  const fs::path demo = Demo();
  fs::create_directories(dir_ / "tree");
  fs::copy_file(demo / "warriors-walk.anm", dir_ / "tree" / "walk.anm");
  write_text(dir_ / "tree" / "notes.txt", "not animation");
  fs::copy_file(demo / "mh-pack.bin", dir_ / "pack.bin");
  const CliResult r =
      Run("survey --json --each " + P("tree") + " " + P("pack.bin") + " " + P("gone.anm"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.out, "{\"file\":\"" + P("gone.anm") +
                       "\",\"format\":\"\",\"error\":\"No such file or directory\"}\n"
                       "{\"file\":\"" + P("pack.bin") + "\",\"format\":\"mh-pack\"}\n"
                       "{\"file\":\"" + P("tree/notes.txt") + "\",\"format\":\"\"}\n"
                       "{\"file\":\"" + P("tree/walk.anm") + "\",\"format\":\"warriors-anm\"}\n");
}

// --max-memory bounds what a run reads and holds: the error names the budget, and the process's
// peak RSS stays under the budget + 64 MB (issue 30, "Budgets that bound a run").
TEST_F(Edges, MaxMemoryBoundsAWarriorsPackExport) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "peak RSS is checked in the release pass: ASan's shadow memory inflates it";
#endif
  const fs::path demo = Demo();
  long peak = 0;
  const CliResult r = RunMeasured(
      "--max-memory 1000 export " + (demo / "warriors-pack.pak").string() + " -o " + P("x.glb"),
      peak);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("warriors-pack.pak"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("memory limit of 1000 bytes (--max-memory)"), std::string::npos) << r.err;
  EXPECT_LT(peak, 1 + kSlackKiB);
  EXPECT_FALSE(fs::exists(dir_ / "x.glb"));
}

TEST_F(Edges, MaxMemoryBoundsABigJsonDocument) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "peak RSS is checked in the release pass: ASan's shadow memory inflates it";
#endif
  std::string big = "{\"frames\": [";
  while (big.size() < 24'000'000) big += "[0.125, 0.25, 0.5, 1.0], ";
  big += "[0]]}\n";
  write_text(dir_ / "big.json", big);
  long peak = 0;
  const CliResult r = RunMeasured("--max-memory 10000000 info " + P("big.json"), peak);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("big.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(--max-memory)"), std::string::npos) << r.err;
  EXPECT_LT(peak, 10'000'000 / 1024 + kSlackKiB);
}

TEST_F(Edges, MaxMemoryBoundsAnArchiveEntryBeforeInflating) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "peak RSS is checked in the release pass: ASan's shadow memory inflates it";
#endif
  // A mod .pk3 holding a 128 MiB level script that deflates to well under a megabyte.
  fs::create_directories(dir_ / "mod");
  std::string script = "main() {}\n";
  script += std::string(128u << 20, ' ');
  call_of_duty::testing::write_zip(dir_ / "mod" / "z.pk3", {{"maps/town.gsc", script}});
  script.clear();
  script.shrink_to_fit();
  ASSERT_LT(fs::file_size(dir_ / "mod" / "z.pk3"), 2u << 20);
  long peak = 0;
  const CliResult r = RunMeasured("--max-memory 50000000 cod lint " + P("mod"), peak);
  EXPECT_EQ(r.code, 1) << r.out;
  // lint reports it as the level script's finding (stdout), the member named on the line above.
  // A text is held with its parse: it must fit twice (issue 26).
  EXPECT_NE(r.out.find("/z.pk3/maps/town.gsc:\n  error: archive member (134217738 bytes "
                       "uncompressed, held with its parse: x2): 268435476 bytes exceed the "
                       "memory limit of 50000000 bytes (--max-memory)"),
            std::string::npos)
      << r.out << r.err;
  EXPECT_LT(peak, 50'000'000 / 1024 + kSlackKiB);
}

// --max-steps counts a play's work, not only its updates.
TEST_F(Edges, MaxStepsCountsMonsterHunterStepsThatAdvanceNothing) {
  const fs::path demo = Demo();
  Json s = Json::parse(Slurp(demo / "mh-scenario.json"));
  // 20,000 "play" steps (the 300,000 spend their 20 s in the JSON reader, issue 31's):
  // each traces the demo monster's parts and poses its bones, 6 steps of work (limits.h).
  s["steps"] = Json(std::vector<Json>(20'000, Json{{"play", 1}}));
  write_text(demo / "many.json", s.dump());
  const CliResult r = Run("--max-steps 100000 play " + (demo / "many.json").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("many.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("120000 steps in one play exceed the limit of 100000 steps (--max-steps)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");  // refused before the first trace line
}

TEST_F(Edges, MaxStepsCountsTheMotionsOfOneAsheronsCallTick) {
  const fs::path demo = Demo();
  const Json s = {{"engine", "asherons_call"},
                  {"motion_table", "0x09000101.bin"},
                  {"animations", "animations"},
                  {"ticks", {{{"dt", 0.1},
                              {"do", std::vector<Json>(20'000, Json{{"motion", "WalkForward"}})}}}}};
  write_text(demo / "asherons_call" / "many.json", s.dump());
  const CliResult r =
      Run("--max-steps 20000 play " + (demo / "asherons_call" / "many.json").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("20001 steps in one play exceed the limit of 20000 steps (--max-steps)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");  // refused before the tick ran
}


// issue 30: --max-steps counts the run's work, keys read included (core/work_budget.h: 64 keys
// make a step). A Warriors clip of 34 bones x 29,412 rotation keys + 1 translation key ~ 1 M keys.
void WriteMillionKeyClip(const fs::path& path) {
  warriors::ClipBuilder b;
  b.name = "million";
  b.frames = 29'412;
  for (int bone = 0; bone < warriors::kNumBones; ++bone) {
    auto& keys = b.rotations[bone];
    keys.reserve(b.frames);
    for (int f = 0; f < b.frames; ++f) keys.push_back({f, {0, 0, 0, 1}});
  }
  Writer w;
  warriors::write_resource(w, warriors::make_anm_resource(b.build()));
  write_file(path, w.bytes());
}

TEST_F(Edges, MaxStepsStopsAMillionKeyFile) {
  WriteMillionKeyClip(dir_ / "million.anm");  // 34 x 29,412 = 1,000,008 keys: 15,626 steps
  CliResult r = Run("--max-steps 10000 info " + P("million.anm"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(P("million.anm")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warriors: keyframes: the run's work budget of 10000 steps (--max-steps) ran "
                       "out at "),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  r = Run("--max-steps 16000 info " + P("million.anm"));  // the same file within a budget
  EXPECT_EQ(r.code, 0) << r.err;
  // The budget is the run's: two copies are 31,252 steps, over 20,000 though each fits.
  fs::copy_file(dir_ / "million.anm", dir_ / "copy.anm");
  r = Run("--max-steps 20000 export " + P("million.anm") + " " + P("copy.anm") + " -o " + P("x.glb"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(P("copy.anm")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the run's work budget of 20000 steps (--max-steps)"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.glb"));
}

// Scenario actions count too: 120,000 Warriors actions (one update) pass a budget of 100,000.
TEST_F(Edges, MaxStepsCountsScenarioActions) {
  const fs::path demo = Demo();
  Json s = Json::parse(Slurp(demo / "warriors-scenario.json"));
  s["updates"] = 1;
  s["actions"] = Json(std::vector<Json>(120'000, Json{{"at", 0}, {"do", "stop"}}));
  write_text(demo / "many.json", s.dump());
  const CliResult r = Run("--max-steps 100000 play " + (demo / "many.json").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("many.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scenario: actions: the run's work budget of 100000 steps (--max-steps) ran "
                       "out at 120000 actions"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
}

// The 300,000 Monster Hunter "play" steps stop at the default budget, at once.
TEST_F(Edges, MaxStepsStopsThreeHundredThousandMonsterHunterStepsByDefault) {
  const fs::path demo = Demo();
  Json s = Json::parse(Slurp(demo / "mh-scenario.json"));
  s["steps"] = Json(std::vector<Json>(300'000, Json{{"play", 1}}));
  write_text(demo / "many.json", s.dump());
  const auto start = std::chrono::steady_clock::now();
  const CliResult r = Run("play " + (demo / "many.json").string());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5 * kSanitizerSlowdown));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("many.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("exceed the limit of 1000000 steps (--max-steps)"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

// Non-regular inputs are refused, naming them, by every kind of verb (issue 30, Deliver 3), and
// the run stays small: a hostile corpus across engines under --max-memory 5 MB.
TEST_F(Edges, EveryVerbRefusesNonRegularInputsWithinTheMemoryBudget) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "peak RSS is checked in the release pass: ASan's shadow memory inflates it";
#endif
  const fs::path demo = Demo();
  fs::create_directories(dir_ / "folder");
  ASSERT_EQ(::mkfifo(P("fifo").c_str(), 0600), 0);
  WriteMillionKeyClip(dir_ / "million.anm");  // 8 MB: over the 5 MB budget, refused before reading
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"validate /dev/zero", "/dev/zero"},
      {"export " + P("fifo") + " -o " + P("x.glb"), P("fifo")},
      {"dump " + P("folder"), P("folder")},
      {"export " + (demo / "warriors-walk.anm").string() + " /dev/zero -o " + P("x.glb"), "/dev/zero"},
      {"play " + P("fifo"), P("fifo")},
      {"mh verify /dev/zero", "/dev/zero"},
      {"cod tree " + P("fifo"), P("fifo")},
      {"mh export " + P("folder") + " -o " + P("x.glb"), P("folder")},
      {"info " + P("million.anm"), P("million.anm")},
      {"export " + P("million.anm") + " -o " + P("x.glb"), P("million.anm")},
  };
  for (const auto& [args, file] : cases) {
    long peak = 0;
    const CliResult r = RunMeasured("--max-memory 5000000 " + args, peak);
    EXPECT_TRUE(r.code == 1 || r.code == 2) << args << ": " << r.code << " " << r.err;
    EXPECT_EQ(lines(r.err), 1u) << args << ": " << r.err;
    if (r.code == 1) EXPECT_NE(r.err.find(file), std::string::npos) << args << ": " << r.err;
    EXPECT_LT(peak, 5'000'000 / 1024 + kSlackKiB) << args;
  }
  EXPECT_FALSE(fs::exists(dir_ / "x.glb"));
}

}  // namespace
}  // namespace animkit
