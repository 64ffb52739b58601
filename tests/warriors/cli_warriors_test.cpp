// The warriors verbs through the binary: usage errors exit 2 (`--frame nan`, negative rates and
// dt, `--frames -5`), clip-length's reasons, `play --pose`, `warriors pose`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "animkit/core/json_util.h"
#include "animkit/core/registry.h"
#include "animkit/warriors/builder.h"
#include "tests/common/run_cli.h"

namespace animkit::warriors {
namespace {

namespace fs = std::filesystem;

using Result = test::CliResult;

class WarriorsCli : public test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    ClipBuilder b;
    b.name = "walk";
    b.frames = 30;
    b.translation = {{0, {0, 0, 1}}};
    b.rotations[1] = {{0, {0, 0, 0, 1}}};
    Writer w;
    write_resource(w, make_anm_resource(b.build()));
    write_file(dir_ / "walk.anm", w.bytes());
  }
};

TEST_F(WarriorsCli, UsageErrorsExit2) {
  const std::string clip = P("walk.anm");
  EXPECT_EQ(Run("warriors sample " + clip + " --frame nan").code, 2);
  EXPECT_EQ(Run("warriors sample " + clip + " --frame inf").code, 2);
  EXPECT_EQ(Run("warriors sample " + clip + " --frame -inf").code, 2);
  EXPECT_EQ(Run("warriors sample " + clip + " --frame -1e39").code, 2);
  EXPECT_EQ(Run("warriors sample " + clip + " --frame 3 --rate -0.5").code, 2);
  EXPECT_EQ(Run("warriors sample " + clip + " --frame 3 --rate 0.75").code, 0);
  EXPECT_EQ(Run("warriors clip-length --frames -5").code, 2);
  EXPECT_EQ(Run("warriors clip-length --frames 21 --rate -0.8").code, 2);
  EXPECT_EQ(Run("warriors clip-length --frames 21 --dt -0.03").code, 2);
  EXPECT_EQ(Run("warriors clip-length --frames 21 --rate nan").code, 2);
  EXPECT_EQ(Run("warriors pose " + P("none.json") + " --update -1 -o " + P("p.glb")).code, 2);
}

// warriors.txt "The key in force": t = (frame - key) / delta is not clamped, so a negative frame
// carries the first key backwards: keys (0, 0, 0) @ 0 and (10, 0, 0) @ 10 give x = 10 x -3 / 10
// = -3 at frame -3 (and 13 at frame 13 would be the held last key, 10).
TEST_F(WarriorsCli, SampleAtNegativeFrames) {
  ClipBuilder b;
  b.name = "slide";
  b.frames = 20;
  b.translation = {{0, {0, 0, 0}}, {10, {10, 0, 0}}};
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  Writer w;
  write_resource(w, make_anm_resource(b.build()));
  write_file(dir_ / "slide.anm", w.bytes());
  const auto x_at = [&](const std::string& frame) {
    const Result r = Run("warriors sample " + P("slide.anm") + " --frame " + frame + " --json");
    EXPECT_EQ(r.code, 0) << frame << ": " << r.err;
    return r.code == 0 ? Json::parse(r.out)["root_translation"][0].get<double>() : 1e9;
  };
  EXPECT_NEAR(x_at("-3"), -3.0, 1e-5);
  EXPECT_NEAR(x_at("-0.5"), -0.5, 1e-5);
  EXPECT_NEAR(x_at("-100"), -100.0, 1e-4);
  EXPECT_NEAR(x_at("5"), 5.0, 1e-5);
  EXPECT_NEAR(x_at("13"), 10.0, 1e-5);
}

// warriors.txt "When a clip ends": 21 frames at 0.8 end after 26 updates; rate 0 never ends,
// which is not the 2-frame clip's overshoot of exactly 0.0.
TEST_F(WarriorsCli, ClipLengthReasons) {
  Result r = Run("warriors clip-length --frames 21 --rate 0.8 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["updates"], 26);
  r = Run("warriors clip-length --frames 21 --rate 0");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("never ends (rate 0)"), std::string::npos) << r.out;
  r = Run("warriors clip-length --frames 21 --rate 0 --json");
  EXPECT_EQ(Json::parse(r.out)["reason"], "rate_zero");
  EXPECT_TRUE(Json::parse(r.out)["never_ends"].get<bool>());
  r = Run("warriors clip-length --frames 2 --rate 0.75");
  EXPECT_NE(r.out.find("overshoot exactly 0.0"), std::string::npos) << r.out;
  // A step so small that the float32 time stops growing before frame F.
  r = Run("warriors clip-length --frames 3000 --rate 0.000001 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["reason"], "time_stalls");
}

TEST_F(WarriorsCli, PlayPoseAndPoseVerb) {
  std::ofstream(dir_ / "s.json") << R"({"engine": "warriors", "clips": {"1": "walk.anm"},
    "updates": 3, "actions": [{"at": 0, "do": "loop", "anim": 1}]})";
  Result r = Run("play " + P("s.json") + " --json --pose");
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    const Json j = Json::parse(line);
    EXPECT_EQ(j["pose"]["rotations"].size(), 34u);
    ++n;
  }
  EXPECT_EQ(n, 3);
  r = Run("warriors pose " + P("s.json") + " --update 2 -o " + P("p.glb") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(P("p.glb")));
  EXPECT_GT(fs::file_size(P("p.glb")), 1000u);
  EXPECT_EQ(Json::parse(r.out)["pose"]["rotations"][2], Json::parse("[-0.5, 0.5, -0.5, 0.5]"));
  r = Run("warriors pose " + P("s.json") + " --update 3 -o " + P("q.glb"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("ends before update 3"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace animkit::warriors
