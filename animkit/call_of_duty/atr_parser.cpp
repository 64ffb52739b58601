#include "animkit/call_of_duty/atr_parser.h"

#include <fmt/format.h>

#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/core/work_budget.h"

namespace animkit::call_of_duty {

namespace {

struct Stop {};  // the stock loader stops at the first error

// The state of one level of the parse: a parent's body, or the file's top level.
struct Frame {
  int node = 0;
  bool forced = false;  // a kept `complete` ancestor forces every node below it
  bool top = false;
  uint8_t flags = 0;                      // the flags read on the parent's line (for `void_loop`)
  std::unordered_set<std::string> names;  // the parent's name table
  int prev = -1;                          // the previous node created at this level, while attached
  int pending = -1;  // a node whose line ended after its name: a `{` opens its body
};

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& options, AnimTreeFile& out)
      : tok_(text), lines_(text), options_(options), out_(out) {}

  void run() {
    AtrNode root;
    root.name = "root";
    root.attached = true;
    root.has_body = true;
    out_.nodes.push_back(std::move(root));
    try {
      Frame top;
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

  int add_node(const std::string& name, size_t offset, int parent) {
    charge_work(Work::kNode, 1, "call_of_duty: animtree nodes");  // issue 30: the run's work
    AtrNode n;
    n.name = name;
    n.offset = offset;
    const LineCursor::Place place = lines_.at(offset);
    n.line = place.line;
    n.column = place.column;
    n.parent = parent;
    out_.nodes.push_back(std::move(n));
    return static_cast<int>(out_.nodes.size() - 1);
  }

  void detach(Frame& f, int id) {
    AtrNode& n = out_.nodes[id];
    if (!n.attached) return;
    n.attached = false;
    std::vector<int>& siblings = out_.nodes[f.node].children;
    if (!siblings.empty() && siblings.back() == id) siblings.pop_back();
    f.names.erase(n.name);
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
    Frame child;
    child.node = id;
    child.flags = flags;
    child.forced = f.forced || (!n.missing_from_tree && (flags & kComplete));
    parse_body(child, depth + 1);
    AtrNode& done = out_.nodes[id];
    if (done.children.empty()) {
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
          const int dummy = add_node("", t.offset, f.node);
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
    AtrNode& parent = out_.nodes[f.node];
    if (parent.children.empty() && !parent.missing_from_tree) {
      const bool loop = (f.flags & kLoopSync) != 0;
      const int v = add_node(loop ? "void_loop" : "void", end_offset, f.node);
      out_.nodes[v].synthetic = true;
      out_.nodes[v].attached = true;
      out_.nodes[f.node].children.push_back(v);
    }
  }

  // Recovery after `no animation specified for this block`: the body goes to a node of its own
  // that is then dropped.
  void parse_aside(int dummy, size_t brace, int depth) {
    if (depth >= kMaxNesting) {
      error(brace, fmt::format("tree nesting deeper than {} levels", kMaxNesting));
      throw Stop{};
    }
    Frame aside;
    aside.node = dummy;
    parse_body(aside, depth + 1);
  }

  // An identifier at the start of a node (step 1).
  void node_line(Frame& f, const Token& t, int depth) {
    drop_prev_missing(f);
    f.pending = -1;
    const std::string name = to_lower(t.text);
    const bool duplicate = f.names.count(name) > 0;
    const int id = add_node(name, t.offset, f.node);
    ++out_.parsed_nodes;
    AtrNode& n = out_.nodes[id];
    n.missing_from_tree = !f.forced && !referenced(name) && !options_.anim_check;
    if (duplicate) {
      error(t.offset, "duplicate animation");
      // Recovery: the twin is parsed (line and body) but kept aside.
    } else {
      n.attached = true;
      out_.nodes[f.node].children.push_back(id);
      f.names.insert(name);
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

}  // namespace

AnimTreeFile parse_anim_tree(std::string_view text, const ParseOptions& options) {
  AnimTreeFile out;
  out.nodes.reserve(text.size() / 16 + 16);  // about one node per 16 bytes in stock-style files
  Parser(text, options, out).run();
  return out;
}

}  // namespace animkit::call_of_duty
