#include "animkit/monster_hunter/fit.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "animkit/monster_hunter/playback.h"

namespace animkit::monster_hunter {

namespace {

constexpr double kPi = std::numbers::pi;

double nearest_turn(double angle, double reference) {
  return angle + 2 * kPi * std::round((reference - angle) / (2 * kPi));
}

// The longest segment a fit may try (bounds the greedy's cost on long flat channels).
constexpr int kMaxSegment = 1024;

struct Segment {
  int16_t out0 = 0, in1 = 0;  // raw slopes, per frame
  double error = 0;
};

// The engine's value inside a segment (playback's hermite, on the dequantized keys).
float segment_value(uint16_t bit, int a, int16_t va, int16_t out0, int b, int16_t vb, int16_t in1,
                    double f) {
  return hermite(static_cast<float>(f), static_cast<float>(a), dequantize(bit, va),
                 dequantize(bit, out0), static_cast<float>(b), dequantize(bit, vb),
                 dequantize(bit, in1));
}

// The extra points with a <= frame <= b.
std::span<const CurvePoint> points_in(std::span<const CurvePoint> extra, int a, int b) {
  const auto lo = std::lower_bound(extra.begin(), extra.end(), static_cast<double>(a),
                                   [](const CurvePoint& p, double f) { return p.frame < f; });
  const auto hi = std::upper_bound(lo, extra.end(), static_cast<double>(b),
                                   [](double f, const CurvePoint& p) { return f < p.frame; });
  return {lo, hi};
}

Segment fit_segment(uint16_t bit, std::span<const double> y, std::span<const CurvePoint> extra,
                    int a, int b, int16_t va, int16_t vb) {
  const double x0 = dequantize(bit, va), x1 = dequantize(bit, vb);
  const double span = b - a;
  const double chord = (x1 - x0) / span;
  // Least squares for the two slopes over the frames inside, pulled towards the chord by a small
  // ridge so that a segment with fewer than two inside frames is still determined.
  const double ridge = 1e-6 * span;
  double a00 = ridge, a01 = 0, a11 = ridge, r0 = ridge * chord, r1 = ridge * chord;
  const auto add = [&](double f, double value) {
    const double s = (f - a) / span, d = f - a;
    const double h00 = 1 - 3 * s * s + 2 * s * s * s, h01 = 3 * s * s - 2 * s * s * s;
    const double g0 = d * (1 - s) * (1 - s), g1 = d * (s * s - s);
    const double r = value - (x0 * h00 + x1 * h01);
    a00 += g0 * g0;
    a01 += g0 * g1;
    a11 += g1 * g1;
    r0 += g0 * r;
    r1 += g1 * r;
  };
  for (int f = a + 1; f < b; ++f) add(f, y[f]);
  const std::span<const CurvePoint> inside = points_in(extra, a, b);
  for (const CurvePoint& p : inside) add(p.frame, p.value);
  const double det = a00 * a11 - a01 * a01;
  double m0 = chord, m1 = chord;
  if (std::fabs(det) > 1e-300) {
    m0 = (r0 * a11 - r1 * a01) / det;
    m1 = (a00 * r1 - a01 * r0) / det;
  }
  Segment seg;
  seg.out0 = quantize(bit, m0);
  seg.in1 = quantize(bit, m1);
  for (int f = a; f <= b; ++f) {
    const double v = segment_value(bit, a, va, seg.out0, b, vb, seg.in1, f);
    seg.error = std::max(seg.error, std::fabs(v - y[f]));
  }
  for (const CurvePoint& p : inside) {
    const double v = segment_value(bit, a, va, seg.out0, b, vb, seg.in1, p.frame);
    seg.error = std::max(seg.error, std::fabs(v - p.value));
  }
  return seg;
}

}  // namespace

std::array<double, 3> euler_of(Quat q, const std::array<double, 3>& ref) {
  double x = q.x, y = q.y, z = q.z, w = q.w;
  const double n = std::sqrt(x * x + y * y + z * z + w * w);
  if (n > 0) x /= n, y /= n, z /= n, w /= n;
  const double r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - w * z), r02 = 2 * (x * z + w * y);
  const double r10 = 2 * (x * y + w * z);
  const double r20 = 2 * (x * z - w * y), r21 = 2 * (y * z + w * x), r22 = 1 - 2 * (x * x + y * y);
  const double sy = std::clamp(-r20, -1.0, 1.0);
  const double cy = std::hypot(r00, r10);
  if (cy < 1e-9) {
    // Gimbal lock: only x - z (y = +pi/2) or x + z (y = -pi/2) is determined.
    std::array<double, 3> e;
    e[0] = ref[0];
    if (sy > 0) {
      e[1] = kPi / 2;
      e[2] = e[0] - std::atan2(r01, r02);
    } else {
      e[1] = -kPi / 2;
      e[2] = std::atan2(-r01, -r02) - e[0];
    }
    e[1] = nearest_turn(e[1], ref[1]);
    e[2] = nearest_turn(e[2], ref[2]);
    return e;
  }
  const double ex = std::atan2(r21, r22), ey = std::atan2(sy, cy), ez = std::atan2(r10, r00);
  std::array<double, 3> best{};
  double best_distance = INFINITY;
  for (const std::array<double, 3>& c :
       {std::array<double, 3>{ex, ey, ez}, std::array<double, 3>{ex + kPi, kPi - ey, ez + kPi}}) {
    std::array<double, 3> e;
    double distance = 0;
    for (int i = 0; i < 3; ++i) {
      e[i] = nearest_turn(c[i], ref[i]);
      distance += std::fabs(e[i] - ref[i]);
    }
    if (distance < best_distance) best_distance = distance, best = e;
  }
  return best;
}

std::vector<Keyframe> fit_channel(uint16_t bit, std::span<const double> y, double tolerance,
                                  std::span<const CurvePoint> extra) {
  std::vector<Keyframe> keys;
  if (y.empty()) return keys;
  const int n = static_cast<int>(y.size()) - 1;
  std::vector<int16_t> raw(y.size());
  for (size_t f = 0; f < y.size(); ++f) raw[f] = quantize(bit, y[f]);
  keys.push_back({raw[0], 0, 0, 0});
  int a = 0;
  while (a < n) {
    // The farthest end found by galloping (1, 2, 4, ... frames) then halving back: O(L log L)
    // per segment of L frames. A segment that fits is always taken whole, so the result is
    // within tolerance even where a longer one would fit again after a shorter one fails.
    const auto fits = [&](int b, Segment& seg) {
      seg = fit_segment(bit, y, extra, a, b, raw[a], raw[b]);
      return seg.error <= tolerance;
    };
    const int limit = std::min(n, a + kMaxSegment);
    int good = a + 1;
    Segment best = fit_segment(bit, y, extra, a, a + 1, raw[a], raw[a + 1]);
    Segment seg;
    int step = 1, bad = limit + 1;
    while (good + step <= limit) {
      if (!fits(good + step, seg)) {
        bad = good + step;
        break;
      }
      good += step;
      best = seg;
      step *= 2;
    }
    if (bad == limit + 1 && good < limit && fits(limit, seg)) {
      good = limit;
      best = seg;
    } else {
      int hi = std::min(bad, limit + 1);
      while (hi - good > 1) {
        const int mid = good + (hi - good) / 2;
        if (fits(mid, seg)) {
          good = mid;
          best = seg;
        } else {
          hi = mid;
        }
      }
    }
    keys.back().ease_out = best.out0;
    keys.push_back({raw[good], static_cast<int16_t>(good), best.in1, 0});
    a = good;
  }
  return keys;
}

std::optional<std::vector<Keyframe>> fit_at_frames(uint16_t bit, std::span<const double> y,
                                                   double tolerance, std::span<const int> frames,
                                                   std::span<const CurvePoint> extra) {
  const int n = static_cast<int>(y.size()) - 1;
  if (frames.empty() || n < 0) return std::nullopt;
  for (size_t i = 0; i < frames.size(); ++i)
    if (frames[i] < 0 || frames[i] > n || (i > 0 && frames[i] <= frames[i - 1])) return std::nullopt;
  Channel c;
  c.bit = bit;
  for (int f : frames) c.keys.push_back({quantize(bit, y[f]), static_cast<int16_t>(f), 0, 0});
  for (size_t i = 0; i + 1 < frames.size(); ++i) {
    const Segment seg = fit_segment(bit, y, extra, frames[i], frames[i + 1], c.keys[i].value,
                                    c.keys[i + 1].value);
    if (!(seg.error <= tolerance)) return std::nullopt;
    c.keys[i].ease_out = seg.out0;
    c.keys[i + 1].ease_in = seg.in1;
  }
  // Before the first key and after the last the value holds.
  if (!(channel_error(c, y, extra) <= tolerance)) return std::nullopt;
  return c.keys.to_vector();
}

double channel_error(const Channel& channel, std::span<const double> samples,
                     std::span<const CurvePoint> extra) {
  double error = 0;
  if (channel.keys.empty()) {
    for (double v : samples) error = std::max(error, std::fabs(v));
    for (const CurvePoint& p : extra) error = std::max(error, std::fabs(p.value));
    return error;
  }
  const ChannelCurve curve = make_curve(channel);
  uint32_t cursor = 0;
  for (size_t f = 0; f < samples.size(); ++f) {
    const double v = sample(curve, static_cast<float>(f), &cursor);
    error = std::max(error, std::fabs(v - samples[f]));
  }
  for (const CurvePoint& p : extra)
    error = std::max(error, std::fabs(sample(curve, static_cast<float>(p.frame)) - p.value));
  return error;
}

}  // namespace animkit::monster_hunter
