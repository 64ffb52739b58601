// `animkit import CLIP.glb --as ac-animation` (issue 17 item 4): a glTF animation back into an
// Animation object, the inverse of the creature export (creature.h, container page 6). Per
// frame k (shown at k / frame_rate): each part's object-space frame is its glTF transform
// relative to the root joint, mapped back from glTF axes; the root's motion becomes pos_frames
// (pos[k] = root_k^-1 . root_k+1, as a forward node combines them); hooks come from the
// animation's `extras.events` (payload: the hook's JSON, as the export writes it).
//
// Joints map to parts by name (`root`, `part_<i>`), else by index (the non-root joints in order)
// when their count is the part count. The part count is the template's num_parts, else the
// Setup's (`--setup FILE`, `--setup DAT:0x02000001`, or `--setup 0x02000001` with a dat
// template), else the glTF's. A template (`--template ANIM.bin|ANIM.json|DAT --id 0x03...`)
// gives the id, flags, tail and every value the glTF reproduces within float rounding, so an
// unchanged export imports back byte for byte.
#pragma once

#include "animkit/core/registry.h"

namespace animkit::asherons_call {

// Throws animkit::Error on a glTF that does not map onto the parts (missing / extra joints),
// an event that is not a hook, or a clip that cannot be chosen.
ImportResult import_animation(const ImportRequest& request, bool json);

}  // namespace animkit::asherons_call
