#include "animkit/call_of_duty/loader.h"

#include <fmt/format.h>

#include <set>
#include <unordered_set>

#include "animkit/call_of_duty/tokenizer.h"

namespace animkit::call_of_duty {

namespace {

struct Stop {};

class Build {
 public:
  Build(const LoadOptions& options, LoadResult& out) : options_(options), out_(out) {}

  void error(const AtrNode* node, const std::string& message) {
    Diagnostic d;
    d.file = options_.file;
    if (node) {
      d.line = node->line;
      d.column = node->column;
      d.offset = node->offset;
    }
    d.message = message;
    out_.diagnostics.push_back(std::move(d));
    if (!options_.keep_going) throw Stop{};
  }

  const AtrNode* source(int32_t index) const {
    const int s = out_.anim->entries[index].source;
    return s >= 0 ? &out_.parsed.nodes[s] : nullptr;
  }

  // Binding (cod-animtrees.txt, "Script integration"): in build order, the first node with a
  // referenced name binds it; a later one reports `duplicate animation '%s' in
  // 'animtrees/%s.atr'`.
  void bind(const std::unordered_set<std::string>& referenced) {
    for (int32_t i : out_.anim->visit_order) {
      const std::string& name = out_.anim->entries[i].name;
      if (!referenced.count(name)) continue;
      if (!out_.bindings.emplace(name, i).second) {
        error(source(i), fmt::format("duplicate animation '{}' in 'animtrees/{}.atr'", name,
                                     options_.tree_name));
      } else if (i > kMaxPackedNodeIndex) {
        // "The low 16 bits hold the node index": a larger index would be truncated silently
        // into another node's value.
        error(source(i), fmt::format("node index {} of '{}' does not fit the 16 bits of a packed "
                                     "animation reference (at most {})",
                                     i, name, kMaxPackedNodeIndex));
      }
    }
  }

  // Leaves (cod-animtrees.txt, "Node kinds"): FS_GetDataForFile("xanim", name, "").
  void resolve_leaves() {
    AssetResolver everything;
    const AssetResolver& assets = options_.assets ? *options_.assets : everything;
    for (int32_t i : out_.anim->visit_order) {
      XAnimEntry& e = out_.anim->entries[i];
      if (!e.leaf) continue;
      // "A leaf name is also an xanim asset name": xanim/<name> must fit MAX_QPATH with its NUL.
      if (e.name.size() > kMaxLeafNameLength) {
        const std::string shown =
            e.name.size() > 64 ? e.name.substr(0, 61) + "..." : e.name;
        error(source(i), fmt::format("animation name '{}' ({} bytes) does not fit "
                                     "'xanim/<name>' in MAX_QPATH ({} bytes): at most {} bytes",
                                     shown, e.name.size(), kMaxQPath, kMaxLeafNameLength));
        continue;
      }
      e.asset = assets.find(e.name);
      if (!e.asset) error(source(i), fmt::format("Cannot find 'xanim/{}'", e.name));
    }
  }

  // The sync setup (cod-animtrees.txt, "Sync groups"), leaf by leaf in build order, walking up
  // the parents: a parent with both sync bits is fatal; a second sync parent above the first is
  // a duplicate sync specification; the leaf's loop state must match the nearest sync parent.
  void sync_setup() {
    const XAnim& a = *out_.anim;
    std::set<int32_t> reported;  // with --keep-going: one diagnostic per offending parent
    for (int32_t i : a.visit_order) {
      const XAnimEntry& leaf = a.entries[i];
      if (!leaf.leaf) continue;
      int32_t inner = -1, inner_depth = 0;
      int depth = 0;
      for (int32_t p = leaf.parent; p >= 0; p = a.entries[p].parent) {
        ++depth;
        const uint8_t f = a.entries[p].flags;
        if ((f & kLoopSync) && (f & kNonLoopSync)) {
          if (reported.insert(p).second) {
            error(source(p), "animation cannot be sync looping and sync nonlooping");
          }
        }
        if (!(f & (kLoopSync | kNonLoopSync))) continue;
        if (inner < 0) {
          inner = p;
          inner_depth = depth;
        } else if (reported.insert(-2 - inner).second) {
          error(
              source(inner),
              fmt::format("duplicate specification of animation sync in '{}', {} nodes above '{}'",
                          options_.tree_name, inner_depth, leaf.name));
        }
      }
      if (inner < 0 || !leaf.asset || !leaf.asset->looping) continue;
      const uint8_t f = a.entries[inner].flags;
      if ((f & kLoopSync) && (f & kNonLoopSync)) continue;
      const bool looping = *leaf.asset->looping;
      if ((f & kLoopSync) && !looping) {
        error(source(i), fmt::format("animation '{}' in '{}' cannot be sync looping and nonlooping",
                                     leaf.name, options_.tree_name));
      } else if ((f & kNonLoopSync) && looping) {
        error(source(i), fmt::format("animation '{}' in '{}' cannot be sync nonlooping and looping",
                                     leaf.name, options_.tree_name));
      }
    }
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
  LoadResult& out_;
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
  out.parsed = parse_anim_tree(text, po);
  out.diagnostics = out.parsed.diagnostics;
  if (!out.parsed.ok() && !options.keep_going) return out;  // the stock loader stops here
  out.anim = build_xanim(out.parsed, options.tree_name, options.checksum_seed);
  Build b(options, out);
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
