// The game's file system over game folders and their .pk3 archives (cod-xanim-format.md, §4):
// folders in priority order (the mod over `uo` over `main`), in each folder every pk3 (the
// alphabetically last first) before the folder's loose files, localized pk3s behind everything
// else; names matched ignoring ASCII case with `\`, `:` and `/` equal. Archives are read with
// libzip.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "animkit/call_of_duty/diagnostic.h"

namespace animkit::call_of_duty {

// A file found in the search path.
struct GameFile {
  std::string name;     // canonical: lower case, '/' separators ("xanim/stand_idle")
  std::string display;  // for diagnostics: the loose path, or "ARCHIVE.pk3/member"
  int source = -1;      // the search-path entry that supplies it
  int64_t entry = -1;   // the member index in the archive (-1: a loose file)
  std::filesystem::path path;  // the loose file
  bool in_archive() const { return entry >= 0; }
};

// §4.4: lower case, `\` and `:` as `/`, leading slashes stripped; nullopt for a path the game
// refuses (`..` or `::`).
std::optional<std::string> canonical_game_path(std::string_view path);

// §4.2: the order pk3 names sort in (a `localized_` prefix as 10 spaces, a-z folded to upper
// case, `\` and `:` equal to `/`, bytes compared as signed chars). True when a sorts before b.
bool pk3_name_less(std::string_view a, std::string_view b);

class GameFiles {
 public:
  GameFiles();
  ~GameFiles();
  GameFiles(GameFiles&&) noexcept;
  GameFiles& operator=(GameFiles&&) noexcept;

  // Adds a game folder above every folder added before (so: `main`, then `uo`, then the mod).
  // Its loose files are listed recursively (following links), its *.pk3 catalogued. A folder
  // that cannot be read throws animkit::Error; an archive that cannot be read is a warning in
  // diagnostics() and is skipped.
  void add_folder(const std::filesystem::path& dir);
  size_t folder_count() const;

  // The normal open (§4.3, step 2): the first entry in priority order that has the name.
  std::optional<GameFile> find(std::string_view path) const;
  // The asset lookup of `xanim/<name>` (§4.3): found when any pk3 or any loose `xanim/` listing
  // has it; the bytes then come from find().
  std::optional<GameFile> find_xanim(std::string_view name) const;
  // The whole file (throws animkit::Error naming it when it cannot be read); at most `max_bytes`
  // when given (a prefix). An archive member's uncompressed size, times `held`, is checked
  // against --max-memory before anything is inflated (the error names the archive and member).
  std::vector<uint8_t> read(const GameFile& file, std::optional<size_t> max_bytes = std::nullopt,
                            unsigned held = 1) const;
  // A script or tree text: held with its parse, which costs at least as much again, so a member
  // must fit twice in --max-memory (README Memory).
  std::string read_text(const GameFile& file) const;
  // Every file whose canonical name starts with `folder` (e.g. "maps/") and ends with `suffix`
  // (e.g. ".gsc"): the winner of each name, sorted by name. `from_folder` >= 0 limits the
  // listing to the entries of that folder (its pk3s and loose files).
  std::vector<GameFile> list(std::string_view folder, std::string_view suffix,
                             int from_folder = -1) const;
  // The search-path entries, highest priority first, for display ("DIR" or "DIR/x.pk3").
  std::vector<std::string> search_order() const;
  // The folder (by add_folder order) an entry belongs to.
  int folder_of(const GameFile& file) const;

  const std::vector<Diagnostic>& diagnostics() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace animkit::call_of_duty
