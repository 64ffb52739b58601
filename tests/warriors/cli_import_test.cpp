// `animkit import --as warriors-anm` and `animkit warriors rebuild --put` through the real binary
// (issue 17): export then import gives the file back, --dry-run --json reports the per-joint error,
// a joint-matching error exits 1 with the joint named, rebuild puts a clip back byte for byte.
#include <gtest/gtest.h>

#include <filesystem>

#include "animkit/core/json_util.h"
#include "animkit/core/registry.h"
#include "animkit/gltf/export.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/document.h"
#include "tests/common/run_cli.h"

namespace animkit::warriors {
namespace {

namespace fs = std::filesystem;

using Result = test::CliResult;

class WarriorsImportCli : public test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    ClipBuilder b;
    b.name = "strike";
    b.frames = 24;
    b.displacement_y = 0.4f;
    b.velocity = {{0, {0, 0, 0}}, {2, {0, 0.5f, 0}}};
    b.translation = {{0, {0, 0, 0.02f}}, {12, {0.01f, 0.1f, -0.03f}}, {23, {0, 0, 0.02f}}};
    b.rotations[1] = {{0, normalize(Quat{0.1f, 0.2f, 0.3f, 0.9f})},
                      {6, normalize(Quat{0.2f, 0.1f, -0.3f, 0.9f})}};
    b.rotations[17] = {{0, normalize(Quat{0.5f, -0.2f, 0.1f, 0.8f})},
                       {3, normalize(Quat{0.4f, -0.2f, 0.3f, 0.8f})},
                       {20, normalize(Quat{0.6f, 0.2f, 0.1f, 0.7f})}};
    AnimEvent sound{4, 0x0b};
    sound.position = {77, 0, 0};
    AnimEvent blood{9, 0x21};
    blood.arg1 = 19;
    blood.code = {'b', 'l', 'd', 0};
    b.events = {sound, blood};
    clip_ = b.build();
    Writer w;
    write_resource(w, make_anm_resource(clip_));
    write_file(dir_ / "strike.anm", w.bytes());
    ClipBuilder other;
    other.name = "idle";
    other.rotations[1] = {{0, Quat::identity()}};
    const Resource chr = make_character_resource("chr", {other.build(), clip_}, {388, 11}, {});
    write_file(dir_ / "set.pak",
               write_entry(WadEntry{make_pack({chr, make_anm_resource(clip_)}), {}}));
  }
  AnmClip clip_;
};

TEST_F(WarriorsImportCli, ExportThenImportGivesTheFileBack) {
  ASSERT_EQ(Run("export " + P("strike.anm") + " -o " + P("strike.glb")).code, 0);
  Result r = Run("import " + P("strike.glb") + " --as warriors-anm --template " + P("strike.anm") +
                 " -o " + P("back.anm"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Slurp(P("back.anm")), Slurp(P("strike.anm")));
  // Rebuild with the imported clip: the pack comes back byte for byte (two places hold it).
  r = Run("warriors rebuild " + P("set.pak") + " --put " + P("back.anm") + " -o " + P("set2.pak") +
          " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_TRUE(j.at("identical").get<bool>());
  EXPECT_EQ(j.at("placed").size(), 2u);
  EXPECT_EQ(Slurp(P("set2.pak")), Slurp(P("set.pak")));
  // The whole pack through glTF and back (--as warriors-pack): byte for byte.
  ASSERT_EQ(Run("export " + P("set.pak") + " -o " + P("set.glb")).code, 0);
  r = Run("import " + P("set.glb") + " --as warriors-pack --template " + P("set.pak") + " -o " +
          P("set4.pak") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(Json::parse(r.out).at("report").at("identical").get<bool>());
  EXPECT_EQ(Slurp(P("set4.pak")), Slurp(P("set.pak")));
  EXPECT_EQ(Run("import " + P("set.glb") + " --as warriors-pack -o " + P("set5.pak")).code, 1);
  // By anim id: 11 is the strike in the character resource only.
  r = Run("warriors rebuild " + P("set.pak") + " --put " + P("back.anm") + " --anim 11 -o " +
          P("set3.pak") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out).at("placed").size(), 1u);
}

TEST_F(WarriorsImportCli, DryRunJsonReportsPerJointError) {
  ASSERT_EQ(Run("export " + P("strike.anm") + " -o " + P("strike.glb")).code, 0);
  Result r = Run("import " + P("strike.glb") + " --as warriors-anm --template " + P("strike.anm") +
                 " --tolerance 0.05 --dry-run --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(P("back.anm")));
  const Json j = Json::parse(r.out);
  const Json& e = j.at("report").at("max_error");
  for (const char* joint : {"pelvis", "r_upperarm"}) {
    ASSERT_TRUE(e.contains(joint)) << r.out;
    EXPECT_TRUE(e.at(joint).at("rotation").is_number());
    EXPECT_TRUE(e.at(joint).at("translation").is_number());
    EXPECT_LE(e.at(joint).at("rotation").get<double>(), 0.05 + 1e-4);
  }
  EXPECT_LE(e.at("pelvis").at("translation").get<double>(), 0.05 + 1e-3);
  EXPECT_NEAR(j.at("report").at("tolerance").get<double>(), 0.05, 1e-7);
}

TEST_F(WarriorsImportCli, JointMatchingErrorsExit1) {
  auto doc = open_document(P("strike.anm"), read_file(P("strike.anm")), FileKind::kAnm);
  Animated a = *doc->to_neutral();
  Animated missing = a;
  missing.skeleton.names[24] = "left_forearm";
  gltf::write(missing, P("renamed.glb"));
  Result r = Run("import " + P("renamed.glb") + " --as warriors-anm --template " + P("strike.anm") +
                 " -o " + P("x.anm"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("missing 1 joint(s) of the target: l_forearm"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("left_forearm"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(P("x.anm")));
  // A usage error exits 2; a frame rate the engine does not play exits 1.
  ASSERT_EQ(Run("export " + P("strike.anm") + " -o " + P("strike.glb")).code, 0);
  EXPECT_EQ(
      Run("import " + P("strike.glb") + " --as warriors-anm --tolerance -1 -o " + P("x.anm")).code,
      2);
  r = Run("import " + P("strike.glb") + " --as warriors-anm --frame-rate 24 -o " + P("x.anm"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("30 frames a second"), std::string::npos) << r.err;
  // rebuild --put of a clip the file does not hold.
  ClipBuilder b;
  b.name = "nobody";
  b.rotations[1] = {{0, Quat::identity()}};
  Writer w;
  write_resource(w, make_anm_resource(b.build()));
  write_file(dir_ / "nobody.anm", w.bytes());
  r = Run("warriors rebuild " + P("set.pak") + " --put " + P("nobody.anm") + " -o " + P("y.pak"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no clip named 'nobody'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace animkit::warriors
