// Linting level by level (issue 12, item 4): what a level loads and in which order, its own
// registry and checksum chain, the player animation script, the scripts no level loads.
#include <gtest/gtest.h>

#include "animkit/call_of_duty/gsc_scanner.h"
#include "animkit/call_of_duty/level_lint.h"
#include "animkit/call_of_duty/level_script.h"
#include "animkit/core/error.h"
#include "zip_writer.h"

namespace animkit::call_of_duty {
namespace {

using testing::TempDir;
using V = std::vector<std::string>;

TEST(CodScannerDependencies, IncludesAndCallsIntoOtherFiles) {
  const ScriptScan s = scan_script(
      "#include maps\\_utility;\n"
      "#include maps\\mp\\_load;\n"
      "main() { animscripts\\shared::f(); thread ::local(); x = a/b; y = maps\\_utility::g; }\n"
      "h() { animscripts\\Shared::f(); level.fn = character\\x::main; }\n",
      "a.gsc");
  V got;
  for (const ScriptDependency& d : s.dependencies) {
    got.push_back(d.script + "@" + std::to_string(d.line) + ":" + std::to_string(d.column));
  }
  EXPECT_EQ(got, (V{"maps/_utility.gsc@1:10", "maps/mp/_load.gsc@2:10",
                    "animscripts/shared.gsc@3:10", "character/x.gsc@4:43"}));
  EXPECT_TRUE(s.diagnostics.empty());
}

TEST(CodPlayerAnim, NamesAfterBodyPartCommands) {
  const std::string text =
      "// both commented_out\n"
      "STATE COMBAT\n{\n  idle\n  {\n    weaponclass rifle\n    {\n"
      "      both pb_stand_idle duration 100\n"
      "      legs PL_Walk torso pt_aim sound step\n"
      "    }\n  }\n}\n";
  V got;
  for (const ScriptReference& r : player_anim_references(text, "p.script")) {
    got.push_back(r.name + "@" + std::to_string(r.line) + ":" + std::to_string(r.column) + " " +
                  r.tree);
  }
  EXPECT_EQ(got, (V{"pb_stand_idle@8:12 multiplayer", "pl_walk@9:12 multiplayer",
                    "pt_aim@9:26 multiplayer"}));
}

struct Mod {
  TempDir t;
  std::filesystem::path mod;
  Mod() {
    mod = t.mkdir("mod");
    // level1 includes _a (which selects t0) before its own directive for t1.
    t.write("mod/maps/level1.gsc",
            "#include maps\\_a;\n#using_animtree(\"t1\");\n"
            "main() { self setanim(%one); animscripts\\init::main(); maps\\_load::main(); }\n");
    t.write("mod/maps/_load.gsc", "main() {}\n");
    t.write("mod/maps/_a.gsc", "#using_animtree(\"t0\");\na() { x = %zero; }\n");
    t.write("mod/animscripts/init.gsc",
            "#using_animtree(\"t1\");\nmain() { y = %one; z = %bad; }\n");
    t.write("mod/maps/level2.gsc",
            "#using_animtree(\"t1\");\nmain() { maps\\_load::main(); animscripts\\init::main(); }\n");
    t.write("mod/animtrees/t0.atr", "zero\n");
    t.write("mod/animtrees/t1.atr", "g\n{\n    one\n    two\n}\n");
    t.write("mod/maps/mp/_util.gsc", "u() { q = %early; }\n");  // in no level
  }
  LintReport lint(std::optional<std::string> level = {}, bool with_game = false) {
    LevelLintOptions o;
    o.mod_dir = mod;
    if (with_game) o.game_dirs = {t.mkdir("game")};
    o.level = level;
    return lint_levels(o);
  }
};

const LevelLint* find(const LintReport& r, const std::string& name) {
  for (const LevelLint& l : r.levels) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

TEST(CodLevels, EachLevelHasItsOwnRegistryInLoadOrder) {
  Mod m;
  const LintReport r = m.lint();
  EXPECT_EQ(r.level_count(), 2u);
  const LevelLint* one = find(r, "level1");
  ASSERT_NE(one, nullptr);
  V scripts;
  for (const auto& s : one->link.scripts) {
    scripts.push_back(std::filesystem::path(s->file).lexically_relative(m.mod).generic_string());
  }
  EXPECT_EQ(scripts,
            (V{"maps/level1.gsc", "maps/_a.gsc", "animscripts/init.gsc", "maps/_load.gsc"}));
  // The include is met first: t0 is tree 1, t1 tree 2.
  ASSERT_EQ(one->link.trees.size(), 2u);
  EXPECT_EQ(one->link.trees[0].name, "t0");
  EXPECT_EQ(one->link.trees[1].name, "t1");
  // The checksum chain: t1's fold starts from t0's.
  LoadOptions lo;
  lo.tree_name = "t1";
  lo.references = {{"one", "", 0, 0, 0}, {"bad", "", 0, 0, 0}};
  lo.checksum_seed = one->link.trees[0].load->anim->checksum;
  lo.keep_going = true;
  const uint32_t chained = load_anim_tree("g\n{\n    one\n    two\n}\n", lo).anim->checksum;
  EXPECT_EQ(one->link.trees[1].load->anim->checksum, chained);
  lo.checksum_seed = 0;
  EXPECT_NE(load_anim_tree("g\n{\n    one\n    two\n}\n", lo).anim->checksum, chained);
  const LevelLint* two = find(r, "level2");
  ASSERT_NE(two, nullptr);
  ASSERT_EQ(two->link.trees.size(), 1u);
  EXPECT_EQ(two->link.trees[0].name, "t1");
  EXPECT_EQ(two->link.trees[0].index, 1);
  // %one packs with each level's index of t1: 2 in level1, 1 in level2.
  for (const ResolvedReference& rr : one->link.references) {
    if (rr.ref->name == "one") {
      EXPECT_EQ(rr.value.value() >> 16, 2u);
    }
  }
  for (const ResolvedReference& rr : two->link.references) {
    if (rr.ref->name == "one") {
      EXPECT_EQ(rr.value.value() >> 16, 1u);
    }
  }
  // The script no level loads is linted on its own.
  const LevelLint* rest = find(r, "(no level)");
  ASSERT_NE(rest, nullptr);
  ASSERT_EQ(rest->link.scripts.size(), 1u);
  EXPECT_EQ(rest->link.diagnostics.size(), 1u);
  // init.gsc's `bad` is in both levels, reported once overall.
  size_t bad = 0;
  for (const Diagnostic& d : r.unique_diagnostics()) {
    bad += d.message == "animation 'bad' not defined in anim tree 't1'";
  }
  EXPECT_EQ(bad, 1u);
}

TEST(CodLevels, OneLevel) {
  Mod m;
  const LintReport r = m.lint("Level2");
  ASSERT_EQ(r.levels.size(), 1u);
  EXPECT_EQ(r.levels[0].name, "level2");
  try {
    m.lint("nowhere");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "no level 'nowhere' (levels: level1, level2)");
  }
}

TEST(CodLevels, MissingScriptIsAWarningWithTheGame) {
  Mod m;
  m.t.write("mod/maps/level3.gsc", "main() { maps\\_gone::f(); maps\\_load::main(); }\n");
  const LintReport alone = m.lint();
  EXPECT_TRUE(find(alone, "level3")->link.diagnostics.empty());  // may be in the game
  const LintReport r = m.lint(std::nullopt, true);
  const LevelLint* l = find(r, "level3");
  ASSERT_EQ(l->link.diagnostics.size(), 1u);
  EXPECT_FALSE(l->link.diagnostics[0].is_error());
  EXPECT_EQ(l->link.diagnostics[0].to_string(),
            (m.mod / "maps/level3.gsc").string() +
                ":1:10: warning: cannot find script 'maps/_gone.gsc'");
}

TEST(CodLevels, PlayerAnimationScript) {
  Mod m;
  m.t.write("mod/mp/playeranim.script", "STATE COMBAT\n{\n  idle\n  {\n    both pb_idle\n"
                                        "    legs pl_gone\n  }\n}\n");
  m.t.write("mod/animtrees/multiplayer.atr", "pb_idle\npl_walk\n");
  const LintReport r = m.lint("mp/playeranim.script");
  ASSERT_EQ(r.levels.size(), 1u);
  const LevelLint& p = r.levels[0];
  EXPECT_EQ(p.kind, LevelLint::Kind::kPlayer);
  ASSERT_EQ(p.link.trees.size(), 1u);
  EXPECT_EQ(p.link.trees[0].name, "multiplayer");
  ASSERT_EQ(p.link.references.size(), 2u);
  EXPECT_EQ(p.link.references[0].node, 1);  // pb_idle: newest first, so node 2 is pl_walk
  ASSERT_EQ(p.link.diagnostics.size(), 1u);
  EXPECT_EQ(p.link.diagnostics[0].to_string(),
            (m.mod / "mp/playeranim.script").string() +
                ":6:10: animation 'pl_gone' not defined in anim tree 'multiplayer'");
}

// Issue 26, "levels as the game has them": a level is a maps/<name>.gsc whose main calls
// maps\_load::main.
TEST(CodLevels, WhatMakesALevel) {
  EXPECT_TRUE(main_calls_load_main("main()\n{\n  maps\\_load::main();\n}\n"));
  EXPECT_TRUE(main_calls_load_main("#include x;\nMain ( ) { Maps/_Load::MAIN(); }"));
  EXPECT_FALSE(main_calls_load_main("main() { // maps\\_load::main();\n}\n"));
  EXPECT_FALSE(main_calls_load_main("main() { x = \"maps\\_load::main\"; }"));
  EXPECT_FALSE(main_calls_load_main("main() { f(); }\nf() { maps\\_load::main(); }\n"));
  EXPECT_FALSE(main_calls_load_main("main() { maps\\_load::other(); }"));
  EXPECT_FALSE(main_calls_load_main("f() { main(); maps\\_load::main(); }"));
}

// A game folder with a level and its helper; a mod that overrides only the helper.
struct Stalingrad {
  TempDir t;
  std::filesystem::path game, mod;
  Stalingrad() {
    game = t.mkdir("game");
    mod = t.mkdir("mod");
    t.write("game/maps/_load.gsc", "main() {}\n");
    t.write("game/maps/stalingrad.gsc",
            "main()\n{\n    maps\\_load::main();\n    maps\\stalingrad_anim::main();\n}\n");
    t.write("game/maps/stalingrad_anim.gsc",
            "#using_animtree(\"generic_human\");\nmain() { x = %run; }\n");
    t.write("game/maps/dawnville.gsc", "main() { maps\\_load::main(); }\n");
    t.write("game/maps/bsponly.gsc", "main() { }\n");
    t.write("game/maps/bsponly.bsp", "IBSP");
    t.write("game/animtrees/generic_human.atr", "run\nwalk\n");
    t.write("mod/maps/stalingrad_anim.gsc",
            "#using_animtree(\"generic_human\");\nmain() { x = %sprint; }\n");
  }
  LintReport lint(std::optional<std::string> level = {}) {
    LevelLintOptions o;
    o.mod_dir = mod;
    o.game_dirs = {game};
    o.level = level;
    return lint_levels(o);
  }
};

TEST(CodLevels, HelperOverriddenByAModIsLintedInItsLevel) {
  Stalingrad s;
  const LintReport r = s.lint();
  // Only the level that reaches the mod's script; the helper is never a level.
  ASSERT_EQ(r.level_count(), 1u);
  const LevelLint* l = find(r, "stalingrad");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(find(r, "stalingrad_anim"), nullptr);
  ASSERT_EQ(l->link.diagnostics.size(), 1u);
  EXPECT_EQ(l->link.diagnostics[0].to_string(),
            (s.mod / "maps/stalingrad_anim.gsc").string() +
                ":2:14: animation 'sprint' not defined in anim tree 'generic_human'");
  EXPECT_EQ(find(r, "(no level)"), nullptr);  // the helper is loaded by its level
  // --level names any level of the game folders; a .bsp makes a level of a script too.
  EXPECT_EQ(s.lint("stalingrad").levels.size(), 1u);
  EXPECT_EQ(s.lint("bsponly").levels.at(0).name, "bsponly");
  try {
    s.lint("stalingrad_anim");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "no level 'stalingrad_anim' (levels: bsponly, dawnville, stalingrad)");
  }
}

TEST(CodLevels, DeepChainIsReportedNotCut) {
  Stalingrad s;
  s.t.write("mod/maps/stalingrad_anim.gsc", "main() { maps\\c0::f(); }\n");
  for (int i = 0; i < 520; ++i) {
    s.t.write("mod/maps/c" + std::to_string(i) + ".gsc",
              "f() { maps\\c" + std::to_string(i + 1) + "::f(); }\n");
  }
  const LintReport r = s.lint("stalingrad");
  size_t deep = 0;
  for (const Diagnostic& d : r.levels.at(0).link.diagnostics) {
    if (d.message.find("script chain deeper than 512 scripts: maps/stalingrad.gsc -> "
                       "maps/stalingrad_anim.gsc -> maps/c0.gsc -> ... (") == 0) {
      ++deep;
      EXPECT_NE(d.message.find("maps/c510.gsc; the scripts it loads from here are not followed"),
                std::string::npos)
          << d.message;
    }
  }
  EXPECT_EQ(deep, 1u);
}

}  // namespace
}  // namespace animkit::call_of_duty
