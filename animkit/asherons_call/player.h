// `animkit play` for "engine": "asherons_call": a remote character driven by wire messages and
// direct commands, traced per tick (README.md gives the scenario and trace formats).
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "animkit/asherons_call/physics_obj.h"
#include "animkit/asherons_call/wire.h"
#include "animkit/core/json_util.h"

namespace animkit::asherons_call {

// What a tick's inputs did, for the trace.
struct InputRecord {
  std::string kind;  // "wire", "motion", "stop", ...
  uint32_t motion = 0;
  uint32_t result = 0;      // the interpreter's return code
  std::string wire_result;  // for wire messages
  std::vector<WireCommand> commands;  // for wire messages: the restored 16-bit commands
};

// The restored commands of a wire message: [{field, wire, id, name, fallback?}].
Json wire_commands_json(const std::vector<WireCommand>& commands);

// One trace line (runtime state after the tick's update).
Json trace_json(const PhysicsObj& obj, uint64_t tick, double dt,
                const std::vector<InputRecord>& inputs);
std::string trace_text(const PhysicsObj& obj, uint64_t tick, double dt,
                       const std::vector<InputRecord>& inputs);

// Applies one "do" entry; returns its record. Throws animkit::Error on a bad entry.
InputRecord apply_do(PhysicsObj& obj, const Json& entry);
// Parses and dispatches one wire message (hex or bytes).
InputRecord apply_wire(PhysicsObj& obj, const std::vector<uint8_t>& bytes);
// Applies {"player": bool, "creature": ..., "contact": ..., ...} to the object.
void apply_object_settings(PhysicsObj& obj, const Json& j);

// Runs a scenario; writes JSON Lines (json) or text. Returns the exit code.
int play_scenario(const Json& scenario, const std::filesystem::path& base, bool json,
                  std::ostream& out);

}  // namespace animkit::asherons_call
