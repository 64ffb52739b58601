#include "animkit/core/math.h"

namespace animkit {

Vec3 rotate(Quat q, Vec3 v) {
  // v' = v + 2w (u x v) + 2 u x (u x v), with u the vector part.
  const Vec3 u{q.x, q.y, q.z};
  const Vec3 t = cross(u, v) * 2.f;
  return v + t * q.w + cross(u, t);
}

Quat slerp(Quat a, Quat b, float t) {
  t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
  float c = dot(a, b);
  if (c < 0.f) {
    b = -b;
    c = -c;
  }
  if (c > 0.9995f) return nlerp(a, b, t);  // nearly parallel: sin() would lose precision
  const float angle = std::acos(c);
  const float s = std::sin(angle);
  const float wa = std::sin((1.f - t) * angle) / s;
  const float wb = std::sin(t * angle) / s;
  return {a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb};
}

Quat axis_angle(Vec3 axis, float radians) {
  const float s = std::sin(radians * 0.5f);
  return {axis.x * s, axis.y * s, axis.z * s, std::cos(radians * 0.5f)};
}

Quat euler_to_quat(Vec3 r, EulerOrder order) {
  const Quat qx = axis_angle({1, 0, 0}, r.x);
  const Quat qy = axis_angle({0, 1, 0}, r.y);
  const Quat qz = axis_angle({0, 0, 1}, r.z);
  // The first axis applied to the vector stands rightmost in the product.
  switch (order) {
    case EulerOrder::kXYZ: return qz * qy * qx;
    case EulerOrder::kXZY: return qy * qz * qx;
    case EulerOrder::kYXZ: return qz * qx * qy;
    case EulerOrder::kYZX: return qx * qz * qy;
    case EulerOrder::kZXY: return qy * qx * qz;
    case EulerOrder::kZYX: return qx * qy * qz;
  }
  return Quat::identity();
}

Transform compose(const Transform& p, const Transform& c) {
  Transform out;
  out.rotation = normalize(p.rotation * c.rotation);
  out.scale = p.scale * c.scale;
  out.translation = p.translation + rotate(p.rotation, p.scale * c.translation);
  return out;
}

Mat4 to_matrix(const Transform& t) {
  const Quat q = t.rotation;
  const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  Mat4 m;
  m.m = {(1 - 2 * (yy + zz)) * t.scale.x, 2 * (xy + wz) * t.scale.x, 2 * (xz - wy) * t.scale.x, 0,
         2 * (xy - wz) * t.scale.y, (1 - 2 * (xx + zz)) * t.scale.y, 2 * (yz + wx) * t.scale.y, 0,
         2 * (xz + wy) * t.scale.z, 2 * (yz - wx) * t.scale.z, (1 - 2 * (xx + yy)) * t.scale.z, 0,
         t.translation.x, t.translation.y, t.translation.z, 1};
  return m;
}

Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c) {
    for (int row = 0; row < 4; ++row) {
      r.m[c * 4 + row] = a.m[0 * 4 + row] * b.m[c * 4 + 0] + a.m[1 * 4 + row] * b.m[c * 4 + 1] +
                         a.m[2 * 4 + row] * b.m[c * 4 + 2] + a.m[3 * 4 + row] * b.m[c * 4 + 3];
    }
  }
  return r;
}

Mat4 inverse_affine(const Mat4& a) {
  // Invert the upper 3x3 by cofactors, then the translation.
  const float a00 = a.at(0, 0), a01 = a.at(0, 1), a02 = a.at(0, 2);
  const float a10 = a.at(1, 0), a11 = a.at(1, 1), a12 = a.at(1, 2);
  const float a20 = a.at(2, 0), a21 = a.at(2, 1), a22 = a.at(2, 2);
  const float c00 = a11 * a22 - a12 * a21, c01 = a12 * a20 - a10 * a22, c02 = a10 * a21 - a11 * a20;
  const float det = a00 * c00 + a01 * c01 + a02 * c02;
  if (!(std::fabs(det) > 1e-20f)) return Mat4::identity();
  const float inv = 1.f / det;
  Mat4 r;
  r.at(0, 0) = c00 * inv;
  r.at(0, 1) = (a02 * a21 - a01 * a22) * inv;
  r.at(0, 2) = (a01 * a12 - a02 * a11) * inv;
  r.at(1, 0) = c01 * inv;
  r.at(1, 1) = (a00 * a22 - a02 * a20) * inv;
  r.at(1, 2) = (a02 * a10 - a00 * a12) * inv;
  r.at(2, 0) = c02 * inv;
  r.at(2, 1) = (a01 * a20 - a00 * a21) * inv;
  r.at(2, 2) = (a00 * a11 - a01 * a10) * inv;
  const Vec3 t = a.translation();
  for (int row = 0; row < 3; ++row) {
    r.at(row, 3) = -(r.at(row, 0) * t.x + r.at(row, 1) * t.y + r.at(row, 2) * t.z);
  }
  return r;
}

Vec3 transform_point(const Mat4& m, Vec3 p) {
  return {m.at(0, 0) * p.x + m.at(0, 1) * p.y + m.at(0, 2) * p.z + m.at(0, 3),
          m.at(1, 0) * p.x + m.at(1, 1) * p.y + m.at(1, 2) * p.z + m.at(1, 3),
          m.at(2, 0) * p.x + m.at(2, 1) * p.y + m.at(2, 2) * p.z + m.at(2, 3)};
}

Quat rotation_of(const Mat4& m) {
  // Remove the scale of each column, then the standard trace-based extraction.
  float c[3][3];
  for (int col = 0; col < 3; ++col) {
    const Vec3 v{m.at(0, col), m.at(1, col), m.at(2, col)};
    const float len = length(v);
    const float inv = len > 0.f ? 1.f / len : 0.f;
    c[0][col] = v.x * inv;
    c[1][col] = v.y * inv;
    c[2][col] = v.z * inv;
  }
  Quat q;
  const float trace = c[0][0] + c[1][1] + c[2][2];
  if (trace > 0.f) {
    const float s = std::sqrt(trace + 1.f) * 2.f;
    q = {(c[2][1] - c[1][2]) / s, (c[0][2] - c[2][0]) / s, (c[1][0] - c[0][1]) / s, 0.25f * s};
  } else if (c[0][0] > c[1][1] && c[0][0] > c[2][2]) {
    const float s = std::sqrt(1.f + c[0][0] - c[1][1] - c[2][2]) * 2.f;
    q = {0.25f * s, (c[0][1] + c[1][0]) / s, (c[0][2] + c[2][0]) / s, (c[2][1] - c[1][2]) / s};
  } else if (c[1][1] > c[2][2]) {
    const float s = std::sqrt(1.f + c[1][1] - c[0][0] - c[2][2]) * 2.f;
    q = {(c[0][1] + c[1][0]) / s, 0.25f * s, (c[1][2] + c[2][1]) / s, (c[0][2] - c[2][0]) / s};
  } else {
    const float s = std::sqrt(1.f + c[2][2] - c[0][0] - c[1][1]) * 2.f;
    q = {(c[0][2] + c[2][0]) / s, (c[1][2] + c[2][1]) / s, 0.25f * s, (c[1][0] - c[0][1]) / s};
  }
  return normalize(q);
}

}  // namespace animkit
