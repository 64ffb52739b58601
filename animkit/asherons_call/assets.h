// Loading motion tables and animations from files, binary or JSON (the form is told by the
// content, recognize_object).
#pragma once

#include <filesystem>
#include <optional>

#include "animkit/asherons_call/animation.h"
#include "animkit/asherons_call/motion_table.h"
#include "animkit/asherons_call/sequence.h"
#include "animkit/asherons_call/setup.h"
#include "animkit/core/registry.h"

namespace animkit::asherons_call {

// JSON text by content (issue 28): '{' first and no control byte (binary ids always have one).
bool looks_like_json(Bytes head);

// What a whole file holds, by content: one of the module's JSON forms (it parses and names its
// kind), else a binary object by its id's type byte and its layout. Never by a first byte.
enum class ObjectKind { kUnknown, kMotionTable, kAnimation, kSetup };
struct Recognized {
  ObjectKind kind = ObjectKind::kUnknown;
  Json json;  // the parsed JSON form; null for a binary object
};
Recognized recognize_object(Bytes whole);
std::string_view object_kind_name(ObjectKind kind);  // "motion_table", "animation", "setup"
// Throws animkit::Error naming the file.
MotionTable load_motion_table(const std::filesystem::path& path);
Animation load_animation(const std::filesystem::path& path);
// Every file under `dir` (not recursive) that is an animation, binary or JSON, by content.
Setup load_setup(const std::filesystem::path& path);
AnimationStore load_animation_dir(const std::filesystem::path& dir);

// A part hierarchy ({"asherons_call": "parts", "parts": [{"name", "parent"}]}).
struct Parts {
  std::vector<std::string> names;
  std::vector<int> parents;
};
Parts parts_from_json(const Json& j);
Parts load_parts(const std::filesystem::path& path);

}  // namespace animkit::asherons_call
