// The compact tree: stock node order, ranges, checksum, leaves and assets, the sync setup, the
// queries, the registry and packing (cod-animtrees-loader.md, "The compact tree (XAnim)";
// cod-animtrees.txt, "Runtime representation", "Sync groups", "Limits").
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "animkit/call_of_duty/anim_registry.h"
#include "animkit/call_of_duty/xanim_queries.h"
#include "animkit/core/error.h"
#include "helpers.h"

namespace animkit::call_of_duty {
namespace {

using testing::load;
using testing::load_all;
using testing::names;
using testing::places;
using testing::Settings;
using V = std::vector<std::string>;

TEST(CodXAnim, NewestFirst) {
  // "a file `a b c` at the top level gives `c` = 1, `b` = 2, `a` = 3".
  const LoadResult r = load_all("a\nb\nc\n");
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(names(r), (V{"root", "c", "b", "a"}));
  EXPECT_EQ(r.anim->node_count, 4u);
  const XAnimEntry& root = r.anim->entries[0];
  EXPECT_EQ(root.parent, -1);
  EXPECT_EQ(root.first_child, 1);
  EXPECT_EQ(root.child_count, 3);
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(r.anim->entries[i].parent, 0);
  // Checksum by hand: root (0, 1, 3, 0) then leaves 1, 2, 3.
  // 0 -> 0 -> 1 -> 34 -> 1054 -> 32675 -> 1012927 -> 31400740.
  EXPECT_EQ(r.anim->checksum, 31400740u);
}

TEST(CodXAnim, RangesHandedOutDepthFirst) {
  const std::string text =
      "p\n{\n    q\n    {\n        q1\n    }\n    r\n}\n"
      "s\n{\n    s1\n}\n";
  const LoadResult r = load_all(text);
  ASSERT_TRUE(r.loaded());
  // root [1..2] = s, p; s's range [3] = s1; then p's [4..5] = r, q; then q's [6] = q1.
  EXPECT_EQ(names(r), (V{"root", "s", "p", "s1", "r", "q", "q1"}));
  const auto& e = r.anim->entries;
  EXPECT_EQ(e[1].first_child, 3);
  EXPECT_EQ(e[2].first_child, 4);
  EXPECT_EQ(e[2].child_count, 2);
  EXPECT_EQ(e[5].first_child, 6);
  EXPECT_EQ(e[6].parent, 5);
  EXPECT_EQ(e[3].parent, 1);
  EXPECT_EQ(build_order(*r.anim), (std::vector<int32_t>{0, 1, 3, 2, 4, 5, 6}));
}

TEST(CodXAnim, ChecksumOfANestedTree) {
  const std::string text = "a\ng : loopsync\n{\n    x\n    y\n}\nb\n";
  const LoadResult r = load_all(text);
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(names(r), (V{"root", "b", "g", "a", "y", "x"}));
  // Visit: root (0, 1, 3, 0); b: 1; g (2, 4, 2, flags 1); y: 4; x: 5; a: 3.
  uint32_t c = 0;
  for (uint32_t v : {0u, 1u, 3u, 0u, 1u, 2u, 4u, 2u, 1u, 4u, 5u, 3u}) c = c * 31u + v;
  EXPECT_EQ(r.anim->checksum, c);
  EXPECT_EQ(r.anim->checksum, 1247723262u);
  // The fold starts from the running value.
  LoadOptions o;
  o.tree_name = "t";
  o.anim_check = true;
  o.checksum_seed = 7;
  const LoadResult seeded = load_anim_tree(text, o);
  uint32_t c7 = 7;
  for (uint32_t v : {0u, 1u, 3u, 0u, 1u, 2u, 4u, 2u, 1u, 4u, 5u, 3u}) c7 = c7 * 31u + v;
  EXPECT_EQ(seeded.anim->checksum, c7);
}

TEST(CodXAnim, EmptyTreeGetsVoid) {
  // "The file's top level counts as a kept body, so an empty tree gets void".
  const LoadResult r = load("// nothing\n");
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(names(r), (V{"root", "void"}));
  // root (0, 1, 1, 0), leaf 1: 0 -> 1 -> 32 -> 992 -> 30753.
  EXPECT_EQ(r.anim->checksum, 30753u);
}

TEST(CodXAnim, RootResolvesToNodeZero) {
  const LoadResult r = load("a\n", {{"root", "a"}});
  ASSERT_TRUE(r.loaded());
  EXPECT_EQ(r.find("root"), 0);
  EXPECT_EQ(r.find("a"), 1);
}

TEST(CodXAnim, NotDefined) {
  Settings s;
  s.refs = {"a", "nope"};
  const LoadResult r = load("a\n", s);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message, "animation 'nope' not defined in anim tree 't'");
  EXPECT_EQ(r.diagnostics[0].file, "s.gsc");  // where the reference was made
  // A name only an unreferenced... a pruned node defines is not defined either.
  s.refs = {"x"};
  const LoadResult pruned = load("g\n{\n    y\n}\n", s);
  EXPECT_EQ(places(pruned), (V{"1:1: animation 'x' not defined in anim tree 't'"}));
}

TEST(CodAssets, MissingAssetAndManifest) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("animkit_cod_assets_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "walk").put('x');
  std::ofstream(dir / "Run").put('x');  // compared case-insensitively
  AssetResolver assets;
  assets.set_directory(dir);
  assets.set_manifest(R"({"walk": {"looping": true, "length": 1.2}, "run": {"looping": false}})");
  Settings s;
  s.anim_check = true;
  s.assets = &assets;
  const LoadResult ok = load("walk\nrun\n", s);
  ASSERT_TRUE(ok.loaded());
  const LoadResult r = load("walk\nrun\n\n  crawl\n", s);
  EXPECT_EQ(places(r), (V{"4:3: Cannot find 'xanim/crawl'"}));
  // void and void_loop always exist.
  Settings s2;
  s2.assets = &assets;
  EXPECT_TRUE(load("g : loopsync\n{\n  zzz\n}\n", {{"g"}, false, false, &assets}).loaded());
  EXPECT_TRUE(load("", s2).loaded());
  // Queries on the resolved leaves.
  const XAnim& a = *ok.anim;  // run = 1, walk = 2
  EXPECT_TRUE(XAnimIsLooped(a, 2));
  EXPECT_FALSE(XAnimIsLooped(a, 1));
  EXPECT_FLOAT_EQ(XAnimGetLength(a, 2), 1.2f);
  EXPECT_THROW(XAnimGetLength(a, 1), Error);  // no length known
  EXPECT_THROW(assets.set_manifest(R"({"walk": {"looping": 1}})"), Error);
  EXPECT_THROW(assets.set_manifest(R"([1])"), Error);
  EXPECT_THROW(assets.set_manifest(R"({"walk": )"), Error);
  std::filesystem::remove_all(dir);
}

TEST(CodAssets, BuildStopsAtFirstErrorUnlessKeepGoing) {
  AssetResolver assets;
  assets.add("here", {});
  assets.set_directory(std::filesystem::temp_directory_path());  // holds none of these names
  Settings s;
  s.anim_check = true;
  s.assets = &assets;
  s.refs = {"nowhere"};
  const std::string text = "gone_a\ngone_b\n";
  // Build order: gone_b (1), gone_a (2); the stock loader stops at the first.
  EXPECT_EQ(places(load(text, s)), (V{"2:1: Cannot find 'xanim/gone_b'"}));
  s.keep_going = true;
  const LoadResult all = load(text, s);
  EXPECT_EQ(places(all), (V{"2:1: Cannot find 'xanim/gone_b'", "1:1: Cannot find 'xanim/gone_a'",
                            "1:1: animation 'nowhere' not defined in anim tree 't'"}));
  ASSERT_TRUE(all.anim.has_value());  // the tree is still laid out
  EXPECT_EQ(all.anim->node_count, 3u);
}

AssetResolver loops() {
  AssetResolver a;
  a.add("walk", {true, 1.0f});
  a.add("run", {true, 0.8f});
  a.add("stop", {false, 0.5f});
  a.add("aim_left", {false, 0.5f});
  return a;
}

TEST(CodSync, LeavesMustMatchTheGroup) {
  const AssetResolver a = loops();
  Settings s;
  s.anim_check = true;
  s.assets = &a;
  EXPECT_TRUE(load("walk_run : loopsync\n{\n    walk\n    run\n}\n", s).loaded());
  EXPECT_EQ(places(load("walk_run : loopsync\n{\n    walk\n    stop\n}\n", s)),
            (V{"4:5: animation 'stop' in 't' cannot be sync looping and nonlooping"}));
  EXPECT_EQ(places(load("aim : nonloopsync\n{\n    aim_left\n    run\n}\n", s)),
            (V{"4:5: animation 'run' in 't' cannot be sync nonlooping and looping"}));
  // Leaves deeper in the group count too.
  EXPECT_EQ(places(load("g : complete loopsync\n{\n    h\n    {\n        stop\n    }\n}\n", s)),
            (V{"5:9: animation 'stop' in 't' cannot be sync looping and nonlooping"}));
  // Unknown loop state: nothing to check.
  EXPECT_TRUE(load("g : loopsync\n{\n    unknown_leaf\n}\n", s).loaded());
}

TEST(CodSync, BothPropertiesAndNesting) {
  const AssetResolver a = loops();
  Settings s;
  s.anim_check = true;
  s.assets = &a;
  EXPECT_EQ(places(load("x : loopsync nonloopsync\n{\n    walk\n}\n", s)),
            (V{"1:1: animation cannot be sync looping and sync nonlooping"}));
  EXPECT_EQ(
      places(load("outer : loopsync\n{\n    inner : loopsync\n    {\n        walk\n    }\n}\n", s)),
      (V{"3:5: duplicate specification of animation sync in 't', 1 nodes above 'walk'"}));
  EXPECT_EQ(places(load("outer : loopsync\n{\n    inner : loopsync\n    {\n        mid\n        {\n"
                        "            walk\n        }\n    }\n}\n",
                        s)),
            (V{"3:5: duplicate specification of animation sync in 't', 2 nodes above 'walk'"}));
}

TEST(CodQueries, AllSix) {
  AssetResolver assets;
  assets.add("walk", {true, 1.5f});
  Settings s;
  s.anim_check = true;
  s.assets = &assets;
  const LoadResult r = load("g : loopsync\n{\n    walk\n}\nplain\n{\n    idle\n}\n", s);
  ASSERT_TRUE(r.loaded());
  ASSERT_EQ(names(r), (V{"root", "plain", "g", "idle", "walk"}));
  const XAnim& a = *r.anim;
  EXPECT_FALSE(XAnimIsPrimitive(a, 0));
  EXPECT_TRUE(XAnimIsPrimitive(a, 4));
  EXPECT_TRUE(XAnimHasTime(a, 4));
  EXPECT_TRUE(XAnimHasTime(a, 2));   // a sync parent
  EXPECT_FALSE(XAnimHasTime(a, 1));  // a plain parent
  EXPECT_TRUE(XAnimIsLooped(a, 2));
  EXPECT_TRUE(XAnimIsLooped(a, 4));
  EXPECT_FALSE(XAnimIsLooped(a, 1));
  EXPECT_EQ(XAnimGetAnimName(a, 4), "walk");
  EXPECT_EQ(XAnimGetAnimName(a, 2), "<non-leaf anim>");
  EXPECT_FLOAT_EQ(XAnimGetLength(a, 4), 1.5f);
  EXPECT_THROW(XAnimGetLength(a, 2), Error);  // a parent: an error, not a crash
  EXPECT_EQ(XAnimGetNumChildren(a, 0), 2);
  EXPECT_EQ(XAnimGetNumChildren(a, 2), 1);
  EXPECT_EQ(XAnimGetNumChildren(a, 4), 0);
  EXPECT_THROW(XAnimIsPrimitive(a, 5), Error);
  EXPECT_THROW(XAnimIsPrimitive(a, -1), Error);
}

TEST(CodRegistry, IndicesFromOneCaseInsensitive) {
  AnimTreeRegistry reg;
  EXPECT_EQ(reg.register_tree("generic_human"), 1);
  EXPECT_EQ(reg.register_tree("multiplayer"), 2);
  EXPECT_EQ(reg.register_tree("Generic_Human"), 1);
  EXPECT_EQ(reg.find("MULTIPLAYER"), 2);
  EXPECT_FALSE(reg.find("mg42").has_value());
  EXPECT_EQ(reg.register_tree("mg42", 1), 1);  // the second slot counts from 1 too
}

TEST(CodRegistry, Packing) {
  // "a reference to the root of the first registered tree packs as 0x00010000".
  EXPECT_EQ(pack_anim(1, 0), 0x00010000u);
  EXPECT_EQ(pack_anim(2, 5), 0x00020005u);
  EXPECT_EQ(pack_anim(127, 0xFFFF), 0x007FFFFFu);
}

TEST(CodRegistry, Limits) {
  AnimTreeRegistry reg;
  // 49 bytes fit animtrees/<name>.atr in MAX_QPATH (64); 50 do not.
  EXPECT_EQ(AnimTreeRegistry::kMaxTreeNameLength, 49u);
  EXPECT_EQ(reg.register_tree(std::string(49, 'a')), 1);
  try {
    reg.register_tree(std::string(50, 'a'));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "animation tree path is too long");
  }
  for (int i = 2; i <= 127; ++i) EXPECT_EQ(reg.register_tree("t" + std::to_string(i)), i);
  try {
    reg.register_tree("one_too_many");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "maximum animation tree count exceeded (127)");
  }
  EXPECT_EQ(reg.register_tree("t5"), 5);  // known names still resolve
  EXPECT_EQ(reg.register_tree("other", 1), 1);
}

TEST(CodLimits, NodePoolIsNotAPerFileRule) {
  // cod-animtrees.txt, "Limits": XANIM_POOL_NODE_COUNT (2048) "is an engine pool constant, not
  // a per-file syntax rule": 2049 nodes load without a word.
  std::string text;
  for (int i = 0; i < 2048; ++i) text += "n" + std::to_string(i) + "\n";
  const LoadResult r = load_all(text);
  EXPECT_EQ(r.anim->node_count, 2049u);
  EXPECT_TRUE(r.diagnostics.empty());
}

TEST(CodLimits, NodeIndexMustFitThePackedReference) {
  // "(treeIndex << 16) | nodeIndex": the low 16 bits. 65,536 top-level leaves, newest first: the
  // first in the file is node 65536, which does not fit; the second is 65535, which does.
  std::string text;
  for (int i = 0; i < 65536; ++i) text += "n" + std::to_string(i) + "\n";
  Settings s;
  s.anim_check = true;
  s.refs = {"n1"};
  const LoadResult fits = load(text, s);
  EXPECT_TRUE(fits.loaded());
  EXPECT_EQ(fits.find("n1"), 65535);
  s.refs = {"n0"};
  const LoadResult r = load(text, s);
  EXPECT_EQ(places(r), (std::vector<std::string>{
                           "1:1: node index 65536 of 'n0' does not fit the 16 bits of a packed "
                           "animation reference (at most 65535)"}));
}

// A generated tree in the style of the stock ones: 3,000 nodes, depth 7.
std::string big_tree(int* leaves_out) {
  std::string s;
  int counter = 0, leaves = 0;
  // Branching 3 at each of 6 levels of groups, leaves at depth 7; stop near 3,000 nodes.
  std::function<void(int, int)> group = [&](int depth, int indent) {
    const std::string pad(static_cast<size_t>(indent) * 4, ' ');
    for (int i = 0; i < 3 && counter < 2999; ++i) {
      const std::string name = "node_" + std::to_string(counter++);
      if (depth == 7) {
        s += pad + name + "\n";
        ++leaves;
        continue;
      }
      s += pad + name + (depth % 3 == 0 ? " : complete" : "") + "\n" + pad + "{\n";
      group(depth + 1, indent + 1);
      s += pad + "}\n";
    }
  };
  group(1, 0);
  *leaves_out = leaves;
  return s;
}

TEST(CodLarge, ThreeThousandNodesDepthSeven) {
  int leaves = 0;
  const std::string text = big_tree(&leaves);
  const LoadResult r = load_all(text);
  ASSERT_TRUE(r.anim.has_value());
  EXPECT_EQ(r.anim->node_count, 3001u);  // 2,999 file nodes, the root, a void in the last group
  EXPECT_FALSE(has_error(r.diagnostics));
  // Every parent's children are contiguous and point back at it.
  const auto& e = r.anim->entries;
  for (size_t i = 0; i < e.size(); ++i) {
    for (int32_t c = 0; c < e[i].child_count; ++c)
      EXPECT_EQ(e[e[i].first_child + c].parent, static_cast<int32_t>(i));
  }
  // Prune to one deep leaf: its ancestors chain stays.
  Settings s;
  s.refs = {"node_6"};
  const LoadResult one = load(text, s);
  ASSERT_TRUE(one.loaded());
  EXPECT_EQ(one.anim->node_count, 8u);  // root + 6 groups + the leaf
  EXPECT_EQ(one.find("node_6"), 7);
}

}  // namespace
}  // namespace animkit::call_of_duty
