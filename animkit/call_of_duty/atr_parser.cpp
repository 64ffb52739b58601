#include "animkit/call_of_duty/atr_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>

#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/core/work_budget.h"

namespace animkit::call_of_duty {

namespace {

struct Stop {};  // the stock loader stops at the first error

// A parent's name table: the ids of its attached children, found by name. Open addressing with
// linear probing over 4-byte slots (a flat top level of 2 M names takes 16 MB, not the 150 MB
// of a node-based set of strings); erasing shifts the probe chain back instead of leaving marks.
class NameTable {
 public:
  explicit NameTable(const AnimTreeFile& file) : file_(file) {}

  bool contains(std::string_view name) const {
    if (used_ == 0) return false;
    for (size_t i = home(name);; i = (i + 1) & mask()) {
      if (slots_[i] < 0) return false;
      if (name_of(slots_[i]) == name) return true;
    }
  }

  void insert(int32_t id) {
    if ((used_ + 1) * 2 > slots_.size()) grow();
    place(id);
    ++used_;
  }

  void erase(int32_t id) {
    if (used_ == 0) return;
    size_t i = home(name_of(id));
    while (slots_[i] != id) {
      if (slots_[i] < 0) return;
      i = (i + 1) & mask();
    }
    // Backward shift: a later slot of the chain moves into the hole when its home does not lie
    // (cyclically) in (hole, slot].
    for (size_t j = (i + 1) & mask(); slots_[j] >= 0; j = (j + 1) & mask()) {
      const size_t h = home(name_of(slots_[j]));
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = -1;
    --used_;
  }

 private:
  std::string_view name_of(int32_t id) const { return file_.name(file_.nodes[id]); }
  size_t mask() const { return slots_.size() - 1; }
  size_t home(std::string_view name) const { return std::hash<std::string_view>{}(name) & mask(); }

  void place(int32_t id) {
    size_t i = home(name_of(id));
    while (slots_[i] >= 0) i = (i + 1) & mask();
    slots_[i] = id;
  }

  void grow() {
    std::vector<int32_t> old = std::move(slots_);
    slots_.assign(old.empty() ? 8 : old.size() * 2, -1);
    for (int32_t id : old) {
      if (id >= 0) place(id);
    }
  }

  const AnimTreeFile& file_;
  std::vector<int32_t> slots_;  // node ids; -1: empty
  size_t used_ = 0;
};

// The state of one level of the parse: a parent's body, or the file's top level.
struct Frame {
  explicit Frame(const AnimTreeFile& file) : names(file) {}
  int node = 0;
  bool forced = false;  // a kept `complete` ancestor forces every node below it
  bool top = false;
  uint8_t flags = 0;  // the flags read on the parent's line (for `void_loop`)
  NameTable names;    // the parent's name table
  int prev = -1;      // the previous node created at this level, while attached
  int pending = -1;   // a node whose line ended after its name: a `{` opens its body
};

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& options, AnimTreeFile& out)
      : tok_(text), lines_(text), options_(options), out_(out) {}

  void run() {
    add_node("root", 0, false);
    out_.nodes[0].attached = true;
    out_.nodes[0].has_body = true;
    out_.nodes[0].line = out_.nodes[0].column = 0;  // the root has no place in the file
    try {
      Frame top(out_);
      top.top = true;
      parse_body(top, 0);
    } catch (const Stop&) {
    }
    // The loader skips an unclosed `/*` to the end of the data without a word (so a file can
    // lose its tail unnoticed); animkit says so, as a warning at the `/*` (README Choices 20).
    if (const auto at = tok_.unterminated_comment()) {
      Diagnostic d;
      d.level = Diagnostic::Level::kWarning;
      d.file = options_.file;
      d.offset = *at;
      const LineCursor::Place place = lines_.at(*at);
      d.line = place.line;
      d.column = place.column;
      d.message = "unterminated /* comment: the rest of the file is skipped";
      out_.diagnostics.push_back(std::move(d));
    }
  }

 private:
  void error(size_t offset, const std::string& message) {
    Diagnostic d;
    d.file = options_.file;
    d.offset = offset;
    const LineCursor::Place place = lines_.at(offset);
    d.line = place.line;
    d.column = place.column;
    d.message = message;
    out_.diagnostics.push_back(std::move(d));
    if (!options_.keep_going) throw Stop{};
  }

  bool referenced(const std::string& name) const {
    return options_.references && options_.references->count(name) > 0;
  }

  // A node (not attached yet), its name appended to the names. `counted`: a node of the file
  // (the root is not one), charged to the run's work (issue 30).
  int add_node(std::string_view name, size_t offset, bool counted = true) {
    if (counted) charge_work(Work::kNode, 1, "call_of_duty: animtree nodes");
    if (out_.names.size() + name.size() > UINT32_MAX) {
      // An animkit limit (names are held by 32-bit offsets), far above any tree the game loads.
      error(offset, "the names of this tree exceed 4 GiB (an animkit limit)");
      throw Stop{};
    }
    AtrNode n;
    n.name_offset = static_cast<uint32_t>(out_.names.size());
    n.name_size = static_cast<uint16_t>(name.size());  // below kMaxTokenChars (checked)
    out_.names += name;
    const LineCursor::Place place = lines_.at(offset);
    n.line = place.line;
    n.column = place.column;
    out_.nodes.push_back(n);
    return static_cast<int>(out_.nodes.size() - 1);
  }

  // Links `id` at the head of its parent's child list (newest first).
  void attach(int parent, int id) {
    AtrNode& n = out_.nodes[id];
    n.attached = true;
    n.prev_sibling = out_.nodes[parent].last_child;
    out_.nodes[parent].last_child = id;
  }

  void detach(Frame& f, int id) {
    AtrNode& n = out_.nodes[id];
    if (!n.attached) return;
    n.attached = false;
    // Only the newest attached child is ever removed (the previous node at this level, or the
    // node whose body just ended), so it is the head of the list; any other is unlinked by a walk.
    AtrNode& parent = out_.nodes[f.node];
    if (parent.last_child == id) {
      parent.last_child = n.prev_sibling;
    } else {
      for (int32_t c = parent.last_child; c >= 0; c = out_.nodes[c].prev_sibling) {
        if (out_.nodes[c].prev_sibling == id) {
          out_.nodes[c].prev_sibling = n.prev_sibling;
          break;
        }
      }
    }
    n.prev_sibling = -1;
    f.names.erase(id);
    if (f.prev == id) f.prev = -1;
  }

  // "If the previous node at this level was marked missing from tree, it is removed from the
  // parent now."
  void drop_prev_missing(Frame& f) {
    if (f.prev >= 0 && out_.nodes[f.prev].missing_from_tree) detach(f, f.prev);
    f.prev = -1;
  }

  // Reads the rest of a `{` / `}` line, which must be empty.
  void expect_line_end(const char* message) {
    const size_t before = tok_.position();
    const Token t = tok_.next_on_line();
    if (t.eof) return;
    if (t.empty()) {
      // The loader sees only the token text: an empty one (end of line, or `""`, README
      // Choices 5) is an empty rest of line. Only the newline is left for the next read.
      if (!t.quoted) tok_.set_position(before);
      return;
    }
    error(t.offset, message);
    tok_.skip_line();
  }

  // Parses the body opened by the `{` at `brace` for node `id` of frame `f`.
  void parse_block(Frame& f, int id, uint8_t flags, size_t brace, int depth) {
    expect_line_end("token not allowed after '{'");
    if (depth >= kMaxNesting) {
      error(brace, fmt::format("tree nesting deeper than {} levels", kMaxNesting));
      throw Stop{};  // an animkit limit: not recoverable
    }
    AtrNode& n = out_.nodes[id];
    n.has_body = true;
    Frame child(out_);
    child.node = id;
    child.flags = flags;
    child.forced = f.forced || (!n.missing_from_tree && (flags & kComplete));
    parse_body(child, depth + 1);
    AtrNode& done = out_.nodes[id];
    if (done.is_leaf()) {
      detach(f, id);  // "a body left with no children removes the node from its parent"
    } else {
      done.flags = flags;  // "otherwise the node keeps its property flags"
      done.missing_from_tree = false;
    }
  }

  void parse_body(Frame& f, int depth) {
    size_t end_offset = 0;
    for (;;) {
      const Token t = tok_.next();
      if (t.eof) {
        end_offset = t.offset;
        if (!f.top && !eof_reported_) {
          eof_reported_ = true;  // once, not once per open body
          error(t.offset, "unexpected end of file");
        }
        break;
      }
      if (is_identifier(t.text)) {
        if (t.text.size() >= kMaxTokenChars) {
          // "A node name must fit the shared identifier and path limits": the game's tokenizer
          // would cut it short into another name.
          error(t.offset, fmt::format("name of {} bytes is longer than the game's identifier "
                                      "limit (MAX_TOKEN_CHARS {}: at most {} bytes)",
                                      t.text.size(), kMaxTokenChars, kMaxTokenChars - 1));
          tok_.skip_line();
          continue;
        }
        node_line(f, t, depth);
        continue;
      }
      if (t.text == "{") {
        const int id = f.pending;
        f.pending = -1;
        if (id < 0) {
          expect_line_end("token not allowed after '{'");
          error(t.offset, "no animation specified for this block");
          // Recovery: the body is parsed into a node of its own, then dropped.
          const int dummy = add_node("", t.offset);
          out_.nodes[dummy].missing_from_tree = true;
          parse_aside(dummy, t.offset, depth);
          continue;
        }
        parse_block(f, id, 0, t.offset, depth);
        continue;
      }
      f.pending = -1;
      if (t.text == "}" && !f.top) {
        expect_line_end("token not allowed after '}'");
        end_offset = t.offset;
        break;
      }
      error(t.offset, "bad token");
      tok_.skip_line();
    }
    // End of the body: a last node still missing from tree is removed; an empty body of a kept
    // node gets `void_loop` (loopsync parent) or `void`; the top level counts as kept.
    drop_prev_missing(f);
    const AtrNode& parent = out_.nodes[f.node];
    if (parent.is_leaf() && !parent.missing_from_tree) {
      const bool loop = (f.flags & kLoopSync) != 0;
      const int v = add_node(loop ? "void_loop" : "void", end_offset);
      out_.nodes[v].synthetic = true;
      attach(f.node, v);
    }
  }

  // Recovery after `no animation specified for this block`: the body goes to a node of its own
  // that is then dropped.
  void parse_aside(int dummy, size_t brace, int depth) {
    if (depth >= kMaxNesting) {
      error(brace, fmt::format("tree nesting deeper than {} levels", kMaxNesting));
      throw Stop{};
    }
    Frame aside(out_);
    aside.node = dummy;
    parse_body(aside, depth + 1);
  }

  // An identifier at the start of a node (step 1).
  void node_line(Frame& f, const Token& t, int depth) {
    drop_prev_missing(f);
    f.pending = -1;
    const std::string name = to_lower(t.text);
    const bool duplicate = f.names.contains(name);
    const int id = add_node(name, t.offset);
    ++out_.parsed_nodes;
    out_.nodes[id].missing_from_tree = !f.forced && !referenced(name) && !options_.anim_check;
    if (duplicate) {
      error(t.offset, "duplicate animation");
      // Recovery: the twin is parsed (line and body) but kept aside.
    } else {
      attach(f.node, id);
      f.names.insert(id);
      f.prev = id;
    }
    const Token r = tok_.next_on_line();
    if (r.eof || r.empty()) {
      f.pending = id;  // a leaf, so far
      return;
    }
    if (is_identifier(r.text)) {
      error(r.offset, "FIXME: aliases not yet implemented");
      tok_.skip_line();
      f.pending = id;
      return;
    }
    if (r.text != ":") {
      error(r.offset, "bad token");
      tok_.skip_line();
      f.pending = id;
      return;
    }
    uint8_t flags = 0;
    for (;;) {
      const Token p = tok_.next_on_line();
      if (p.eof || p.empty()) break;
      const std::string prop = to_lower(p.text);  // properties compare case-insensitively
      if (prop == "loopsync") {
        flags |= kLoopSync;
      } else if (prop == "nonloopsync") {
        flags |= kNonLoopSync;
      } else if (prop == "complete") {
        flags |= kComplete;
      } else {
        error(p.offset, "unknown anim property");
      }
    }
    const size_t before = tok_.position();
    const Token b = tok_.next();
    if (b.text != "{" || b.eof) {
      error(b.offset, "properties cannot be applied to primitive animations");
      tok_.set_position(before);  // recovery: a leaf; the token is read again at this level
      return;
    }
    parse_block(f, id, flags, b.offset, depth);
  }

  Tokenizer tok_;
  LineCursor lines_;
  const ParseOptions& options_;
  AnimTreeFile& out_;
  bool eof_reported_ = false;
};

// Room for the nodes, so that the arena is not doubled (and copied) while it is read: at most
// one node starts on a line (a name, or the `{` of a nameless block; a void at a `}`), plus the
// root and the voids closing open bodies at the end of the data. Lines holding only white space
// (bytes up to 0x20 and 0x80-0xFF, "Tokens") make none. Capped at one node per 5 bytes, so that
// a file of comments does not reserve (or charge --max-memory) more than about 5 times its size.
size_t node_estimate(std::string_view text) {
  size_t lines = 0;
  bool content = false;
  for (const char c : text) {
    if (c == '\n') {
      lines += content;
      content = false;
    } else {
      content = content || static_cast<signed char>(c) > ' ';
    }
  }
  lines += content;
  return std::min(lines + kMaxNesting + 2, text.size() / 5 + 16);
}

}  // namespace

AnimTreeFile parse_anim_tree(std::string_view text, const ParseOptions& options) {
  AnimTreeFile out;
  out.nodes.reserve(node_estimate(text));
  Parser(text, options, out).run();
  return out;
}

}  // namespace animkit::call_of_duty
