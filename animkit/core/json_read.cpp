#include "animkit/core/json_read.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "animkit/core/error.h"
#include "animkit/core/limits.h"

namespace animkit {

namespace {

// Thrown by the handlers and caught below: they do not know the byte offset.
struct TooDeep {};

// ---- the fast path: simdjson's DOM, copied into a Json ------------------------------------------
// Measured (bench_json, same run, CPU time): simdjson's parse plus the copy takes 0.73 of the time
// of nlohmann's SAX parser on a 50 MB scenario; the copy into Json (allocations) is most of it.

// An object's members are appended in order; a repeated key keeps its first place and takes the
// last value (what nlohmann's parser does). Objects of up to kLinearKeys members look keys up by a
// scan, larger ones through a hash index: ordered_json's own lookup is linear, quadratic overall.
constexpr size_t kLinearKeys = 16;

using Members = std::vector<std::pair<const std::string, Json>>;  // ordered_map's storage

void copy_value(simdjson::dom::element e, Json& out, int depth);

void copy_object(simdjson::dom::object object, Json& out, int depth) {
  out = Json::object();
  Members& members = out.get_ref<Json::object_t&>();
  members.reserve(object.size());  // no reallocation below: `index` views the member keys
  std::unordered_map<std::string_view, size_t> index;
  for (simdjson::dom::key_value_pair field : object) {
    size_t at = members.size();
    if (members.size() <= kLinearKeys) {
      for (size_t i = 0; i < members.size(); ++i) {
        if (members[i].first == field.key) at = i;
      }
    } else {
      if (index.empty()) {
        for (size_t i = 0; i < members.size(); ++i) index.emplace(members[i].first, i);
      }
      if (auto it = index.find(field.key); it != index.end()) at = it->second;
    }
    if (at == members.size()) {
      members.emplace_back(std::string(field.key), Json());
      if (!index.empty()) index.emplace(members.back().first, at);
    }
    copy_value(field.value, members[at].second, depth);
  }
}

void copy_value(simdjson::dom::element e, Json& out, int depth) {
  using Type = simdjson::dom::element_type;
  switch (e.type()) {
    case Type::ARRAY: {
      if (depth + 1 > kMaxJsonDepth) throw TooDeep{};
      simdjson::dom::array array = e.get_array().value_unsafe();
      out = Json::array();
      auto& items = out.get_ref<Json::array_t&>();
      items.reserve(array.size());
      for (simdjson::dom::element item : array) copy_value(item, items.emplace_back(), depth + 1);
      break;
    }
    case Type::OBJECT:
      if (depth + 1 > kMaxJsonDepth) throw TooDeep{};
      copy_object(e.get_object().value_unsafe(), out, depth + 1);
      break;
    case Type::INT64: {  // nlohmann keeps a non-negative integer unsigned: so do we
      const int64_t v = e.get_int64().value_unsafe();
      if (v >= 0) {
        out = static_cast<uint64_t>(v);
      } else {
        out = v;
      }
      break;
    }
    case Type::UINT64: out = e.get_uint64().value_unsafe(); break;
    case Type::DOUBLE: out = e.get_double().value_unsafe(); break;
    case Type::STRING: out = std::string(e.get_string().value_unsafe()); break;
    case Type::BOOL: out = e.get_bool().value_unsafe(); break;
    case Type::NULL_VALUE: out = nullptr; break;
  }
}

// simdjson's DOM takes a raw control byte inside a string that JSON (and nlohmann) refuse; and
// the integer "-0" is a double there, an integer in nlohmann. Texts holding either (a "-0" not
// followed by '.', 'e' or 'E', wherever it is) go the exact way.
bool fast_path_agrees(std::string_view text) {
  bool differ = false;
  const size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    differ |= b < 0x20 && b != '\t' && b != '\n' && b != '\r';
    if (b == '-' && i + 1 < n && text[i + 1] == '0') {
      const char next = i + 2 < n ? text[i + 2] : ' ';
      differ |= next != '.' && next != 'e' && next != 'E';
    }
  }
  return !differ;
}

// simdjson's DOM asks for about 14 bytes per byte of text (an 8-byte tape slot and a 4-byte index
// per byte, 5/3 for strings) beside the Json it is copied into: the fast path is taken only while
// that fits in a quarter of --max-memory (texts up to 16 MB under the default 1 GiB); larger texts
// go the exact way, which needs nothing beside the Json.
constexpr uint64_t kFastBytesPerByte = 16;

// Parses with simdjson; false when simdjson refuses the text (or cannot get the memory): the
// exact reader below then gives the error and its offset, or the value where they differ.
bool parse_fast(std::string_view text, Json& result) {
  // An empty text is no JSON (the exact reader names the error), and simdjson would copy from its
  // null data pointer (UBSan: memcpy's source declared non-null).
  if (text.empty()) return false;
  if (!fits(text.size(), kFastBytesPerByte, limits().max_memory / 4) || !fast_path_agrees(text)) return false;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS) return false;
  copy_value(root, result, 0);
  return true;
}

// ---- the exact path: nlohmann's SAX parser -------------------------------------------------------

// nlohmann's SAX parser into our own DOM builder, with a depth count. nlohmann's builder
// (json_sax_dom_parser) inserts each member into the object as its key is read: ordered_json
// keeps members in a vector of pair<const string, Json>, whose move is not noexcept (the const
// key is copied), so every time that vector grows it deep-copies the members already there, a
// whole subtree each (a 117 MB dump of 1 M events was copied three times: 55 % of its parse).
// Here an open object's members wait in a vector of movable pairs, and the object is made at its
// close with its final size, each member moved once. A repeated key keeps its first place and
// takes the last value, as nlohmann's builder (and the fast path above) has it.
class DepthLimitedBuilder {
 public:
  explicit DepthLimitedBuilder(Json& result) : result_(result) {}

  bool null() { return put(Json(nullptr)); }
  bool boolean(bool v) { return put(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return put(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)); }
  bool number_float(Json::number_float_t v, const std::string&) { return put(Json(v)); }
  bool string(std::string& v) { return put(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return put(Json(std::move(v))); }
  bool key(std::string& k) {
    Open& o = top();
    o.slot = o.members.size();
    if (o.members.size() <= kLinearKeys) {
      for (size_t i = 0; i < o.members.size(); ++i)
        if (o.members[i].first == k) o.slot = i;
    } else {
      if (o.index.empty())
        for (size_t i = 0; i < o.members.size(); ++i) o.index.emplace(o.members[i].first, i);
      if (auto it = o.index.find(k); it != o.index.end()) o.slot = it->second;
    }
    if (o.slot == o.members.size()) {
      if (!o.index.empty()) o.index.emplace(k, o.slot);
      o.members.emplace_back(std::move(k), Json());
    }
    return true;
  }
  bool start_object(size_t) {
    enter().is_object = true;
    return true;
  }
  bool start_array(size_t) {
    enter().value = Json::array();
    return true;
  }
  bool end_object() {
    Open& o = top();
    Json object = Json::object();
    auto& members = object.get_ref<Json::object_t&>();
    members.reserve(o.members.size());
    for (auto& [k, v] : o.members) members.emplace_back(std::move(k), std::move(v));
    o.members.clear();  // keeps its room for the next object at this depth
    o.index.clear();
    return close(std::move(object));
  }
  bool end_array() { return close(std::move(top().value)); }
  template <class Exception>
  bool parse_error(size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  // A container being read: an array (its Json) or an object (its members so far, `slot` the
  // one whose value comes next, `index` their places once there are more than kLinearKeys).
  struct Open {
    bool is_object = false;
    Json value;
    std::vector<std::pair<std::string, Json>> members;
    size_t slot = 0;
    std::unordered_map<std::string, size_t> index;
  };

  // The containers open are open_[0, depth_); the ones past it are kept for their room.
  Open& enter() {
    if (depth_ + 1 > kMaxJsonDepth) throw TooDeep{};
    if (open_.size() == static_cast<size_t>(depth_)) open_.emplace_back();
    Open& o = open_[static_cast<size_t>(depth_++)];
    o.is_object = false;
    return o;
  }
  Open& top() { return open_[static_cast<size_t>(depth_ - 1)]; }
  // A finished value goes into the container open around it, or is the result.
  bool put(Json&& v) {
    if (depth_ == 0) {
      result_ = std::move(v);
    } else if (Open& o = top(); o.is_object) {
      o.members[o.slot].second = std::move(v);
    } else {
      o.value.get_ref<Json::array_t&>().push_back(std::move(v));
    }
    return true;
  }
  bool close(Json&& v) {
    Json done = std::move(v);
    --depth_;
    return put(std::move(done));
  }

  Json& result_;
  std::vector<Open> open_;
  int depth_ = 0;
};

}  // namespace

std::optional<uint64_t> json_too_deep_at(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return std::nullopt;
}

Json parse_json_exact(std::string_view text) {
  Json result;
  DepthLimitedBuilder builder(result);
  Json::sax_parse(text.begin(), text.end(), &builder);
  return result;
}

Json parse_json(std::string_view text, const std::string& file) {
  try {
    Json result;
    if (parse_fast(text, result)) return result;
    return parse_json_exact(text);
  } catch (const TooDeep&) {
    throw Error(fmt::format("invalid JSON: nested deeper than {} levels", kMaxJsonDepth),
                json_too_deep_at(text).value_or(text.size()), file);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's byte position is 1-based and counts the byte it stopped at.
    const uint64_t at = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    if (auto p = what.find("syntax error"); p != std::string::npos) what = what.substr(p);
    throw Error("invalid JSON: " + what, at, file);
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double
    throw Error(std::string("invalid JSON: ") + e.what(), std::nullopt, file);
  }
}

}  // namespace animkit
