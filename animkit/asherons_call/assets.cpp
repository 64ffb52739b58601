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

bool looks_like_json(Bytes head) {
  for (uint8_t c : head) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    return c == '{';
  }
  return false;
}

MotionTable load_motion_table(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return with_file(path, [&] {
    if (looks_like_json(bytes))
      return motion_table_from_json(parse_json(text_of(bytes), path.string()));
    return read_motion_table(bytes);
  });
}

Animation load_animation(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return with_file(path, [&] {
    if (looks_like_json(bytes))
      return animation_from_json(parse_json(text_of(bytes), path.string()));
    return read_animation(bytes);
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
    const bool json = looks_like_json(bytes);
    if (json ? text_of(bytes).find("\"animation\"") == std::string_view::npos
             : !looks_like_animation(bytes)) {
      continue;
    }
    store.add(with_file(f, [&] {
      return json ? animation_from_json(parse_json(text_of(bytes), f.string()))
                  : read_animation(bytes);
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
