// The .anix file as JSON both ways: `dump --json` (every structure by the spec's names, every
// byte: name tails, padding, gaps) and `sow build` (the same JSON back to the struct, written by
// write_anix), so dump -> build is byte-identical.
#pragma once

#include "animkit/core/json_util.h"
#include "animkit/shadow_of_war/anix.h"
#include "animkit/shadow_of_war/json_sink.h"

namespace animkit::shadow_of_war {

Json to_json(const AnixFile& file);
// The same document piece by piece (to_json builds it with a JsonBuild; `dump` prints it with a
// JsonPrint, so a file of a million events never becomes one Json).
void emit_json(const AnixFile& file, JsonSink& out);
// Reads what to_json prints. Every structure sits at the offset the JSON gives. Texts: a
// `<key>_hex` sibling gives the exact bytes while the text still reads as they print; an edited
// text is taken as UTF-8 with `\xNN` escapes. Derived values (sizes, counts, decoded headers,
// the directory's names, the groups' bytes) are not read: `body` holds a blockset's groups.
// Throws animkit::Error naming the JSON path of what is wrong.
AnixFile anix_from_json(const Json& json);

}  // namespace animkit::shadow_of_war
