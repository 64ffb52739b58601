// `animkit export` -> `animkit import --as sow-anix` through the animkit program (issue 17,
// item 5): an unchanged export imports back to the original bytes, an edited event reaches the
// file and `dump`, anything else is refused (exit 1).
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace animkit::shadow_of_war
