#include "animkit/core/neutral_json.h"

#include <gtest/gtest.h>

#include "animkit/core/synthetic.h"

namespace animkit {
namespace {

TEST(NeutralJson, RoundTripsTheSyntheticArm) {
  const Animated a = synthetic_arm();
  const Json j = to_json(a);
  const Animated b = animated_from_json(parse_json(j.dump()));
  EXPECT_EQ(to_json(b), j);
  ASSERT_EQ(b.clips.size(), a.clips.size());
  EXPECT_EQ(b.clips[1].joints[0].translation.interpolation, Interpolation::kHermite);
  EXPECT_EQ(b.clips[1].joints[0].translation.out_slopes[0].y, 0.6f);
  EXPECT_EQ(b.clips[0].events[0].name, "apex");
}

TEST(NeutralJson, FloatsPrintAsTheFloatReads) {
  EXPECT_EQ(Json(json_float(0.8f)).dump(), "0.8");
  EXPECT_EQ(Json(json_float(0.033333335f)).dump(), "0.033333335");
  EXPECT_EQ(static_cast<float>(json_float(1.f / 3)), 1.f / 3);
}

TEST(NeutralJson, RejectsUnknownJointAndBadShapes) {
  Json j = to_json(synthetic_arm());
  j["clips"][0]["tracks"][0]["joint"] = "nose";
  EXPECT_THROW(animated_from_json(j), Error);
  Json k = to_json(synthetic_arm());
  k["clips"][0]["tracks"][0]["values"][0] = Json::array({1, 2});
  EXPECT_THROW(animated_from_json(k), Error);
  Json m = to_json(synthetic_arm());
  m["skeleton"]["joints"][1]["parent"] = 3;
  EXPECT_THROW(animated_from_json(m), Error);
  EXPECT_THROW(animated_from_json(Json::array()), Error);
}

TEST(NeutralJson, NumbersOutOfRangeAreErrorsNotCrashes) {
  EXPECT_THROW(parse_json(R"({"a": 0.1e9866931})"), Error);  // overflows a double
  Json j = to_json(synthetic_arm());
  j["clips"][0]["duration"] = 1e300;  // fits a double, not a float
  EXPECT_THROW(animated_from_json(j), Error);
  Json k = to_json(synthetic_arm());
  k["skeleton"]["joints"][1]["parent"] = 1e30;
  EXPECT_THROW(animated_from_json(k), Error);
}

TEST(NeutralJson, SyntaxErrorsNameTheOffset) {
  try {
    parse_json("{\"a\": [1, 2,, 3]}", "t.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), "t.json");
    EXPECT_EQ(*e.offset(), 12u);
  }
}

}  // namespace
}  // namespace animkit
