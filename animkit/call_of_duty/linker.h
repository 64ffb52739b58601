// Scripts and trees together, as the game links them: every script is scanned, every tree a
// script selects is registered (first use first) and loaded with the names the scripts reference
// in it, and every reference gets its packed value (cod-animtrees.txt, "Script integration";
// issue 4, "Script references"). `animkit cod lint` and `animkit cod refs` run on this.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "animkit/call_of_duty/assets.h"
#include "animkit/call_of_duty/diagnostic.h"
#include "animkit/call_of_duty/game_files.h"
#include "animkit/call_of_duty/gsc_scanner.h"
#include "animkit/call_of_duty/loader.h"

namespace animkit::call_of_duty {

struct LinkedTree {
  std::string name;  // canonical
  int index = 0;     // registry index (from 1); 0 when it could not be registered
  std::string file;  // the .atr file, empty when none was found
  bool missing = false;      // no .atr: the game leaves the tree empty
  TreeDirective directive;  // the #using_animtree that first selected it
  std::optional<LoadResult> load;
};

struct ResolvedReference {
  const ScriptReference* ref = nullptr;  // in one of LinkResult::scripts
  int tree_index = 0;
  std::optional<int32_t> node;    // the node index (%name), when the tree binds it
  std::optional<uint32_t> value;  // packed (treeIndex << 16) | nodeIndex; #animtree: treeIndex
};

// A script or tree: where it came from (a loose path, or ARCHIVE.pk3/member) and its text.
struct SourceText {
  std::string display;
  std::string text;
};

struct LinkOptions {
  bool anim_check = false;
  bool keep_going = true;  // a linter reports everything
  const AssetResolver* assets = nullptr;
  // The .atr of a canonical tree name, or nullopt when there is none. Throws animkit::Error
  // when it exists but cannot be read.
  std::function<std::optional<SourceText>(const std::string& tree)> find_tree;
  // false: LinkResult::references stays empty (the counts and diagnostics are the same): a lint
  // that prints no reference does not hold a million of them (issue 26, bounded memory).
  bool keep_references = true;
};

struct LinkResult {
  std::vector<std::shared_ptr<const ScriptScan>> scripts;  // in load order
  std::vector<LinkedTree> trees;  // by registry index - 1
  std::vector<ResolvedReference> references;  // empty unless LinkOptions::keep_references
  size_t reference_count = 0;                 // every reference, kept or not
  std::vector<Diagnostic> diagnostics;  // every diagnostic of every script and tree
  uint32_t total_nodes = 0;
};

// Links scanned scripts: the trees are registered in the order of `selections` (the
// #using_animtree directives as the game meets them while it loads the scripts), each loaded with
// the names the scripts reference in it.
LinkResult link_scans(std::vector<std::shared_ptr<const ScriptScan>> scripts,
                      const std::vector<TreeDirective>& selections, const LinkOptions& options);
// Links scripts in the order given (each one's directives in file order).
LinkResult link_sources(const std::vector<SourceText>& scripts, const LinkOptions& options);
// The same, read from disk (an unreadable one is a diagnostic).
LinkResult link_scripts(const std::vector<std::filesystem::path>& scripts,
                        const LinkOptions& options);

// The tree lookup of the game: animtrees/<name>.atr through the game's file system.
std::function<std::optional<SourceText>(const std::string& tree)> tree_finder(
    const GameFiles& files);

struct LintOptions {
  std::filesystem::path mod_dir;
  std::vector<std::filesystem::path> game_dirs;  // lowest priority first (main, then uo)
  bool anim_check = false;
  std::optional<std::filesystem::path> manifest;
};

// `cod lint MOD_DIR`: the mod's scripts (*.gsc, loose and in its pk3s), trees and assets found
// through the game's file system (the mod over the game folders). Without game folders an asset
// the mod lacks is taken to be in the game.
LinkResult lint_mod(const LintOptions& options);
LinkResult lint_mod(const std::filesystem::path& mod_dir, bool anim_check,
                    const std::optional<std::filesystem::path>& manifest);

}  // namespace animkit::call_of_duty
