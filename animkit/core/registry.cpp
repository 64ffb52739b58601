#include "animkit/core/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>

namespace animkit {

const char* to_string(Finding::Level level) {
  switch (level) {
    case Finding::Level::kError: return "error";
    case Finding::Level::kWarning: return "warning";
    case Finding::Level::kInfo: return "info";
  }
  return "?";
}

void Registry::add(Engine engine) { engines_.push_back(std::move(engine)); }

const Engine* Registry::engine(const std::string& name) const {
  for (const Engine& e : engines_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const Format* Registry::format(const std::string& name) const {
  for (const Engine& e : engines_) {
    for (const Format& f : e.formats) {
      if (f.name == name) return &f;
    }
  }
  return nullptr;
}

const Format* Registry::detect(const std::filesystem::path& path, Bytes head) const {
  for (const Engine& e : engines_) {
    for (const Format& f : e.formats) {
      if (f.sniff && f.sniff(path, head)) return &f;
    }
  }
  return nullptr;
}

const Format* Registry::by_extension(const std::filesystem::path& path) const {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext.empty()) return nullptr;
  for (const Engine& e : engines_) {
    for (const Format& f : e.formats) {
      if (std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end()) return &f;
    }
  }
  return nullptr;
}

std::unique_ptr<Document> Registry::open(const std::filesystem::path& path,
                                         const Options& options, const Format** used) const {
  // A format that maps the file itself gets the head only (Format::maps_file).
  if (const Format* m = mapping_format(path, options)) {
    if (used) *used = m;
    const std::vector<uint8_t> head = read_head(path, 64 * 1024);
    try {
      return m->open(path, head, options);
    } catch (const Error& e) {
      throw e.with_file(path.string());
    }
  }
  const std::vector<uint8_t> bytes = read_file(path);
  const Format* f = nullptr;
  if (auto it = options.find("format"); it != options.end() && !it->second.empty()) {
    f = format(it->second);
    if (!f) throw Error(fmt::format("unknown format '{}'", it->second), std::nullopt, path.string());
  } else {
    f = detect(path, bytes);
    if (!f) f = by_extension(path);
    if (!f) {
      throw Error("not a format animkit recognises (force one with --format NAME; "
                  "`animkit info --formats` lists them)",
                  std::nullopt, path.string());
    }
  }
  if (used) *used = f;
  try {
    return f->open(path, bytes, options);
  } catch (const Error& e) {
    throw e.with_file(path.string());
  }
}

const Format* Registry::mapping_format(const std::filesystem::path& path,
                                       const Options& options) const {
  bool any = false;
  for (const Engine& e : engines_) {
    for (const Format& f : e.formats) any |= f.maps_file;
  }
  if (!any) return nullptr;
  if (auto it = options.find("format"); it != options.end() && !it->second.empty()) {
    const Format* f = format(it->second);
    return f && f->maps_file ? f : nullptr;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return nullptr;
  const std::vector<uint8_t> head = read_head(path, 64 * 1024);
  for (const Engine& e : engines_) {
    for (const Format& f : e.formats) {
      if (f.maps_file && f.sniff && f.sniff(path, head)) return &f;
    }
  }
  return nullptr;
}

std::vector<uint8_t> read_head(const std::filesystem::path& path, size_t n) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open the file", std::nullopt, path.string());
  std::vector<uint8_t> bytes(n);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(n));
  bytes.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) throw Error("cannot read the file", std::nullopt, path.string());
  return bytes;
}

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open the file", std::nullopt, path.string());
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error("cannot read the file", std::nullopt, path.string());
  return bytes;
}

void write_file(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw Error("cannot write the file", std::nullopt, path.string());
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  write_file(path, {reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

namespace {
// The nesting depth of a JSON text, counted in one pass outside strings (a malformed text is
// left to the parser's own message).
int max_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) break;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}
}  // namespace

Json parse_json(std::string_view text, const std::string& file) {
  // Copying, dumping and walking a value recurse once per level: nesting is bounded (issue 19: a
  // scenario of 40,000 nested tasks overflowed the stack). The depth is counted before parsing:
  // nlohmann's callback parser, which could count it, scans the enclosing array at the end of
  // every object it reads, quadratic in an array of objects (issue 29: 10^6 events took 100 s).
  constexpr int kMaxDepth = 512;
  if (max_depth(text, kMaxDepth) > kMaxDepth)
    throw Error(fmt::format("invalid JSON: nested deeper than {} levels", kMaxDepth),
                std::nullopt, file);
  try {
    return Json::parse(text.begin(), text.end());
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
