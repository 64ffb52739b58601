#include "animkit/core/json_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "animkit/core/error.h"

namespace animkit {

double json_float(float v) {
  if (!std::isfinite(v)) return static_cast<double>(v);
  const std::string s = fmt::format("{}", v);  // shortest round-trip form of the float
  return std::strtod(s.c_str(), nullptr);
}

Json to_json(Vec3 v) { return Json::array({json_float(v.x), json_float(v.y), json_float(v.z)}); }
Json to_json(Quat q) {
  return Json::array({json_float(q.x), json_float(q.y), json_float(q.z), json_float(q.w)});
}
Json to_json(const Transform& t) {
  return Json{{"translation", to_json(t.translation)},
              {"rotation", to_json(t.rotation)},
              {"scale", to_json(t.scale)}};
}
Json to_json(const Mat4& m) {
  Json a = Json::array();
  for (float v : m.m) a.push_back(json_float(v));
  return a;
}

float float_from_json(const Json& j, const char* what) {
  if (!j.is_number()) throw Error(fmt::format("{}: expected a number", what));
  const double v = j.get<double>();
  if (!(std::fabs(v) <= 3.4028234663852886e38)) {
    throw Error(fmt::format("{}: {} does not fit a float", what, j.dump()));
  }
  return static_cast<float>(v);
}

namespace {
float number(const Json& j, const char* what) { return float_from_json(j, what); }
}  // namespace

Vec3 vec3_from_json(const Json& j, const char* what) {
  if (!j.is_array() || j.size() != 3) throw Error(fmt::format("{}: expected [x, y, z]", what));
  return {number(j[0], what), number(j[1], what), number(j[2], what)};
}

Quat quat_from_json(const Json& j, const char* what) {
  if (!j.is_array() || j.size() != 4) throw Error(fmt::format("{}: expected [x, y, z, w]", what));
  return {number(j[0], what), number(j[1], what), number(j[2], what), number(j[3], what)};
}

namespace {
void render(const Json& j, const std::string& indent, std::string& out) {
  size_t index = 0;
  for (auto it = j.begin(); it != j.end(); ++it, ++index) {
    const Json& v = it.value();
    const std::string key = j.is_object() ? it.key() : fmt::format("[{}]", index);
    const bool small_array = v.is_array() && v.size() <= 16 &&
                             std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_primitive(); });
    if (v.is_structured() && !small_array && !v.empty()) {
      out += indent + key + ":\n";
      render(v, indent + "  ", out);
    } else {
      out += indent + key + ": " + (v.is_string() ? v.get<std::string>() : v.dump()) + "\n";
    }
  }
}
}  // namespace

std::string to_text(const Json& j) {
  if (!j.is_structured()) return (j.is_string() ? j.get<std::string>() : j.dump()) + "\n";
  std::string out;
  render(j, "", out);
  return out;
}

}  // namespace animkit
