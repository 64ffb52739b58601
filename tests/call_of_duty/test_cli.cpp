// The `animkit cod ...` verbs and the cod-xanim format on the command line (issue 12, item 7):
// exit 0 / 1 / 2, --json documents, the places diagnostics name.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/tree_output.h"
#include "animkit/core/json_text.h"
#include "animkit/core/json_util.h"
#include "animkit/core/neutral_json.h"
#include "animkit/core/registry.h"
#include "animkit/core/text.h"
#include "tests/common/run_cli.h"
#include "xanim_fixtures.h"
#include "zip_writer.h"

namespace animkit::call_of_duty {
namespace {

namespace fs = std::filesystem;
using testing::write_zip;
using testing::xanim_header;
using Result = test::CliResult;

// §2.6 of cod-xanim-format.md, the 43-byte worked example.
std::string worked_example() {
  const unsigned char b[] = {0x0E, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x1E, 0x00, 0x00, 0x01,
                             0x6A, 0x00, 0x02, 0x00, 0x00, 0x04, 0x00, 0x00, 0x82, 0x5A, 0x01,
                             0x00, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00,
                             0x40, 0x40, 0x01, 0x66, 0x69, 0x72, 0x65, 0x00, 0x02, 0x00};
  return std::string(reinterpret_cast<const char*>(b), sizeof b);
}

class CodCli : public test::CliFixture {
 protected:
  // A file of this test's directory, its folders made as needed (mod/maps/town.gsc).
  void Write(const std::string& rel, const std::string& bytes) const {
    fs::create_directories((dir_ / rel).parent_path());
    write_text(dir_ / rel, bytes);
  }
};

// The peak resident memory (KB) of `animkit ARGS` (stdout discarded) and its exit code, in a
// child of its own (ru_maxrss of RUSAGE_CHILDREN is the largest child ever waited for).
std::pair<long, int> peak_rss_kb(const std::string& args) {
  int fd[2];
  if (pipe(fd) != 0) return {-1, -1};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const int status =
        std::system((std::string(ANIMKIT_BINARY) + " " + args + " >/dev/null 2>&1").c_str());
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    const long out[2] = {usage.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128};
    const ssize_t n = write(fd[1], out, sizeof out);
    _exit(n == sizeof out ? 0 : 1);
  }
  close(fd[1]);
  long out[2] = {-1, -1};
  const ssize_t n = read(fd[0], out, sizeof out);
  close(fd[0]);
  waitpid(pid, nullptr, 0);
  if (n != sizeof out) return {-1, -1};
  return {out[0], static_cast<int>(out[1])};
}

// 48 dense 2-component parts of `keys` keys (one part named with a non-UTF-8 byte), a constant
// translation each: the issue's 48 x 65,535-key file, at any size.
std::string many_keys(uint16_t keys) {
  XAnimFile f;
  f.header.num_frames = keys;  // not looped: T = keys
  f.header.frame_rate = 30;
  for (int p = 0; p < 48; ++p) {
    std::vector<int16_t> z(keys);
    for (uint16_t k = 0; k < keys; ++k) z[k] = static_cast<int16_t>((k * 7 + p * 13) % 20000 - 10000);
    f.parts.push_back(testing::part(p == 5 ? std::string("bad\xff") : "j_" + std::to_string(p),
                                    p % 2 == 0, testing::rot(true, {}, z),
                                    testing::trans({}, {{1.5f, float(p), -0.25f}})));
  }
  f.notes.push_back(testing::note("fire", 3));
  const std::vector<uint8_t> b = testing::xanim_bytes(std::move(f));
  return std::string(b.begin(), b.end());
}

// Issue 26: `dump --json` of an xanim prints part by part, the same text as the whole document.
TEST_F(CodCli, DumpJsonStreamsPartByPart) {
  Write("small", many_keys(40));
  const Result streamed = Run("dump " + P("small") + " --json");
  ASSERT_EQ(streamed.code, 0) << streamed.err;
  // Two files are dumped as one array of whole documents (not streamed).
  const Result whole = Run("dump " + P("small") + " " + P("small") + " --json");
  ASSERT_EQ(whole.code, 0) << whole.err;
  const Json first = Json::parse(whole.out)[0];
  EXPECT_EQ(Json::parse(streamed.out), first);
  EXPECT_EQ(streamed.out, dump_json(first, 1) + "\n");
  EXPECT_EQ(first["parts"][5]["name_hex"], "626164ff");
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "peak RSS under ASan counts its shadow memory";
#else
  // 48 x 8,000 keys (0.8 MB): held as one Json this took about 200 MB (16,000 keys: 405 MB;
  // streamed: 21 MB).
  Write("big", many_keys(8000));
  const auto [kb, code] = peak_rss_kb("dump " + P("big") + " --json");
  EXPECT_EQ(code, 0);
  EXPECT_LT(kb, 80 * 1024) << "peak RSS " << kb << " KB";
#endif
}

// Issue 26 item 3: a negative frameRate is loaded by the game (§1.1: not checked), so the file
// is recognised without --format, and validate reports as an error what export refuses.
TEST_F(CodCli, NegativeFrameRateRecognisedAndReported) {
  std::string b = worked_example();
  b[7] = static_cast<char>(0xE2);  // -30
  b[8] = static_cast<char>(0xFF);
  Write("neg", b);
  Result r = Run("validate " + P("neg"));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("frame rate -30 is negative"), std::string::npos) << r.out << r.err;
  r = Run("export " + P("neg") + " -o " + P("neg.glb"));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(Run("info " + P("neg")).code, 0);
}

TEST_F(CodCli, TreeJsonAndErrors) {
  Write("t.atr", "main\n{\n    walk\n    run\n}\n");
  Result r = Run("cod tree " + P("t.atr") + " --refs walk --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["node_count"], 3);  // root, main, walk
  EXPECT_EQ(j["nodes"][2]["name"], "walk");
  Write("bad.atr", "main\n{\n    walk : loopsync\n}\n");
  r = Run("cod tree " + P("bad.atr") + " --anim-check");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(P("bad.atr") + ":4:1: properties cannot be applied to primitive animations"),
            std::string::npos)
      << r.out;
  // A folder is not a tree (issue 12, item 5).
  r = Run("cod tree " + dir_.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("is a folder"), std::string::npos) << r.err;
  EXPECT_EQ(Run("cod tree").code, 2);
}

// Issue 26 Deliver 4: `cod tree --json` is written node by node, the same bytes as the whole
// document, from a compact parse and tree (about 60 bytes a node at the peak, was 235).
TEST_F(CodCli, TreeJsonStreamedIsTheWholeDocument) {
  // A quoted name with a non-UTF-8 byte, a duplicate and an unknown property (--keep-going).
  const std::string small =
      "Main : loopsync\n{\n    walk\n    \"r\xff" "un\"\n    walk\n}\nidle : bogus\n";
  Write("small.atr", small);
  const Result r = Run("cod tree " + P("small.atr") + " --anim-check --keep-going --json");
  EXPECT_EQ(r.code, 1) << r.err;
  LoadOptions o;
  o.tree_name = "small";
  o.file = P("small.atr");
  o.anim_check = true;
  o.keep_going = true;
  const LoadResult whole = load_anim_tree(small, o);
  ASSERT_FALSE(whole.diagnostics.empty());
  EXPECT_EQ(r.out, tree_json(whole).dump() + "\n");
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "peak RSS under ASan counts its shadow memory";
#else
  std::string big;
  for (int i = 0; i < 500000; ++i) big += "n" + std::to_string(i) + "\n";
  Write("big.atr", big);
  const auto [kb, code] = peak_rss_kb("cod tree " + P("big.atr") + " --anim-check --json");
  EXPECT_EQ(code, 0);
  // 500,000 nodes: 47 MB measured (before the compact parse: 135 MB; README, Memory).
  EXPECT_LT(kb, 72 * 1024) << "peak RSS " << kb << " KB";
#endif
}

TEST_F(CodCli, TreeAssetsFromAGameArchive) {
  Write("t.atr", "g : complete loopsync\n{\n    walk\n}\n");
  fs::create_directories(dir_ / "main");
  write_zip(dir_ / "main/pak0.pk3", {{"xanim/walk", xanim_header(10, 0)}});
  Result r = Run("cod tree " + P("t.atr") + " --refs g --game-dir " + P("main"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("animation 'walk' in 't' cannot be sync looping and nonlooping"),
            std::string::npos)
      << r.out;
  write_zip(dir_ / "main/pak1.pk3", {{"xanim/walk", xanim_header(10, 1)}});  // later pk3 wins
  r = Run("cod tree " + P("t.atr") + " --refs g --game-dir " + P("main") + " --json");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(Json::parse(r.out)["nodes"][2]["looping"], true);
}

// A .pk3 of one deflated member whose directory gives `size` uncompressed bytes; its data is an
// empty deflate stream, so nothing but the size check can stop the read (a 1 GiB member in a
// few bytes: what a 1 MB archive of a 1 GiB deflated .atr gives the reader).
std::string zip_claiming(const std::string& name, uint32_t size) {
  std::string z;
  auto u16 = [&](uint32_t v) { z += static_cast<char>(v & 0xFF), z += static_cast<char>(v >> 8 & 0xFF); };
  auto u32 = [&](uint32_t v) { u16(v & 0xFFFF), u16(v >> 16); };
  const std::string data("\x03\x00", 2);  // a final fixed-Huffman block with no symbol
  auto common = [&] {
    u16(20), u16(0), u16(8), u16(0), u16(0x21);  // version, flags, deflate, time, date
    u32(0), u32(static_cast<uint32_t>(data.size())), u32(size);  // crc, sizes
    u16(static_cast<uint32_t>(name.size())), u16(0);
  };
  u32(0x04034b50), common(), z += name, z += data;
  const auto directory = static_cast<uint32_t>(z.size());
  u32(0x02014b50), u16(20), common(), u16(0), u16(0), u16(0), u32(0), u32(0), z += name;
  const auto directory_size = static_cast<uint32_t>(z.size()) - directory;
  u32(0x06054b50), u16(0), u16(0), u16(1), u16(1), u32(directory_size), u32(directory), u16(0);
  return z;
}

// Issue 26: the member's uncompressed size is checked against --max-memory (held with its
// parse: twice) before it is inflated, under the default 1 GiB too; the error names the archive
// and the member.
TEST_F(CodCli, Pk3MemberSizeCheckedBeforeInflating) {
  Write("main/pak0.pk3", zip_claiming("animtrees/soldier.atr", 1u << 30));
  Write("mod/maps/town.gsc",
        "#using_animtree(\"soldier\");\nmain() { self setanim(%idle); maps\\_load::main(); }\n");
  const std::string member = P("main") + "/pak0.pk3/animtrees/soldier.atr";
  for (const std::string limit : {"", " --max-memory 100000000"}) {
    const Result r = Run("cod lint " + P("mod") + " --game-dir " + P("main") + limit);
    EXPECT_EQ(r.code, 1) << limit << r.out << r.err;
    const std::string all = r.out + r.err;
    EXPECT_NE(all.find(member), std::string::npos) << all;
    EXPECT_NE(all.find("1073741824 bytes uncompressed"), std::string::npos) << all;
    EXPECT_NE(all.find("--max-memory"), std::string::npos) << all;
  }
  // A text that fits twice is read (here: its data ends short, and that is the error).
  Write("main/pak0.pk3", zip_claiming("animtrees/soldier.atr", 1u << 20));
  const Result r = Run("cod lint " + P("mod") + " --game-dir " + P("main") + " --max-memory 3000000");
  EXPECT_EQ((r.out + r.err).find("held with its parse"), std::string::npos) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find(member + ": cannot read the archive member"), std::string::npos)
      << r.out << r.err;
}

TEST_F(CodCli, LintLevelsAgainstTheGame) {
  fs::create_directories(dir_ / "main");
  write_zip(dir_ / "main/pak0.pk3", {{"animtrees/soldier.atr", "main\n{\n    idle\n    walk\n}\n"},
                                     {"maps/_load.gsc", "main() {}\n"},
                                     {"xanim/idle", xanim_header(10, 1)},
                                     {"xanim/walk", xanim_header(10, 1)}});
  Write("mod/maps/town.gsc",
        "#using_animtree(\"soldier\");\nmain() { self setanim(%idle); maps\\_load::main(); }\n"
        "#using_animtree(\"turret88\");\nf() { x = 10%2; }\n");
  Result r = Run("cod lint " + P("mod") + " --game-dir " + P("main"));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("3:1: warning: cannot find 'animtrees/turret88.atr': the game leaves the "
                       "tree empty"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 levels, 2 trees, 1 references, 0 errors, 1 warnings"),
            std::string::npos)
      << r.out;
  r = Run("cod lint " + P("mod") + " --game-dir " + P("main") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["summary"]["levels"], 1);
  EXPECT_EQ(j["summary"]["errors"], 0);
  EXPECT_EQ(j["summary"]["warnings"], 1);
  EXPECT_EQ(j["levels"][0]["level"], "town");
  EXPECT_EQ(j["levels"][0]["trees"][0]["file"], P("main") + "/pak0.pk3/animtrees/soldier.atr");
  // A reference the tree lacks is an error; --level picks one level.
  Write("mod/maps/town.gsc",
        "#using_animtree(\"soldier\");\nmain() { x = %run; maps\\_load::main(); }\n");
  r = Run("cod lint " + P("mod") + " --game-dir " + P("main") + " --level town --json");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(Json::parse(r.out)["levels"][0]["reference_values"][0]["value"], nullptr);
  EXPECT_EQ(Run("cod lint " + P("mod") + " --level nowhere").code, 1);
}

// Issue 26 Deliver 2 on the command line: a mod overriding only a helper is linted in every
// level of the game folder that reaches the helper, with the mod's copy; the helper is no level;
// --level names a level of the game folder.
TEST_F(CodCli, LintHelperOverrideInEveryLevelThatReachesIt) {
  Write("game/maps/_load.gsc", "main() {}\n");
  Write("game/maps/stalingrad.gsc",
        "main()\n{\n    maps\\_load::main();\n    maps\\stalingrad_anim::main();\n}\n");
  Write("game/maps/stalingrad2.gsc",
        "#include maps\\stalingrad_anim;\nmain() { maps\\_load::main(); }\n");
  Write("game/maps/dawnville.gsc", "main() { maps\\_load::main(); }\n");
  Write("game/maps/stalingrad_anim.gsc", "#using_animtree(\"human\");\nmain() { x = %run; }\n");
  Write("game/animtrees/human.atr", "run\nwalk\n");
  Write("mod/maps/stalingrad_anim.gsc", "#using_animtree(\"human\");\nmain() { x = %sprint; }\n");
  const std::string game = " --game-dir " + P("game");
  Result r = Run("cod lint " + P("mod") + game + " --json");
  EXPECT_EQ(r.code, 1) << r.err;
  const Json j = Json::parse(r.out);
  std::vector<std::string> levels;
  for (const Json& l : j["levels"]) {
    levels.push_back(l["level"]);
    ASSERT_EQ(l["diagnostics"].size(), 1u) << l.dump();
    EXPECT_EQ(l["diagnostics"][0]["file"], P("mod") + "/maps/stalingrad_anim.gsc");
    EXPECT_EQ(l["diagnostics"][0]["line"], 2);
    EXPECT_EQ(l["references"], 1);
  }
  EXPECT_EQ(levels, (std::vector<std::string>{"stalingrad", "stalingrad2"}));
  EXPECT_EQ(j["summary"]["levels"], 2);
  // One level by name, from the game folder; the helper is not one.
  r = Run("cod lint " + P("mod") + game + " --level stalingrad --json");
  EXPECT_EQ(r.code, 1) << r.err;
  const Json one = Json::parse(r.out);
  ASSERT_EQ(one["levels"].size(), 1u);
  EXPECT_EQ(one["levels"][0]["level"], "stalingrad");
  // The count of the whole lint is the number of references --level lists.
  EXPECT_EQ(one["levels"][0]["reference_values"].size(), 1u);
  EXPECT_EQ(one["levels"][0]["reference_values"][0]["value"], nullptr);
  r = Run("cod lint " + P("mod") + game + " --level stalingrad_anim");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no level 'stalingrad_anim'"), std::string::npos) << r.err;
  EXPECT_EQ(Run("cod lint " + P("mod") + game + " --level dawnville").code, 0);
}

// Issue 26: every failure of `cod tree` and `cod refs` is one `error:` line on stderr naming
// the file.
TEST_F(CodCli, TreeAndRefsFailuresAreOneErrorLineNamingTheFile) {
  Write("bad.atr", "a\n{\n");
  Write("r.gsc", "#using_animtree(\"bad\");\nf() { x = %zz; }\n");
  Write("open.gsc", "x /*");
  Write("dir/x.gsc", "f() {}\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"cod tree " + P("nope.atr"), P("nope.atr")},
      {"cod tree " + P("dir"), P("dir")},
      {"cod tree " + P("bad.atr"), P("bad.atr") + ":3:1:"},
      {"cod tree " + P("bad.atr") + " --json", P("bad.atr") + ":3:1:"},
      {"cod refs " + P("nope.gsc"), P("nope.gsc")},
      {"cod refs " + P("dir"), P("dir")},
      {"cod refs " + P("open.gsc"), P("open.gsc") + ":1:3:"},
      {"cod refs " + P("r.gsc") + " --tree " + P("bad.atr"), P("bad.atr") + ":3:1:"},
      {"cod refs " + P("r.gsc") + " --tree " + P("bad.atr") + " --json", P("bad.atr") + ":3:1:"},
      // A --tree that does not exist fails even when no script selects it.
      {"cod refs " + P("r.gsc") + " --tree " + P("nope.atr"), P("nope.atr")},
      {"cod refs " + P("r.gsc") + " --tree " + P("dir"), P("dir")},
  };
  for (const auto& [args, file] : cases) {
    SCOPED_TRACE(args);
    const Result r = Run(args);
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  }
}

// Issue 26 Deliver 4: `cod lint` over a script of many references holds no per-reference record
// it does not print (the whole lint's references are counted; only --level --json lists them),
// the loader gets each name once, and the references of a script share its file name. 250,000
// references under a long path: 45 MB peak (was 159 MB).
TEST_F(CodCli, LintOfManyReferencesInBoundedMemory) {
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "peak RSS under ASan counts its shadow memory";
#else
  constexpr int kRefs = 250000;
  std::string text = "#using_animtree(\"big\");\nmain()\n{\n    maps\\_load::main();\n";
  text.reserve(text.size() + 12 * kRefs + 4);
  for (int i = 0; i < kRefs; ++i) text += i % 1000 == 7 ? "    x = %b;\n" : "    x = %a;\n";
  text += "}\n";
  Write("mod/maps/big.gsc", text);
  Write("mod/animtrees/big.atr", "a\nb\n");
  const auto [kb, code] = peak_rss_kb("cod lint " + P("mod") + " --json");
  EXPECT_EQ(code, 0);
  // About 9 MB for the program and 140 bytes a reference (the scanned reference, its vector
  // grown by doubling): the 1 M references of issue 26 take 154 MB (README).
  EXPECT_LT(kb, 80 * 1024) << "peak RSS " << kb << " KB";
  const Result r = Run("cod lint " + P("mod") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["summary"]["references"], kRefs);
#endif
}

TEST_F(CodCli, Refs) {
  Write("a.gsc", "#using_animtree(\"t\");\nf() { x = %b; }\n");
  Write("t.atr", "a\nb\n");
  const Result r = Run("cod refs " + P("a.gsc") + " --tree " + P("t.atr"));
  ASSERT_EQ(r.code, 0) << r.err;
  // Newest first: b = 1, a = 2.
  EXPECT_NE(r.out.find(":2:11: %b tree 't' (#1) node 1 = 0x00010001"), std::string::npos) << r.out;
}

TEST_F(CodCli, XAnimFormatAndSample) {
  Write("j_anim", worked_example());
  Result r = Run("info " + P("j_anim") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["format"], "cod-xanim");
  r = Run("validate " + P("j_anim"));
  EXPECT_EQ(r.code, 0) << r.out;
  r = Run("dump " + P("j_anim") + " --json");
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(Json::parse(r.out)["notetracks"][0]["name"], "fire");
  r = Run("export " + P("j_anim") + " -o " + P("j.glb"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_GT(fs::file_size(dir_ / "j.glb"), 100u);
  r = Run("cod sample " + P("j_anim") + " --time 0.6 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json s = Json::parse(r.out);
  EXPECT_EQ(s["frame"], 2);
  EXPECT_NEAR(s["parts"][0]["lanes"][2].get<double>(), 0.42427, 5e-6);
  EXPECT_NEAR(s["parts"][0]["lanes"][3].get<double>(), 0.82427, 5e-6);
  EXPECT_EQ(Run("cod sample " + P("j_anim") + " --time 2").code, 2);  // outside [0, 1]
  std::string cut = worked_example();
  cut.resize(20);
  Write("cut_anim", cut);
  r = Run("cod sample " + P("cut_anim") + " --time 0.5");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("offset 0x11: malformed xanim 'cut_anim': truncated"), std::string::npos)
      << r.err;
}

// `animkit export` then `animkit import --as cod-xanim` (issue 17, item 3): the original bytes.
TEST_F(CodCli, ExportThenImportGivesTheXAnimBack) {
  const std::vector<uint8_t> walk = testing::several_parts();
  Write("walk", std::string(walk.begin(), walk.end()));
  Result r = Run("export " + P("walk") + " -o " + P("walk.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = Run("import " + P("walk.glb") + " --as cod-xanim -o " + P("back"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Slurp(dir_ / "back"), std::string(walk.begin(), walk.end()));
  r = Run("import " + P("walk.glb") + " --as cod-xanim --template " + P("walk") + " -o " +
          P("back2"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(Slurp(dir_ / "back2"), std::string(walk.begin(), walk.end()));

  // --dry-run --json: nothing written, the per-joint maximum error reported.
  r = Run("import " + P("walk.glb") + " --as cod-xanim --dry-run --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["bytes"], walk.size());
  EXPECT_TRUE(j["output"].is_null());
  EXPECT_EQ(j["report"]["max_error"].size(), 6u);  // root (delta) + 5 parts
  EXPECT_LE(j["report"]["max_error"]["j_hold"].get<double>(), 1e-4);

  // Joints that are not the template's parts: exit 1, both lists named.
  const std::vector<uint8_t> other = testing::long_clip();
  Write("other", std::string(other.begin(), other.end()));
  ASSERT_EQ(Run("export " + P("other") + " -o " + P("other.glb")).code, 0);
  r = Run("import " + P("other.glb") + " --as cod-xanim --template " + P("walk") + " -o " + P("x"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("missing 5 part(s) of the template: j_spine, j_yaw, j_arm, j_still, j_hold; "
                       "1 joint(s) the template does not have: tag_origin"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x"));
  // --frame-rate that is not whole: exit 1.
  EXPECT_EQ(Run("import " + P("walk.glb") + " --as cod-xanim --frame-rate 29.97 -o " + P("x")).code,
            1);
}

// Issue 32 item 4: a rest pose edited in the glTF (a node's translation and rotation) is named
// in a note when imported with the template (the template fit names the joints whose rest
// differs); the unchanged file has no such note.
TEST_F(CodCli, ImportNamesAJointWhoseRestPoseChanged) {
  const std::vector<uint8_t> walk = testing::several_parts();
  Write("walk", std::string(walk.begin(), walk.end()));
  ASSERT_EQ(Run("export " + P("walk") + " -o " + P("walk.gltf")).code, 0);
  Json g = parse_json(Slurp(dir_ / "walk.gltf"), "walk.gltf");
  Result r = Run("import " + P("walk.gltf") + " --as cod-xanim --template " + P("walk") +
                 " --dry-run --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const Json plain = parse_json(r.out, "out");
  for (const Json& n : plain["notes"]) EXPECT_EQ(n.get<std::string>().find("rest"), std::string::npos) << n;
  int edited = 0;
  for (Json& node : g["nodes"]) {
    if (node.value("name", "") == "j_still") {
      node["translation"] = Json::array({0, 0, 1});
      ++edited;
    }
  }
  ASSERT_EQ(edited, 1);
  // The rest a tool writes moves the bind pose too: here the skin gives none (inverse bind
  // matrices are optional), so the nodes' transforms are the rest. (An edit of the node alone,
  // the inverse bind matrices kept, is a pose the reader takes the bind pose's rest over.)
  ASSERT_TRUE(g["skins"][0].contains("inverseBindMatrices"));
  g["skins"][0].erase("inverseBindMatrices");
  Write("moved.gltf", g.dump());
  r = Run("import " + P("moved.gltf") + " --as cod-xanim --template " + P("walk") +
          " --dry-run --json");
  ASSERT_EQ(r.code, 0) << r.err;
  bool named = false;
  const Json moved = parse_json(r.out, "out");
  for (const Json& n : moved["notes"]) {
    const std::string text = n.get<std::string>();
    if (text.find("rest differs") != std::string::npos) {
      named = true;
      EXPECT_NE(text.find("at 1 joint(s): 'j_still' (moved by 1, turned by 0 rad)"), std::string::npos)
          << text;
    }
  }
  EXPECT_TRUE(named) << r.out;
}

// `animkit play` with "engine": "call_of_duty" and `cod pose` (issue 26): the §2.6 example
// played from a tree beside the scenario and an xanim from a game folder's pk3.
TEST_F(CodCli, PlayAndPose) {
  Write("human.atr", "clip\n");
  fs::create_directories(dir_ / "main");
  write_zip(dir_ / "main/pak0.pk3", {{"xanim/clip", worked_example()}});
  Write("s.json", R"({"engine": "call_of_duty", "tree": "human.atr", "game_dirs": ["main"],
    "dt": 0.1, "updates": 3,
    "calls": [{"update": 0, "node": "clip", "weight": 1, "blend_time": 0, "rate": 0.8}]})");
  Result r = Run("play " + P("s.json") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<Json> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(Json::parse(line));
  ASSERT_EQ(lines.size(), 3u);
  // §2.6: t = 0.6, lanes (0.42427, 0.82427), translation (1, 2, 3); `fire` at 0.5.
  EXPECT_EQ(lines[0]["nodes"][0]["name"], "clip");
  EXPECT_EQ(lines[0]["nodes"][0]["time"].get<double>(), json_float(0.6f));
  EXPECT_NEAR(lines[0]["parts"][0]["rotation"][2].get<double>(), 0.42427, 5e-6);
  EXPECT_NEAR(lines[0]["parts"][0]["rotation"][3].get<double>(), 0.82427, 5e-6);
  EXPECT_EQ(lines[0]["parts"][0]["translation"], (Json{1, 2, 3}));
  EXPECT_EQ(lines[0]["notes"][0]["note"], "fire");
  EXPECT_EQ(lines[1]["notes"][0]["note"], "end");
  EXPECT_EQ(lines[1]["nodes"][0]["time"], 1);
  // Text form.
  r = Run("play " + P("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("note fire of clip at 0.5 (server)"), std::string::npos) << r.out;
  // cod pose: a glTF binary of the update's pose.
  r = Run("cod pose " + P("s.json") + " --update 0 -o " + P("pose.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(test::slurp(dir_ / "pose.glb").substr(0, 4), "glTF");
  r = Run("cod pose " + P("s.json") + " --update 3 -o " + P("late.glb"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("the scenario ends before update 3"), std::string::npos) << r.err;
  EXPECT_EQ(Run("cod pose " + P("s.json") + " -o " + P("x.glb")).code, 2);  // no --update
  // Bad scenarios: exit 1 naming the scenario and what is wrong.
  Write("bad.json", R"({"engine": "call_of_duty", "tree": "human.atr", "game_dirs": ["main"],
    "updates": 2, "calls": [{"update": 0, "node": "run", "weight": 1}]})");
  r = Run("play " + P("bad.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("animation 'run' not defined in anim tree 'human'"), std::string::npos)
      << r.err;
  Write("rate.json", R"({"engine": "call_of_duty", "tree": "human.atr", "game_dirs": ["main"],
    "updates": 2, "calls": [{"update": 0, "node": "clip", "rate": -1}]})");
  r = Run("play " + P("rate.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(P("rate.json")), std::string::npos) << r.err;
  Write("nofile.json", R"({"engine": "call_of_duty", "tree": "other.atr", "updates": 1})");
  EXPECT_EQ(Run("play " + P("nofile.json")).code, 1);
}

}  // namespace
}  // namespace animkit::call_of_duty

namespace animkit::call_of_duty {
namespace {

// Issue 31, item 2: names with bytes that are not UTF-8 (no NUL: xanim names and file names are C
// strings) go out of every JSON writer as valid JSON, the escaped text with the exact bytes beside
// (`<key>_hex`), and come back exactly through the JSON readers.
const std::string kHostile = "j\x01\x7f\xe9\xff\xe2\x82";

TEST_F(CodCli, AnyByteOutAndBack) {
  XAnimFile f;
  f.header.num_frames = 2;
  f.header.frame_rate = 30;
  f.parts.push_back(testing::part(kHostile, false, testing::rot(true, {}, {}), testing::trans({}, {})));
  f.notes = {testing::note("n" + kHostile, 1)};
  const std::vector<uint8_t> b = testing::xanim_bytes(f);
  Write("h_anim", std::string(b.begin(), b.end()));
  const std::string expected = printable(kHostile);
  EXPECT_EQ(expected, R"(j\x01\x7f\xe9\xff\xe2\x82)");

  Result r = Run("dump --json " + P("h_anim"));
  ASSERT_EQ(r.code, 0) << r.err;
  Json j = parse_json(r.out, "dump");  // parses: valid UTF-8 throughout
  EXPECT_EQ(j["parts"][0]["name"], expected);
  EXPECT_EQ(j["parts"][0]["name_hex"], "6a017fe9ffe282");
  EXPECT_EQ(text_from_json(j["parts"][0], "name", "part"), kHostile);
  EXPECT_EQ(text_from_json(j["notetracks"][0], "name", "note"), "n" + kHostile);

  r = Run("cod sample --json " + P("h_anim"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(text_from_json(parse_json(r.out, "sample")["parts"][0], "name", "part"), kHostile);

  // The play trace: the part and the note, each line valid JSON with the bytes beside.
  Write("t_play.atr", "h_anim\n");
  fs::create_directories(dir_ / "main");
  write_zip(dir_ / "main/pak0.pk3", {{"xanim/h_anim", std::string(b.begin(), b.end())}});
  Write("s.json", R"({"engine": "call_of_duty", "tree": "t_play.atr", "game_dirs": ["main"],
    "dt": 0.05, "updates": 2, "calls": [{"update": 0, "node": "h_anim", "weight": 1, "blend_time": 0}]})");
  r = Run("play " + P("s.json") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  bool part = false, note = false;
  for (std::string line; std::getline(lines, line);) {
    const Json u = parse_json(line, "trace");
    for (const Json& p : u["parts"]) part = part || text_from_json(p, "part", "part") == kHostile;
    for (const Json& n : u["notes"]) note = note || text_from_json(n, "note", "note") == "n" + kHostile;
  }
  EXPECT_TRUE(part) << r.out;
  EXPECT_TRUE(note) << r.out;

  // glTF: the node name escaped, its bytes in the node's extras; import takes them back.
  r = Run("export " + P("h_anim") + " -o " + P("h.gltf"));
  ASSERT_EQ(r.code, 0) << r.err;
  j = parse_json(Slurp(dir_ / "h.gltf"), "h.gltf");
  EXPECT_EQ(j["nodes"][1]["name"], expected);
  EXPECT_EQ(j["nodes"][1]["extras"]["name_hex"], "6a017fe9ffe282");
  r = Run("import " + P("h.gltf") + " --as neutral-json -o " + P("h.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const Animated a = animated_from_json(parse_json(Slurp(dir_ / "h.json"), "h.json"));
  EXPECT_EQ(a.skeleton.names[1], kHostile);
  ASSERT_EQ(a.clips.size(), 1u);
  ASSERT_FALSE(a.clips[0].events.empty());  // the notetrack (and the end the clip gets)
  EXPECT_EQ(a.clips[0].events[0].name, "n" + kHostile);

  // A script file named l\xff.gsc: refs and lint write its name escaped, with its bytes.
  const std::string script = "l\xff.gsc";
  Write("mod/maps/" + script, "#using_animtree(\"t\");\nf() { x = %b; }\n");
  Write("t.atr", "a\nb\n");
  r = Run("cod refs --json '" + P("mod/maps/" + script) + "' --tree " + P("t.atr"));
  ASSERT_EQ(r.code, 0) << r.err;
  j = parse_json(r.out, "refs");
  EXPECT_EQ(text_from_json(j["references"][0], "file", "file"), P("mod/maps/" + script));
}

}  // namespace
}  // namespace animkit::call_of_duty
