// Multi-file writers keep every file under -o (issue 30, Deliver 2): `warriors extract` of a pack
// whose clips are named to escape (`x/../../../esc`, `..`, `/abs`, a control byte, duplicates).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "animkit/core/json_util.h"
#include "animkit/core/registry.h"
#include "animkit/warriors/builder.h"
#include "tests/common/run_cli.h"

namespace animkit {
namespace {

namespace fs = std::filesystem;

class SafeOutput : public test::CliFixture {};

// Every file below `root`, as paths relative to it.
std::set<std::string> files_below(const fs::path& root) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_directory()) out.insert(fs::relative(e.path(), root).string());
  }
  return out;
}

TEST_F(SafeOutput, WarriorsExtractKeepsHostileClipNamesInsideTheFolder) {
  std::vector<warriors::Resource> resources;
  for (const std::string& name : std::vector<std::string>{"x/../../../esc", "..", "/abs", "a\x01" "b",
                                                         "walk", "walk", ".hidden"}) {
    warriors::ClipBuilder b;
    b.name = name;
    b.frames = 2;
    b.rotations[1] = {{0, {0, 0, 0, 1}}};
    resources.push_back(warriors::make_anm_resource(b.build()));
  }
  Writer w;
  warriors::write_pack(w, warriors::make_pack(resources));
  // The pack sits two folders down, so "../../../esc" relative to -o would land inside dir_.
  fs::create_directories(dir_ / "a" / "b" / "out");
  write_file(dir_ / "a" / "b" / "hostile.pak", w.bytes());
  const test::CliResult r =
      Run("warriors extract " + P("a/b/hostile.pak") + " -o " + P("a/b/out") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  std::set<std::string> written;
  const Json report = Json::parse(r.out);
  for (const Json& n : report["written"]) written.insert(n.get<std::string>());
  const std::set<std::string> want{"000-x_.._.._.._esc.anm", "001-...anm", "002-_abs.anm",
                                   "003-a_x01b.anm", "004-walk.anm", "005-walk.anm",
                                   "006-.hidden.anm"};
  EXPECT_EQ(written, want);
  EXPECT_EQ(files_below(dir_ / "a" / "b" / "out"), want);  // nothing else, nothing nested
  // Nothing outside: the fixture holds only the pack, the folder and the shell's out/err.
  EXPECT_EQ(files_below(dir_), (std::set<std::string>{"a/b/hostile.pak", "out", "err",
                                                      "a/b/out/000-x_.._.._.._esc.anm",
                                                      "a/b/out/001-...anm", "a/b/out/002-_abs.anm",
                                                      "a/b/out/003-a_x01b.anm", "a/b/out/004-walk.anm",
                                                      "a/b/out/005-walk.anm",
                                                      "a/b/out/006-.hidden.anm"}));
}

TEST_F(SafeOutput, WarriorsExtractRefusesToWriteThroughASymlink) {
  warriors::ClipBuilder b;
  b.name = "walk";
  b.frames = 2;
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  Writer w;
  warriors::write_resource(w, warriors::make_anm_resource(b.build()));
  write_file(dir_ / "walk.anm", w.bytes());
  fs::create_directories(dir_ / "dest");
  write_text(dir_ / "victim.txt", "keep");
  fs::create_symlink(dir_ / "victim.txt", dir_ / "dest" / "000-walk.anm");
  const test::CliResult r = Run("warriors extract " + P("walk.anm") + " -o " + P("dest"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("symlink"), std::string::npos) << r.err;
  EXPECT_EQ(Slurp(dir_ / "victim.txt"), "keep");
}

}  // namespace
}  // namespace animkit
