// Issue 31, item 4: every exit 1 prints exactly one `error:` line on stderr naming the file (and
// the offset where a byte is at fault); bad usage exits 2 naming the option. Walks each verb that
// reads a file through its failure paths: a missing file, a folder, an empty file, a truncated
// file, a bad option.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "animkit/core/json_text.h"
#include "animkit/core/neutral_json.h"
#include "animkit/core/registry.h"
#include "animkit/core/synthetic.h"
#include "tests/common/run_cli.h"

namespace animkit {
namespace {

namespace fs = std::filesystem;
using Result = test::CliResult;

int error_lines(const std::string& err) {
  std::istringstream in(err);
  int n = 0;
  for (std::string line; std::getline(in, line);) n += line.rfind("error:", 0) == 0;
  return n;
}

// `{}` in each command stands for the file under test; paths are the test directory's.
const std::vector<std::string> kVerbs = {
    "info {}",
    "dump {}",
    "dump --json {}",
    "validate {}",
    "validate --json {}",
    "export {} -o {d}/out.glb",
    "pose {} -t 0",
    "plot {} -o {d}/out.svg",
    "play {}",
    "play --json {}",
    "import {} --as neutral-json -o {d}/back.json",
    "warriors sample {} --frame 0",
    "warriors list {}",
    "warriors rebuild {} -o {d}/rebuilt.bin",
    "mh sample --skeleton {} --pack {} --entry 0",
    "mh export --skeleton {} -o {d}/mh.glb",
    "mh verify {}",
    "cod tree {}",
    "cod tree --json {}",
    "cod refs {}",
    "cod refs --json {}",
    "cod sample {}",
    "ac convert {} -o {d}/ac.json",
    "sow events {}",
    "sow build {} -o {d}/out.anix",
};

class ErrorLine : public test::CliFixture {
 protected:
  std::string Command(const std::string& verb, const std::string& file) const {
    std::string c = verb;
    for (size_t at; (at = c.find("{}")) != std::string::npos;) c.replace(at, 2, "'" + file + "'");
    for (size_t at; (at = c.find("{d}")) != std::string::npos;) c.replace(at, 3, dir_.string());
    return "--max-memory 100000000 " + c;
  }
  // Exit 1, one `error:` line, naming `file`.
  void ExpectOneErrorLine(const std::string& verb, const std::string& file) {
    const Result r = Run(Command(verb, file));
    SCOPED_TRACE(verb + " on " + file);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(error_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  }
};

TEST_F(ErrorLine, MissingFile) {
  for (const std::string& v : kVerbs) ExpectOneErrorLine(v, P("missing.bin"));
}

TEST_F(ErrorLine, Folder) {
  fs::create_directories(dir_ / "folder");
  for (const std::string& v : kVerbs) ExpectOneErrorLine(v, P("folder"));
}

// An empty file is valid input to some verbs (an empty .atr tree, a script with no references):
// exit 0 there; everywhere else exit 1 with the one line.
TEST_F(ErrorLine, EmptyFile) {
  write_text(dir_ / "empty.bin", "");
  for (const std::string& v : kVerbs) {
    if (v.rfind("cod tree", 0) == 0 || v.rfind("cod refs", 0) == 0) {
      EXPECT_EQ(Run(Command(v, P("empty.bin"))).code, 0) << v;
    } else {
      ExpectOneErrorLine(v, P("empty.bin"));
    }
  }
}

// The neutral JSON of the synthetic arm cut in half: invalid JSON at the offset where it ends.
TEST_F(ErrorLine, TruncatedFileNamesTheOffset) {
  const std::string text = to_json(synthetic_arm()).dump();
  write_text(dir_ / "cut.json", text.substr(0, text.size() / 2));
  for (std::string v : {"info {}", "dump {}", "validate {}", "export {} -o {d}/out.glb",
                               "pose {} -t 0", "plot {} -o {d}/out.svg"}) {
    ExpectOneErrorLine(v, P("cut.json"));
    EXPECT_NE(Run(Command(v, P("cut.json"))).err.find(": offset 0x"), std::string::npos) << v;
  }
}

// Every file the demo writes, cut in half, through the shared verbs: never a crash; exit 0, or
// exit 1 with one error line naming the file.
TEST_F(ErrorLine, TruncatedDemoFiles) {
  ASSERT_EQ(Run("demo --out " + P("demo")).code, 0);
  int cut = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "demo")) {
    if (!e.is_regular_file() || e.file_size() < 2) continue;
    const std::string bytes = Slurp(e.path());
    const fs::path file = dir_ / ("cut-" + std::to_string(cut++) + e.path().extension().string());
    write_text(file, bytes.substr(0, bytes.size() / 2));
    for (std::string v : {"info {}", "dump --json {}", "validate {}", "export {} -o {d}/out.glb"}) {
      const Result r = Run(Command(v, file.string()));
      SCOPED_TRACE(v + " on a cut " + e.path().filename().string());
      ASSERT_TRUE(r.code == 0 || r.code == 1) << r.code << r.err;
      if (r.code == 1) {
        EXPECT_EQ(error_lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
      }
    }
  }
  EXPECT_GT(cut, 5);
}

// Issue 31, item 2: a survey entry with a Latin-1 file name is written escaped, with its bytes.
TEST_F(ErrorLine, SurveyNamesAnyByte) {
  const std::string name = "caf\xe9.json";
  fs::create_directories(dir_ / "s");
  write_text(dir_ / "s" / name, R"({"animkit": "neutral", "skeleton": )");
  const Result r = Run("survey --json " + P("s"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(error_lines(r.err), 1) << r.err;
  const Json j = parse_json(r.out, "survey");
  ASSERT_EQ(j["failures"].size(), 1u) << r.out;
  EXPECT_EQ(j["failures"][0]["file"], P("s") + "/caf\\xe9.json");
  EXPECT_EQ(text_from_json(j["failures"][0], "file", "file"), (dir_ / "s" / name).string());
}

// Issue 31, item 3: NaN, infinities and values past a float32 are usage errors naming the option.
TEST_F(ErrorLine, NonFiniteOptionsAreUsageErrors) {
  write_text(dir_ / "arm.json", to_json(synthetic_arm()).dump());
  const std::string arm = P("arm.json");
  for (std::string bad : {"nan", "NaN", "inf", "-inf", "1e39", "1e308"}) {
    for (const auto& [verb, option] : std::vector<std::pair<std::string, std::string>>{
             {"pose " + arm + " -t " + bad, "--time"},
             {"export " + arm + " -o x.glb --rate " + bad, "--rate"},
             {"import x.glb --as neutral-json --tolerance " + bad, "--tolerance"},
             {"import x.glb --as neutral-json --frame-rate " + bad, "--frame-rate"},
             {"warriors sample x.anm --frame " + bad, "--frame"},
             {"mh sample --skeleton s --pack p --frame " + bad, "--frame"},
             {"cod sample x.xanim --time " + bad, "--time"},
             {"cod sample x.xanim --seconds " + bad, "--seconds"},
             {"ac encode --forward-speed " + bad, "--forward-speed"},
         }) {
      const Result r = Run(verb);
      EXPECT_EQ(r.code, 2) << verb << "\n" << r.err;
      EXPECT_NE(r.err.find(option), std::string::npos) << verb << "\n" << r.err;
    }
  }
}

// A documented default given explicitly is accepted (import --tolerance 0: keep every key).
TEST_F(ErrorLine, DocumentedDefaultsAreAccepted) {
  write_text(dir_ / "arm.json", to_json(synthetic_arm()).dump());
  ASSERT_EQ(Run("export " + P("arm.json") + " -o " + P("arm.gltf")).code, 0);
  const Result r = Run("import " + P("arm.gltf") + " --as neutral-json --tolerance 0 -o " + P("back.json"));
  EXPECT_EQ(r.code, 0) << r.err;
}

}  // namespace
}  // namespace animkit
