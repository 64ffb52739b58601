// The `animkit` binary on Asheron's Call files (issue 13 item 2, issue 17 item 4): the creature
// export from a dat, and `import --as ac-animation` back to the original bytes, its dry-run
// report and its errors (exit 1 with the message).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "animkit/asherons_call/animation.h"
#include "animkit/asherons_call/frame_ops.h"
#include "animkit/asherons_call/synthetic.h"
#include "animkit/core/json_util.h"
#include "animkit/core/registry.h"
#include "tests/common/run_cli.h"

namespace animkit::asherons_call {
namespace {

namespace fs = std::filesystem;

using Result = test::CliResult;

// Each test starts with the synthetic humanoid dat in its directory.
class AcCli : public test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    write_file(dir_ / "portal.dat", humanoid_dat());
  }
  // Quoted, so that a path with a space stays one shell word.
  std::string P(const std::string& name) const { return "'" + CliFixture::P(name) + "'"; }
};

TEST_F(AcCli, ExportACreatureFromADat) {
  const Result r = Run("export " + P("portal.dat") + " --setup 0x02000001 -o " + P("human.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("6 joints, 12 clips"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "human.glb"));
  const Result bad = Run("export " + P("portal.dat") + " --setup 0x02000009 -o " + P("x.glb"));
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("object 0x02000009 is not in the dat"), std::string::npos) << bad.err;
}

// `plot` takes --setup as export does: the creature's joints are the channels.
TEST_F(AcCli, PlotACreature) {
  const Result r = Run("plot " + P("portal.dat") + " --setup 0x02000001 -o " + P("p.svg"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string svg = Slurp(dir_ / "p.svg");
  EXPECT_NE(svg.find("part_4"), std::string::npos);
}

// Export an animation over the Setup, import it with the original as template: the same bytes
// (a file template with --setup DAT:ID, and a dat template with --id and --setup ID).
TEST_F(AcCli, ImportOfAnUnchangedExportGivesTheOriginalBytes) {
  ASSERT_EQ(Run("ac extract " + P("portal.dat") + " 0x03000110 -o " + P("orig.bin")).code, 0);
  ASSERT_EQ(Run("export " + P("portal.dat") + " --setup 0x02000001 --id 0x03000110 -o " +
                P("link.glb"))
                .code,
            0);
  const Result r = Run("import " + P("link.glb") + " --as ac-animation --template " +
                       P("orig.bin") + " --setup '" + (dir_ / "portal.dat").string() +
                       ":0x02000001' -o " + P("back.bin"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("identical to the template"), std::string::npos) << r.out;
  EXPECT_EQ(Slurp(dir_ / "back.bin"), Slurp(dir_ / "orig.bin"));
  const Result d = Run("import " + P("link.glb") + " --as ac-animation --template " +
                       P("portal.dat") + " --id 0x03000110 --setup 0x02000001 -o " +
                       P("back2.bin"));
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(Slurp(dir_ / "back2.bin"), Slurp(dir_ / "orig.bin"));
}

TEST_F(AcCli, DryRunJsonReportsPerJointError) {
  ASSERT_EQ(Run("export " + P("portal.dat") + " --setup 0x02000001 -o " + P("human.glb")).code, 0);
  const Result r = Run("import " + P("human.glb") +
                       " --as ac-animation --clip 'cycle NonCombat/WalkForward' --id 0x03000101 "
                       "--dry-run --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json j = parse_json(r.out);
  EXPECT_TRUE(j["output"].is_null());
  EXPECT_FALSE(fs::exists(dir_ / "out.bin"));
  const Json& rep = j["report"];
  EXPECT_EQ(rep["frames"], 30);
  EXPECT_EQ(rep["hooks"], 2);  // the walk's two Sound hooks
  EXPECT_EQ(rep["id"], "0x03000101");
  for (const char* joint : {"root", "part_0", "part_1", "part_2", "part_3", "part_4"}) {
    ASSERT_TRUE(rep["max_error"].contains(joint)) << joint;
    EXPECT_LE(rep["max_error"][joint]["translation"].get<double>(), 1e-6) << joint;
    EXPECT_LE(rep["max_error"][joint]["rotation"].get<double>(), 1e-3) << joint;
  }
}

TEST_F(AcCli, ImportErrors) {
  ASSERT_EQ(Run("export " + P("portal.dat") + " --setup 0x02000001 -o " + P("human.glb")).code, 0);
  Result r = Run("import " + P("human.glb") + " --as ac-animation -o " + P("x.bin"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("pick it with --clip"), std::string::npos) << r.err;
  r = Run("import " + P("human.glb") +
          " --as ac-animation --clip 'cycle NonCombat/Ready' --setup 0x02000001 -o " + P("x.bin"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("name the dat too"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.bin"));
}

// Issue 32 item 4: an Animation exported alone (no --setup) is in glTF axes as the creature
// export is (container page 6, "Axes": (x, y, z) -> (-x, z, y)), so the import, which always maps
// back from glTF axes, gives the same bytes with and without --setup. Before, the lone export
// kept AC's axes and part origin (0, 0, 1) came back as (-0, 1, 0).
TEST_F(AcCli, LoneAnimationExportImportsBackWithAndWithoutSetup) {
  Animation a = synthetic_animation(0x03000777, 7, 5, true);
  for (size_t k = 0; k < a.frames.size(); ++k) {
    const float f = static_cast<float>(k);
    a.frames[k].parts[0] = AFrame{{0, 0, 1}, Quat::identity()};
    a.frames[k].parts[1].origin = {0.3f, 0.2f + 0.01f * f, 1.1f};
    a.frames[k].parts[1].orientation = axis_angle({0.6f, 0, 0.8f}, 0.1f * f - 0.2f);
    a.pos_frames[k] = AFrame{{0.01f * f, 0.05f, 0.002f}, axis_angle({0, 0, 1}, 0.02f + 0.01f * f)};
  }
  a.frames[2].hooks.push_back({1, 0, {0x0A000010}});
  const std::vector<uint8_t> original = write_animation(a);
  write_file(dir_ / "anim.bin", original);
  ASSERT_EQ(Run("export " + P("anim.bin") + " -o " + P("a.glb")).code, 0);

  // The glb holds part_0's origin in glTF axes: (-0, 1, 0) as three little-endian floats.
  const std::string glb = Slurp(dir_ / "a.glb");
  const float y_up[3] = {-0.0f, 1.0f, 0.0f};
  EXPECT_NE(glb.find(std::string(reinterpret_cast<const char*>(y_up), sizeof y_up)),
            std::string::npos);

  const std::string setup = " --setup '" + (dir_ / "portal.dat").string() + ":0x02000001'";
  for (const std::string& extra : {std::string(), setup}) {
    const Result r = Run("import " + P("a.glb") + " --as ac-animation --template " +
                         P("anim.bin") + extra + " -o " + P("back.bin"));
    ASSERT_EQ(r.code, 0) << extra << r.err;
    EXPECT_NE(r.out.find("identical to the template"), std::string::npos) << extra << r.out;
    EXPECT_EQ(Slurp(dir_ / "back.bin"), std::string(original.begin(), original.end())) << extra;
  }
  // Without a template the part keys are still AC's: part_0 at (0, 0, 1).
  ASSERT_EQ(Run("import " + P("a.glb") + " --as ac-animation-json -o " + P("back.json")).code, 0);
  const Animation back = animation_from_json(parse_json(Slurp(dir_ / "back.json")));
  ASSERT_EQ(back.frames.size(), a.frames.size());
  EXPECT_EQ(back.frames[3].parts[0].origin.x, 0.0f);
  EXPECT_EQ(back.frames[3].parts[0].origin.y, 0.0f);
  EXPECT_EQ(back.frames[3].parts[0].origin.z, 1.0f);
}

}  // namespace
}  // namespace animkit::asherons_call
