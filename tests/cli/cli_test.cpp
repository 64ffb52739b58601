// The command-line contract (DESIGN.md, "The command line"): exit 0 on success, 1 on invalid
// input with one `error:` line naming the file and offset, 2 on bad usage; --json everywhere.
#include <gtest/gtest.h>

#include <filesystem>

#include "animkit/core/neutral_json.h"
#include "animkit/core/synthetic.h"
#include "tests/common/run_cli.h"

namespace animkit {
namespace {

namespace fs = std::filesystem;
using Result = test::CliResult;

// Each test starts with the synthetic arm as neutral JSON in its directory.
class CliTest : public test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    write_text(dir_ / "arm.json", to_json(synthetic_arm()).dump());
  }
};

// The harness itself (tests/common/run_cli.h): exit code, stdout and stderr apart; a crash
// reads as 128 + the signal, never as a pass.
TEST_F(CliTest, HarnessCapturesCodeOutputAndSignals) {
  const Result r = test::run_cli("sh", "-c 'echo out; echo err >&2; exit 3'", dir_);
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(test::run_cli("sh", "-c 'kill -SEGV $$'", dir_).code, 128 + 11);
  EXPECT_EQ(Run("--help").code, 0);
}

TEST_F(CliTest, BadUsageExits2) {
  EXPECT_EQ(Run("").code, 2);
  EXPECT_EQ(Run("no-such-verb").code, 2);
  EXPECT_EQ(Run("export " + P("arm.json")).code, 2);  // -o is required
  EXPECT_EQ(Run("info").code, 2);                       // no input at all
}

TEST_F(CliTest, MissingFileExits1WithOneErrorLine) {
  const Result r = Run("info " + P("missing.bin"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "error: " + P("missing.bin") + ": cannot open the file\n");
}

TEST_F(CliTest, InvalidInputNamesFileAndOffset) {
  write_text(dir_ / "bad.json", R"({"animkit": "neutral", "skeleton": [1,,2]})");
  const Result r = Run("dump " + P("bad.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.rfind("error: " + P("bad.json") + ": offset 0x26: invalid JSON", 0), 0u) << r.err;
}

TEST_F(CliTest, InfoJson) {
  const Result r = Run("info --json " + P("arm.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["format"], "neutral-json");
  EXPECT_EQ(j["joints"], 5);
  EXPECT_EQ(j["clips"].size(), 2u);
}

TEST_F(CliTest, DumpJsonRoundTripsTheDocument) {
  const Result r = Run("dump --json " + P("arm.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out), to_json(synthetic_arm()));
}

TEST_F(CliTest, ExportWritesGlb) {
  const Result r = Run("export " + P("arm.json") + " -o " + P("arm.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<uint8_t> glb = read_file(dir_ / "arm.glb");
  ASSERT_GE(glb.size(), 12u);
  EXPECT_EQ(std::string(glb.begin(), glb.begin() + 4), "glTF");
}

TEST_F(CliTest, ValidatePrintsSummary) {
  const Result r = Run("validate " + P("arm.json"));
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, P("arm.json") + ": 0 errors, 0 warnings\n");
}

TEST_F(CliTest, SurveyCountsKindsAndFailures) {
  fs::create_directories(dir_ / "tree" / "sub");
  write_text(dir_ / "tree" / "a.json", to_json(synthetic_arm()).dump());
  write_text(dir_ / "tree" / "sub" / "broken.json", R"({"animkit": "neutral", "skeleton": 5})");
  write_text(dir_ / "tree" / "notes.txt", "nothing to see");
  const Result r = Run("survey --json " + P("tree"));
  EXPECT_EQ(r.code, 1);  // a recognised file failed
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["files"], 3);
  EXPECT_EQ(j["recognised"], 2);
  EXPECT_EQ(j["kinds"]["neutral-json"], 1);
  ASSERT_EQ(j["failures"].size(), 1u);
  EXPECT_NE(j["failures"][0]["file"].get<std::string>().find("broken.json"), std::string::npos);
}

TEST_F(CliTest, PlayWithUnknownEngineIsInvalidInput) {
  write_text(dir_ / "s.json", R"({"engine": "nobody"})");
  const Result r = Run("play " + P("s.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no player for engine 'nobody'"), std::string::npos);
}

TEST_F(CliTest, DemoWritesGlb) {
  const Result r = Run("demo --engine core --out " + P("demo"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "demo" / "core.glb"));
  EXPECT_NE(r.out.find("core:"), std::string::npos);
}

// `animkit import` (issue 17): export -> import -> the same skeleton and clips; a format without a
// writer is bad usage naming those that have one; a template with other joints is invalid input.
TEST_F(CliTest, ImportNeutralJsonRoundTripsAnExport) {
  ASSERT_EQ(Run("export " + P("arm.json") + " -o " + P("arm.glb")).code, 0);
  const Result r = Run("import " + P("arm.glb") + " --as neutral-json -o " + P("back.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const Animated back = animated_from_json(Json::parse(Slurp(dir_ / "back.json")));
  const Animated arm = synthetic_arm();
  EXPECT_EQ(back.skeleton.names, arm.skeleton.names);
  ASSERT_EQ(back.clips.size(), 2u);
  EXPECT_EQ(back.clips[0].events.size(), 1u);
  // Exporting the import again gives the same glTF document.
  ASSERT_EQ(Run("export " + P("back.json") + " -o " + P("again.glb")).code, 0);
  const std::vector<uint8_t> a = read_file(dir_ / "arm.glb"), b = read_file(dir_ / "again.glb");
  EXPECT_EQ(a.size(), b.size());
}

TEST_F(CliTest, ImportDryRunReportsAndWritesNothing) {
  ASSERT_EQ(Run("export " + P("arm.json") + " -o " + P("arm.glb")).code, 0);
  const Result r = Run("import --json --dry-run " + P("arm.glb") + " --as neutral-json --template " +
                       P("arm.json") + " --clip wave");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["report"]["clips"], 1);
  EXPECT_EQ(j["report"]["max_error"]["wrist"], 0.0);
  EXPECT_TRUE(j["output"].is_null());
}

TEST_F(CliTest, ImportIntoAFormatWithoutAWriterIsBadUsage) {
  ASSERT_EQ(Run("export " + P("arm.json") + " -o " + P("arm.glb")).code, 0);
  const Result r = Run("import " + P("arm.glb") + " --as no-such-format -o " + P("x"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown format 'no-such-format'"), std::string::npos) << r.err;
  // An animation tree holds no keys: there is nothing to write it from.
  const Result tree = Run("import " + P("arm.glb") + " --as cod-atr -o " + P("x"));
  EXPECT_EQ(tree.code, 2);
  EXPECT_NE(tree.err.find("'cod-atr' cannot be written from glTF yet (formats that can: neutral-json"),
            std::string::npos) << tree.err;
}

TEST_F(CliTest, ImportOntoAnotherSkeletonNamesTheJoints) {
  ASSERT_EQ(Run("export " + P("arm.json") + " -o " + P("arm.glb")).code, 0);
  Animated other = synthetic_arm();
  other.skeleton.names[4] = "finger";
  write_text(dir_ / "other.json", to_json(other).dump());
  const Result r = Run("import " + P("arm.glb") + " --as neutral-json --template " + P("other.json") +
                       " -o " + P("x.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("missing 1 joint(s) of the target: finger"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace animkit
