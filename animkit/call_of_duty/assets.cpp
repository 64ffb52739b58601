#include "animkit/call_of_duty/assets.h"

#include <fmt/format.h>

#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/call_of_duty/xanim_header.h"
#include "animkit/core/error.h"
#include "animkit/core/registry.h"

namespace animkit::call_of_duty {

void AssetResolver::set_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw Error("not a folder of xanim assets", std::nullopt, dir.string());
  }
  has_directory_ = true;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec)) files_.insert(to_lower(entry.path().filename().string()));
  }
}

void AssetResolver::load_manifest(const std::filesystem::path& file) {
  const std::vector<uint8_t> bytes = read_file(file);
  set_manifest(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
               file.string());
}

void AssetResolver::set_manifest(std::string_view json_text, const std::string& file) {
  const Json j = parse_json(json_text, file);
  if (!j.is_object()) throw Error("the xanim manifest must be a JSON object", std::nullopt, file);
  for (const auto& [name, value] : j.items()) {
    if (!value.is_object()) {
      throw Error(fmt::format("manifest entry '{}' must be an object", name), std::nullopt, file);
    }
    XAnimAsset a;
    if (auto it = value.find("looping"); it != value.end()) {
      if (!it->is_boolean()) {
        throw Error(fmt::format("manifest entry '{}': \"looping\" must be true or false", name),
                    std::nullopt, file);
      }
      a.looping = it->get<bool>();
    }
    if (auto it = value.find("length"); it != value.end()) {
      if (!it->is_number()) {
        throw Error(fmt::format("manifest entry '{}': \"length\" must be a number", name),
                    std::nullopt, file);
      }
      a.length = it->get<float>();
    }
    manifest_[to_lower(name)] = a;
  }
}

void AssetResolver::add(std::string name, XAnimAsset asset) { manifest_[to_lower(name)] = asset; }

void AssetResolver::set_game_files(const GameFiles* files, bool complete) {
  game_files_ = files;
  complete_ = complete;
  found_.clear();
}

namespace {

// Loop and length from the header of a found xanim (cod-xanim-format.md §1.1); unknown when the
// file is short or of another version (its own load reports that).
XAnimAsset asset_from_header(const GameFiles& files, const GameFile& file) {
  XAnimAsset a;
  try {
    const std::vector<uint8_t> head = files.read(file, kXAnimHeaderSize);
    Reader r(head);
    const XAnimHeader h = read_xanim_header(r);
    if (h.version == kXAnimVersion) {
      a.looping = h.looped();
      a.length = h.length();
    }
  } catch (const Error&) {
  }
  return a;
}

}  // namespace

std::optional<XAnimAsset> AssetResolver::find(std::string_view name) const {
  const std::string key = to_lower(name);
  auto it = manifest_.find(key);
  const XAnimAsset* listed = it != manifest_.end() ? &it->second : nullptr;
  if (key == "void" || key == "void_loop") {
    XAnimAsset a = listed ? *listed : XAnimAsset{};
    if (!a.looping) a.looping = key == "void_loop";
    return a;
  }
  // The manifest, where it says something, overrides what the file says.
  auto with_manifest = [&](XAnimAsset a) {
    if (listed && listed->looping) a.looping = listed->looping;
    if (listed && listed->length) a.length = listed->length;
    return a;
  };
  if (has_directory_ && files_.count(key)) return with_manifest({});
  if (game_files_) {
    auto f = found_.find(key);
    if (f == found_.end()) {
      std::optional<XAnimAsset> a;
      if (auto file = game_files_->find_xanim(key)) a = asset_from_header(*game_files_, *file);
      f = found_.emplace(key, a).first;
    }
    if (f->second) return with_manifest(*f->second);
  }
  if (has_directory_ || complete_) return std::nullopt;
  return with_manifest({});
}

}  // namespace animkit::call_of_duty
