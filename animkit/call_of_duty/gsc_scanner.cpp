#include "animkit/call_of_duty/gsc_scanner.h"

#include "animkit/call_of_duty/anim_registry.h"
#include "animkit/call_of_duty/tokenizer.h"

namespace animkit::call_of_duty {

namespace {

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

class Scanner {
 public:
  Scanner(std::string_view text, const std::string& file, ScriptScan& out)
      : s_(text), lines_(text), file_name_(std::make_shared<const std::string>(file)), out_(out) {
    out_.file = file;
  }

  void run() {
    const size_t n = s_.size();
    while (pos_ < n) {
      const char c = s_[pos_];
      if (c == '/' && at(pos_ + 1) == '/') {
        while (pos_ < n && s_[pos_] != '\n') ++pos_;
      } else if (c == '/' && at(pos_ + 1) == '*') {
        skip_block_comment();
      } else if (c == '/' && at(pos_ + 1) == '#') {
        in_dev_ = true;  // a developer-only block
        pos_ += 2;
        operand_ = false;
      } else if (c == '#' && at(pos_ + 1) == '/') {
        in_dev_ = false;
        pos_ += 2;
        operand_ = false;
      } else if (c == '"') {
        skip_string();
        operand_ = true;
      } else if (c == '%' && ident_char(at(pos_ + 1)) && !operand_) {
        animation();
        operand_ = true;
      } else if (c == '#' && ident_char(at(pos_ + 1))) {
        directive();
        operand_ = false;
      } else if (ident_char(c)) {
        if (file_reference()) {
          operand_ = false;  // `path::function` is followed by its call or is a value
          continue;
        }
        // A word (name, keyword, number). After an operand `%` is the remainder operator
        // (`10%2`, `i%size`), except after a keyword that starts an expression.
        operand_ = !starts_expression(word());
      } else {
        if (static_cast<unsigned char>(c) > ' ') operand_ = c == ')' || c == ']';
        ++pos_;
      }
    }
  }

 private:
  char at(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }

  void diagnose(size_t offset, std::string message) {
    Diagnostic d;
    d.file = out_.file;
    d.offset = offset;
    d.line = lines_.line(offset);
    d.column = lines_.column(offset);
    d.message = std::move(message);
    out_.diagnostics.push_back(std::move(d));
  }

  // A string that reaches the end of the file is reported at its quote (the compiler fails on
  // it; the rest of the file is not silently dropped).
  void skip_string() {
    const size_t start = pos_;
    ++pos_;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      if (s_[pos_] == '\\') ++pos_;
      ++pos_;
    }
    if (pos_ < s_.size()) {
      ++pos_;
    } else {
      diagnose(start, "unterminated string");
    }
  }

  // The same for a `/*` comment that is never closed.
  void skip_block_comment() {
    const size_t start = pos_;
    pos_ += 2;
    while (pos_ < s_.size() && !(s_[pos_] == '*' && at(pos_ + 1) == '/')) ++pos_;
    if (pos_ < s_.size()) {
      pos_ += 2;
    } else {
      diagnose(start, "unterminated /* comment");
    }
  }

  static bool path_char(char c) { return ident_char(c) || c == '\\' || c == '/'; }

  // `maps\_utility::function`: a call into (and so a load of) another script.
  bool file_reference() {
    size_t end = pos_;
    while (end < s_.size() && path_char(s_[end])) ++end;
    if (at(end) != ':' || at(end + 1) != ':') return false;
    const std::string_view path = s_.substr(pos_, end - pos_);
    if (path.find("//") != std::string_view::npos || path.back() == '/' ||
        path.back() == '\\') {
      return false;
    }
    depend(path, pos_);
    pos_ = end + 2;
    return true;
  }

  void depend(std::string_view path, size_t offset) {
    std::string script = to_lower(path);
    for (char& ch : script) {
      if (ch == '\\') ch = '/';
    }
    script += ".gsc";
    for (const ScriptDependency& d : out_.dependencies) {
      if (d.script == script) return;
    }
    ScriptDependency d;
    d.script = std::move(script);
    d.offset = offset;
    d.line = lines_.line(offset);
    d.column = lines_.column(offset);
    out_.dependencies.push_back(std::move(d));
  }

  // Keywords after which an expression starts, so a following `%name` is a reference.
  static bool starts_expression(std::string_view w) {
    static constexpr std::string_view kKeywords[] = {"return", "case", "wait", "else", "in",
                                                     "notify", "thread", "waittill", "endon"};
    for (std::string_view k : kKeywords) {
      if (k.size() != w.size()) continue;
      bool same = true;
      for (size_t i = 0; i < k.size() && same; ++i) {
        same = (w[i] | 0x20) == k[i];  // ASCII letters: case-insensitive
      }
      if (same) return true;
    }
    return false;
  }

  std::string_view word() {
    const size_t start = pos_;
    while (pos_ < s_.size() && ident_char(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }

  void skip_space() {
    for (;;) {
      while (pos_ < s_.size() && static_cast<unsigned char>(s_[pos_]) <= ' ') ++pos_;
      if (at(pos_) == '/' && at(pos_ + 1) == '*') {
        skip_block_comment();
        continue;
      }
      if (at(pos_) == '/' && at(pos_ + 1) == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
        continue;
      }
      return;
    }
  }

  void animation() {
    const size_t start = pos_;
    ++pos_;
    const std::string name = to_lower(word());
    if (in_dev_) {
      diagnose(start, "cannot reference animation from /# ... #/ comment");
      return;
    }
    if (tree_.empty()) {
      diagnose(start, "#using_animtree was not specified");
      return;
    }
    add(ScriptReference::Kind::kAnimation, name, start);
  }

  void add(ScriptReference::Kind kind, std::string name, size_t offset) {
    ScriptReference r;
    r.kind = kind;
    r.name = std::move(name);
    r.tree = tree_;
    r.file_name = file_name_;
    r.offset = offset;
    r.line = lines_.line(offset);
    r.column = lines_.column(offset);
    out_.references.push_back(std::move(r));
  }

  void directive() {
    const size_t start = pos_;
    ++pos_;
    const std::string w = to_lower(word());
    if (w == "animtree") {
      if (tree_.empty()) {
        diagnose(start, "#using_animtree was not specified");
      } else {
        add(ScriptReference::Kind::kAnimTree, {}, start);
      }
      return;
    }
    if (w == "include") {
      // #include path;
      skip_space();
      const size_t at_path = pos_;
      while (pos_ < s_.size() && path_char(s_[pos_])) ++pos_;
      if (pos_ > at_path) depend(s_.substr(at_path, pos_ - at_path), at_path);
      return;
    }
    if (w != "using_animtree") return;  // #define and the like
    // #using_animtree ( "name" ) ;
    skip_space();
    if (at(pos_) != '(') {
      diagnose(pos_ < s_.size() ? pos_ : start, "bad syntax");
      return;
    }
    ++pos_;
    skip_space();
    if (at(pos_) != '"') {
      diagnose(pos_ < s_.size() ? pos_ : start, "bad syntax");
      return;
    }
    const size_t name_at = pos_;
    ++pos_;
    std::string name;
    while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\n') {
      if (s_[pos_] == '\\' && at(pos_ + 1) == '"') ++pos_;
      name += s_[pos_++];
    }
    if (at(pos_) == '"') ++pos_;
    skip_space();
    if (at(pos_) == ')') ++pos_;
    // "The name must be a single identifier": letters, digits and underscores.
    if (!is_identifier(name)) {
      diagnose(name_at, "bad anim tree name");
      return;
    }
    tree_ = canonical_tree_name(name);
    TreeDirective d;
    d.tree = tree_;
    d.file = out_.file;
    d.offset = start;
    d.line = lines_.line(start);
    d.column = lines_.column(start);
    out_.directives.push_back(std::move(d));
  }

  std::string_view s_;
  LineMap lines_;
  std::shared_ptr<const std::string> file_name_;
  ScriptScan& out_;
  size_t pos_ = 0;
  bool in_dev_ = false;
  bool operand_ = false;  // the last token ends an operand (a word, a string, `)`, `]`)
  std::string tree_;
};

}  // namespace

ScriptScan scan_script(std::string_view text, const std::string& file) {
  ScriptScan out;
  Scanner(text, file, out).run();
  return out;
}

}  // namespace animkit::call_of_duty
