// Strings from binary files in JSON: the one rule every writer and reader uses (issue 31,
// item 2). Valid UTF-8 is written as it is (JSON escapes the control characters itself); any
// other bytes are written as printable() text (\xNN escapes, text.h) under `key`, and the exact
// bytes as lowercase hex under `key` + "_hex", as the Shadow of War dump does. Readers take the
// bytes back with text_from_json.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "animkit/core/json_util.h"

namespace animkit {

// The text alone (for a field that has no room beside it, e.g. a glTF name, whose hex goes in
// its extras): the bytes when they are UTF-8, else printable(bytes).
std::string json_text(std::string_view bytes);
// The hex to carry beside json_text(bytes), or "" when the text is the bytes.
std::string text_hex(std::string_view bytes);
void put_text(Json& object, const std::string& key, std::string_view bytes);
// A list of texts: `key` holds the texts; when any is not UTF-8, `key` + "_hex" holds every
// text's hex ("" for those that are UTF-8).
void put_texts(Json& object, const std::string& key, const std::vector<std::string>& list);

// The rule applied to a whole document after the fact, for writers that build their JSON from
// raw bytes: every string member or object key that is not UTF-8 is rewritten by put_text (an
// array of strings only gets a `<key>_hex` array beside it, as put_texts writes; a string in an
// array of mixed values is escaped). Nothing is copied when every string is UTF-8.
void apply_text_rule(Json& document);
// apply_text_rule, then dump: what every writer of JSON text calls (indent as Json::dump), so
// no output ends in nlohmann's type_error 316.
std::string dump_json(Json document, int indent = -1);

// The bytes back from `object[key]` (+ `object[key + "_hex"]`): the hex while the text is still
// the one written for those bytes (json_text, or printable with the backslash kept, as the
// Shadow of War dumps write it); otherwise (an edited or plain text) the text as it is. Throws
// animkit::Error naming `what` on a missing key, a wrong type or bad hex.
std::string text_from_json(const Json& object, const std::string& key, const std::string& what);
// The same for a text and its hex held apart (hex may be null, or "" for a UTF-8 text).
std::string text_from_json(const Json& text, const Json* hex, const std::string& what);

// The form The Warriors' and Monster Hunter's writers gave names in before this rule:
// printable(bytes, Keep::kAscii) alone, no hex (glTF files users still have). Readers of those
// names take `text` through this when it came without hex: its bytes when it is exactly that form
// of other bytes (every backslash starts an \xNN escape, at least one), else `text` itself. A
// name whose own bytes spell such an escape reads as the old form; these games' names are ASCII
// identifiers, so none does.
std::string bytes_of_ascii_printable(const std::string& text);

}  // namespace animkit
