#include "animkit/call_of_duty/anim_registry.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/core/error.h"

namespace animkit::call_of_duty {

std::string canonical_tree_name(std::string_view name) {
  std::string s(name);
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c == '\\') c = '/';
  }
  return s;
}

static void check_slot(int slot) {
  if (slot < 0 || slot >= AnimTreeRegistry::kSlotCount) {
    throw Error(fmt::format("anim tree registration slot {} does not exist (0 or 1)", slot));
  }
}

int AnimTreeRegistry::register_tree(std::string_view name, int slot) {
  check_slot(slot);
  const std::string canonical = canonical_tree_name(name);
  if (canonical.size() > kMaxTreeNameLength) throw Error("animation tree path is too long");
  std::vector<std::string>& names = slots_[slot];
  auto it = std::find(names.begin(), names.end(), canonical);
  if (it != names.end()) return static_cast<int>(it - names.begin()) + 1;
  if (names.size() >= static_cast<size_t>(kMaxTreeCount)) {
    throw Error(fmt::format("maximum animation tree count exceeded ({})", kMaxTreeCount));
  }
  names.push_back(canonical);
  return static_cast<int>(names.size());
}

std::optional<int> AnimTreeRegistry::find(std::string_view name, int slot) const {
  check_slot(slot);
  const std::string canonical = canonical_tree_name(name);
  const std::vector<std::string>& names = slots_[slot];
  auto it = std::find(names.begin(), names.end(), canonical);
  if (it == names.end()) return std::nullopt;
  return static_cast<int>(it - names.begin()) + 1;
}

const std::vector<std::string>& AnimTreeRegistry::names(int slot) const {
  check_slot(slot);
  return slots_[slot];
}

}  // namespace animkit::call_of_duty
