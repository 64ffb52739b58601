// Which characters can play a clip (spec: "A loaded clip", "Which characters can play a clip"):
// a loaded file is an anim object; a skeleton family's clip table takes clips only from files its
// member list names; loading a bundle registers its files' clips, unloading unregisters them;
// several families can share one loaded anim object.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "animkit/core/clip.h"
#include "animkit/shadow_of_war/event_dictionary.h"

namespace animkit::shadow_of_war {

// One loaded file: its clips in neutral form (any engine's clips can drive the runtime) and its
// pre-parsed events.
struct AnimObject {
  std::string path;
  std::vector<Clip> clips;
  std::optional<EventDictionary> events;
  const Clip* find(uint32_t name_hash) const;  // keyword_hash of the clip's name
  const ClipEvents* events_of(const Clip& clip) const;
};

// A member of a clip table (0x38-byte entries: +0x20 the path, +0x28 the anim object while
// loaded).
struct ClipTableEntry {
  std::string path;
  std::shared_ptr<const AnimObject> loaded;
};

class ClipTable {
 public:
  ClipTable(std::string family, std::vector<std::string> member_paths);

  const std::string& family() const { return family_; }
  const std::vector<ClipTableEntry>& entries() const { return entries_; }
  bool is_member(const std::string& path) const;
  // Registers the object's clips when its path is listed; false (and nothing registered) when
  // the list does not name it, even in a listed folder.
  bool attach(const std::shared_ptr<const AnimObject>& object);
  // Unregisters the clips of the file at `path`; false when none was attached there.
  bool detach(const std::string& path);
  // A clip by name (keyword hash), or nullptr.
  const Clip* find(uint32_t name_hash) const;
  const Clip* find(std::string_view name) const;
  const AnimObject* object_of(uint32_t name_hash) const;
  size_t clip_count() const { return index_.size(); }

 private:
  void reindex();
  std::string family_;
  std::vector<ClipTableEntry> entries_;
  std::unordered_map<uint32_t, std::pair<const Clip*, const AnimObject*>> index_;
};

// Paths compare case-insensitively with '\\' and '/' alike (README, Choices).
std::string normalize_path(std::string_view path);

// A bundle: files loaded and unloaded together (a region's animation files).
struct Bundle {
  std::vector<std::shared_ptr<const AnimObject>> files;
};
// Registers every file with every table that lists it; returns the number of registrations.
size_t load_bundle(const Bundle& bundle, std::span<ClipTable* const> tables);
size_t unload_bundle(const Bundle& bundle, std::span<ClipTable* const> tables);

}  // namespace animkit::shadow_of_war
