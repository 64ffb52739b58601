// The `cod-xanim` format of the registry (cod-xanim-format.md): `animkit info / dump / validate /
// export / view / plot` on xanim v14 files, and the JSON of one sampled pose (`cod sample`).
#pragma once

#include <filesystem>
#include <memory>

#include "animkit/call_of_duty/xanim_file.h"
#include "animkit/call_of_duty/xanim_sample.h"
#include "animkit/core/registry.h"

namespace animkit::call_of_duty {

// A file that parses as xanim v14 with a plausible header (P <= 128, a frame rate, flag bits 0-1
// only) and nothing after the notetracks (xanim files have no extension to go by).
bool sniff_xanim(const std::filesystem::path& path, Bytes head);

std::unique_ptr<Document> open_xanim(const std::filesystem::path& path, Bytes bytes,
                                     const Options& options);

// The parts as joints of a flat skeleton under a root that carries the delta motion; every key
// at its frame time (frame / frameRate), notetracks (and `end`) as events.
Animated xanim_to_neutral(const XAnimFile& file);
// The name of that root joint: `root`, or `root (delta)` when a part is called `root`.
std::string delta_joint_name(const XAnimFile& file);

// {"time", "frame", "parts": [{"name", "lanes", "rotation", "translation", ...}], "delta"}
Json sample_json(const XAnimFile& file, float t, XAnimPlatform platform);

}  // namespace animkit::call_of_duty
