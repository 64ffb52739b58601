// `animkit export` -> `animkit import --as sow-anix` through the animkit program (issue 17,
// item 5): an unchanged export imports back to the original bytes, an edited event reaches the
// file and `dump`, anything else is refused (exit 1).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class SowCli : public ::testing::Test {
 protected:
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("animkit_sow_cli_" + std::to_string(::getpid()));
  void SetUp() override {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  std::string p(const std::string& rel) const { return (dir / rel).string(); }
  void write(const std::string& rel, const std::string& bytes) const {
    std::ofstream(dir / rel, std::ios::binary) << bytes;
  }
  struct Result {
    int code;
    std::string out, err;
  };
  Result run(const std::string& args) const {
    const std::string cmd =
        std::string(ANIMKIT_BINARY) + " " + args + " >" + p("out") + " 2>" + p("err");
    const int status = std::system(cmd.c_str());
    return {WEXITSTATUS(status), slurp(p("out")), slurp(p("err"))};
  }
};

TEST_F(SowCli, ExportImportRoundTripAndEventEdit) {
  AnixBuild b = testing::one_clip();
  EventDictionary d;
  d.path = "orc/idle.anix";
  d.strings = {"footstep"};
  d.clips = {{"orc_idle", 60, 2000, {event_word(0, 250)}}};
  b.events = d;
  const std::vector<uint8_t> bytes = build_anix_bytes(b);
  const std::string original(bytes.begin(), bytes.end());
  write("orc.anix", original);

  Result r = run("export " + p("orc.anix") + " -o " + p("orc.gltf"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run("import " + p("orc.gltf") + " --as sow-anix --template " + p("orc.anix") + " -o " +
          p("same.anix"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(p("same.anix")), original);
  EXPECT_NE(r.out.find("no event changed"), std::string::npos) << r.out;

  // Move the footstep to 1 s and add a DESTROY keyword at 1.5 s, as a glTF editor would.
  Json g = Json::parse(slurp(p("orc.gltf")));
  Json& events = g["animations"][0]["extras"]["events"];
  ASSERT_EQ(events.size(), 1u);
  events[0]["time"] = 1.0;
  events.push_back({{"time", 1.5}, {"name", "DESTROY"}, {"payload", "{}"}});
  write("edited.gltf", g.dump());
  r = run("import " + p("edited.gltf") + " --as sow-anix --template " + p("orc.anix") +
          " -o " + p("edited.anix") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["report"]["strings_added"], Json::array({"DESTROY"}));
  r = run("dump " + p("edited.anix") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json dump = Json::parse(r.out);
  const std::string text = dump.dump();
  EXPECT_NE(text.find("\"ms\":1000"), std::string::npos);
  EXPECT_NE(text.find("\"ms\":1500"), std::string::npos);
  EXPECT_NE(text.find("\"DESTROY\""), std::string::npos);
  r = run("sow events " + p("edited.anix"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("DESTROY"), std::string::npos) << r.out;

  // Anything but events cannot be written: a renamed clip, a changed duration.
  g["animations"][0]["extras"]["duration"] = 3.0;
  write("longer.gltf", g.dump());
  r = run("import " + p("longer.gltf") + " --as sow-anix --template " + p("orc.anix") + " -o " +
          p("x.anix"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("clip 'orc_idle': its duration 3 s is not the template's 2 s"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(p("x.anix")));
  // The template is required.
  r = run("import " + p("orc.gltf") + " --as sow-anix -o " + p("x.anix"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("needs --template"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace animkit::shadow_of_war
