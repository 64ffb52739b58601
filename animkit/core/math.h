// Engine-neutral maths: float32 vectors, quaternions, transforms and matrices.
// Quaternions are (x, y, z, w); matrices are column-major (glTF's order).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace animkit {

struct Vec3 {
  float x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

struct Quat {
  float x = 0, y = 0, z = 0, w = 1;
  static constexpr Quat identity() { return {0, 0, 0, 1}; }
  friend bool operator==(const Quat&, const Quat&) = default;
};

struct Transform {
  Vec3 translation{};
  Quat rotation{};
  Vec3 scale{1, 1, 1};
  static constexpr Transform identity() { return {}; }
  friend bool operator==(const Transform&, const Transform&) = default;
};

// Column-major 4x4: m[column * 4 + row].
struct Mat4 {
  std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  static Mat4 identity() { return {}; }
  float& at(int row, int col) { return m[col * 4 + row]; }
  float at(int row, int col) const { return m[col * 4 + row]; }
  Vec3 translation() const { return {m[12], m[13], m[14]}; }
  friend bool operator==(const Mat4&, const Mat4&) = default;
};

// The order in which Euler rotations apply to a vector: kXYZ rotates about X first, then Y, then
// Z, so q = qz * qy * qx (Monster Hunter's Rz * Ry * Rx is kXYZ).
enum class EulerOrder : uint8_t { kXYZ, kXZY, kYXZ, kYZX, kZXY, kZYX };

// ---- Vec3 -----------------------------------------------------------------------------------
inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline Vec3 operator*(Vec3 a, Vec3 b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(Vec3 a) { return std::sqrt(dot(a, a)); }
inline Vec3 lerp(Vec3 a, Vec3 b, float t) {
  return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t};
}

// ---- Quat -----------------------------------------------------------------------------------
inline float dot(Quat a, Quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
inline Quat operator-(Quat q) { return {-q.x, -q.y, -q.z, -q.w}; }
inline Quat conjugate(Quat q) { return {-q.x, -q.y, -q.z, q.w}; }
// The unit quaternion in q's direction; identity for a zero or non-finite input.
inline Quat normalize(Quat q) {
  const float n2 = dot(q, q);
  if (!(n2 > 0.f && n2 < INFINITY)) return Quat::identity();
  const float inv = 1.f / std::sqrt(n2);
  return {q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}
// Hamilton product: (a * b) applied to v rotates by b first, then by a.
inline Quat operator*(Quat a, Quat b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
          a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
// Rotates v by the unit quaternion q.
Vec3 rotate(Quat q, Vec3 v);
// Component lerp towards b (or -b when the two lie in opposite hemispheres), then normalised.
inline Quat nlerp(Quat a, Quat b, float t) {
  const float s = dot(a, b) < 0.f ? -t : t;
  const float r = 1.f - t;
  return normalize({a.x * r + b.x * s, a.y * r + b.y * s, a.z * r + b.z * s, a.w * r + b.w * s});
}
// Spherical interpolation on the shorter arc; t is clamped to [0, 1].
Quat slerp(Quat a, Quat b, float t);
Quat axis_angle(Vec3 unit_axis, float radians);
// Euler angles (radians, one per axis) into a quaternion in the given application order.
Quat euler_to_quat(Vec3 radians, EulerOrder order);

// ---- Transform / Mat4 -----------------------------------------------------------------------
// parent * child: the child's transform expressed in the parent's space (scale not sheared).
Transform compose(const Transform& parent, const Transform& child);
Mat4 to_matrix(const Transform& t);
Mat4 operator*(const Mat4& a, const Mat4& b);
// r = a * b for affine matrices (bottom row 0 0 0 1): 36 multiplies instead of 64. r may not
// alias a or b.
inline void mul_affine(const Mat4& a, const Mat4& b, Mat4& r) {
  const float* x = a.m.data();
  const float* y = b.m.data();
  float* o = r.m.data();
  for (int c = 0; c < 4; ++c) {
    const float b0 = y[c * 4], b1 = y[c * 4 + 1], b2 = y[c * 4 + 2];
    o[c * 4 + 0] = x[0] * b0 + x[4] * b1 + x[8] * b2;
    o[c * 4 + 1] = x[1] * b0 + x[5] * b1 + x[9] * b2;
    o[c * 4 + 2] = x[2] * b0 + x[6] * b1 + x[10] * b2;
    o[c * 4 + 3] = 0.f;
  }
  o[12] += x[12];
  o[13] += x[13];
  o[14] += x[14];
  o[15] = 1.f;
}
// Inverse of an affine matrix (rotation, scale, translation); identity when singular.
Mat4 inverse_affine(const Mat4& a);
Vec3 transform_point(const Mat4& m, Vec3 p);
// The rotation part of a matrix without scale, as a unit quaternion.
Quat rotation_of(const Mat4& m);

}  // namespace animkit
