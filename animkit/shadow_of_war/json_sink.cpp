#include "animkit/shadow_of_war/json_sink.h"

#include <algorithm>

namespace animkit::shadow_of_war {

void JsonBuild::value(std::string_view key, const Json& v) {
  if (open_.empty()) {
    root_ = v;
  } else if (open_.back().json.is_array()) {
    open_.back().json.push_back(v);
  } else {
    open_.back().json[std::string(key)] = v;
  }
}

void JsonBuild::end() {
  Open done = std::move(open_.back());
  open_.pop_back();
  value(done.key, done.json);
}

namespace {

std::string spaces(size_t n) { return std::string(n, ' '); }

// `text` with `prefix` after every line break inside it (and, with `first`, before it).
std::string indented(const std::string& text, const std::string& prefix, bool first) {
  std::string out = first ? prefix : std::string();
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '\n' && i + 1 < text.size()) out += prefix;
  }
  return out;
}

// Core to_text prints a plain value, an empty container or an array of up to 16 plain values on
// its key's line.
bool one_line(const Json& v) {
  if (!v.is_structured() || v.empty()) return true;
  return v.is_array() && v.size() <= 16 &&
         std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_primitive(); });
}

}  // namespace

JsonPrint::Level JsonPrint::child(std::string_view key) {
  Level l;
  if (open_.empty()) return l;
  Level& parent = open_.back();
  if (layout_ == Layout::kText) {
    l.label = parent.array ? "[" + std::to_string(parent.members) + "]" : std::string(key);
  } else if (!parent.array) {
    l.label = Json(std::string(key)).dump() + ": ";
  }
  l.first = parent.members++ == 0;
  return l;
}

void JsonPrint::open(std::string_view key, bool array) {
  Level l = child(key);
  l.array = array;
  open_.push_back(std::move(l));
}

void JsonPrint::print_pending() {
  for (size_t i = 0; i < open_.size(); ++i) {
    Level& l = open_[i];
    if (l.printed) continue;
    l.printed = true;
    if (layout_ == Layout::kText) {
      if (i > 0) out_ << spaces(2 * (i - 1)) << l.label << ":\n";
    } else {
      if (i > 0) out_ << (l.first ? "\n" : ",\n") << spaces(i) << l.label;
      out_ << (l.array ? '[' : '{');
    }
  }
}

void JsonPrint::print_member(const Level& as, const Json& v) {
  print_pending();
  const size_t depth = open_.size();  // of the member: its container's level + 1
  if (layout_ == Layout::kJson) {
    out_ << (as.first ? "\n" : ",\n") << spaces(depth) << as.label
         << indented(v.dump(1), spaces(depth), false);
    return;
  }
  const std::string indent = spaces(2 * (depth - 1));
  if (one_line(v)) {
    out_ << indent << as.label << ": " << (v.is_string() ? v.get<std::string>() : v.dump()) << "\n";
  } else {
    out_ << indent << as.label << ":\n" << indented(to_text(v), indent + "  ", true);
  }
}

void JsonPrint::value(std::string_view key, const Json& v) { print_member(child(key), v); }

void JsonPrint::end() {
  const Level done = open_.back();
  open_.pop_back();
  if (done.printed) {
    if (layout_ == Layout::kJson)
      out_ << "\n" << spaces(open_.size()) << (done.array ? ']' : '}') << (open_.empty() ? "\n" : "");
    return;
  }
  // Nothing was put in it: printed as an empty value, as Json::dump and to_text print one.
  const Json empty = done.array ? Json::array() : Json::object();
  if (!open_.empty()) {
    print_member(done, empty);
  } else if (layout_ == Layout::kJson) {
    out_ << empty.dump() << "\n";
  }
}

}  // namespace animkit::shadow_of_war
