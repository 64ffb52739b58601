// parse_json (issue 31, item 1): linear time, the depth limit, errors naming file and offset.
#include <gtest/gtest.h>

#include <ctime>
#include <random>
#include <string>
#include <vector>

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

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
constexpr double kSanitizerSlowdown = 4;
#else
constexpr double kSanitizerSlowdown = 1;
#endif

// CPU seconds since `start` (std::clock): the machine running the tests is shared, wall time is not
// this process's.
double seconds_since(std::clock_t start) { return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC; }

// The fast path (simdjson) and the exact path (nlohmann's SAX) give the same Json, number kinds
// included, or the fast path steps aside; refusals are the exact path's, offsets and all.
TEST(JsonRead, FastPathAgreesWithExactPath) {
  const std::vector<std::string> texts = {
      R"({"b": 1, "a": [true, null, -2, 18446744073709551615, 9223372036854775807, 0.5, "x"]})",
      R"({"k": 1, "k": 2, "j": 3})",          // a repeated key: first place, last value
      R"([-0, -0.0, -0e1, 0, 1e-05, -1E+2])",  // -0 is an integer for nlohmann
      R"(["caf\u00e9", "\ud83d\ude00", "tab\tand\\n"])",
      "\xEF\xBB\xBF[1]",                    // a byte-order mark (nlohmann skips it)
      "[18446744073709551616, 1e308]",      // past uint64: a double
  };
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    const Json exact = parse_json_exact(text);
    const Json fast = parse_json(text);
    EXPECT_EQ(fast.dump(), exact.dump());
    EXPECT_EQ(fast, exact);
  }
  const Json kinds = parse_json("[3, -3, 3.0, -0]");
  EXPECT_TRUE(kinds[0].is_number_unsigned());
  EXPECT_TRUE(kinds[1].is_number_integer() && !kinds[1].is_number_unsigned());
  EXPECT_TRUE(kinds[2].is_number_float());
  EXPECT_TRUE(kinds[3].is_number_integer() && !kinds[3].is_number_float());
  const Json dup = parse_json(R"({"k": 1, "k": 2, "j": 3})");
  EXPECT_EQ(dup.dump(), R"({"k":2,"j":3})");
  // What JSON refuses, both refuse: a raw control byte in a string, bytes that are not UTF-8,
  // a number too large for a double.
  for (const std::string text : {std::string("[\"a\x01z\"]"), std::string("[\"\xff\"]"), std::string("[1e400]")}) {
    EXPECT_THROW(parse_json(text, "t.json"), Error) << text;
  }
}

// A JSON text of random values, with keys drawn from a few so that objects repeat them (also in
// objects of more than 16 members, where the exact path indexes its keys).
std::string random_json(std::mt19937& rng, int depth) {
  const int kind = static_cast<int>(rng() % (depth > 4 ? 5 : 7));
  switch (kind) {
    case 0: return "null";
    case 1: return rng() % 2 ? "true" : "false";
    case 2: return std::to_string(static_cast<int64_t>(rng()) - 2'000'000'000);
    case 3: return std::to_string(rng() % 1000) + "." + std::to_string(rng() % 1000) + "e-" + std::to_string(rng() % 5);
    case 4: return "\"s" + std::to_string(rng() % 100) + "\\n\\u00e9\"";
    case 5: {
      std::string t = "[";
      for (int i = 0, n = static_cast<int>(rng() % 6); i < n; ++i) t += (i ? "," : "") + random_json(rng, depth + 1);
      return t + "]";
    }
    default: {
      std::string t = "{";
      const int n = static_cast<int>(rng() % 3 == 0 ? 10 + rng() % 30 : rng() % 6);
      for (int i = 0; i < n; ++i)
        t += (i ? ",\"k" : "\"k") + std::to_string(rng() % (n / 2 + 1)) + "\": " + random_json(rng, depth + 1);
      return t + "}";
    }
  }
}

// The exact path is nlohmann's own parse (Json::parse), member order, repeated keys (first place,
// last value) and number kinds included, on 2,000 random texts.
TEST(JsonRead, ExactPathIsNlohmannsParse) {
  std::mt19937 rng(29);
  for (int i = 0; i < 2000; ++i) {
    const std::string text = random_json(rng, 0);
    SCOPED_TRACE(text);
    const Json exact = parse_json_exact(text);
    const Json reference = Json::parse(text);
    ASSERT_EQ(exact.dump(), reference.dump());
    ASSERT_EQ(exact, reference);
  }
  for (const char* text : {"[]", "{}", "[[], {}, [{}]]", "7", "\"x\"", "{\"a\": {\"a\": {}, \"a\": [1]}, \"b\": 2, \"a\": 3}"}) {
    EXPECT_EQ(parse_json_exact(text).dump(), Json::parse(text).dump()) << text;
  }
}

// A large object whose keys repeat: the index keeps it linear (ordered_json's lookup is a scan).
TEST(JsonRead, LargeObjectWithRepeatedKeysInLinearTime) {
  std::string text = "{";
  for (int i = 0; i < 100000; ++i) text += (i ? ",\"k" : "\"k") + std::to_string(i % 50000) + "\": " + std::to_string(i);
  text += "}";
  const std::clock_t start = std::clock();
  const Json j = parse_json(text);
  EXPECT_LT(seconds_since(start), 1.0 * kSanitizerSlowdown);
  ASSERT_EQ(j.size(), 50000u);
  EXPECT_EQ(j.begin().key(), "k0");
  EXPECT_EQ(j.begin().value(), 50000);  // first place, last value
  EXPECT_EQ(j.at("k49999"), 99999);
}

// The callback parser took 8.3 s CPU here (quadratic in the siblings); linear it is ~20 ms
// (issue 31: under 0.2 s).
TEST(JsonRead, TwoHundredThousandEmptyObjectsInLinearTime) {
  std::string text = "[";
  for (int i = 0; i < 200000; ++i) text += i ? ",{}" : "{}";
  text += "]";
  const std::clock_t start = std::clock();
  const Json j = parse_json(text);
  const double seconds = seconds_since(start);
  EXPECT_EQ(j.size(), 200000u);
  EXPECT_LT(seconds, 0.2 * kSanitizerSlowdown);
}

}  // namespace
}  // namespace animkit
