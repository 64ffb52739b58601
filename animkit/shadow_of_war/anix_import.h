// `animkit import CLIP.glb --as sow-anix --template ORIGINAL.anix -o OUT.anix` (issue 17, item 5).
// The key codecs (SQ03, AQ03, STRI) are kept raw — the spec gives no layout — so an import only
// edits what the module's export carries and the file can hold: each clip's events (the glTF
// animation's `extras.events`, as `animkit export` writes them: time = ms / 1000, name = the
// event's text, whose first word is its keyword). Everything else comes from the template, and
// anything else that differs from the template's export (the root summary, a duration, the
// skeleton, a clip the template lacks) is an error: it cannot be written (README, Choices 18).
#pragma once

#include <string>
#include <vector>

#include "animkit/core/registry.h"

namespace animkit::shadow_of_war {

// The template's bytes with the events of every clip of `source` (matched by name) replaced.
// Unchanged events give the template back byte for byte. Throws animkit::Error.
ImportResult import_anix_events(Bytes template_bytes, const std::string& template_name,
                                const Animated& source);
// Format::import_gltf of "sow-anix".
ImportResult import_anix(const ImportRequest& request);

}  // namespace animkit::shadow_of_war
