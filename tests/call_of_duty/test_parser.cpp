// The parse token by token, its diagnostics with line and column, and the pruning it does
// (cod-animtrees-loader.md, "The parse, token by token"; cod-animtrees.txt, "Examples",
// "Pruning and placeholders", "Diagnostics").
#include <gtest/gtest.h>
#include <sstream>

#include "animkit/call_of_duty/tree_output.h"
#include "helpers.h"

namespace animkit::call_of_duty {
namespace {

using testing::load;
using testing::load_all;
using testing::names;
using testing::places;
using testing::Settings;
using V = std::vector<std::string>;

Settings refs(V names) {
  Settings s;
  s.refs = std::move(names);
  return s;
}

Settings keep_going(Settings s = {}) {
  s.keep_going = true;
  return s;
}

// --- The spec's examples (cod-animtrees.txt, "Examples") ---

TEST(CodExamples, MinimalRootLeaf) {
  const std::string text = "stalingrad_flagrunner_idle\n";
  const LoadResult r = load(text, refs({"stalingrad_flagrunner_idle"}));
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(r.anim->node_count, 2u);
  EXPECT_EQ(names(r), (V{"root", "stalingrad_flagrunner_idle"}));
  EXPECT_EQ(r.find("stalingrad_flagrunner_idle"), 1);
  // Unreferenced, it is pruned and the empty root gets `void` ("An empty root tree also
  // receives void").
  const LoadResult none = load(text);
  ASSERT_TRUE(none.loaded());
  EXPECT_EQ(names(none), (V{"root", "void"}));
}

TEST(CodExamples, NamedGroups) {
  const std::string text =
      "pilot_anims\n{\n    // ...\n    pilot_idle\n}\n\n"
      "copilot_anims\n{\n    copilot_idle\n}\n\n"
      "wirelessop_anims\n{\n    wirelessop_idle\n}\n";
  // "Scripts reference the leaves inside them, not the group path": the groups stay.
  const LoadResult r = load(text, refs({"pilot_idle", "wirelessop_idle"}));
  ASSERT_TRUE(r.loaded()) << testing::places(r)[0];
  EXPECT_EQ(names(r),
            (V{"root", "wirelessop_anims", "pilot_anims", "wirelessop_idle", "pilot_idle"}));
  EXPECT_EQ(r.find("pilot_idle"), 4);
  // Every group kept (com_animCheck 1): newest first.
  const LoadResult all = load_all(text);
  EXPECT_EQ(names(all), (V{"root", "wirelessop_anims", "copilot_anims", "pilot_anims",
                           "wirelessop_idle", "copilot_idle", "pilot_idle"}));
}

TEST(CodExamples, SyncGroups) {
  const std::string text =
      "stand_shoot : nonloopsync\n{\n    shoot_a\n}\n"
      "stand_shoot_auto : loopsync\n{\n    auto_a\n}\n"
      "walk_run : loopsync\n{\n    walk\n    run\n}\n";
  const LoadResult r = load_all(text);
  ASSERT_TRUE(r.loaded());
  ASSERT_EQ(r.anim->node_count, 8u);
  EXPECT_EQ(r.anim->node_name(1), "walk_run");
  EXPECT_EQ(r.anim->entries[1].flags, kLoopSync);
  EXPECT_EQ(r.anim->entries[2].flags, kLoopSync);
  EXPECT_EQ(r.anim->node_name(3), "stand_shoot");
  EXPECT_EQ(r.anim->entries[3].flags, kNonLoopSync);
}

const char* kProne =
    "proneMG42_fire : complete loopsync\n"
    "{\n"
    "    proneMG42_fire_15down\n"
    "    {\n"
    "        down_a\n"
    "    }\n"
    "    proneMG42_fire_level\n"
    "    {\n"
    "        level_a\n"
    "    }\n"
    "    proneMG42_fire_15up\n"
    "    {\n"
    "        up_a\n"
    "    }\n"
    "}\n";

TEST(CodExamples, CompleteSyncGroupKeepsItsSubtree) {
  // "complete keeps the three fire pose groups when the parent is referenced".
  const LoadResult r = load(kProne, refs({"pronemg42_fire"}));
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(r.anim->node_count, 8u);
  EXPECT_EQ(r.anim->node_name(1), "pronemg42_fire");  // names are stored lower-cased
  EXPECT_EQ(r.anim->entries[1].flags, kComplete | kLoopSync);
  EXPECT_EQ(r.find("proneMG42_fire"), 1);
  // Not referenced: `complete` forces nothing ("only when its own node is kept").
  const LoadResult leaf_only = load(kProne, refs({"level_a"}));
  ASSERT_TRUE(leaf_only.loaded());
  EXPECT_EQ(names(leaf_only), (V{"root", "pronemg42_fire", "pronemg42_fire_level", "level_a"}));
}

TEST(CodExamples, EmptyGroup) {
  const std::string text = "testmap_testing\n{\n}\nidle\n";
  // Referenced: the loader inserts a `void` child.
  const LoadResult r = load(text, refs({"testmap_testing", "idle"}));
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(names(r), (V{"root", "idle", "testmap_testing", "void"}));
  EXPECT_TRUE(r.anim->entries[3].synthetic);
  // Not referenced: pruned ("Empty groups that no script references are pruned").
  const LoadResult none = load(text, refs({"idle"}));
  EXPECT_EQ(names(none), (V{"root", "idle"}));
  // With every node kept (com_animCheck 1) the empty group is kept too, so it gets void.
  const LoadResult all = load_all(text);
  EXPECT_EQ(names(all), (V{"root", "idle", "testmap_testing", "void"}));
}

TEST(CodPruning, VoidLoopForALoopsyncParent) {
  const std::string text = "walk_run : loopsync\n{\n    walk\n    run\n}\n";
  const LoadResult r = load(text, refs({"walk_run"}));
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(names(r), (V{"root", "walk_run", "void_loop"}));
  const LoadResult n = load("aim : nonloopsync\n{\n    a\n}\n", refs({"aim"}));
  EXPECT_EQ(names(n), (V{"root", "aim", "void"}));
}

TEST(CodPruning, ParentWithPrunedChildrenDisappears) {
  const std::string text = "main\n{\n    torso\n    {\n        a\n    }\n    b\n}\n";
  EXPECT_EQ(names(load(text, refs({"b"}))), (V{"root", "main", "b"}));
  EXPECT_EQ(names(load(text, refs({"main"}))), (V{"root", "main", "void"}));
  EXPECT_EQ(names(load(text, refs({"torso"}))), (V{"root", "main", "torso", "void"}));
}

TEST(CodPruning, CompleteForcesDescendantsAtEveryDepth) {
  const std::string text =
      "g : complete\n{\n    h\n    {\n        i\n        {\n            j\n        }\n    "
      "}\n}\nk\n";
  EXPECT_EQ(names(load(text, refs({"g"}))), (V{"root", "g", "h", "i", "j"}));
  // A complete node under a kept complete node changes nothing more.
  EXPECT_EQ(names(load(text, refs({"j"}))), (V{"root", "g", "h", "i", "j"}));
  EXPECT_EQ(names(load(text, refs({"k"}))), (V{"root", "k"}));
}

TEST(CodPruning, ReferencesAreCaseInsensitive) {
  const LoadResult r = load("Stand_Idle\n", refs({"STAND_IDLE"}));
  EXPECT_EQ(names(r), (V{"root", "stand_idle"}));
  EXPECT_EQ(r.find("stand_idle"), 1);
}

// --- The duplicate rule under pruning ("Consequences worth a test") ---

TEST(CodDuplicates, TwinIsAnErrorOnlyWhenTheFirstIsKept) {
  const std::string text = "main\n{\n    idle\n    idle\n}\n";
  // Unreferenced first twin: already removed when the second arrives; stock files load.
  const LoadResult none = load(text, refs({"main"}));
  EXPECT_TRUE(none.loaded());
  EXPECT_EQ(names(none), (V{"root", "main", "void"}));
  // Referenced: the first is kept, the twin is `duplicate animation` at its name.
  const LoadResult r = load(text, refs({"idle"}));
  EXPECT_EQ(places(r), (V{"4:5: duplicate animation"}));
  EXPECT_FALSE(r.anim.has_value());  // the stock loader stops
  // Kept by com_animCheck 1 or by a complete ancestor: the same error.
  EXPECT_EQ(places(load_all(text)), (V{"4:5: duplicate animation"}));
  EXPECT_EQ(places(load("main : complete\n{\n    idle\n    Idle\n}\n", refs({"main"}))),
            (V{"4:5: duplicate animation"}));
}

TEST(CodDuplicates, KeptParentTwinIsAnError) {
  // A parent whose body kept a child is no longer missing from tree: its twin is an error.
  const std::string text = "grp\n{\n    a\n}\ngrp\n{\n    b\n}\n";
  EXPECT_EQ(places(load(text, refs({"a"}))), (V{"5:1: duplicate animation"}));
  const LoadResult r = load(text, refs({"b"}));
  EXPECT_TRUE(r.loaded());
  EXPECT_EQ(names(r), (V{"root", "grp", "b"}));
}

TEST(CodDuplicates, SameNameUnderTwoParentsBindsTheFirstInBuildOrder) {
  const std::string text = "p\n{\n    idle\n}\nq\n{\n    idle\n}\n";
  const LoadResult r = load(text, refs({"idle"}));
  // Build order: q (1), p (2); q's idle (3) binds, p's idle (4) reports.
  EXPECT_EQ(places(r), (V{"3:5: duplicate animation 'idle' in 'animtrees/t.atr'"}));
  EXPECT_EQ(r.find("idle"), 3);
}

// --- Every parse diagnostic with its line and column ---

TEST(CodDiagnostics, BadToken) {
  EXPECT_EQ(places(load_all("walk,\n")), (V{"1:1: bad token"}));
  EXPECT_EQ(places(load_all("aim: loopsync\n{\n a\n}\n")), (V{"1:1: bad token"}));
  EXPECT_EQ(places(load_all("a\n  }\n")), (V{"2:3: bad token"}));         // `}` at the top level
  EXPECT_EQ(places(load_all("aim :loopsync\n")), (V{"1:5: bad token"}));  // not a lone `:`
  EXPECT_EQ(places(load_all("walk {\n}\n")), (V{"1:6: bad token"}));      // `{` on the name's line
  EXPECT_EQ(places(load_all("walk//x\n")), (V{"1:1: bad token"}));
  EXPECT_EQ(places(load_all("\"\"\n")), (V{"1:1: bad token"}));
}

TEST(CodDiagnostics, Aliases) {
  EXPECT_EQ(places(load_all("walk run\n")), (V{"1:6: FIXME: aliases not yet implemented"}));
  // A block comment over lines does not end the line.
  EXPECT_EQ(places(load_all("walk /* x\n y */ run\n")),
            (V{"2:7: FIXME: aliases not yet implemented"}));
}

TEST(CodDiagnostics, UnknownAnimProperty) {
  EXPECT_EQ(places(load_all("aim : loopsync fast\n{\n    a\n}\n")),
            (V{"1:16: unknown anim property"}));
  // Properties compare case-insensitively.
  const LoadResult r = load_all("aim : LoopSync Complete\n{\n    a\n}\n");
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(r.anim->entries[1].flags, kLoopSync | kComplete);
}

TEST(CodDiagnostics, PropertiesOnPrimitive) {
  EXPECT_EQ(places(load_all("a : complete\nb\n")),
            (V{"2:1: properties cannot be applied to primitive animations"}));
  // The property list ends with the line: a `{` is required next.
  EXPECT_EQ(places(load_all("a : loopsync\n")),
            (V{"2:1: properties cannot be applied to primitive animations"}));
}

TEST(CodDiagnostics, TokenAfterBraces) {
  EXPECT_EQ(places(load_all("a\n{ x\n}\n")), (V{"2:3: token not allowed after '{'"}));
  EXPECT_EQ(places(load_all("a : loopsync\n{ x\n}\n")), (V{"2:3: token not allowed after '{'"}));
  EXPECT_EQ(places(load_all("a\n{\n    x\n} y\n")), (V{"4:3: token not allowed after '}'"}));
  // Comments after a brace are fine.
  EXPECT_TRUE(load_all("a\n{ // open\n    x\n} /* close */\n").loaded());
  // cod-animtrees-loader.md, "The parse, token by token" (2., 3.): the one token read on the
  // brace's line must be empty; `""` is an empty token (README Choices 5), as after a name.
  EXPECT_TRUE(load_all("a\n{ \"\"\n    x\n} \"\"\n").loaded());
  EXPECT_TRUE(load_all("a \"\"\n{\n    x\n}\n").loaded());
}

TEST(CodDiagnostics, NoAnimationForBlock) {
  EXPECT_EQ(places(load_all("{\n}\n")), (V{"1:1: no animation specified for this block"}));
  EXPECT_EQ(places(load_all("a\n{\n    x\n}\n{\n}\n")),
            (V{"5:1: no animation specified for this block"}));
}

TEST(CodDiagnostics, UnexpectedEndOfFile) {
  // Reported at the end of the data.
  EXPECT_EQ(places(load_all("a\n{\n    x\n")), (V{"4:1: unexpected end of file"}));
  EXPECT_EQ(places(load_all("a\n{\n    x")), (V{"3:6: unexpected end of file"}));
}

TEST(CodDiagnostics, DuplicateAnimation) {
  EXPECT_EQ(places(load_all("a\nb\n  A\n")), (V{"3:3: duplicate animation"}));
}

TEST(CodDiagnostics, StopsAtTheFirstError) {
  const std::string text = "a b\n}\nc : fast\nd\n";
  EXPECT_EQ(places(load_all(text)), (V{"1:3: FIXME: aliases not yet implemented"}));
  Settings s = keep_going();
  s.anim_check = true;
  const LoadResult r = load(text, s);
  EXPECT_EQ(places(r), (V{"1:3: FIXME: aliases not yet implemented", "2:1: bad token",
                          "3:5: unknown anim property",
                          "4:1: properties cannot be applied to primitive animations"}));
  // Recovery keeps what it can: a, c (as a leaf), d.
  EXPECT_EQ(names(r), (V{"root", "d", "c", "a"}));
}

TEST(CodDiagnostics, KeepGoingRecoversFromBlocks) {
  Settings s = keep_going();
  s.anim_check = true;
  const std::string text =
      "{\n    lost\n}\n"           // no animation specified: the body is dropped
      "g\n{ x\n    a\n    a\n}\n"  // token after '{', duplicate
      "h\n{\n    b\n";             // end of file
  const LoadResult r = load(text, s);
  EXPECT_EQ(places(r),
            (V{"1:1: no animation specified for this block", "5:3: token not allowed after '{'",
               "7:5: duplicate animation", "12:1: unexpected end of file"}));
  EXPECT_EQ(names(r), (V{"root", "h", "g", "b", "a"}));
}

TEST(CodDiagnostics, NestingLimit) {
  std::string text;
  for (int i = 0; i < kMaxNesting + 2; ++i) text += "n" + std::to_string(i) + "\n{\n";
  const LoadResult r = load_all(text);
  ASSERT_FALSE(r.loaded());
  EXPECT_NE(r.diagnostics[0].message.find("nesting deeper"), std::string::npos);
}

TEST(CodCrlf, SameTreeAndPlacesAsLf) {
  const std::string lf = "main\n{\n    a : loopsync\n    {\n        x\n    }\n    b c\n}\n";
  std::string crlf;
  for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  Settings s;
  s.anim_check = true;
  s.keep_going = true;
  const LoadResult a = load(lf, s), b = load(crlf, s);
  EXPECT_EQ(places(a), (V{"7:7: FIXME: aliases not yet implemented"}));
  EXPECT_EQ(places(a), places(b));
  EXPECT_EQ(names(a), names(b));
  EXPECT_EQ(a.anim->checksum, b.anim->checksum);
}

TEST(CodParser, CommentsAndWhitespace) {
  const std::string text =
      "// a line comment\n"
      "/* a block comment\n   over several lines */\n"
      "main\n"
      "{\n"
      "\tidle\t// idle\n"
      "/*\n"
      "    disabled : loopsync\n"
      "    {\n"
      "        x\n"
      "    }\n"
      "*/\n"
      "}\n";
  const LoadResult r = load_all(text);
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(names(r), (V{"root", "main", "idle"}));
  EXPECT_EQ(r.anim->entries[2].line, 6);
  EXPECT_EQ(r.anim->entries[2].column, 2);
}

}  // namespace
}  // namespace animkit::call_of_duty

namespace animkit::call_of_duty {
namespace {

TEST(CodDot, LabelsBreakLinesBeforeProperties) {
  // Issue 12, item 5: DOT's `\n` escape, not a literal backslash and n.
  const LoadResult r = testing::load_all("aim : complete loopsync\n{\n    a\n}\n");
  const std::string dot = tree_dot(r);
  EXPECT_NE(dot.find("label=\"1: aim\\nloopsync\\ncomplete\""), std::string::npos) << dot;
  EXPECT_EQ(dot.find("\\\\n"), std::string::npos) << dot;
  EXPECT_NE(dot.find("label=\"2: a\""), std::string::npos) << dot;
}

TEST(CodParserComments, UnterminatedBlockCommentSaysSo) {
  // Issue 12, item 5. The loader skips it to the end of the data: at the top level the tree
  // still loads, so it is a warning at the `/*`.
  const LoadResult r = testing::load_all("main\n{\n    walk\n}\n  /* run\nidle\n");
  EXPECT_TRUE(r.loaded());
  EXPECT_EQ(testing::places(r), (std::vector<std::string>{
                                    "5:3: unterminated /* comment: the rest of the file is "
                                    "skipped"}));
  EXPECT_EQ(r.anim->node_count, 3u);  // root, main, walk
  // Inside a body the end of data is also the stock error.
  const LoadResult in_body = testing::load_all("main\n{\n    walk /* run\n}\n");
  EXPECT_EQ(testing::places(in_body),
            (std::vector<std::string>{
                "5:1: unexpected end of file",
                "3:10: unterminated /* comment: the rest of the file is skipped"}));
}

}  // namespace
}  // namespace animkit::call_of_duty

namespace animkit::call_of_duty {
namespace {

TEST(CodBigInputs, StreamedJsonIsTheSameDocument) {
  // Issue 12, item 6: `cod tree --json` writes node by node.
  // Issue 26: the nodes are written as text, not as nlohmann objects; the assets' loop and
  // length, the flags, a void and the root's missing place all go the fast way.
  AssetResolver assets;
  assets.add("a", {true, 1.5f});
  assets.add("b", {false, std::nullopt});
  assets.add("c", {std::nullopt, 0.1f});
  testing::Settings s;
  s.refs = {"aim", "missing", "empty"};
  s.keep_going = true;
  s.assets = &assets;
  const LoadResult r = testing::load(
      "aim : complete loopsync\n{\n    a\n    b\n    c\n}\nempty : loopsync\n{\n}\nlone\n", s);
  std::ostringstream out;
  write_tree_json(out, r);
  EXPECT_EQ(out.str(), tree_json(r).dump());
  EXPECT_NE(out.str().find("\"diagnostics\":[{"), std::string::npos);
  // Written out by hand from the layout rules (newest first: root [1..2] = empty, aim; empty's
  // [3] = void_loop; aim's [4..6] = c, b, a).
  for (const char* node :
       {"{\"index\":0,\"name\":\"root\",\"parent\":null,\"first_child\":1,\"child_count\":2,"
        "\"flags\":[],\"leaf\":false}",
        "{\"index\":2,\"name\":\"aim\",\"parent\":0,\"first_child\":4,\"child_count\":3,"
        "\"flags\":[\"loopsync\",\"complete\"],\"leaf\":false,\"line\":1,\"column\":1}",
        "{\"index\":3,\"name\":\"void_loop\",\"parent\":1,\"first_child\":0,\"child_count\":0,"
        "\"flags\":[],\"leaf\":true,\"synthetic\":true,\"asset\":\"xanim/void_loop\",\"looping\":true}",
        "{\"index\":4,\"name\":\"c\",\"parent\":2,\"first_child\":0,\"child_count\":0,"
        "\"flags\":[],\"leaf\":true,\"line\":5,\"column\":5,\"asset\":\"xanim/c\",\"length\":0.1}",
        "{\"index\":6,\"name\":\"a\",\"parent\":2,\"first_child\":0,\"child_count\":0,"
        "\"flags\":[],\"leaf\":true,\"line\":3,\"column\":5,\"asset\":\"xanim/a\",\"looping\":true,"
        "\"length\":1.5}"}) {
    EXPECT_NE(out.str().find(node), std::string::npos) << node << "\n" << out.str();
  }
  const LoadResult failed = testing::load("main\n{\n", s);  // a parse error: no tree
  std::ostringstream out2;
  write_tree_json(out2, failed);
  EXPECT_EQ(out2.str(), tree_json(failed).dump());
}

TEST(CodBigInputs, NamesLongerThanTheIdentifierLimit) {
  // "A node name must fit the shared identifier and path limits".
  const std::string fits(1023, 'a'), too_long(1024, 'a');
  EXPECT_TRUE(testing::load_all(fits + "\n{\n    b\n}\n").loaded());
  EXPECT_EQ(testing::places(testing::load_all("x\n" + too_long + "\n{\n    b\n}\n")),
            (std::vector<std::string>{
                "2:1: name of 1024 bytes is longer than the game's identifier limit "
                "(MAX_TOKEN_CHARS 1024: at most 1023 bytes)"}));
  // A leaf is an asset: xanim/<name> and its NUL fit MAX_QPATH (64): at most 57 bytes.
  EXPECT_TRUE(testing::load_all(std::string(57, 'l') + "\n").loaded());
  EXPECT_EQ(testing::places(testing::load_all("ok\n" + std::string(58, 'l') + "\n")),
            (std::vector<std::string>{
                "2:1: animation name '" + std::string(58, 'l') +
                "' (58 bytes) does not fit 'xanim/<name>' in MAX_QPATH (64 bytes): at most 57 "
                "bytes"}));
}

}  // namespace
}  // namespace animkit::call_of_duty
