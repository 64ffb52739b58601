#include "animkit/core/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <new>

#include "animkit/core/limits.h"
#include "animkit/core/memory_limit.h"

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
  for (const Engine& e : engines_) {
    for (const Format& f : e.formats) {
      if (f.sniff_cut && f.sniff_cut(path, head)) return &f;
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

namespace {
// The first byte past white space opens a JSON object or array.
bool looks_like_json_text(Bytes bytes) {
  for (uint8_t c : bytes) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' || c == '[';
  }
  return false;
}
}  // namespace

std::unique_ptr<Document> Registry::open(const std::filesystem::path& path,
                                         const Options& options, const Format** used) const {
  auto open_it = [&]() -> std::unique_ptr<Document> {
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
      if (!f && looks_like_json_text(bytes)) {
        // A cut or broken JSON file: the parser's error says where (issue 31, item 4).
        (void)parse_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                         path.string());
      }
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
  };
  // What a library throws leaves as one animkit::Error naming the file (issue 30), never as the
  // library's own message.
  const std::string file = path.string();
  try {
    return open_it();
  } catch (const MemoryLimitExceeded& e) {
    throw Error(e.what(), std::nullopt, file);
  } catch (const std::bad_alloc&) {
    throw Error("out of memory reading it", std::nullopt, file);
  } catch (const std::filesystem::filesystem_error& e) {
    throw Error(e.code().message(), std::nullopt, file);
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("invalid JSON: ") + e.what(), std::nullopt, file);
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

namespace {

// Refuses what is not a regular file before opening it (issue 30): a folder, a device (reading
// /dev/zero never ends), a FIFO (opening one waits for a writer), a socket. Returns its size.
uint64_t regular_file_size(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (ec) throw Error("cannot open the file", std::nullopt, path.string());
  if (std::filesystem::is_directory(st)) {
    throw Error("is a folder, not a file", std::nullopt, path.string());
  }
  if (!std::filesystem::is_regular_file(st)) {
    throw Error("not a regular file (a device, FIFO or socket); animkit reads files",
                std::nullopt, path.string());
  }
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) throw Error("cannot read the file: " + ec.message(), std::nullopt, path.string());
  return size;
}

}  // namespace

std::vector<uint8_t> read_head(const std::filesystem::path& path, size_t n) {
  regular_file_size(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open the file", std::nullopt, path.string());
  std::vector<uint8_t> bytes(n);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(n));
  bytes.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) throw Error("cannot read the file", std::nullopt, path.string());
  return bytes;
}

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  // The size is known and checked against --max-memory before a byte is read (issue 30); the
  // read stops at that size even if the file grows meanwhile.
  const uint64_t size = regular_file_size(path);
  try {
    check_memory(size, "the file");
  } catch (const Error& e) {
    throw e.with_file(path.string());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open the file", std::nullopt, path.string());
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (in.bad()) throw Error("cannot read the file", std::nullopt, path.string());
  bytes.resize(static_cast<size_t>(in.gcount()));
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

}  // namespace animkit
