// JSON helpers shared by every module: float32 values printed with the shortest digits that
// round-trip the float (DESIGN.md principle 5), vectors as arrays.
#pragma once

#include <nlohmann/json.hpp>

#include "animkit/core/math.h"

namespace animkit {

using Json = nlohmann::ordered_json;  // keys in insertion order: deterministic output

// The double whose shortest decimal form is the float's shortest form (0.8f -> 0.8, not
// 0.800000011920929), so JSON output reads as the float and parses back to the same float.
double json_float(float v);
Json to_json(Vec3 v);
Json to_json(Quat q);  // [x, y, z, w]
Json to_json(const Transform& t);
Json to_json(const Mat4& m);  // 16 numbers, column-major
// A number that fits a float32 (throws animkit::Error naming `what` otherwise).
float float_from_json(const Json& j, const char* what);
// Readers for the same shapes; throw animkit::Error naming `what` on a wrong shape.
Vec3 vec3_from_json(const Json& j, const char* what);
Quat quat_from_json(const Json& j, const char* what);

// Human-readable rendering of a JSON document for the text form of info / dump.
std::string to_text(const Json& j);

}  // namespace animkit
