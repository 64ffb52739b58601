// The one JSON reader of the project (issue 31, item 1): every scenario, neutral JSON, engine
// JSON form and description goes through parse_json.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "animkit/core/json_util.h"

namespace animkit {

// Nesting allowed in a document: copying, dumping and walking a value recurse once per level
// (issue 19: a scenario of 40,000 nested tasks overflowed the stack).
inline constexpr int kMaxJsonDepth = 512;

// Parses JSON text in linear time: simdjson's DOM copied into a Json, or, where simdjson refuses
// the text or would read it differently, nlohmann's SAX parser with a depth-counting handler.
// Throws animkit::Error naming `file` and the byte offset of a syntax error, or of the first
// '[' / '{' that opens level kMaxJsonDepth + 1. (registry.h declares it too, with file = {}:
// every module reaches it through the registry.)
Json parse_json(std::string_view text, const std::string& file);

// The offset of the '[' or '{' that opens level kMaxJsonDepth + 1 in JSON text (strings skipped),
// or nothing: a linear scan for readers that hand the text to another parser (tinygltf's has no
// depth limit: issue 32, item 5).
std::optional<uint64_t> json_too_deep_at(std::string_view text);

// The exact path alone (nlohmann's SAX parser, depth-limited; throws nlohmann's exceptions):
// for the benchmark and the tests that compare both paths.
Json parse_json_exact(std::string_view text);

}  // namespace animkit
