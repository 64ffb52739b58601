#include "animkit/call_of_duty/game_files.h"

#include <fmt/format.h>
#include <zip.h>

#include <algorithm>
#include <fstream>
#include <unordered_map>

#include "animkit/call_of_duty/file_walk.h"
#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/core/error.h"
#include "animkit/core/limits.h"
#include "animkit/core/registry.h"

namespace animkit::call_of_duty {

std::optional<std::string> canonical_game_path(std::string_view path) {
  if (path.find("..") != std::string_view::npos || path.find("::") != std::string_view::npos) {
    return std::nullopt;  // §4.4: refused
  }
  std::string s;
  s.reserve(path.size());
  for (char c : path) {
    if (c == '\\' || c == ':') c = '/';
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    s += c;
  }
  const size_t first = s.find_first_not_of('/');
  return first == std::string::npos ? std::string() : s.substr(first);
}

namespace {

constexpr std::string_view kLocalized = "localized_";

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  return to_lower(s.substr(0, prefix.size())) == prefix;
}

// One byte of a pk3 name as the sort compares it (§4.2).
signed char sort_key(char c) {
  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  if (c == '\\' || c == ':') c = '/';
  return static_cast<signed char>(c);
}

}  // namespace

bool pk3_name_less(std::string_view a, std::string_view b) {
  std::string x(a), y(b);
  if (starts_with_ci(x, kLocalized)) x.replace(0, kLocalized.size(), std::string(10, ' '));
  if (starts_with_ci(y, kLocalized)) y.replace(0, kLocalized.size(), std::string(10, ' '));
  const size_t n = std::min(x.size(), y.size());
  for (size_t i = 0; i < n; ++i) {
    const signed char p = sort_key(x[i]), q = sort_key(y[i]);
    if (p != q) return p < q;
  }
  return x.size() < y.size();
}

namespace {

// One entry of the search path: a folder's loose files, or one pk3.
struct Source {
  bool archive = false;
  bool localized = false;
  int folder = 0;
  std::filesystem::path path;
  zip_t* zip = nullptr;
  std::unordered_map<std::string, int64_t> members;               // archive: name -> index
  std::unordered_map<std::string, std::filesystem::path> loose;   // folder: name -> file
  std::unordered_map<std::string, std::string> member_names;      // archive: name -> as stored

  Source() = default;
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;
  ~Source() {
    if (zip) zip_discard(zip);
  }
};

std::string zip_message(int code) {
  zip_error_t e;
  zip_error_init_with_code(&e, code);
  std::string s = zip_error_strerror(&e);
  zip_error_fini(&e);
  return s;
}

}  // namespace

struct GameFiles::Impl {
  std::vector<std::unique_ptr<Source>> sources;  // in the order they were added
  std::vector<const Source*> order;               // search order, highest priority first
  std::vector<Diagnostic> diagnostics;
  int folders = 0;

  void reorder() {
    order.clear();
    // §4.1: every addition is pushed to the front, so later folders come first; within a folder
    // its pk3s (pushed after its directory, the alphabetically last last) come before the
    // folder's loose files. Localized pk3s rank behind every non-localized entry.
    for (int pass = 0; pass < 2; ++pass) {
      for (int f = folders - 1; f >= 0; --f) {
        for (auto it = sources.rbegin(); it != sources.rend(); ++it) {
          const Source& s = **it;
          if (s.folder != f || !s.archive || s.localized != (pass == 1)) continue;
          order.push_back(&s);
        }
        if (pass == 0) {
          for (const auto& s : sources) {
            if (s->folder == f && !s->archive) order.push_back(s.get());
          }
        }
      }
    }
  }

  GameFile make(const Source& s, const std::string& name) const {
    GameFile g;
    g.name = name;
    g.source = static_cast<int>(
        std::find_if(sources.begin(), sources.end(),
                     [&](const auto& p) { return p.get() == &s; }) -
        sources.begin());
    if (s.archive) {
      g.entry = s.members.at(name);
      g.display = (s.path / s.member_names.at(name)).string();
    } else {
      g.path = s.loose.at(name);
      g.display = g.path.string();
    }
    return g;
  }
};

GameFiles::GameFiles() : impl_(std::make_unique<Impl>()) {}
GameFiles::~GameFiles() = default;
GameFiles::GameFiles(GameFiles&&) noexcept = default;
GameFiles& GameFiles::operator=(GameFiles&&) noexcept = default;

void GameFiles::add_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw Error("not a game folder", std::nullopt, dir.string());
  }
  const int folder = impl_->folders++;
  // The folder's loose files (case folded, as the startup listing is).
  auto loose = std::make_unique<Source>();
  loose->folder = folder;
  loose->path = dir;
  for (const WalkedFile& f : walk_files(dir, impl_->diagnostics)) {
    if (auto name = canonical_game_path(f.relative.generic_string())) {
      loose->loose.emplace(*name, f.path);
    }
  }
  impl_->sources.push_back(std::move(loose));
  // Its pk3s, in the game's sort order (§4.2).
  std::vector<std::filesystem::path> pk3s;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (std::filesystem::is_regular_file(it->path(), e2) &&
        to_lower(it->path().extension().string()) == ".pk3") {
      pk3s.push_back(it->path());
    }
  }
  std::sort(pk3s.begin(), pk3s.end(), [](const auto& a, const auto& b) {
    return pk3_name_less(a.filename().string(), b.filename().string());
  });
  for (const auto& p : pk3s) {
    int err = 0;
    zip_t* z = zip_open(p.c_str(), ZIP_RDONLY, &err);
    if (!z) {
      Diagnostic d;
      d.level = Diagnostic::Level::kWarning;
      d.file = p.string();
      d.message = fmt::format("cannot read the archive ({}); skipped", zip_message(err));
      impl_->diagnostics.push_back(std::move(d));
      continue;
    }
    auto s = std::make_unique<Source>();
    s->archive = true;
    s->folder = folder;
    s->path = p;
    s->zip = z;
    s->localized = starts_with_ci(p.filename().string(), kLocalized);
    const zip_int64_t n = zip_get_num_entries(z, 0);
    // "Inside one pk3, entry names are lower-cased at load time. With duplicate names the later
    // central-directory entry wins."
    for (zip_int64_t i = 0; i < n; ++i) {
      const char* raw = zip_get_name(z, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
      if (!raw) continue;
      const std::string_view stored(raw);
      if (stored.empty() || stored.back() == '/') continue;  // a folder entry
      auto name = canonical_game_path(stored);
      if (!name || name->empty()) continue;
      s->members[*name] = i;
      s->member_names[*name] = std::string(stored);
    }
    impl_->sources.push_back(std::move(s));
  }
  impl_->reorder();
}

size_t GameFiles::folder_count() const { return static_cast<size_t>(impl_->folders); }

std::optional<GameFile> GameFiles::find(std::string_view path) const {
  const auto name = canonical_game_path(path);
  if (!name) return std::nullopt;
  for (const Source* s : impl_->order) {
    if (s->archive ? s->members.count(*name) : s->loose.count(*name)) return impl_->make(*s, *name);
  }
  return std::nullopt;
}

std::optional<GameFile> GameFiles::find_xanim(std::string_view name) const {
  const auto key = canonical_game_path("xanim/" + std::string(name));
  if (!key) return std::nullopt;
  // §4.3 step 1: every pk3 first, then the loose listings of <folder>/xanim/.
  bool slot = false;
  for (const Source* s : impl_->order) {
    if (s->archive && s->members.count(*key)) {
      slot = true;
      break;
    }
  }
  if (!slot) {
    for (const Source* s : impl_->order) {
      if (!s->archive && s->loose.count(*key)) {
        slot = true;
        break;
      }
    }
  }
  if (!slot) return std::nullopt;
  return find(*key);  // step 2: the bytes through the normal search order
}

std::vector<uint8_t> GameFiles::read(const GameFile& file, std::optional<size_t> max_bytes,
                                     unsigned held) const {
  if (!file.in_archive()) {
    if (!max_bytes) return read_file(file.path);
    std::ifstream in(file.path, std::ios::binary);
    if (!in) throw Error("cannot open the file", std::nullopt, file.display);
    std::vector<uint8_t> bytes(*max_bytes);
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<size_t>(in.gcount()));
    return bytes;
  }
  const Source& s = *impl_->sources.at(static_cast<size_t>(file.source));
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(s.zip, static_cast<zip_uint64_t>(file.entry), 0, &st) != 0 ||
      !(st.valid & ZIP_STAT_SIZE)) {
    throw Error(fmt::format("cannot read the archive member ({})", zip_strerror(s.zip)),
                std::nullopt, file.display);
  }
  uint64_t size = st.size;
  if (max_bytes) size = std::min<uint64_t>(size, *max_bytes);
  // Checked before anything is inflated; the error names the archive and the member.
  try {
    if (held > 1 && size > UINT64_MAX / held) throw Error("archive member: size overflows");
    check_memory(size * held, held > 1 ? fmt::format("archive member ({} bytes uncompressed, held "
                                                     "with its parse: x{})", size, held)
                                       : std::string("archive member (uncompressed size)"));
  } catch (const Error& e) {
    throw Error(e.message(), std::nullopt, file.display);
  }
  zip_file_t* zf = zip_fopen_index(s.zip, static_cast<zip_uint64_t>(file.entry), 0);
  if (!zf) {
    throw Error(fmt::format("cannot read the archive member ({})", zip_strerror(s.zip)),
                std::nullopt, file.display);
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  size_t done = 0;
  while (done < bytes.size()) {
    const zip_int64_t got = zip_fread(zf, bytes.data() + done, bytes.size() - done);
    if (got <= 0) break;
    done += static_cast<size_t>(got);
  }
  const bool failed = done < bytes.size();
  std::string why = failed ? zip_file_strerror(zf) : std::string();
  zip_fclose(zf);
  if (failed) {
    throw Error(fmt::format("cannot read the archive member ({})", why), std::nullopt,
                file.display);
  }
  return bytes;
}

std::string GameFiles::read_text(const GameFile& file) const {
  const std::vector<uint8_t> b = read(file, std::nullopt, 2);
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

std::vector<GameFile> GameFiles::list(std::string_view folder, std::string_view suffix,
                                      int from_folder) const {
  const std::string prefix = canonical_game_path(folder).value_or(std::string());
  const std::string tail = to_lower(suffix);
  auto wanted = [&](const std::string& name) {
    return name.size() >= prefix.size() + tail.size() && name.compare(0, prefix.size(), prefix) == 0 &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  std::vector<std::string> names;
  for (const Source* s : impl_->order) {
    if (from_folder >= 0 && s->folder != from_folder) continue;
    if (s->archive) {
      for (const auto& [name, index] : s->members) {
        if (wanted(name)) names.push_back(name);
      }
    } else {
      for (const auto& [name, path] : s->loose) {
        if (wanted(name)) names.push_back(name);
      }
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::vector<GameFile> out;
  for (const std::string& n : names) {
    if (auto f = find(n)) out.push_back(std::move(*f));
  }
  return out;
}

std::vector<std::string> GameFiles::search_order() const {
  std::vector<std::string> out;
  for (const Source* s : impl_->order) out.push_back(s->path.string());
  return out;
}

int GameFiles::folder_of(const GameFile& file) const {
  return impl_->sources.at(static_cast<size_t>(file.source))->folder;
}

const std::vector<Diagnostic>& GameFiles::diagnostics() const { return impl_->diagnostics; }

}  // namespace animkit::call_of_duty
