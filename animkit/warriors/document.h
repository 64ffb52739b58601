// The module's documents (what `animkit info/dump/validate/export/plot` open): a pack, a
// character data resource, a standalone .anm resource.
#pragma once

#include <filesystem>
#include <memory>

#include "animkit/core/registry.h"
#include "animkit/warriors/character.h"
#include "animkit/warriors/container.h"
#include "animkit/warriors/cursor.h"

namespace animkit::warriors {

enum class FileKind { kPack, kCharacter, kAnm };
const char* to_string(FileKind kind);

// A parsed entry: the container and each resource read as a clip set.
struct WarriorsFile {
  FileKind kind = FileKind::kAnm;
  WadEntry entry;
  std::vector<ClipSet> sets;  // one per resource, in file order

  std::vector<const Resource*> resources() const;
  // The first bone offsets found (0x28), if any.
  const BoneOffsets* bone_offsets() const;
};
WarriorsFile read_warriors_file(Bytes bytes, FileKind kind);

// Sniffs (the head may be the file's first 64 KiB).
bool sniff_pack(Bytes head);
bool sniff_character(Bytes head);
bool sniff_anm(Bytes head);
// A cut file (Format::sniff_cut): the pack marker, or a resource whose headers walk within the
// bytes until they run out (warriors-container.md, "Pack" / "Resource").
bool sniff_cut_pack(Bytes head);
bool sniff_cut_anm(Bytes head);
bool sniff_cut_character(Bytes head);

std::unique_ptr<Document> open_document(const std::filesystem::path& path, Bytes bytes,
                                        FileKind kind);

// JSON of a clip as `dump` prints it: descriptor, channels, events.
Json clip_json(const AnmClip& clip);
// The neutral skeleton (34 joints) and a clip in neutral form.
Skeleton neutral_skeleton(const BoneOffsets* offsets);
Clip neutral_clip(const AnmClip& clip, float bind_height);
std::vector<Finding> validate_clip(const AnmClip& clip, const std::string& where,
                                   uint64_t keyframes_at = 0, uint64_t descriptor_at = 0);
// The same findings with the file offset of what each is about (the chunks' data offsets given).
struct ClipFinding {
  Finding finding;
  uint64_t offset = 0;
};
std::vector<ClipFinding> check_clip(const AnmClip& clip, uint64_t keyframes_at = 0,
                                    uint64_t descriptor_at = 0);

}  // namespace animkit::warriors
