#include "animkit/core/clip.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace animkit {
namespace {

Clip OneJoint() {
  Clip c;
  c.name = "c";
  c.duration = 1;
  c.joints.resize(1);
  return c;
}

TEST(Clip, EmptyClipIsValid) {
  Clip c = OneJoint();
  EXPECT_EQ(c.validate(1), "");
  c.duration = 0;  // zero duration too
  EXPECT_EQ(c.validate(1), "");
}

TEST(Clip, JointCountMustMatch) { EXPECT_NE(OneJoint().validate(2), ""); }

TEST(Clip, NaNKeysAreRejected) {
  Clip c = OneJoint();
  c.joints[0].translation.add(0, {std::nanf(""), 0, 0});
  EXPECT_NE(c.validate(1).find("not finite"), std::string::npos);
  Clip d = OneJoint();
  d.joints[0].rotation.add(std::numeric_limits<float>::infinity(), {});
  EXPECT_NE(d.validate(1), "");
}

TEST(Clip, DenormalKeysAreAccepted) {
  Clip c = OneJoint();
  const float tiny = std::numeric_limits<float>::denorm_min();
  c.joints[0].translation.add(0, {tiny, -tiny, 0});
  c.joints[0].translation.add(tiny, {0, 0, tiny});
  EXPECT_EQ(c.validate(1), "");
}

TEST(Clip, TimesMustIncrease) {
  Clip c = OneJoint();
  c.joints[0].scale.add(0.5f, {1, 1, 1});
  c.joints[0].scale.add(0.5f, {1, 1, 1});
  EXPECT_NE(c.validate(1).find("does not follow"), std::string::npos);
}

TEST(Clip, HermiteNeedsSlopes) {
  Clip c = OneJoint();
  c.joints[0].translation.interpolation = Interpolation::kHermite;
  c.joints[0].translation.add(0, {});
  EXPECT_NE(c.validate(1), "");
  c.joints[0].translation.in_slopes.push_back({});
  c.joints[0].translation.out_slopes.push_back({});
  EXPECT_EQ(c.validate(1), "");
}

TEST(Clip, NegativeDurationIsRejected) {
  Clip c = OneJoint();
  c.duration = -1;
  EXPECT_NE(c.validate(1), "");
}

}  // namespace
}  // namespace animkit
