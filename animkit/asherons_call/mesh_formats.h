// The mesh objects as formats of their own (asherons-call-meshes.md 3-5; issue 28 item 1):
// GfxObj, Surface, SurfaceTexture, Texture (RenderSurface) and Palette, loose (as `ac extract`
// writes them) or by `--id` in a dat, with `info`, `dump --json` and `validate`; and the
// creature document's meshes (`export`/`view DAT --setup ID`). Loose files are recognised by
// the object's id type byte and its layout read to the last byte, never by a first byte.
#pragma once

#include <memory>

#include "animkit/asherons_call/dat.h"
#include "animkit/asherons_call/setup.h"
#include "animkit/core/registry.h"

namespace animkit::asherons_call {

// Appends the five formats (ac-gfx-obj, ac-surface, ac-surface-texture, ac-texture, ac-palette).
void add_mesh_formats(Engine& engine);

// `DAT --id ID` for an id of one of the five types; nullptr for other types.
std::unique_ptr<Document> open_mesh_object(const DatFile& dat, uint32_t id);

// The creature document `inner` (DAT --setup ID) with its parts' meshes: mesh_set() for export
// and view, and `info`/`dump` listing meshes, vertex counts, textures and their formats.
std::unique_ptr<Document> with_creature_meshes(std::unique_ptr<Document> inner, const DatFile& dat,
                                               Setup setup);

}  // namespace animkit::asherons_call
