#include "animkit/call_of_duty/assets.h"

#include <fmt/format.h>

#include "animkit/call_of_duty/tokenizer.h"
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

std::optional<XAnimAsset> AssetResolver::find(std::string_view name) const {
  const std::string key = to_lower(name);
  auto it = manifest_.find(key);
  if (key == "void" || key == "void_loop") {
    XAnimAsset a = it != manifest_.end() ? it->second : XAnimAsset{};
    if (!a.looping) a.looping = key == "void_loop";
    return a;
  }
  if (has_directory_ && !files_.count(key)) return std::nullopt;
  return it != manifest_.end() ? it->second : XAnimAsset{};
}

}  // namespace animkit::call_of_duty
