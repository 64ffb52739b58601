// Shared helpers of the call_of_duty tests: load a tree from text with a few settings.
#pragma once

#include <string>
#include <vector>

#include "animkit/call_of_duty/loader.h"

namespace animkit::call_of_duty::testing {

struct Settings {
  std::vector<std::string> refs;
  bool anim_check = false;
  bool keep_going = false;
  const AssetResolver* assets = nullptr;
};

inline LoadResult load(const std::string& text, const Settings& s = {}) {
  LoadOptions o;
  o.tree_name = "t";
  o.file = "t.atr";
  for (const std::string& r : s.refs) o.references.push_back({r, "s.gsc", 1, 1, 0});
  o.anim_check = s.anim_check;
  o.keep_going = s.keep_going;
  o.assets = s.assets;
  return load_anim_tree(text, o);
}

inline LoadResult load_all(const std::string& text) {
  Settings s;
  s.anim_check = true;
  return load(text, s);
}

// "line:column: message" of each diagnostic.
inline std::vector<std::string> places(const LoadResult& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diagnostics) {
    out.push_back(std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message);
  }
  return out;
}

// Names by node index.
inline std::vector<std::string> names(const LoadResult& r) {
  std::vector<std::string> out;
  if (r.anim) {
    for (size_t i = 0; i < r.anim->entries.size(); ++i) out.emplace_back(r.anim->node_name(i));
  }
  return out;
}

}  // namespace animkit::call_of_duty::testing
