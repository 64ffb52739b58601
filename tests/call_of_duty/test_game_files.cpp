// The game's file system over folders and .pk3 archives (cod-xanim-format.md §4), and linting a
// mod against it (issue 12, items 1 and 3).
#include <gtest/gtest.h>

#include "animkit/call_of_duty/game_files.h"
#include "animkit/call_of_duty/linker.h"
#include "animkit/core/error.h"
#include "zip_writer.h"

namespace animkit::call_of_duty {
namespace {

using testing::TempDir;
using testing::write_zip;
using testing::xanim_header;
using V = std::vector<std::string>;

std::string text_of(const GameFiles& files, const std::string& name) {
  const auto f = files.find(name);
  return f ? files.read_text(*f) : std::string("(none)");
}

TEST(CodGamePath, CanonicalNames) {
  // §4.4: ASCII case ignored, `\`, `:` and `/` equal, leading slashes stripped; `..`, `::` refused.
  EXPECT_EQ(canonical_game_path("XAnim\\Stand_Idle"), "xanim/stand_idle");
  EXPECT_EQ(canonical_game_path("//xanim:walk"), "xanim/walk");
  EXPECT_EQ(canonical_game_path("xanim/../x"), std::nullopt);
  EXPECT_EQ(canonical_game_path("xanim::x"), std::nullopt);
}

TEST(CodGamePath, Pk3SortOrder) {
  // §4.2: a-z fold to upper case, so `_` (0x5F) sorts after letters and digits before them.
  EXPECT_TRUE(pk3_name_less("aa.pk3", "a_b.pk3"));
  EXPECT_TRUE(pk3_name_less("1.pk3", "a.pk3"));
  EXPECT_TRUE(pk3_name_less("a.pk3", "B.pk3"));
  EXPECT_TRUE(pk3_name_less("Zpak000.pk3", "zpak001.pk3"));
  // `localized_` is 10 spaces: first; bytes compare signed, so 0xE9 sorts before everything.
  EXPECT_TRUE(pk3_name_less("localized_english_pak0.pk3", "0.pk3"));
  EXPECT_TRUE(pk3_name_less("\xE9.pk3", "localized_x.pk3"));
  EXPECT_TRUE(pk3_name_less("a\\b.pk3", "a0.pk3"));  // `\` as `/` (0x2F) < `0` (0x30)
  EXPECT_FALSE(pk3_name_less("a.pk3", "A.PK3"));
  EXPECT_FALSE(pk3_name_less("A.PK3", "a.pk3"));
}

TEST(CodGameFiles, SearchOrder) {
  TempDir t;
  const auto main = t.mkdir("main"), uo = t.mkdir("uo"), mod = t.mkdir("mod");
  write_zip(main / "pak0.pk3", {{"xanim/walk", "main pak0"}, {"xanim/run", "main pak0"},
                                {"xanim/idle", "main pak0"}});
  // The alphabetically last pk3 is searched first.
  write_zip(main / "pak1.pk3", {{"XAnim/Walk", "main pak1"}, {"xanim/run", "main pak1"}});
  write_zip(main / "localized_english_pak0.pk3", {{"xanim/crouch", "localized"},
                                                  {"xanim/prone", "localized"}});
  t.write("main/xanim/run", "main loose");
  t.write("main/xanim/crouch", "main loose");
  t.write("uo/xanim/idle", "uo loose");
  write_zip(uo / "pakuo.pk3", {{"xanim\\idle", "uo pk3"}, {"xanim/walk", "uo pk3"}});
  t.write("mod/xanim/walk", "mod loose");
  GameFiles files;
  files.add_folder(main);
  files.add_folder(uo);
  EXPECT_TRUE(files.diagnostics().empty());
  EXPECT_EQ(text_of(files, "xanim/walk"), "uo pk3");    // uo over main
  EXPECT_EQ(text_of(files, "xanim/idle"), "uo pk3");    // a folder's pk3 over its loose files
  EXPECT_EQ(text_of(files, "xanim/run"), "main pak1");  // the last pk3 over the first
  EXPECT_EQ(text_of(files, "xanim/crouch"), "main loose");  // localized pk3s last of all
  EXPECT_EQ(text_of(files, "xanim/prone"), "localized");
  EXPECT_EQ(text_of(files, "XANIM\\RUN"), "main pak1");
  EXPECT_EQ(text_of(files, "xanim/none"), "(none)");
  files.add_folder(mod);
  EXPECT_EQ(text_of(files, "xanim/walk"), "mod loose");  // fs_game over everything
  EXPECT_EQ(files.search_order(),
            (V{mod.string(), (uo / "pakuo.pk3").string(), uo.string(), (main / "pak1.pk3").string(),
               (main / "pak0.pk3").string(), main.string(),
               (main / "localized_english_pak0.pk3").string()}));
  const auto f = files.find_xanim("Walk");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->display, (mod / "xanim/walk").string());
  const auto in_pk3 = files.find_xanim("run");
  ASSERT_TRUE(in_pk3.has_value());
  EXPECT_EQ(in_pk3->display, (main / "pak1.pk3" / "xanim/run").string());
  EXPECT_EQ(files.read(*in_pk3, 4), (std::vector<uint8_t>{'m', 'a', 'i', 'n'}));
  V names;
  for (const GameFile& g : files.list("XANIM/", "")) names.push_back(g.name);
  EXPECT_EQ(names, (V{"xanim/crouch", "xanim/idle", "xanim/prone", "xanim/run", "xanim/walk"}));
}

TEST(CodGameFiles, LaterDuplicateInOneArchiveWins) {
  // §4.2: names are lower-cased at load; with duplicates the later central-directory entry wins.
  TempDir t;
  write_zip(t.dir / "a.pk3", {{"xanim/Walk", "first"}, {"xanim/walk", "second"}}, true);
  GameFiles files;
  files.add_folder(t.dir);
  EXPECT_EQ(text_of(files, "xanim/walk"), "second");
}

TEST(CodGameFiles, DamagedArchiveIsAWarning) {
  TempDir t;
  t.write("bad.pk3", "this is not a zip archive at all");
  GameFiles files;
  files.add_folder(t.dir);
  ASSERT_EQ(files.diagnostics().size(), 1u);
  EXPECT_FALSE(files.diagnostics()[0].is_error());
  EXPECT_NE(files.diagnostics()[0].message.find("cannot read the archive"), std::string::npos);
  EXPECT_THROW(files.add_folder(t.dir / "nowhere"), Error);
}

// A game folder whose pk3 holds the stock tree and xanims; a mod with one xanim of its own.
struct Game {
  TempDir t;
  std::filesystem::path main, mod;
  Game() {
    main = t.mkdir("main");
    mod = t.mkdir("mod");
    write_zip(main / "pak0.pk3",
              {{"animtrees/soldier.atr",
                "main\n{\n    idle\n    walk_run : complete loopsync\n    {\n        walk\n        run\n"
                "    }\n}\n"},
               {"xanim/idle", xanim_header(10, 0)},
               {"xanim/walk", xanim_header(10, 1)},
               {"xanim/run", xanim_header(10, 1)}});
    t.write("mod/maps/m.gsc",
            "#using_animtree(\"soldier\");\nf() { self setanim(%walk_run); self setanim(%idle); "
            "self setanim(%mine); }\n");
    t.write("mod/animtrees/soldier.atr",
            "main\n{\n    idle\n    mine\n    walk_run : complete loopsync\n    {\n        walk\n"
            "        run\n    }\n}\n");
    t.write("mod/xanim/mine", xanim_header(5, 0));
  }
  LinkResult lint(bool with_game, const std::optional<std::filesystem::path>& manifest = {}) {
    LintOptions o;
    o.mod_dir = mod;
    if (with_game) o.game_dirs = {main};
    o.manifest = manifest;
    return lint_mod(o);
  }
};

V messages(const LinkResult& r) {
  V out;
  for (const Diagnostic& d : r.diagnostics) out.push_back(d.to_string());
  return out;
}

TEST(CodLintGame, ModAssetsAndGameArchivesTogether) {
  Game g;
  const LinkResult r = g.lint(true);
  EXPECT_TRUE(r.diagnostics.empty()) << messages(r)[0];
  ASSERT_EQ(r.trees.size(), 1u);
  EXPECT_EQ(r.trees[0].file, (g.mod / "animtrees/soldier.atr").string());  // the mod's tree wins
  // Without the game folder, what the mod lacks is taken to be in the game.
  EXPECT_TRUE(g.lint(false).diagnostics.empty());
}

TEST(CodLintGame, CannotFindOnlyWhenInNeither) {
  Game g;
  std::filesystem::remove(g.mod / "xanim/mine");
  const LinkResult r = g.lint(true);
  EXPECT_EQ(messages(r), (V{(g.mod / "animtrees/soldier.atr").string() +
                            ":4:5: Cannot find 'xanim/mine'"}));
}

TEST(CodLintGame, TreeFromTheGameArchive) {
  Game g;
  std::filesystem::remove(g.mod / "animtrees/soldier.atr");
  const LinkResult r = g.lint(true);
  ASSERT_EQ(r.trees.size(), 1u);
  EXPECT_EQ(r.trees[0].file, (g.main / "pak0.pk3" / "animtrees/soldier.atr").string());
  EXPECT_EQ(messages(r), (V{(g.mod / "maps/m.gsc").string() +
                            ":2:66: animation 'mine' not defined in anim tree 'soldier'"}));
}

TEST(CodLintGame, SyncRulesUseTheLoopedFlagOfTheXanim) {
  // cod-animtrees.txt, "Sync groups": every leaf under a loopsync parent must loop. The flag is
  // bit 0 of the header's flags byte (cod-xanim-format.md §1.1).
  Game g;
  write_zip(g.mod / "zz_mod.pk3", {{"xanim/run", xanim_header(10, 0)}});
  const LinkResult r = g.lint(true);
  EXPECT_EQ(messages(r), (V{(g.mod / "animtrees/soldier.atr").string() +
                            ":8:9: animation 'run' in 'soldier' cannot be sync looping and "
                            "nonlooping"}));
  // The hand-written manifest stays an override.
  const auto m = g.t.write("manifest.json", R"({"run": {"looping": true}})");
  EXPECT_TRUE(g.lint(true, m).diagnostics.empty());
}

}  // namespace
}  // namespace animkit::call_of_duty
