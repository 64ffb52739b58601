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

LinkResult link_scripts(const std::vector<std::filesystem::path>& scripts,
                        const LinkOptions& options) {
  LinkResult out;
  auto display = [&](const std::filesystem::path& p) {
    return options.display ? options.display(p) : p.string();
  };
  AnimTreeRegistry registry;
  std::map<std::string, std::vector<Reference>> refs_by_tree;
  std::map<std::string, int> index_of;  // canonical name -> registry index (0: refused)
  for (const auto& path : scripts) {
    std::string text;
    try {
      text = as_text(read_file(path));
    } catch (const Error& e) {
      out.diagnostics.push_back(make(display(path), 0, 0, 0, e.message()));
      continue;
    }
    ScriptScan scan = scan_script(text, display(path));
    for (const Diagnostic& d : scan.diagnostics) out.diagnostics.push_back(d);
    // The tree is registered on first use (its #using_animtree).
    for (const TreeDirective& d : scan.directives) {
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
    for (const ScriptReference& r : scan.references) {
      if (r.kind == ScriptReference::Kind::kAnimation) {
        refs_by_tree[r.tree].push_back({r.name, r.file, r.line, r.column, r.offset});
      }
    }
    out.scripts.push_back(std::move(scan));
  }
  // Load each registered tree with the names its scripts reference.
  uint32_t seed = 0;
  for (LinkedTree& t : out.trees) {
    const std::optional<std::filesystem::path> file =
        options.find_tree ? options.find_tree(t.name) : std::nullopt;
    const auto& refs = refs_by_tree[t.name];
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
    t.file = display(*file);
    std::string text;
    try {
      text = as_text(read_file(*file));
    } catch (const Error& e) {
      out.diagnostics.push_back(make(t.file, 0, 0, 0, e.message()));
      continue;
    }
    LoadOptions lo;
    lo.tree_name = t.name;
    lo.file = t.file;
    lo.references = refs;
    lo.anim_check = options.anim_check;
    lo.keep_going = options.keep_going;
    lo.assets = options.assets;
    lo.checksum_seed = seed;
    t.load = load_anim_tree(text, lo);
    if (t.load->anim) {
      seed = t.load->anim->checksum;
      out.total_nodes += t.load->anim->node_count;
    }
    for (const Diagnostic& d : t.load->diagnostics) out.diagnostics.push_back(d);
  }
  // Every reference: its tree, node and packed value; the other places of an undefined name.
  std::set<std::pair<std::string, std::string>> undefined_seen;
  for (const ScriptScan& s : out.scripts) {
    for (const ScriptReference& r : s.references) {
      ResolvedReference rr;
      rr.ref = r;
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
                make(r.file, r.line, r.column, r.offset,
                     fmt::format("animation '{}' not defined in anim tree '{}'", r.name, r.tree)));
          }
        }
      }
      out.references.push_back(std::move(rr));
    }
  }
  return out;
}

namespace {

// A file in `dir` named `name`, compared case-insensitively (the game's file system is).
std::optional<std::filesystem::path> find_ci(const std::filesystem::path& dir,
                                             const std::string& name) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(dir / name, ec)) return dir / name;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  const std::string want = to_lower(name);
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec) && to_lower(e.path().filename().string()) == want) return e.path();
  }
  return std::nullopt;
}

}  // namespace

LinkResult lint_mod(const std::filesystem::path& mod_dir, bool anim_check,
                    const std::optional<std::filesystem::path>& manifest) {
  std::error_code ec;
  if (!std::filesystem::is_directory(mod_dir, ec)) {
    throw Error("not a folder", std::nullopt, mod_dir.string());
  }
  std::vector<Diagnostic> walk_diagnostics;
  std::vector<std::filesystem::path> scripts;
  for (const WalkedFile& f : walk_files(mod_dir, walk_diagnostics)) {
    if (to_lower(f.path.extension().string()) == ".gsc") scripts.push_back(f.path);
  }
  AssetResolver assets;
  std::optional<std::filesystem::path> xanim_dir;
  for (const auto& e : std::filesystem::directory_iterator(mod_dir, ec)) {
    if (e.is_directory(ec) && to_lower(e.path().filename().string()) == "xanim")
      xanim_dir = e.path();
  }
  if (xanim_dir) assets.set_directory(*xanim_dir);
  if (manifest) assets.load_manifest(*manifest);
  std::optional<std::filesystem::path> animtrees;
  for (const auto& e : std::filesystem::directory_iterator(mod_dir, ec)) {
    if (e.is_directory(ec) && to_lower(e.path().filename().string()) == "animtrees")
      animtrees = e.path();
  }
  LinkOptions o;
  o.anim_check = anim_check;
  o.assets = &assets;
  o.find_tree = [animtrees](const std::string& tree) -> std::optional<std::filesystem::path> {
    if (!animtrees) return std::nullopt;
    return find_ci(*animtrees, tree + ".atr");
  };
  LinkResult r = link_scripts(scripts, o);
  r.diagnostics.insert(r.diagnostics.begin(), walk_diagnostics.begin(), walk_diagnostics.end());
  return r;
}

}  // namespace animkit::call_of_duty
