// parse_json (issue 31, item 1): linear time, the depth limit, errors naming file and offset.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "animkit/core/error.h"
#include "animkit/core/json_read.h"
#include "animkit/core/registry.h"

namespace animkit {
namespace {

std::string nested(int levels) { return std::string(levels, '[') + std::string(levels, ']'); }

TEST(JsonRead, DepthLimitIsKMaxJsonDepth) {
  EXPECT_EQ(kMaxJsonDepth, 512);
  EXPECT_NO_THROW(parse_json(nested(512)));
  try {
    parse_json("{\"a\": " + nested(513) + "}", "deep.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "invalid JSON: nested deeper than 512 levels");
    EXPECT_EQ(e.file(), "deep.json");
    EXPECT_EQ(*e.offset(), 6u + 511u);  // the '[' that opens level 513 (the object is level 1)
  }
}

TEST(JsonRead, BracketsInStringsDoNotCount) {
  const std::string brackets(2000, '[');
  const Json j = parse_json("{\"a\": \"" + brackets + "\\\"" + brackets + "\"}");
  EXPECT_EQ(j["a"].get<std::string>().size(), 4001u);
  // The offset scan after a refusal skips strings too, escaped quotes included.
  try {
    parse_json("[\"[[[\\\"[[\", " + nested(600) + "]");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(*e.offset(), 12u + 511u);
  }
}

TEST(JsonRead, KeepsKeyOrderAndValues) {
  const Json j = parse_json(R"({"b": 1, "a": [true, null, -2, 18446744073709551615, 0.5, "x"]})");
  EXPECT_EQ(j.begin().key(), "b");
  EXPECT_EQ(j.dump(), R"({"b":1,"a":[true,null,-2,18446744073709551615,0.5,"x"]})");
}

TEST(JsonRead, SyntaxErrorNamesFileAndOffset) {
  try {
    parse_json("[{}, {}, }", "t.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), "t.json");
    EXPECT_EQ(*e.offset(), 9u);
  }
  EXPECT_THROW(parse_json(""), Error);
  EXPECT_THROW(parse_json("[1] 2"), Error);
}

// The callback parser took 8.3 s CPU here (quadratic in the siblings); linear it is ~30 ms.
// The bound is generous so a loaded machine or a sanitizer build does not flake.
TEST(JsonRead, TwoHundredThousandEmptyObjectsInLinearTime) {
  std::string text = "[";
  for (int i = 0; i < 200000; ++i) text += i ? ",{}" : "{}";
  text += "]";
  const auto start = std::chrono::steady_clock::now();
  const Json j = parse_json(text);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(j.size(), 200000u);
  EXPECT_LT(seconds, 1.0);
}

}  // namespace
}  // namespace animkit
