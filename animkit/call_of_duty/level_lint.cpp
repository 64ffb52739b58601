#include "animkit/call_of_duty/level_lint.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "animkit/call_of_duty/level_script.h"
#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/core/error.h"

namespace animkit::call_of_duty {

std::vector<ScriptReference> player_anim_references(std::string_view text,
                                                    const std::string& file) {
  std::vector<ScriptReference> out;
  const auto file_name = std::make_shared<const std::string>(file);
  Tokenizer tok(text);
  LineCursor lines(text);
  for (Token t = tok.next(); !t.eof; t = tok.next()) {
    const std::string w = to_lower(t.text);
    if (w != "legs" && w != "torso" && w != "both") continue;
    const Token name = tok.next_on_line();
    if (name.eof || name.empty()) continue;
    ScriptReference r;
    r.name = to_lower(name.text);
    r.tree = "multiplayer";  // the player layer looks its names up in multiplayer.atr
    r.file_name = file_name;
    r.offset = name.offset;
    const LineCursor::Place p = lines.at(name.offset);
    r.line = p.line;
    r.column = p.column;
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

// Where a level script may stand: maps/<name>.gsc or maps/mp/<name>.gsc, not a `_` utility
// script. Whether it is a level is its content's (is_level below).
std::optional<std::string> level_name(const std::string& script) {
  constexpr std::string_view kMaps = "maps/", kExt = ".gsc";
  if (script.compare(0, kMaps.size(), kMaps) != 0) return std::nullopt;
  std::string rest = script.substr(kMaps.size(), script.size() - kMaps.size() - kExt.size());
  std::string prefix;
  if (rest.compare(0, 3, "mp/") == 0) {
    prefix = "mp/";
    rest.erase(0, 3);
  }
  if (rest.empty() || rest[0] == '_' || rest.find('/') != std::string::npos) return std::nullopt;
  return prefix + rest;
}

class LevelLinker {
 public:
  LevelLinker(const GameFiles& files, bool complete, const LinkOptions& link)
      : files_(files), complete_(complete), link_(link) {}

  // Every script a level loads (the scans alone, no linking): for choosing the levels a mod's
  // scripts reach.
  std::unordered_set<std::string> reach(const std::string& level_script) {
    std::unordered_set<std::string> seen{level_script};
    std::vector<std::string> todo{level_script};
    while (!todo.empty()) {
      const std::string script = std::move(todo.back());
      todo.pop_back();
      const auto s = scan(script);
      if (!s) continue;
      for (const ScriptDependency& d : s->dependencies) {
        if (seen.insert(d.script).second) todo.push_back(d.script);
      }
    }
    return seen;
  }

  std::shared_ptr<const ScriptScan> scan(const std::string& script) {
    auto it = cache_.find(script);
    if (it != cache_.end()) return it->second;
    std::shared_ptr<const ScriptScan> s;
    if (const auto f = files_.find(script)) {
      try {
        s = std::make_shared<ScriptScan>(scan_script(files_.read_text(*f), f->display));
      } catch (const Error& e) {
        auto bad = std::make_shared<ScriptScan>();
        bad->file = f->display;
        Diagnostic d;
        d.file = f->display;
        d.message = e.message();
        bad->diagnostics.push_back(std::move(d));
        s = std::move(bad);
      }
    }
    cache_.emplace(script, s);
    return s;
  }

  // One level: its scripts in load order, the trees in the order their directives are met.
  LinkResult level(const std::string& script, std::set<std::string>& loaded) {
    scripts_.clear();
    selections_.clear();
    missing_.clear();
    visited_.clear();
    visit(script, nullptr, 0);
    for (const auto& [name, _] : visited_order_) loaded.insert(name);
    visited_order_.clear();
    LinkResult r = link_scans(scripts_, selections_, link_);
    r.diagnostics.insert(r.diagnostics.end(), missing_.begin(), missing_.end());
    return r;
  }

 private:
  // The game loads a script where it first meets it: an `#include`, or a call into the file.
  // A directive registers its tree where it stands (README Choices 28).
  void visit(const std::string& script, const ScriptDependency* from, int depth) {
    if (!visited_.insert(script).second) return;
    const auto s = scan(script);
    if (!s) {
      if (from && complete_) {
        Diagnostic d;
        d.level = Diagnostic::Level::kWarning;
        d.file = from_file_;
        d.line = from->line;
        d.column = from->column;
        d.offset = from->offset;
        d.message = fmt::format("cannot find script '{}'", script);
        missing_.push_back(std::move(d));
      }
      return;
    }
    visited_order_.emplace_back(script, s);
    scripts_.push_back(s);
    chain_.push_back(script);
    if (depth >= kMaxChain) {
      // The rest of an absurd chain is not followed, and the lint says so (README Choices 42).
      if (!s->dependencies.empty()) deep_chain(*s);
      chain_.pop_back();
      return;
    }
    size_t i = 0, j = 0;
    const auto& dirs = s->directives;
    const auto& deps = s->dependencies;
    while (i < dirs.size() || j < deps.size()) {
      if (j >= deps.size() || (i < dirs.size() && dirs[i].offset < deps[j].offset)) {
        selections_.push_back(dirs[i++]);
      } else {
        from_file_ = s->file;
        visit(deps[j].script, &deps[j], depth + 1);
        ++j;
      }
    }
    chain_.pop_back();
  }

  void deep_chain(const ScriptScan& s) {
    std::string names;
    for (size_t k = 0; k < chain_.size(); ++k) {
      if (k == 3 && chain_.size() > 7) {
        names += fmt::format(" -> ... ({} more) ...", chain_.size() - 6);
        k = chain_.size() - 3;
      }
      names += (names.empty() ? "" : " -> ") + chain_[k];
    }
    Diagnostic d;
    d.level = Diagnostic::Level::kWarning;
    d.file = s.file;
    d.line = s.dependencies.front().line;
    d.column = s.dependencies.front().column;
    d.offset = s.dependencies.front().offset;
    d.message = fmt::format(
        "script chain deeper than {} scripts: {}; the scripts it loads from here are not "
        "followed",
        kMaxChain, names);
    missing_.push_back(std::move(d));
  }

  static constexpr int kMaxChain = 512;
  std::vector<std::string> chain_;

  const GameFiles& files_;
  bool complete_;
  const LinkOptions& link_;
  std::unordered_map<std::string, std::shared_ptr<const ScriptScan>> cache_;
  std::vector<std::shared_ptr<const ScriptScan>> scripts_;
  std::vector<TreeDirective> selections_;
  std::vector<Diagnostic> missing_;
  std::unordered_set<std::string> visited_;
  std::vector<std::pair<std::string, std::shared_ptr<const ScriptScan>>> visited_order_;
  std::string from_file_;
};

}  // namespace

size_t LintReport::level_count() const {
  return static_cast<size_t>(std::count_if(levels.begin(), levels.end(), [](const LevelLint& l) {
    return l.kind == LevelLint::Kind::kLevel;
  }));
}

std::vector<Diagnostic> LintReport::unique_diagnostics() const {
  std::vector<Diagnostic> out;
  std::set<std::tuple<std::string, int, int, std::string, bool>> seen;
  auto add = [&](const Diagnostic& d) {
    if (seen.insert({d.file, d.line, d.column, d.message, d.is_error()}).second) out.push_back(d);
  };
  for (const Diagnostic& d : diagnostics) add(d);
  for (const LevelLint& l : levels) {
    for (const Diagnostic& d : l.link.diagnostics) add(d);
  }
  return out;
}

LintReport lint_levels(const LevelLintOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_directory(options.mod_dir, ec)) {
    throw Error("not a folder", std::nullopt, options.mod_dir.string());
  }
  GameFiles files;
  for (const auto& dir : options.game_dirs) files.add_folder(dir);
  const int mod = static_cast<int>(files.folder_count());
  files.add_folder(options.mod_dir);
  const bool complete = !options.game_dirs.empty();
  AssetResolver assets;
  assets.set_game_files(&files, complete);
  if (options.manifest) assets.load_manifest(*options.manifest);
  LinkOptions link;
  link.anim_check = options.anim_check;
  link.assets = &assets;
  link.find_tree = tree_finder(files);
  link.keep_references = options.keep_references;

  LintReport report;
  report.diagnostics = files.diagnostics();
  // Levels as the game has them (issue 26): a maps/<name>.gsc whose main calls maps\_load::main,
  // or that a .bsp names; helpers are linted inside the levels that reach them, never as levels.
  LevelLinker linker(files, complete, link);
  auto is_level = [&](const GameFile& f, const std::string& name) {
    if (files.find("maps/" + name + ".bsp")) return true;
    try {
      return main_calls_load_main(files.read_text(f));
    } catch (const Error&) {
      return false;  // unreadable: its scan reports why
    }
  };
  std::vector<std::pair<std::string, std::string>> all_levels;  // name, script
  for (const GameFile& f : files.list("maps/", ".gsc")) {
    if (auto name = level_name(f.name); name && is_level(f, *name)) {
      all_levels.emplace_back(*name, f.name);
    }
  }
  // The levels to lint: every level (of the mod or of the game folders) that reaches one of the
  // mod's scripts, with the mod's copies in place; a mod with no script any level reaches plays
  // in every level of the game.
  const std::vector<GameFile> mod_scripts = files.list("", ".gsc", mod);
  std::unordered_set<std::string> mod_names;
  for (const GameFile& f : mod_scripts) mod_names.insert(f.name);
  std::vector<std::pair<std::string, std::string>> levels;
  for (const auto& l : all_levels) {
    const auto reached = linker.reach(l.second);
    if (std::any_of(reached.begin(), reached.end(),
                    [&](const std::string& s) { return mod_names.count(s) > 0; })) {
      levels.push_back(l);
    }
  }
  if (levels.empty()) levels = all_levels;
  const std::string player_script = "mp/playeranim.script";
  if (options.level) {
    const std::string want = to_lower(*options.level);
    std::vector<std::pair<std::string, std::string>> one;
    for (const auto& l : all_levels) {
      if (l.first == want) one.push_back(l);
    }
    if (one.empty() && want != player_script) {
      std::string names;
      for (const auto& l : all_levels) names += (names.empty() ? "" : ", ") + l.first;
      throw Error(fmt::format("no level '{}' (levels: {})", *options.level,
                              names.empty() ? "none" : names));
    }
    levels = std::move(one);
  }
  std::set<std::string> loaded;
  for (const auto& [name, script] : levels) {
    LevelLint l;
    l.kind = LevelLint::Kind::kLevel;
    l.name = name;
    l.link = linker.level(script, loaded);
    report.levels.push_back(std::move(l));
  }
  // The player animation script: its names are references into multiplayer.atr.
  if (!options.level || to_lower(*options.level) == player_script) {
    if (const auto f = files.find(player_script)) {
      auto scan = std::make_shared<ScriptScan>();
      scan->file = f->display;
      try {
        scan->references = player_anim_references(files.read_text(*f), f->display);
      } catch (const Error& e) {
        Diagnostic d;
        d.file = f->display;
        d.message = e.message();
        scan->diagnostics.push_back(std::move(d));
      }
      TreeDirective select;
      select.tree = "multiplayer";
      select.file = f->display;
      scan->directives.push_back(select);
      LevelLint l;
      l.kind = LevelLint::Kind::kPlayer;
      l.name = player_script;
      l.link = link_scans({scan}, scan->directives, link);
      report.levels.push_back(std::move(l));
    }
  }
  // The mod's scripts no level loads, together.
  if (!options.level) {
    std::vector<std::shared_ptr<const ScriptScan>> rest;
    std::vector<TreeDirective> selections;
    for (const GameFile& f : mod_scripts) {
      if (loaded.count(f.name)) continue;
      auto s = linker.scan(f.name);
      if (!s) continue;
      selections.insert(selections.end(), s->directives.begin(), s->directives.end());
      rest.push_back(std::move(s));
    }
    if (!rest.empty()) {
      LevelLint l;
      l.kind = LevelLint::Kind::kOther;
      l.name = "(no level)";
      l.link = link_scans(std::move(rest), selections, link);
      report.levels.push_back(std::move(l));
    }
  }
  return report;
}

}  // namespace animkit::call_of_duty
