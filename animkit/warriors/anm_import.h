// `animkit import CLIP.glb --as warriors-anm --template ORIGINAL.anm` (issue 17): a glTF clip on
// the 34-bone skeleton written back as an .anm resource, quantised exactly as warriors.txt
// decodes it ("Keyframes", "Decoding"), the channels split by its rules, keys reduced within a
// stated tolerance, events from the animation's `extras.events`. What glTF does not carry (the
// descriptor's fields, the root velocity of section A, bone 0's turn, unknown bytes) comes from
// the template. The rules and choices are in the module README ("Import from glTF").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animkit/core/registry.h"
#include "animkit/warriors/clip.h"
#include "animkit/warriors/container.h"

namespace animkit::warriors {

// --tolerance's default: no reduction (every key of the glTF on a whole frame is kept), so that an
// unchanged export comes back byte for byte (README, "Import from glTF").
inline constexpr float kDefaultImportTolerance = 0.0f;

struct AnmImportOptions {
  std::string clip;                           // the glTF animation (empty: README's rule)
  float tolerance = kDefaultImportTolerance;  // radians of rotation, metres of translation
};

struct AnmImport {
  AnmClip clip;
  Resource resource;             // the .anm resource: the template's headers, sizes updated
  std::vector<uint8_t> tail;     // what follows the resource in the file (the template's padding)
  Json report = Json::object();  // per-joint maximum error, keys, displacement, events
  std::vector<std::string> notes;
};

// The template: an .anm entry as read (its resource, its one clip and its file tail).
struct AnmTemplate {
  Resource resource;
  AnmClip clip;
  size_t keyframes_chunk = 0, descriptor_chunk = 1;
  std::vector<uint8_t> tail;
};
AnmTemplate read_anm_template(Bytes bytes);  // throws animkit::Error with the offset

// Writes the clip. Throws animkit::Error when the animation does not fit (joints by name, a
// translation beyond the s16 range, a section over 65,535 bytes, an unknown event name).
AnmImport import_anm(const Animated& source, const AnmTemplate* tmpl,
                     const AnmImportOptions& options = {});

// The per-joint maximum error of `clip` decoded by the module's reader (make_play_clip, the
// key-in-force rule) against `source` (matched by joint name) at every whole frame 0 .. F-1:
// {"joint": {"rotation": radians, "translation": metres}} for each joint the .anm animates.
Json clip_error_report(const AnmClip& clip, const Animated& source, const std::string& clip_name);

// Format::import_gltf of `warriors-anm`.
ImportResult import_warriors_anm(const ImportRequest& request);
// Format::import_gltf of `warriors-pack` / `warriors-character`: --template is the container; each
// glTF animation (or --clip's) is imported onto the container's clip of its name (its template)
// and put back in its place (put_clip, rebuild.h). Clips are replaced, never added.
ImportResult import_warriors_container(const ImportRequest& request, bool pack);

}  // namespace animkit::warriors
