// Loading motion tables and animations from files, binary or JSON (the form is told by the
// content: JSON starts with '{').
#pragma once

#include <filesystem>
#include <optional>

#include "animkit/asherons_call/animation.h"
#include "animkit/asherons_call/motion_table.h"
#include "animkit/asherons_call/sequence.h"
#include "animkit/core/registry.h"

namespace animkit::asherons_call {

bool looks_like_json(Bytes head);
// Throws animkit::Error naming the file.
MotionTable load_motion_table(const std::filesystem::path& path);
Animation load_animation(const std::filesystem::path& path);
// Every file under `dir` (not recursive) that is an animation, binary or JSON, by content.
AnimationStore load_animation_dir(const std::filesystem::path& dir);

// A part hierarchy ({"asherons_call": "parts", "parts": [{"name", "parent"}]}).
struct Parts {
  std::vector<std::string> names;
  std::vector<int> parents;
};
Parts parts_from_json(const Json& j);
Parts load_parts(const std::filesystem::path& path);

}  // namespace animkit::asherons_call
