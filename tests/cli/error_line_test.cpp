// Issue 31, item 4: every exit 1 prints exactly one `error:` line on stderr naming the file (and
// the offset where a byte is at fault); bad usage exits 2 naming the option. Walks each verb that
// reads a file through its failure paths: a missing file, a folder, an empty file, a truncated
// file, a bad option.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
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
// Every verb that reads a file, with the options it needs to get that far.
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
    "warriors sample --json {} --frame 0",
    "warriors list {}",
    "warriors extract {} -o {d}/extracted",
    "warriors rebuild {} -o {d}/rebuilt.bin",
    "warriors pose {} --update 0 -o {d}/wp.glb",
    "mh sample --skeleton {} --pack {} --entry 0",
    "mh sample {} --entry 0",
    "mh export --skeleton {} -o {d}/mh.glb",
    "mh export {} -o {d}/mh.glb",
    "mh verify {}",
    "mh verify --json {}",
    "mh fix {} -o {d}/fixed.bin",
    "mh convert {} --to mhp3rd -o {d}/converted.bin",
    "mh port --donor {} --target {} -o {d}/ported.pac",
    "mh rig {} --entry 0 -o {d}/rig.bin",
    "mh put {} --entry 0 --clip {} -o {d}/put.pac",
    "cod tree {}",
    "cod tree --json {}",
    "cod refs {}",
    "cod refs --json {}",
    "cod sample {}",
    "cod sample --json {}",
    "cod pose {} --update 0 -o {d}/cp.glb",
    "ac convert {} -o {d}/ac.json",
    "ac convert {} -o {d}/ac.bin",
    "ac list {}",
    "ac extract {} 0x09000001 -o {d}/object.bin",
    "sow events {}",
    "sow events --json {}",
    "sow build {} -o {d}/out.anix",
};

// Verbs for which an empty file or a folder is valid input (exit 0): an empty .atr tree, a
// script with no references, a mod folder with no levels, a folder with nothing to survey.
bool empty_is_valid(const std::string& verb) {
  return verb.rfind("cod tree", 0) == 0 || verb.rfind("cod refs", 0) == 0;
}

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
  for (std::string v : {"survey {}", "survey --json {}", "cod lint {}", "cod lint --json {}"}) {
    ExpectOneErrorLine(v, P("missing.bin"));
  }
}

// view converts before it serves: a file it cannot read, or nothing to view, ends it with the
// line (`timeout` guards the test should it ever start serving).
TEST_F(ErrorLine, ViewRefusesBeforeServing) {
  fs::create_directories(dir_ / "folder");
  write_text(dir_ / "empty.bin", "");
  for (std::string f : {"missing.bin", "folder", "empty.bin"}) {
    const Result r = test::run_cli("timeout 20 " ANIMKIT_BINARY, "view --port 0 " + P(f), dir_);
    SCOPED_TRACE(f);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(error_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(P(f)), std::string::npos) << r.err;
  }
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
    if (empty_is_valid(v)) {
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

// Every file the demo writes, cut in half, through the shared verbs and its engine's verbs: never
// a crash; exit 0, or exit 1 with one error line naming the file and, once the file is
// recognised, the offset of the byte at fault.
TEST_F(ErrorLine, TruncatedDemoFiles) {
  ASSERT_EQ(Run("demo --out " + P("demo")).code, 0);
  const fs::path demo = dir_ / "demo";
  const std::vector<std::pair<std::string, std::vector<std::string>>> by_ending = {
      {".anm", {"warriors sample {} --frame 0", "warriors list {}", "warriors rebuild {} -o {d}/r"}},
      {".pak", {"warriors list {}", "warriors extract {} -o {d}/x", "warriors rebuild {} -o {d}/r"}},
      {".res", {"warriors sample {} --frame 0", "warriors list {}"}},
      {"mh-model.pac", {"mh verify {}", "mh export {} -o {d}/m.glb", "mh sample {} --entry 0",
                        "mh fix {} -o {d}/f", "mh convert {} --to mhp3rd -o {d}/c"}},
      {"mh-pack.bin", {"mh fix {} -o {d}/f", "mh convert {} --to mhp3rd -o {d}/c",
                       "mh sample --skeleton " + (demo / "mh-skeleton.bin").string() +
                           " --pack {} --entry 0"}},
      {"mh-skeleton.bin", {"mh sample --skeleton {} --pack " + (demo / "mh-pack.bin").string() +
                           " --entry 0"}},
      {".anix", {"sow events {}", "sow events --json {}"}},
      {".dat", {"ac list {}", "ac extract {} 0x09000001 -o {d}/e"}},
      {"scenario.json", {"play {}", "play --json {}"}},
      {".bin", {"ac convert {} -o {d}/ac.json"}},
      {"table.json", {"ac convert {} -o {d}/ac.bin"}},
  };
  int cut = 0, offsets = 0;
  for (const auto& e : fs::recursive_directory_iterator(demo)) {
    const std::string name = e.path().filename().string();
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || e.file_size() < 2 || ext == ".glb" || ext == ".svg" ||
        ext == ".dot" || ext == ".jsonl") {
      continue;
    }
    const std::string bytes = Slurp(e.path());
    const fs::path file = dir_ / ("cut-" + std::to_string(cut++) + "-" + name);
    write_text(file, bytes.substr(0, bytes.size() / 2));
    std::vector<std::string> verbs = {"info {}", "dump --json {}", "validate {}",
                                      "export {} -o {d}/out.glb"};
    for (const auto& [ending, more] : by_ending) {
      if (name.size() >= ending.size() && name.compare(name.size() - ending.size(), ending.size(), ending) == 0) {
        verbs.insert(verbs.end(), more.begin(), more.end());
      }
    }
    for (const std::string& v : verbs) {
      const Result r = Run(Command(v, file.string()));
      SCOPED_TRACE(v + " on a cut " + name);
      ASSERT_TRUE(r.code == 0 || r.code == 1) << r.code << r.err;
      if (r.code == 0) continue;
      EXPECT_EQ(error_lines(r.err), 1) << r.err;
      EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
      // Issue 31, item 4: a cut file is still recognised by what it shows, so every refusal of
      // one says where the bytes end.
      EXPECT_NE(r.err.find("offset 0x"), std::string::npos) << r.err;
      offsets += 1;
    }
  }
  EXPECT_GT(cut, 10);
  EXPECT_GT(offsets, 20);
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

// The verbs as --help lists them: "info", ..., "warriors sample", ... (a group's verbs through the
// group's --help).
std::vector<std::string> verbs_from_help(const test::CliFixture& f,
                                         const std::function<Result(const std::string&)>& run,
                                         const std::string& group = "") {
  const Result r = run(group + " --help");
  std::vector<std::string> verbs;
  std::istringstream in(r.out);
  bool listing = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Subcommands:", 0) == 0) {
      listing = true;
      continue;
    }
    std::smatch m;
    static const std::regex kVerb(R"(^  ([a-z0-9_-]+)[ ,])");
    if (!listing || !std::regex_search(line, m, kVerb)) continue;
    const std::string verb = group.empty() ? m[1].str() : group + " " + m[1].str();
    const std::vector<std::string> sub = group.empty() ? verbs_from_help(f, run, verb)
                                                       : std::vector<std::string>{};
    if (sub.empty()) verbs.push_back(verb);
    verbs.insert(verbs.end(), sub.begin(), sub.end());
  }
  (void)f;
  return verbs;
}

struct NumericOption {
  std::string verb;    // "" for the program's own options (given before a verb)
  std::string name;    // --frame-rate
  std::string type;    // FLOAT, INT or UINT
  std::string help;    // the help line (documented defaults)
};

// Every option of `verb` (and of the program) whose type is a number, from its --help.
std::vector<NumericOption> numeric_options(const std::string& verb, const std::string& help) {
  std::vector<NumericOption> out;
  std::istringstream in(help);
  static const std::regex kOption(R"(^\s+(?:-\w,)?(--[A-Za-z0-9-]+) (FLOAT|INT|UINT)\b)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, kOption)) out.push_back({verb, m[1], m[2], line});
  }
  return out;
}

// Every numeric option of the program and of every verb (from --help, read once per run).
const std::vector<NumericOption>& all_numeric_options(const test::CliFixture& f,
                                                      const std::function<Result(const std::string&)>& run) {
  static const std::vector<NumericOption> options = [&] {
    std::vector<NumericOption> all = numeric_options("", run("--help").out);
    for (const std::string& v : verbs_from_help(f, run)) {
      const std::vector<NumericOption> o = numeric_options(v, run(v + " --help").out);
      all.insert(all.end(), o.begin(), o.end());
    }
    return all;
  }();
  return options;
}

// Issue 31, item 3, for every numeric option of every verb (found from --help, so a new option
// cannot miss it): NaN and +-inf are usage errors with the project's message naming the option,
// checked before any range the option has; 1e308 does not fit (a float32, or the integer type).
TEST_F(ErrorLine, EveryNumericOptionRefusesNonFiniteValues) {
  const auto run = [this](const std::string& args) { return Run(args); };
  const std::vector<NumericOption>& options = all_numeric_options(*this, run);
  ASSERT_GE(options.size(), 30u);
  std::set<std::string> seen;
  for (const NumericOption& o : options) seen.insert(o.verb + " " + o.name);
  for (std::string known : {" --max-steps", " --max-memory", "import --frame-rate", "import --tolerance",
                            "cod sample --time", "warriors sample --frame", "ac encode --turn-speed",
                            // engine options (EngineOption::Kind::kInteger) on the shared verbs
                            "info --em", "export --max-bytes", "import --entry",
                            "validate --cod-anim-check", "dump --em"}) {
    EXPECT_TRUE(seen.count(known)) << known;  // the help parser finds what it must
  }
  for (const NumericOption& o : options) {
    for (std::string bad : {"nan", "inf", "-inf", "1e308"}) {
      const std::string args = o.verb.empty() ? o.name + " " + bad + " info x"
                                              : o.verb + " " + o.name + " " + bad;
      const Result r = Run(args);
      SCOPED_TRACE(args);
      EXPECT_EQ(r.code, 2) << r.err;
      if (bad != "1e308") {
        EXPECT_EQ(r.err.rfind(o.name + ": " + bad + " is not a finite number\n", 0), 0u) << r.err;
      } else if (o.type == "FLOAT") {
        EXPECT_EQ(r.err.rfind(o.name + ": 1e308 is not a finite float32\n", 0), 0u) << r.err;
      } else {  // CLI11: out of the integer's (or the option's) range, naming the option
        EXPECT_NE(r.err.find(o.name), std::string::npos) << r.err;
      }
    }
  }
}

// The range an integer option's help states ("INT in [0 - 1]") is checked: one past either end
// is a usage error naming the option (the engine options --em, --max-bytes, --entry and
// --cod-anim-check among them, and the mh verbs' own --em, --entry, --clip: -1 is refused), and
// both ends are accepted as far as the option goes.
TEST_F(ErrorLine, EveryIntegerOptionChecksItsRange) {
  const auto run = [this](const std::string& args) { return Run(args); };
  static const std::regex kRange(R"(INT in \[(-?[0-9]+) - (-?[0-9]+)\])");
  std::set<std::string> checked;
  for (const NumericOption& o : all_numeric_options(*this, run)) {
    std::smatch m;
    if (o.verb.empty() || o.type == "FLOAT" || !std::regex_search(o.help, m, kRange)) continue;
    const long long lo = std::stoll(m[1]);
    const long long hi = std::stoll(m[2]);
    std::vector<std::string> bad{std::to_string(lo - 1)};
    if (hi < INT64_MAX) bad.push_back(std::to_string(hi + 1));
    for (const std::string& value : bad) {
      const std::string args = o.verb + " " + o.name + " " + value;
      const Result r = Run(args);
      SCOPED_TRACE(args);
      EXPECT_EQ(r.code, 2) << r.err;
      EXPECT_EQ(r.err.rfind(o.name + ": ", 0), 0u) << r.err;
      EXPECT_EQ(error_lines(r.err), 0) << r.err;
    }
    for (const std::string& value : {std::to_string(lo), std::to_string(hi)}) {
      const Result r = Run(o.verb + " " + o.name + " " + value);  // stops later: no input named
      EXPECT_EQ(r.err.find(o.name + ":"), std::string::npos) << o.verb << " " << o.name << " "
                                                              << value << "\n" << r.err;
    }
    checked.insert(o.verb + " " + o.name);
  }
  for (std::string known : {"info --em", "export --max-bytes", "import --entry",
                            "validate --cod-anim-check", "plot --em",
                            // the Monster Hunter verbs' own options, README [0, 2^31 - 1]
                            "mh sample --em", "mh sample --entry", "mh sample --clip",
                            "mh export --em", "mh port --em", "mh port --host-em", "mh rig --entry",
                            "mh put --entry"}) {
    EXPECT_TRUE(checked.count(known)) << known;
  }
}

// A bad option is bad usage on every verb: exit 2 naming the option, no `error:` line (that line
// is for bad input).
TEST_F(ErrorLine, EveryVerbRefusesABadOption) {
  const auto run = [this](const std::string& args) { return Run(args); };
  const std::vector<std::string> verbs = verbs_from_help(*this, run);
  ASSERT_GT(verbs.size(), 40u);
  for (const std::string& v : verbs) {
    const Result r = Run(v + " --no-such-option");
    SCOPED_TRACE(v);
    EXPECT_EQ(r.code, 2) << r.err;
    // CLI11 names the option, or first what is missing (a verb's required input)
    if (r.err.find(" is required") == std::string::npos) {
      EXPECT_NE(r.err.find("--no-such-option"), std::string::npos) << r.err;
    }
    EXPECT_EQ(error_lines(r.err), 0) << r.err;
  }
  for (std::string bad : {"--max-memory 0 info x", "--max-steps 0 info x", "--max-memory x info x"}) {
    const Result r = Run(bad);
    EXPECT_EQ(r.code, 2) << bad << "\n" << r.err;
    EXPECT_EQ(r.err.rfind(bad.substr(0, bad.find(' ')), 0), 0u) << r.err;
  }
}

// A documented default given explicitly is accepted: every "(default N)" a numeric option's help
// states, and the README's `import --tolerance 0`. The verb may still stop for a missing input;
// the option itself is never the complaint.
TEST_F(ErrorLine, EveryDocumentedDefaultIsAccepted) {
  const auto run = [this](const std::string& args) { return Run(args); };
  std::vector<std::pair<std::string, std::string>> given{{"import", "--tolerance 0"}};
  static const std::regex kDefault(R"(\(default ([0-9][0-9.,]*)[ :;)])");
  for (const NumericOption& o : all_numeric_options(*this, run)) {
    {
      std::smatch m;
      if (!std::regex_search(o.help, m, kDefault)) continue;
      std::string value = m[1];
      std::erase(value, ',');  // 1,000,000
      given.emplace_back(o.verb, o.name + " " + value);
    }
  }
  EXPECT_GE(given.size(), 4u);
  for (const auto& [verb, option] : given) {
    const Result r = Run(verb + " " + option);
    const std::string name = option.substr(0, option.find(' '));
    EXPECT_EQ(r.err.find(name + ":"), std::string::npos) << verb << " " << option << "\n" << r.err;
  }
}

}  // namespace
}  // namespace animkit
