// The mesh objects as formats of their own (asherons-call-meshes.md 3-5; issue 28 item 1):
// GfxObj, Surface, SurfaceTexture, Texture (RenderSurface) and Palette, loose (as `ac extract`
// writes them) or by `--id` in a dat, with `info`, `dump --json` and `validate`; and the
// creature document's meshes (`export`/`view DAT --setup ID`). Loose files are recognised by
// the object's id type byte and its layout read to the last byte, never by a first byte.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/setup.h"
#include "animkit/core/registry.h"

namespace animkit::asherons_call {

// Appends the five formats (ac-gfx-obj, ac-surface, ac-surface-texture, ac-texture, ac-palette).
void add_mesh_formats(Engine& engine);

// `DAT --id ID` for an id of one of the five types; nullptr for other types.
std::unique_ptr<Document> open_mesh_object(const DatFile& dat, uint32_t id);

// The findings of one mesh object of a dat (key `id`, its stored bytes): parsed, or an
// animkit::Error naming the id with the offset; then the checks `validate DAT --id ID` makes
// (12.2, 8 "Checks") and its references (2) to ids `has` does not find, each a warning naming
// both ids (export goes on with a placeholder, 12.4). The one function of `validate DAT --id`
// and `validate DAT` (issue 28). False for an id of another type.
bool validate_mesh_object(uint32_t id, const std::vector<uint8_t>& bytes,
                          const std::function<bool(uint32_t)>& has, std::vector<Finding>& out);

// The creature document `inner` (DAT --setup ID) with its parts' meshes: mesh_set() for export
// and view, and `info`/`dump` listing meshes, vertex counts, textures and their formats.
std::unique_ptr<Document> with_creature_meshes(std::unique_ptr<Document> inner, const DatFile& dat,
                                               Setup setup);

}  // namespace animkit::asherons_call
