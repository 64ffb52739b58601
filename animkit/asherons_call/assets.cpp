#include "animkit/asherons_call/assets.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/asherons_call/json_helpers.h"

namespace animkit::asherons_call {

namespace {

std::string_view text_of(const std::vector<uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

template <class F>
auto with_file(const std::filesystem::path& path, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    throw e.with_file(path.string());
  }
}

}  // namespace

// Issue 28: JSON by content, never by a first byte. JSON text holds no byte below 0x20 other
// than blanks, while every binary object has one in its id (type byte 0x02/0x03, or the zero
// bytes of ids such as 0x0900007B, whose first byte is '{').
bool looks_like_json(Bytes head) {
  bool first = true;
  for (uint8_t c : head) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c < 0x20) return false;
    if (first && c != '{') return false;
    first = false;
  }
  return !first;
}

std::string_view object_kind_name(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kMotionTable: return "motion_table";
    case ObjectKind::kAnimation: return "animation";
    case ObjectKind::kSetup: return "setup";
    case ObjectKind::kUnknown: break;
  }
  return "unknown";
}

Recognized recognize_object(Bytes whole) {
  Recognized r;
  if (looks_like_json(whole)) {
    // JSON only when it parses as one of the module's JSON forms.
    Json j;
    try {
      j = parse_json(std::string_view(reinterpret_cast<const char*>(whole.data()), whole.size()));
    } catch (const Error&) {
    }
    if (j.is_object()) {
      auto it = j.find("asherons_call");
      if (it != j.end() && it->is_string()) {
        const std::string kind = it->get<std::string>();
        for (ObjectKind k : {ObjectKind::kMotionTable, ObjectKind::kAnimation, ObjectKind::kSetup}) {
          if (kind == object_kind_name(k)) {
            r.kind = k;
            r.json = std::move(j);
            return r;
          }
        }
      }
    }
  }
  // Binary: the id's type byte (container page 4) and the object's own layout.
  if (whole.size() < 4) return r;
  switch (whole[3]) {
    case 0x09:
      if (looks_like_motion_table(whole)) r.kind = ObjectKind::kMotionTable;
      break;
    case 0x03:
      if (looks_like_animation(whole)) r.kind = ObjectKind::kAnimation;
      break;
    case 0x02:
      if (looks_like_setup(whole)) r.kind = ObjectKind::kSetup;
      break;
    default:
      break;
  }
  return r;
}

namespace {

// The file's object of kind `want`, recognised by content; another kind is an error.
Recognized expect_kind(const std::vector<uint8_t>& bytes, ObjectKind want) {
  Recognized r = recognize_object(bytes);
  if (r.kind == want) return r;
  if (r.kind == ObjectKind::kUnknown) {
    // Not recognised: report the parser's own error (with its offset) rather than a guess.
    if (looks_like_json(bytes)) (void)parse_json(text_of(bytes));
    r.kind = want;
    return r;
  }
  throw Error(fmt::format("a {} ({}), not a {}", object_kind_name(r.kind),
                          r.json.is_null() ? "binary" : "JSON", object_kind_name(want)));
}

}  // namespace

MotionTable load_motion_table(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return with_file(path, [&] {
    const Recognized r = expect_kind(bytes, ObjectKind::kMotionTable);
    if (!r.json.is_null()) return motion_table_from_json(r.json);
    return read_motion_table(bytes);
  });
}

Animation load_animation(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return with_file(path, [&] {
    const Recognized r = expect_kind(bytes, ObjectKind::kAnimation);
    if (!r.json.is_null()) return animation_from_json(r.json);
    return read_animation(bytes);
  });
}

Setup load_setup(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return with_file(path, [&] {
    const Recognized r = expect_kind(bytes, ObjectKind::kSetup);
    if (!r.json.is_null()) return setup_from_json(r.json);
    return read_setup(bytes);
  });
}

AnimationStore load_animation_dir(const std::filesystem::path& dir) {
  AnimationStore store;
  if (!std::filesystem::is_directory(dir))
    throw Error(fmt::format("{}: not a directory", dir.string()));
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const std::vector<uint8_t> bytes = read_file(f);
    const Recognized r = recognize_object(bytes);
    if (r.kind != ObjectKind::kAnimation) continue;
    store.add(with_file(f, [&] {
      return r.json.is_null() ? read_animation(bytes) : animation_from_json(r.json);
    }));
  }
  return store;
}

Parts parts_from_json(const Json& j) {
  const Json& list = member(j, "parts");
  if (!list.is_array()) throw Error("parts: expected an array");
  Parts p;
  for (const Json& e : list) {
    const int index = static_cast<int>(p.names.size());
    p.names.push_back(e.is_object() && e.contains("name") && e["name"].is_string()
                          ? e["name"].get<std::string>()
                          : fmt::format("part_{}", index));
    const int parent =
        e.is_object()
            ? static_cast<int>(int_from_json(e.value("parent", Json(-1)), "parent", -1, index - 1))
            : -1;
    p.parents.push_back(parent);
  }
  return p;
}

Parts load_parts(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return with_file(path,
                   [&] { return parts_from_json(parse_json(text_of(bytes), path.string())); });
}

}  // namespace animkit::asherons_call
