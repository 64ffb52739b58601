// The .gsc scanner and the linker of scripts and trees (cod-animtrees.txt, "File location and
// selection", "Script integration"; cod-animtrees-loader.md, "Script references").
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "animkit/call_of_duty/gsc_scanner.h"
#include "animkit/call_of_duty/linker.h"

namespace animkit::call_of_duty {
namespace {

using V = std::vector<std::string>;

V messages(const std::vector<Diagnostic>& ds) {
  V out;
  for (const Diagnostic& d : ds) out.push_back(d.to_string());
  return out;
}

TEST(CodScanner, ReferencesWithPlacesAndTrees) {
  const std::string text =
      "#using_animtree(\"generic_human\");\n"
      "main()\n"
      "{\n"
      "\tself setAnimKnob(%Stand_Idle, 1, 0.2);\n"
      "\tself UseAnimTree(#animtree);\n"
      "}\n"
      "#using_animtree( \"MG42\" );\n"
      "fire() { self setanim(%fire); x = a % b; }\n";
  const ScriptScan s = scan_script(text, "a.gsc");
  EXPECT_TRUE(s.diagnostics.empty());
  ASSERT_EQ(s.directives.size(), 2u);
  EXPECT_EQ(s.directives[1].tree, "mg42");
  ASSERT_EQ(s.references.size(), 3u);
  EXPECT_EQ(s.references[0].name, "stand_idle");
  EXPECT_EQ(s.references[0].tree, "generic_human");
  EXPECT_EQ(s.references[0].line, 4);
  EXPECT_EQ(s.references[0].column, 19);
  EXPECT_EQ(s.references[1].kind, ScriptReference::Kind::kAnimTree);
  EXPECT_EQ(s.references[1].line, 5);
  EXPECT_EQ(s.references[1].column, 19);
  EXPECT_EQ(s.references[2].name, "fire");
  EXPECT_EQ(s.references[2].tree, "mg42");  // the later directive selects another tree
}

TEST(CodScanner, CommentsAndStringsAreSkipped) {
  const std::string text =
      "// %not_this\n"
      "/* %nor_this\n #using_animtree(\"x\") */\n"
      "s = \"%in_a_string \\\" %still\";\n"
      "#using_animtree(\"t\");\n"
      "a = %real;\n";
  const ScriptScan s = scan_script(text, "b.gsc");
  EXPECT_TRUE(s.diagnostics.empty());
  ASSERT_EQ(s.references.size(), 1u);
  EXPECT_EQ(s.references[0].name, "real");
  EXPECT_EQ(s.references[0].line, 6);
}

TEST(CodScanner, Diagnostics) {
  const std::string text =
      "a = %early;\n"                     // 1:5
      "b = #animtree;\n"                  // 2:5
      "#using_animtree(\"bad-name\");\n"  // 3:17
      "#using_animtree(\"ok\");\n"
      "/#\n"
      "  c = %dev_only;\n"  // 6:7
      "#/\n"
      "d = %fine;\n"
      "#using_animtree(\"a/b\");\n";  // 9:17
  const ScriptScan s = scan_script(text, "c.gsc");
  EXPECT_EQ(messages(s.diagnostics),
            (V{"c.gsc:1:5: #using_animtree was not specified",
               "c.gsc:2:5: #using_animtree was not specified", "c.gsc:3:17: bad anim tree name",
               "c.gsc:6:7: cannot reference animation from /# ... #/ comment",
               "c.gsc:9:17: bad anim tree name"}));
  ASSERT_EQ(s.references.size(), 1u);
  EXPECT_EQ(s.references[0].name, "fine");
}

TEST(CodScanner, EachFileStartsWithoutATree) {
  EXPECT_EQ(scan_script("#using_animtree(\"t\");\n", "a.gsc").diagnostics.size(), 0u);
  EXPECT_EQ(messages(scan_script("x = %a;\n", "b.gsc").diagnostics),
            (V{"b.gsc:1:5: #using_animtree was not specified"}));
}

TEST(CodScanner, UnterminatedStringIsReportedAtItsQuote) {
  // Issue 12, item 5: not a silently dropped rest of file.
  const ScriptScan s =
      scan_script("#using_animtree(\"t\");\nx = \"abc;\ny = %walk;\n", "a.gsc");
  EXPECT_EQ(messages(s.diagnostics), (V{"a.gsc:2:5: unterminated string"}));
}

TEST(CodScanner, UnterminatedBlockCommentIsReportedAtItsStart) {
  const ScriptScan s = scan_script("#using_animtree(\"t\");\n  /* x\ny = %walk;\n", "a.gsc");
  EXPECT_EQ(messages(s.diagnostics), (V{"a.gsc:2:3: unterminated /* comment"}));
  EXPECT_TRUE(s.references.empty());
  // Also where the directive skips space.
  EXPECT_EQ(messages(scan_script("#using_animtree /* (\"t\");\n", "b.gsc").diagnostics),
            (V{"b.gsc:1:17: unterminated /* comment", "b.gsc:1:1: bad syntax"}));
}

TEST(CodScanner, RemainderIsNotAReference) {
  // `10%2`: after an operand `%` is the operator (no tree is selected, so a reference would be
  // a diagnostic).
  const ScriptScan s = scan_script(
      "a = 10%2; b = i%size; c = (a)%b; d = arr[0]%n; e = \"s\"%k; f = x %y;\n", "a.gsc");
  EXPECT_TRUE(s.diagnostics.empty()) << messages(s.diagnostics)[0];
  EXPECT_TRUE(s.references.empty());
  // After a keyword, an operator or an opening bracket it is a reference.
  const ScriptScan r = scan_script(
      "#using_animtree(\"t\");\nf() { return %idle; }\ng() { x = %a + %b; h(%c, %50cal); "
      "switch(x) { case %d: break; } }\n",
      "b.gsc");
  std::vector<std::string> names;
  for (const ScriptReference& ref : r.references) names.push_back(ref.name);
  EXPECT_EQ(names, (V{"idle", "a", "b", "c", "50cal", "d"}));
}

struct Mod {
  std::filesystem::path dir;
  Mod() {
    // One folder per test and process: ctest runs tests in parallel.
    dir = std::filesystem::temp_directory_path() /
          ("animkit_cod_mod_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
           "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "maps/mp");
    std::filesystem::create_directories(dir / "animtrees");
    std::filesystem::create_directories(dir / "xanim");
  }
  ~Mod() { std::filesystem::remove_all(dir); }
  void write(const std::string& rel, const std::string& text) const {
    std::ofstream(dir / rel, std::ios::binary) << text;
  }
};

TEST(CodLint, ModWithBrokenReferences) {
  Mod m;
  m.write("maps/mp/a.gsc",
          "#using_animtree(\"soldier\");\n"
          "f() { self setanim(%idle); self setanim(%missing); }\n");
  m.write("maps/mp/b.gsc",
          "#using_animtree(\"Soldier\");\n"
          "g() { self setanim(%missing); self setanim(%walk); self UseAnimTree(#animtree); }\n"
          "#using_animtree(\"nowhere\");\n"
          "h() { self setanim(%x); }\n");
  m.write("animtrees/soldier.atr", "main\n{\n    idle\n    walk\n    crawl\n}\n");
  m.write("xanim/idle", "x");
  m.write("xanim/crawl", "x");  // walk is missing; crawl is pruned anyway
  // An empty game folder: the assets are checked (without one, walk is taken to be in the game).
  std::filesystem::create_directories(m.dir.string() + "_game");
  LintOptions lo;
  lo.mod_dir = m.dir;
  lo.game_dirs = {m.dir.string() + "_game"};
  const LinkResult r = lint_mod(lo);
  std::filesystem::remove_all(m.dir.string() + "_game");
  ASSERT_EQ(r.trees.size(), 2u);
  EXPECT_EQ(r.trees[0].name, "soldier");
  EXPECT_EQ(r.trees[0].index, 1);
  EXPECT_EQ(r.trees[1].index, 2);
  V got;
  for (const Diagnostic& d : r.diagnostics) {
    got.push_back(std::filesystem::path(d.file).filename().string() + ":" + std::to_string(d.line) +
                  ":" + std::to_string(d.column) + ": " + d.message);
  }
  EXPECT_EQ(got, (V{"soldier.atr:4:5: Cannot find 'xanim/walk'",
                    "a.gsc:2:41: animation 'missing' not defined in anim tree 'soldier'",
                    "b.gsc:3:1: cannot find 'animtrees/nowhere.atr': the game leaves the tree "
                    "empty",
                    "b.gsc:2:20: animation 'missing' not defined in anim tree 'soldier'"}));
  // Packed values: main = 1, walk = 2, idle = 3 in the stock order.
  bool saw_idle = false, saw_tree = false;
  for (const ResolvedReference& rr : r.references) {
    if (rr.ref->name == "idle") {
      saw_idle = true;
      EXPECT_EQ(rr.node, 3);
      EXPECT_EQ(rr.value, 0x00010003u);
    }
    if (rr.ref->kind == ScriptReference::Kind::kAnimTree) {
      saw_tree = true;
      EXPECT_EQ(rr.value, 1u);
    }
  }
  EXPECT_TRUE(saw_idle && saw_tree);
}

TEST(CodLint, MissingTreeIsAWarningAtTheDirective) {
  // Issue 12, item 3: the game leaves the tree empty and reports nothing; its references bind
  // nothing, without a word.
  Mod m;
  m.write("a.gsc", "f() {}\n  #using_animtree(\"turret88\");\ng() { self setanim(%fire); }\n");
  const LinkResult r = lint_mod(m.dir, false, std::nullopt);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_FALSE(r.diagnostics[0].is_error());
  EXPECT_EQ(std::filesystem::path(r.diagnostics[0].file).filename(), "a.gsc");
  EXPECT_EQ(r.diagnostics[0].line, 2);
  EXPECT_EQ(r.diagnostics[0].column, 3);
  EXPECT_EQ(r.diagnostics[0].message,
            "cannot find 'animtrees/turret88.atr': the game leaves the tree empty");
  ASSERT_EQ(r.trees.size(), 1u);
  EXPECT_TRUE(r.trees[0].missing);
  ASSERT_EQ(r.references.size(), 1u);
  EXPECT_FALSE(r.references[0].value.has_value());
}

TEST(CodLint, SymlinkedFoldersAreFollowedAndLoopsDetected) {
  Mod m;
  const std::filesystem::path other = m.dir.string() + "_other";
  std::filesystem::remove_all(other);
  std::filesystem::create_directories(other);
  std::ofstream(other / "x.gsc") << "x = %early;\n";
  std::filesystem::create_directory_symlink(other, m.dir / "maps/linked");
  std::filesystem::create_directory_symlink(m.dir / "maps", m.dir / "maps/mp/loop");
  const LinkResult r = lint_mod(m.dir, false, std::nullopt);
  std::filesystem::remove_all(other);
  V got;
  for (const Diagnostic& d : r.diagnostics) got.push_back(d.message);
  EXPECT_EQ(got, (V{"symbolic link loop: this folder leads back to one that contains it; not "
                    "followed",
                    "#using_animtree was not specified"}));
  EXPECT_EQ(r.diagnostics[0].file, (m.dir / "maps/mp/loop").string());
  EXPECT_FALSE(r.diagnostics[0].is_error());
  EXPECT_EQ(r.diagnostics[1].file, (m.dir / "maps/linked/x.gsc").string());
}

TEST(CodLint, TreeNameTooLong) {
  Mod m;
  const std::string name(50, 'n');
  m.write("a.gsc", "#using_animtree(\"" + name + "\");\nf() { self setanim(%x); }\n");
  const LinkResult r = lint_mod(m.dir, false, std::nullopt);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].line, 1);
  EXPECT_EQ(r.diagnostics[0].column, 1);
  EXPECT_EQ(r.diagnostics[0].message, "animation tree path is too long");
  EXPECT_TRUE(r.trees.empty());
}

TEST(CodLint, CleanMod) {
  Mod m;
  m.write("a.gsc", "#using_animtree(\"t\");\nf() { self setanim(%walk_run); }\n");
  m.write("animtrees/T.ATR", "walk_run : complete loopsync\n{\n    walk\n    run\n}\n");
  m.write("xanim/walk", "x");
  m.write("xanim/run", "x");
  m.write("manifest.json", R"({"walk": {"looping": true}, "run": {"looping": true}})");
  const LinkResult r = lint_mod(m.dir, false, m.dir / "manifest.json");
  EXPECT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].to_string();
  ASSERT_EQ(r.trees.size(), 1u);
  EXPECT_EQ(r.trees[0].load->anim->node_count, 4u);
  m.write("manifest.json", R"({"walk": {"looping": true}, "run": {"looping": false}})");
  const LinkResult bad = lint_mod(m.dir, false, m.dir / "manifest.json");
  ASSERT_EQ(bad.diagnostics.size(), 1u);
  EXPECT_EQ(bad.diagnostics[0].message,
            "animation 'run' in 't' cannot be sync looping and nonlooping");
}

}  // namespace
}  // namespace animkit::call_of_duty
