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

// One trace line (runtime state after the tick's update). `full_nodes`: the whole node list
// ("nodes"); else (issue 28) only what changed since the sequence's mark_nodes() ("nodes_delta",
// absent when nothing changed), so a trace's size is linear in what changed.
Json trace_json(const PhysicsObj& obj, uint64_t tick, double dt,
                const std::vector<InputRecord>& inputs, bool full_nodes = true);
std::string trace_text(const PhysicsObj& obj, uint64_t tick, double dt,
                       const std::vector<InputRecord>& inputs, bool full_nodes = true);

// Issue 28: the largest magnitude a speed or run rate may have over this table: past
// sqrt(FLT_MAX / max(1, R)), R the table's largest |framerate| or velocity/omega component,
// speed x run rate x R can overflow a float (a speed of 3e38 made the frame rate infinite).
float speed_limit(const MotionTable& table);

// Applies one "do" entry; returns its record. Throws animkit::Error on a bad entry (a speed past
// `limit` names it).
InputRecord apply_do(PhysicsObj& obj, const Json& entry, float limit = 3.4e38f);
// Parses and dispatches one wire message (hex or bytes); speeds past `limit` are refused at
// their offset.
InputRecord apply_wire(PhysicsObj& obj, const std::vector<uint8_t>& bytes, float limit = 3.4e38f);
// Applies {"player": bool, "creature": ..., "contact": ..., ...} to the object.
void apply_object_settings(PhysicsObj& obj, const Json& j, float limit = 3.4e38f);

// Runs a scenario; writes JSON Lines (json) or text. Returns the exit code. The node list is
// written whole on the first line and as a delta after it, unless "full_trace": true. The
// motions applied, the nodes appended and the nodes written count against --max-steps; the
// node list against --max-memory (an error naming the limit).
int play_scenario(const Json& scenario, const std::filesystem::path& base, bool json,
                  std::ostream& out);

}  // namespace animkit::asherons_call
