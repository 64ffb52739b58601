#include "animkit/core/json_text.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/core/error.h"
#include "animkit/core/text.h"

namespace animkit {

std::string json_text(std::string_view bytes) { return is_utf8(bytes) ? std::string(bytes) : printable(bytes); }

std::string text_hex(std::string_view bytes) {
  if (is_utf8(bytes)) return {};
  return to_hex({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
}

void put_text(Json& object, const std::string& key, std::string_view bytes) {
  object[key] = json_text(bytes);
  if (std::string hex = text_hex(bytes); !hex.empty()) object[key + "_hex"] = std::move(hex);
}

void put_texts(Json& object, const std::string& key, const std::vector<std::string>& list) {
  Json texts = Json::array(), hexes = Json::array();
  bool plain = true;
  for (const std::string& s : list) {
    texts.push_back(json_text(s));
    hexes.push_back(text_hex(s));
    plain = plain && hexes.back().get_ref<const std::string&>().empty();
  }
  object[key] = std::move(texts);
  if (!plain) object[key + "_hex"] = std::move(hexes);
}

namespace {

bool all_strings_utf8(const Json& array) {
  for (const Json& e : array) {
    if (e.is_string() && !is_utf8(e.get_ref<const std::string&>())) return false;
  }
  return true;
}

}  // namespace

void apply_text_rule(Json& j) {
  if (j.is_array()) {
    for (Json& e : j) {
      if (e.is_string()) {
        e = json_text(e.get_ref<const std::string&>());  // a bare array: no room for the hex
      } else {
        apply_text_rule(e);
      }
    }
    return;
  }
  if (!j.is_object()) return;
  bool clean = true;
  for (auto it = j.begin(); it != j.end() && clean; ++it) {
    const Json& v = it.value();
    clean = is_utf8(it.key()) && !(v.is_string() && !is_utf8(v.get_ref<const std::string&>())) &&
            !(v.is_array() && !all_strings_utf8(v));
  }
  if (clean) {
    for (auto& [key, v] : j.items()) apply_text_rule(v);
    return;
  }
  Json out = Json::object();  // rebuilt in order, each hex beside its text
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = json_text(it.key());
    Json& v = it.value();
    if (v.is_string()) {
      put_text(out, key, v.get_ref<const std::string&>());
    } else if (v.is_array() && !all_strings_utf8(v) &&
               std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_string(); })) {
      put_texts(out, key, v.get<std::vector<std::string>>());
    } else {
      apply_text_rule(v);
      out[key] = std::move(v);
    }
  }
  j = std::move(out);
}

std::string dump_json(Json document, int indent) {
  apply_text_rule(document);
  return document.dump(indent);
}

std::string text_from_json(const Json& text, const Json* hex, const std::string& what) {
  if (!text.is_string()) throw Error(fmt::format("{}: expected a string", what));
  const std::string& t = text.get_ref<const std::string&>();
  if (!hex || (hex->is_string() && hex->get_ref<const std::string&>().empty())) return t;
  if (!hex->is_string()) throw Error(fmt::format("{}_hex: expected a hex string", what));
  std::vector<uint8_t> b;
  try {
    b = parse_hex(hex->get_ref<const std::string&>());
  } catch (const Error& e) {
    throw Error(fmt::format("{}_hex: {}", what, e.message()));
  }
  std::string bytes(b.begin(), b.end());
  // The text written for those bytes: the core rule's, or the same with the backslash kept (the
  // Shadow of War dumps keep Windows paths as written, text.h Backslash::kKept).
  const bool as_written = json_text(bytes) == t || printable(bytes, Keep::kUtf8, Backslash::kKept) == t;
  return as_written ? bytes : t;
}

std::string text_from_json(const Json& object, const std::string& key, const std::string& what) {
  if (!object.is_object() || !object.contains(key)) throw Error(fmt::format("{}: missing", what));
  const auto hex = object.find(key + "_hex");
  return text_from_json(object[key], hex == object.end() ? nullptr : &*hex, what);
}

std::string bytes_of_ascii_printable(const std::string& text) {
  if (text.find('\\') == std::string::npos) return text;
  std::string bytes;
  try {
    bytes = from_printable(text);
  } catch (const Error&) {
    return text;  // a backslash that is no escape: not the old form
  }
  return printable(bytes, Keep::kAscii) == text ? bytes : text;
}

}  // namespace animkit
