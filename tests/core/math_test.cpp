#include "animkit/core/math.h"
#include "animkit/core/rotation_angle.h"

#include <gtest/gtest.h>

#include <numbers>

namespace animkit {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

void ExpectQuatNear(Quat a, Quat b, float eps = 1e-6f) {
  EXPECT_NEAR(a.x, b.x, eps);
  EXPECT_NEAR(a.y, b.y, eps);
  EXPECT_NEAR(a.z, b.z, eps);
  EXPECT_NEAR(a.w, b.w, eps);
}

void ExpectVecNear(Vec3 a, Vec3 b, float eps = 1e-6f) {
  EXPECT_NEAR(a.x, b.x, eps);
  EXPECT_NEAR(a.y, b.y, eps);
  EXPECT_NEAR(a.z, b.z, eps);
}

TEST(Math, RotateAboutZByQuarterTurn) {
  const Quat q = axis_angle({0, 0, 1}, kPi / 2);
  ExpectVecNear(rotate(q, {1, 0, 0}), {0, 1, 0});
}

TEST(Math, ProductAppliesRightOperandFirst) {
  const Quat qx = axis_angle({1, 0, 0}, kPi / 2);
  const Quat qz = axis_angle({0, 0, 1}, kPi / 2);
  // x axis: qx leaves it, then qz takes it to y.
  ExpectVecNear(rotate(qz * qx, {1, 0, 0}), {0, 1, 0});
  // qx first would be the other order: x stays x under qx after qz takes it to y -> z.
  ExpectVecNear(rotate(qx * qz, {1, 0, 0}), {0, 0, 1});
}

TEST(Math, ConjugateUndoesRotation) {
  const Quat q = normalize({0.3f, -0.2f, 0.5f, 0.8f});
  ExpectVecNear(rotate(conjugate(q), rotate(q, {0.4f, 1.5f, -2})), {0.4f, 1.5f, -2}, 1e-5f);
}

TEST(Math, NlerpFlipsToTheNearHemisphere) {
  const Quat a = Quat::identity();
  const Quat b = -axis_angle({0, 1, 0}, 0.2f);  // same rotation, far hemisphere
  const Quat mid = nlerp(a, b, 0.5f);
  ExpectQuatNear(mid, axis_angle({0, 1, 0}, 0.1f), 1e-4f);
  EXPECT_GT(mid.w, 0);
}

TEST(Math, SlerpClampsItsFactor) {
  const Quat a = Quat::identity();
  const Quat b = axis_angle({0, 1, 0}, 1.0f);
  ExpectQuatNear(slerp(a, b, -0.5f), a);
  ExpectQuatNear(slerp(a, b, 1.5f), b);
  ExpectQuatNear(slerp(a, b, 0.25f), axis_angle({0, 1, 0}, 0.25f), 1e-6f);
}

TEST(Math, EulerOrderXYZAppliesXThenYThenZ) {
  const Vec3 angles{kPi / 2, kPi / 2, 0};
  // y axis: X takes it to z, Y then takes z to x.
  ExpectVecNear(rotate(euler_to_quat(angles, EulerOrder::kXYZ), {0, 1, 0}), {1, 0, 0}, 1e-6f);
  // In ZYX order Y first takes y to y, then X takes y to z.
  ExpectVecNear(rotate(euler_to_quat(angles, EulerOrder::kZYX), {0, 1, 0}), {0, 0, 1}, 1e-6f);
}

TEST(Math, ComposeMatchesMatrices) {
  const Transform parent{{1, 2, 3}, axis_angle({0, 0, 1}, 0.7f), {2, 2, 2}};
  const Transform child{{0.5f, -1, 0.25f}, axis_angle({1, 0, 0}, -0.3f), {1, 1, 1}};
  const Transform c = compose(parent, child);
  const Mat4 m = to_matrix(parent) * to_matrix(child);
  ExpectVecNear(c.translation, m.translation(), 1e-5f);
  ExpectQuatNear(c.rotation, rotation_of(m), 1e-5f);
}

TEST(Math, InverseAffineIsInverse) {
  const Mat4 m = to_matrix({{1, 2, 3}, normalize({0.1f, 0.7f, -0.2f, 0.6f}), {1.5f, 0.5f, 2}});
  const Mat4 i = m * inverse_affine(m);
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(i.at(r, c), r == c ? 1.f : 0.f, 1e-5f);
  }
}

TEST(Math, NormalizeOfZeroOrNaNIsIdentity) {
  EXPECT_EQ(normalize(Quat{0, 0, 0, 0}), Quat::identity());
  EXPECT_EQ(normalize(Quat{std::nanf(""), 0, 0, 1}), Quat::identity());
}

}  // namespace
}  // namespace animkit

namespace animkit {
namespace {

// Issue 32, item 4: the one rotation error is the real angle (Warriors measured half of it).
TEST(Math, RotationAngleIsTheAngleOfTheRotation) {
  const Quat quarter = axis_angle({0, 0, 1}, std::numbers::pi_v<float> / 2);
  EXPECT_NEAR(rotation_angle(Quat::identity(), quarter), std::numbers::pi / 2, 1e-6);
  EXPECT_NEAR(rotation_angle(quarter, -quarter), 0, 1e-7);      // either sign
  EXPECT_NEAR(rotation_angle(Quat::identity(), -quarter), std::numbers::pi / 2, 1e-6);
  EXPECT_NEAR(rotation_angle(Quat::identity(), Quat{1, 0, 0, 0}), std::numbers::pi, 1e-6);  // a half turn
  // Near 0, where 2 acos of a float dot product is off by ~1e-3 rad.
  const Quat tiny = axis_angle({1, 0, 0}, 1e-4f);
  EXPECT_NEAR(rotation_angle(Quat::identity(), tiny), 1e-4, 1e-7);
  // Unnormalised inputs are normalised first.
  EXPECT_NEAR(rotation_angle(Quat{0, 0, 0, 3}, Quat{0, 0, 2 * quarter.z, 2 * quarter.w}), std::numbers::pi / 2, 1e-6);
}

}  // namespace
}  // namespace animkit
