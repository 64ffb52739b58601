// Linting a mod level by level, as the game loads each one (issue 12, item 4): a level is
// `maps/<level>.gsc` (or `maps/mp/<level>.gsc`) and every script it includes or calls into,
// loaded in the order the game meets them; each level has its own tree registry, packed values
// and checksum chain. The multiplayer player tree is linted from the names `mp/playeranim.script`
// plays; the mod's scripts no level loads are linted together.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "animkit/call_of_duty/linker.h"

namespace animkit::call_of_duty {

struct LevelLint {
  enum class Kind { kLevel, kPlayer, kOther };
  Kind kind = Kind::kLevel;
  std::string name;  // "dawnville", "mp/mp_harbor", "mp/playeranim.script", "(no level)"
  LinkResult link;
};

struct LintReport {
  std::vector<LevelLint> levels;
  std::vector<Diagnostic> diagnostics;  // of the file system (archives, link loops)
  // Each diagnostic once (a shared script's appear in every level that loads it), file system
  // first, then by level.
  std::vector<Diagnostic> unique_diagnostics() const;
  size_t level_count() const;
};

struct LevelLintOptions {
  std::filesystem::path mod_dir;
  std::vector<std::filesystem::path> game_dirs;  // lowest priority first
  bool anim_check = false;
  std::optional<std::filesystem::path> manifest;
  std::optional<std::string> level;  // only this one (a level name or "mp/playeranim.script")
  bool keep_references = true;       // LinkOptions::keep_references
};

// Throws animkit::Error when the mod folder is not one, or `level` names no level.
LintReport lint_levels(const LevelLintOptions& options);

// The animation names the player animation script plays: the token after each `legs`, `torso`
// or `both` command (Com_Parse tokens, comments skipped), with their places in `file`.
std::vector<ScriptReference> player_anim_references(std::string_view text,
                                                    const std::string& file);

}  // namespace animkit::call_of_duty
