#include "animkit/call_of_duty/linker.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "animkit/call_of_duty/anim_registry.h"
#include "animkit/call_of_duty/file_walk.h"
#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/core/error.h"
#include "animkit/core/registry.h"

namespace animkit::call_of_duty {

namespace {

std::string as_text(const std::vector<uint8_t>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

Diagnostic make(const std::string& file, int line, int column, uint64_t offset, std::string message,
                Diagnostic::Level level = Diagnostic::Level::kError) {
  Diagnostic d;
  d.level = level;
  d.file = file;
  d.line = line;
  d.column = column;
  d.offset = offset;
  d.message = std::move(message);
  return d;
}

}  // namespace

LinkResult link_scans(std::vector<std::shared_ptr<const ScriptScan>> scripts,
                      const std::vector<TreeDirective>& selections, const LinkOptions& options) {
  LinkResult out;
  out.scripts = std::move(scripts);
  AnimTreeRegistry registry;
  std::map<std::string, std::vector<Reference>> refs_by_tree;
  std::map<std::string, int> index_of;  // canonical name -> registry index (0: refused)
  for (const auto& scan : out.scripts) {
    for (const Diagnostic& d : scan->diagnostics) out.diagnostics.push_back(d);
  }
  // The tree is registered on first use (its #using_animtree).
  for (const TreeDirective& d : selections) {
    if (index_of.count(d.tree)) continue;
    try {
      const int index = registry.register_tree(d.tree);
      index_of[d.tree] = index;
      LinkedTree t;
      t.name = d.tree;
      t.index = index;
      t.directive = d;
      out.trees.push_back(std::move(t));
    } catch (const Error& e) {
      index_of[d.tree] = 0;
      out.diagnostics.push_back(make(d.file, d.line, d.column, d.offset, e.message()));
    }
  }
  // The loader uses the first place of each name only (Scr_CheckAnimsDefined reports a name once):
  // a million references to one name are one entry (issue 26, bounded memory).
  std::set<std::pair<std::string, std::string>> listed;  // (tree, name)
  size_t total = 0;
  for (const auto& scan : out.scripts) {
    total += scan->references.size();
    for (const ScriptReference& r : scan->references) {
      if (r.kind == ScriptReference::Kind::kAnimation && listed.insert({r.tree, r.name}).second) {
        refs_by_tree[r.tree].push_back({r.name, r.file(), r.line, r.column, r.offset});
      }
    }
  }
  listed.clear();
  if (options.keep_references) out.references.reserve(total);
  out.reference_count = total;
  // Load each registered tree with the names its scripts reference.
  uint32_t seed = 0;
  for (LinkedTree& t : out.trees) {
    std::optional<SourceText> file;
    try {
      if (options.find_tree) file = options.find_tree(t.name);
    } catch (const Error& e) {
      out.diagnostics.push_back(make(e.file(), 0, 0, 0, e.message()));
      continue;
    }
    auto& refs = refs_by_tree[t.name];
    if (!file) {
      // The game's failure model: a #using_animtree naming a missing .atr leaves the tree empty
      // and reports nothing (its references bind nothing, silently). A linter says so, as a
      // warning at the directive (README Choices 16).
      t.missing = true;
      out.diagnostics.push_back(make(t.directive.file, t.directive.line, t.directive.column,
                                     t.directive.offset,
                                     fmt::format("cannot find 'animtrees/{}.atr': the game "
                                                 "leaves the tree empty",
                                                 t.name),
                                     Diagnostic::Level::kWarning));
      continue;
    }
    t.file = file->display;
    LoadOptions lo;
    lo.tree_name = t.name;
    lo.file = t.file;
    lo.references = std::move(refs);
    lo.anim_check = options.anim_check;
    lo.keep_going = options.keep_going;
    lo.assets = options.assets;
    lo.checksum_seed = seed;
    t.load = load_anim_tree(file->text, lo);
    if (t.load->anim) {
      seed = t.load->anim->checksum;
      out.total_nodes += t.load->anim->node_count;
    }
    for (const Diagnostic& d : t.load->diagnostics) out.diagnostics.push_back(d);
  }
  // Every reference: its tree, node and packed value; the other places of an undefined name.
  std::set<std::pair<std::string, std::string>> undefined_seen;
  for (const auto& s : out.scripts) {
    for (const ScriptReference& r : s->references) {
      ResolvedReference rr;
      rr.ref = &r;
      rr.tree_index = index_of.count(r.tree) ? index_of[r.tree] : 0;
      const LinkedTree* tree = rr.tree_index > 0 ? &out.trees[rr.tree_index - 1] : nullptr;
      if (r.kind == ScriptReference::Kind::kAnimTree) {
        if (rr.tree_index > 0) rr.value = static_cast<uint32_t>(rr.tree_index);
      } else if (tree && tree->load && tree->load->anim) {
        rr.node = tree->load->find(r.name);
        if (rr.node) {
          rr.value = pack_anim(rr.tree_index, *rr.node);
        } else {
          // The loader reported the first place; a linter names every other one too.
          const bool first = undefined_seen.insert({r.tree, r.name}).second;
          if (!first) {
            out.diagnostics.push_back(
                make(r.file(), r.line, r.column, r.offset,
                     fmt::format("animation '{}' not defined in anim tree '{}'", r.name, r.tree)));
          }
        }
      }
      if (options.keep_references) out.references.push_back(std::move(rr));
    }
  }
  return out;
}

LinkResult link_sources(const std::vector<SourceText>& sources, const LinkOptions& options) {
  std::vector<std::shared_ptr<const ScriptScan>> scans;
  std::vector<TreeDirective> selections;
  for (const SourceText& source : sources) {
    auto scan = std::make_shared<ScriptScan>(scan_script(source.text, source.display));
    selections.insert(selections.end(), scan->directives.begin(), scan->directives.end());
    scans.push_back(std::move(scan));
  }
  return link_scans(std::move(scans), selections, options);
}

LinkResult link_scripts(const std::vector<std::filesystem::path>& scripts,
                        const LinkOptions& options) {
  std::vector<SourceText> sources;
  std::vector<Diagnostic> unreadable;
  for (const auto& path : scripts) {
    try {
      sources.push_back({path.string(), as_text(read_file(path))});
    } catch (const Error& e) {
      unreadable.push_back(make(path.string(), 0, 0, 0, e.message()));
    }
  }
  LinkResult r = link_sources(sources, options);
  r.diagnostics.insert(r.diagnostics.begin(), unreadable.begin(), unreadable.end());
  return r;
}

std::function<std::optional<SourceText>(const std::string& tree)> tree_finder(
    const GameFiles& files) {
  return [&files](const std::string& tree) -> std::optional<SourceText> {
    const auto f = files.find("animtrees/" + tree + ".atr");
    if (!f) return std::nullopt;
    return SourceText{f->display, files.read_text(*f)};
  };
}

LinkResult lint_mod(const LintOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_directory(options.mod_dir, ec)) {
    throw Error("not a folder", std::nullopt, options.mod_dir.string());
  }
  GameFiles files;
  for (const auto& dir : options.game_dirs) files.add_folder(dir);
  const int mod = static_cast<int>(files.folder_count());
  files.add_folder(options.mod_dir);  // fs_game: above every game folder
  std::vector<SourceText> scripts;
  std::vector<Diagnostic> unreadable;
  for (const GameFile& f : files.list("", ".gsc", mod)) {
    try {
      scripts.push_back({f.display, files.read_text(f)});
    } catch (const Error& e) {
      unreadable.push_back(make(f.display, 0, 0, 0, e.message()));
    }
  }
  AssetResolver assets;
  assets.set_game_files(&files, !options.game_dirs.empty());
  if (options.manifest) assets.load_manifest(*options.manifest);
  LinkOptions o;
  o.anim_check = options.anim_check;
  o.assets = &assets;
  o.find_tree = tree_finder(files);
  LinkResult r = link_sources(scripts, o);
  std::vector<Diagnostic> first = files.diagnostics();
  first.insert(first.end(), unreadable.begin(), unreadable.end());
  r.diagnostics.insert(r.diagnostics.begin(), first.begin(), first.end());
  return r;
}

LinkResult lint_mod(const std::filesystem::path& mod_dir, bool anim_check,
                    const std::optional<std::filesystem::path>& manifest) {
  LintOptions o;
  o.mod_dir = mod_dir;
  o.anim_check = anim_check;
  o.manifest = manifest;
  return lint_mod(o);
}

}  // namespace animkit::call_of_duty
