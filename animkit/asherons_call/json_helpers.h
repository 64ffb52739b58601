// Small JSON helpers shared by the module's JSON forms (ids as hex strings or command names).
#pragma once

#include <cstdint>
#include <string>

#include "animkit/core/json_util.h"

namespace animkit::asherons_call {

// An id written as "0x03000101".
Json hex_json(uint32_t v);
// A motion command written by name when known, else as hex.
Json command_json(uint32_t v);
// Reads a u32 given as a number, a hex string or a command name; throws naming `what`.
uint32_t u32_from_json(const Json& j, const char* what);
// The member `key` of an object (throws naming it when absent).
const Json& member(const Json& j, const char* key);
float float_from_json(const Json& j, const char* what);
int64_t int_from_json(const Json& j, const char* what, int64_t lo, int64_t hi);

}  // namespace animkit::asherons_call
