#include "animkit/core/local_to_model_job.h"

#include <gtest/gtest.h>

namespace animkit {
namespace {

TEST(LocalToModel, ChainMatchesCompose) {
  Skeleton s;
  s.add_joint("a", -1, {{0, 1, 0}, axis_angle({0, 0, 1}, 0.5f), {1, 1, 1}});
  s.add_joint("b", 0, {{0, 2, 0}, axis_angle({1, 0, 0}, -0.25f), {2, 2, 2}});
  s.add_joint("c", 1, {{1, 0, 0}, axis_angle({0, 1, 0}, 1.25f), {1, 1, 1}});
  std::vector<Mat4> model(3);
  ASSERT_TRUE((LocalToModelJob{&s, s.rest, nullptr, model}.run()));
  const Transform expected = compose(compose(s.rest[0], s.rest[1]), s.rest[2]);
  const Vec3 p = model[2].translation();
  EXPECT_NEAR(p.x, expected.translation.x, 1e-5f);
  EXPECT_NEAR(p.y, expected.translation.y, 1e-5f);
  EXPECT_NEAR(p.z, expected.translation.z, 1e-5f);
  const Quat q = rotation_of(model[2]);
  EXPECT_NEAR(std::fabs(dot(q, expected.rotation)), 1.f, 1e-5f);
  // General 4x4 product agrees with the affine fast path.
  const Mat4 full = to_matrix(s.rest[0]) * to_matrix(s.rest[1]) * to_matrix(s.rest[2]);
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(model[2].m[i], full.m[i], 1e-5f);
}

TEST(LocalToModel, RootPlacementAppliesToRoots) {
  Skeleton s;
  s.add_joint("a", -1, {{1, 0, 0}, {}, {1, 1, 1}});
  const Mat4 root = to_matrix({{0, 0, 5}, {}, {1, 1, 1}});
  std::vector<Mat4> model(1);
  ASSERT_TRUE((LocalToModelJob{&s, s.rest, &root, model}.run()));
  EXPECT_EQ(model[0].translation(), (Vec3{1, 0, 5}));
}

TEST(LocalToModel, ValidateRejectsShortOutput) {
  Skeleton s;
  s.add_joint("a", -1, {});
  s.add_joint("b", 0, {});
  std::vector<Mat4> model(1);
  EXPECT_FALSE((LocalToModelJob{&s, s.rest, nullptr, model}.validate()));
  EXPECT_FALSE((LocalToModelJob{nullptr, s.rest, nullptr, model}.validate()));
}

}  // namespace
}  // namespace animkit
