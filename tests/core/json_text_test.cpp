// The one rule for strings from binary files in JSON (issue 31, item 2).
#include <gtest/gtest.h>

#include <string>

#include "animkit/core/error.h"
#include "animkit/core/json_text.h"
#include "animkit/core/neutral_json.h"
#include "animkit/core/registry.h"
#include "animkit/core/synthetic.h"
#include "animkit/core/text.h"

namespace animkit {
namespace {

using namespace std::string_literals;

// 0x00, 0x7F, 0xE9 (Latin-1 e-acute), 0xFF, and a truncated 3-byte sequence.
const std::string kHostile = "a\x00" "b\x7f" "c\xe9" "d\xff" "e\xe2\x82"s;

TEST(JsonText, ValidUtf8IsWrittenAsItIs) {
  Json j;
  put_text(j, "name", "caf\xc3\xa9 \\ \x00\x7f"s);
  EXPECT_EQ(j["name"], "caf\xc3\xa9 \\ \x00\x7f"s);
  EXPECT_FALSE(j.contains("name_hex"));
  EXPECT_EQ(j.dump(), "{\"name\":\"caf\xc3\xa9 \\\\ \\u0000\x7f\"}");
  EXPECT_EQ(text_from_json(j, "name", "name"), "caf\xc3\xa9 \\ \x00\x7f"s);
}

TEST(JsonText, OtherBytesAreEscapedWithTheExactBytesBeside) {
  Json j;
  put_text(j, "name", kHostile);
  EXPECT_EQ(j["name"], R"(a\x00b\x7fc\xe9d\xffe\xe2\x82)");
  EXPECT_EQ(j["name_hex"], "6100627f63e964ff65e282");
  const std::string dumped = j.dump();  // valid JSON: no type_error 316
  EXPECT_EQ(text_from_json(parse_json(dumped), "name", "name"), kHostile);
}

TEST(JsonText, AnEditedTextWinsOverTheHex) {
  Json j;
  put_text(j, "name", "\xff"s);
  j["name"] = "renamed";
  EXPECT_EQ(text_from_json(j, "name", "name"), "renamed");
}

TEST(JsonText, WrongShapesAreErrors) {
  EXPECT_THROW(text_from_json(Json{{"name", 1}}, "name", "name"), Error);
  EXPECT_THROW(text_from_json(Json{{"name", "x"}, {"name_hex", "zz"}}, "name", "name"), Error);
  EXPECT_THROW(text_from_json(Json::object(), "name", "name"), Error);
}

}  // namespace
}  // namespace animkit

namespace animkit {
namespace {

// The neutral JSON writer and reader: joint, clip and event names keep every byte.
TEST(JsonText, NeutralJsonNamesRoundTrip) {
  Animated a = synthetic_arm();
  a.skeleton.names[1] = kHostile;
  a.clips[0].name = "clip" + kHostile;
  a.clips[0].events.push_back({0.5f, "event" + kHostile, "{}"});
  const std::string text = to_json(a).dump();  // no type_error 316
  const Animated b = animated_from_json(parse_json(text, "arm.json"));
  EXPECT_EQ(b.skeleton.names[1], kHostile);
  EXPECT_EQ(b.clips[0].name, "clip" + kHostile);
  EXPECT_EQ(b.clips[0].events.back().name, "event" + kHostile);
  EXPECT_EQ(to_json(b).dump(), text);
}

TEST(JsonText, ApplyTextRuleRewritesEveryBadString) {
  Json j{{"a", "ok"}, {"b", kHostile}, {"list", {"x", kHostile}}, {"nested", {{kHostile, 1}}}};
  const std::string out = dump_json(j);
  const Json k = parse_json(out, "out");
  EXPECT_EQ(text_from_json(k, "b", "b"), kHostile);
  EXPECT_EQ(k["list_hex"][0], "");
  EXPECT_EQ(text_from_json(k["list"][1], &k["list_hex"][1], "list"), kHostile);
  EXPECT_EQ(k["nested"].begin().key(), printable(kHostile));
  Json clean{{"a", "caf\xc3\xa9"}};
  EXPECT_EQ(dump_json(clean), clean.dump());
}

// The bytes come back from the text a writer printed for them with the backslash kept (Shadow of
// War's dumps, Windows paths as written) as from the core rule's text; an edited text wins.
TEST(JsonText, HexReadBesideTheBackslashKeptText) {
  const std::string bytes("orc\\run\xe9", 8);
  const Json hex = to_hex({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  const std::string kept = printable(bytes, Keep::kUtf8, Backslash::kKept);
  EXPECT_EQ(kept, "orc\\run\\xe9");
  EXPECT_EQ(text_from_json(Json(kept), &hex, "name"), bytes);
  EXPECT_EQ(text_from_json(Json(json_text(bytes)), &hex, "name"), bytes);
  EXPECT_EQ(text_from_json(Json("orc_walk"), &hex, "name"), "orc_walk");
}

}  // namespace
}  // namespace animkit
