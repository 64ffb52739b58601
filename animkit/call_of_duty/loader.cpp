#include "animkit/call_of_duty/loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_set>

#include "animkit/call_of_duty/tokenizer.h"

namespace animkit::call_of_duty {

namespace {

struct Stop {};

class Build {
 public:
  Build(const LoadOptions& options, std::string_view text, LoadResult& out)
      : options_(options), text_(text), out_(out) {}

  // A diagnostic at node `index`'s place in the file (none for the root).
  void error(int32_t index, const std::string& message) {
    Diagnostic d;
    d.file = options_.file;
    const XAnimEntry& e = out_.anim->entries[index];
    if (e.line > 0) {
      d.line = e.line;
      d.column = e.column;
      d.offset = offset_of(e.line, e.column);
    }
    d.message = message;
    out_.diagnostics.push_back(std::move(d));
    if (!options_.keep_going) throw Stop{};
  }

  // The byte offset of a 1-based line and byte column (the inverse of the parse's LineCursor:
  // lines count '\n'). Nodes keep their line and column only; the line starts are found when a
  // diagnostic first needs them.
  uint64_t offset_of(int line, int column) {
    if (line_starts_.empty()) {
      line_starts_.push_back(0);
      for (size_t i = 0; i < text_.size(); ++i) {
        if (text_[i] == '\n') line_starts_.push_back(i + 1);
      }
    }
    const size_t l = std::min(static_cast<size_t>(line), line_starts_.size()) - 1;
    return line_starts_[l] + static_cast<uint64_t>(column) - 1;
  }

  // Binding (cod-animtrees.txt, "Script integration"): in build order, the first node with a
  // referenced name binds it; a later one reports `duplicate animation '%s' in
  // 'animtrees/%s.atr'`.
  void bind(const std::unordered_set<std::string>& referenced) {
    if (referenced.empty()) return;
    for_each_in_build_order(*out_.anim, [&](int32_t i) {
      const std::string name(out_.anim->node_name(i));
      if (!referenced.count(name)) return;
      if (!out_.bindings.emplace(name, i).second) {
        error(i, fmt::format("duplicate animation '{}' in 'animtrees/{}.atr'", name,
                             options_.tree_name));
      } else if (i > kMaxPackedNodeIndex) {
        // "The low 16 bits hold the node index": a larger index would be truncated silently
        // into another node's value.
        error(i, fmt::format("node index {} of '{}' does not fit the 16 bits of a packed "
                             "animation reference (at most {})",
                             i, name, kMaxPackedNodeIndex));
      }
    });
  }

  // Leaves (cod-animtrees.txt, "Node kinds"): FS_GetDataForFile("xanim", name, "").
  void resolve_leaves() {
    AssetResolver everything;
    const AssetResolver& assets = options_.assets ? *options_.assets : everything;
    for_each_in_build_order(*out_.anim, [&](int32_t i) {
      XAnimEntry& e = out_.anim->entries[i];
      if (!e.leaf) return;
      const std::string_view name = out_.anim->node_name(i);
      // "A leaf name is also an xanim asset name": xanim/<name> must fit MAX_QPATH with its NUL.
      if (name.size() > kMaxLeafNameLength) {
        const std::string shown =
            name.size() > 64 ? std::string(name.substr(0, 61)) + "..." : std::string(name);
        error(i, fmt::format("animation name '{}' ({} bytes) does not fit "
                             "'xanim/<name>' in MAX_QPATH ({} bytes): at most {} bytes",
                             shown, name.size(), kMaxQPath, kMaxLeafNameLength));
        return;
      }
      e.set_asset(assets.find(name));
      if (!e.has_asset) error(i, fmt::format("Cannot find 'xanim/{}'", name));
    });
  }

  // The sync setup (cod-animtrees.txt, "Sync groups"), leaf by leaf in build order, walking up
  // the parents: a parent with both sync bits is fatal; a second sync parent above the first is
  // a duplicate sync specification; the leaf's loop state must match the nearest sync parent.
  void sync_setup() {
    const XAnim& a = *out_.anim;
    std::set<int32_t> reported;  // with --keep-going: one diagnostic per offending parent
    for_each_in_build_order(a, [&](int32_t i) {
      const XAnimEntry& leaf = a.entries[i];
      if (!leaf.leaf) return;
      int32_t inner = -1, inner_depth = 0;
      int depth = 0;
      for (int32_t p = leaf.parent; p >= 0; p = a.entries[p].parent) {
        ++depth;
        const uint8_t f = a.entries[p].flags;
        if ((f & kLoopSync) && (f & kNonLoopSync)) {
          if (reported.insert(p).second) {
            error(p, "animation cannot be sync looping and sync nonlooping");
          }
        }
        if (!(f & (kLoopSync | kNonLoopSync))) continue;
        if (inner < 0) {
          inner = p;
          inner_depth = depth;
        } else if (reported.insert(-2 - inner).second) {
          error(inner,
                fmt::format("duplicate specification of animation sync in '{}', {} nodes above '{}'",
                            options_.tree_name, inner_depth, a.node_name(i)));
        }
      }
      if (inner < 0 || !leaf.has_asset || !leaf.looping_known) return;
      const uint8_t f = a.entries[inner].flags;
      if ((f & kLoopSync) && (f & kNonLoopSync)) return;
      const bool looping = leaf.looping;
      if ((f & kLoopSync) && !looping) {
        error(i, fmt::format("animation '{}' in '{}' cannot be sync looping and nonlooping",
                             a.node_name(i), options_.tree_name));
      } else if ((f & kNonLoopSync) && looping) {
        error(i, fmt::format("animation '{}' in '{}' cannot be sync nonlooping and looping",
                             a.node_name(i), options_.tree_name));
      }
    });
  }

  // Scr_CheckAnimsDefined: after the tree is built, every referenced name no node bound.
  void check_defined() {
    std::unordered_set<std::string> seen;
    for (const Reference& r : options_.references) {
      const std::string name = to_lower(r.name);
      if (!seen.insert(name).second || out_.bindings.count(name)) continue;
      Diagnostic d;
      d.file = r.file;
      d.line = r.line;
      d.column = r.column;
      d.offset = r.offset;
      d.message =
          fmt::format("animation '{}' not defined in anim tree '{}'", name, options_.tree_name);
      out_.diagnostics.push_back(std::move(d));
      if (!options_.keep_going) throw Stop{};
    }
  }

 private:
  const LoadOptions& options_;
  std::string_view text_;
  LoadResult& out_;
  std::vector<uint64_t> line_starts_;  // filled by the first offset_of
};

}  // namespace

std::optional<int32_t> LoadResult::find(std::string_view name) const {
  auto it = bindings.find(to_lower(name));
  if (it == bindings.end()) return std::nullopt;
  return it->second;
}

LoadResult load_anim_tree(std::string_view text, const LoadOptions& options) {
  LoadResult out;
  out.tree_name = options.tree_name;
  std::unordered_set<std::string> referenced;
  for (const Reference& r : options.references) referenced.insert(to_lower(r.name));
  ParseOptions po;
  po.file = options.file;
  po.references = &referenced;
  po.anim_check = options.anim_check;
  po.keep_going = options.keep_going;
  AnimTreeFile parsed = parse_anim_tree(text, po);
  out.diagnostics = std::move(parsed.diagnostics);
  if (has_error(out.diagnostics) && !options.keep_going) return out;  // the stock loader stops
  out.anim = build_xanim(std::move(parsed), options.tree_name, options.checksum_seed);
  Build b(options, text, out);
  try {
    b.bind(referenced);
    b.resolve_leaves();
    b.sync_setup();
    b.check_defined();
  } catch (const Stop&) {
  }
  return out;
}

}  // namespace animkit::call_of_duty
