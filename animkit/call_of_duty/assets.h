// The leaf asset resolver: does xanim/<name> exist, does it loop, how long is it
// (cod-animtrees.txt, "Node kinds": FS_GetDataForFile("xanim", name, "")). Existence comes from
// the game's file system (the mod and game folders with their .pk3s, cod-xanim-format.md §4) or
// a plain directory of asset files; loop and length from each found xanim's header, overridden
// by a JSON manifest (`{"stand_idle": {"looping": true, "length": 1.2}}`).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "animkit/call_of_duty/game_files.h"

namespace animkit::call_of_duty {

struct XAnimAsset {
  std::optional<bool> looping;  // unknown when no manifest says
  std::optional<float> length;  // seconds, float32
};

class AssetResolver {
 public:
  // With nothing set, every asset exists and nothing more is known.
  AssetResolver() = default;

  // Existence: a file named <name> (no extension, as the stock lookup asks) in `dir`; compared
  // case-insensitively. Throws animkit::Error when `dir` is not a folder.
  void set_directory(const std::filesystem::path& dir);
  // Loop and length from a manifest file; throws animkit::Error on a bad one.
  void load_manifest(const std::filesystem::path& file);
  // The same from JSON text (`file` names it in errors).
  void set_manifest(std::string_view json_text, const std::string& file = "manifest");
  // One entry by hand.
  void add(std::string name, XAnimAsset asset);
  // The game's file system (not owned). `complete`: the game folders are in it, so an asset it
  // lacks is missing; otherwise (a mod alone) such an asset is taken to be in the game.
  void set_game_files(const GameFiles* files, bool complete);

  bool has_directory() const { return has_directory_; }
  // The asset, or nullopt when it does not exist. `void` and `void_loop` (the placeholders the
  // loader inserts) always exist: void does not loop, void_loop loops.
  std::optional<XAnimAsset> find(std::string_view name) const;

 private:
  bool has_directory_ = false;
  std::unordered_set<std::string> files_;  // lower-cased file names in the directory
  std::unordered_map<std::string, XAnimAsset> manifest_;
  const GameFiles* game_files_ = nullptr;
  bool complete_ = false;
  // Headers read from the game files, by lower-cased name (nullopt: not there).
  mutable std::unordered_map<std::string, std::optional<XAnimAsset>> found_;
};

}  // namespace animkit::call_of_duty
