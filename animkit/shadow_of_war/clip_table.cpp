#include "animkit/shadow_of_war/clip_table.h"

#include <algorithm>

#include "animkit/shadow_of_war/keyword.h"

namespace animkit::shadow_of_war {

const Clip* AnimObject::find(uint32_t name_hash) const {
  for (const Clip& c : clips)
    if (keyword_hash(c.name) == name_hash) return &c;
  return nullptr;
}

const ClipEvents* AnimObject::events_of(const Clip& clip) const {
  return events ? events->find(keyword_hash(clip.name)) : nullptr;
}

std::string normalize_path(std::string_view path) {
  std::string out(path);
  for (char& c : out) {
    if (c == '\\') c = '/';
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

ClipTable::ClipTable(std::string family, std::vector<std::string> member_paths)
    : family_(std::move(family)) {
  for (std::string& p : member_paths) entries_.push_back({std::move(p), nullptr});
}

bool ClipTable::is_member(const std::string& path) const {
  const std::string n = normalize_path(path);
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const ClipTableEntry& e) { return normalize_path(e.path) == n; });
}

bool ClipTable::attach(const std::shared_ptr<const AnimObject>& object) {
  const std::string n = normalize_path(object->path);
  bool listed = false;
  for (ClipTableEntry& e : entries_) {
    if (normalize_path(e.path) == n) {
      e.loaded = object;
      listed = true;
    }
  }
  if (listed) reindex();
  return listed;
}

bool ClipTable::detach(const std::string& path) {
  const std::string n = normalize_path(path);
  bool any = false;
  for (ClipTableEntry& e : entries_) {
    if (e.loaded && normalize_path(e.path) == n) {
      e.loaded.reset();
      any = true;
    }
  }
  if (any) reindex();
  return any;
}

void ClipTable::reindex() {
  index_.clear();
  for (const ClipTableEntry& e : entries_) {
    if (!e.loaded) continue;
    for (const Clip& c : e.loaded->clips)
      index_.try_emplace(keyword_hash(c.name), &c, e.loaded.get());
  }
}

const Clip* ClipTable::find(uint32_t name_hash) const {
  auto it = index_.find(name_hash);
  return it == index_.end() ? nullptr : it->second.first;
}

const Clip* ClipTable::find(std::string_view name) const { return find(keyword_hash(name)); }

const AnimObject* ClipTable::object_of(uint32_t name_hash) const {
  auto it = index_.find(name_hash);
  return it == index_.end() ? nullptr : it->second.second;
}

size_t load_bundle(const Bundle& bundle, std::span<ClipTable* const> tables) {
  size_t n = 0;
  for (const auto& f : bundle.files)
    for (ClipTable* t : tables) n += t->attach(f);
  return n;
}

size_t unload_bundle(const Bundle& bundle, std::span<ClipTable* const> tables) {
  size_t n = 0;
  for (const auto& f : bundle.files)
    for (ClipTable* t : tables) n += t->detach(f->path);
  return n;
}

}  // namespace animkit::shadow_of_war
