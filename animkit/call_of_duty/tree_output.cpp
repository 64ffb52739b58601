#include "animkit/call_of_duty/tree_output.h"

#include <fmt/format.h>
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "animkit/core/error.h"
#include "animkit/core/json_text.h"

namespace animkit::call_of_duty {

std::vector<std::string> flag_names(uint8_t flags) {
  std::vector<std::string> names;
  if (flags & kLoopSync) names.push_back("loopsync");
  if (flags & kNonLoopSync) names.push_back("nonloopsync");
  if (flags & kComplete) names.push_back("complete");
  return names;
}

Json diagnostic_json(const Diagnostic& d) {
  // issue 31: file names and messages quoting script text may hold any byte.
  Json j;
  put_text(j, "file", d.file);
  j.update(Json{{"line", d.line}, {"column", d.column}});
  put_text(j, "message", d.message);
  j["level"] = d.is_error() ? "error" : "warning";
  return j;
}

namespace {

Json node_json(const LoadResult& r, size_t i) {
  const XAnim& a = *r.anim;
  const XAnimEntry& e = a.entries[i];
  const std::string_view name = a.node_name(i);
  Json n{{"index", i}};
  put_text(n, "name", name);
  n.update(Json{{"parent", e.parent >= 0 ? Json(e.parent) : Json(nullptr)},
         {"first_child", e.first_child},
         {"child_count", e.child_count},
         {"flags", flag_names(e.flags)},
         {"leaf", e.leaf}});
  if (i != 0) {  // the root has no place in the file
    if (e.synthetic) {
      n["synthetic"] = true;
    } else {
      n["line"] = e.line;
      n["column"] = e.column;
    }
  }
  if (e.leaf) {
    put_text(n, "asset", "xanim/" + std::string(name));
    if (e.has_asset && e.looping_known) n["looping"] = e.looping;
    if (e.has_asset && e.length_known) n["length"] = json_float(e.length);
  }
  return n;
}

// The document's members before "nodes": {"tree", "loaded", "node_count", "checksum"}.
Json tree_head(const LoadResult& r) {
  Json j;
  put_text(j, "tree", r.tree_name);
  j.update(Json{{"loaded", r.loaded()},
                {"node_count", r.anim ? r.anim->node_count : 0},
                {"checksum", r.anim ? Json(r.anim->checksum) : Json(nullptr)}});
  return j;
}

// True when a string's JSON text is its bytes between quotes: printable ASCII without `"` or
// `\` (node names are identifiers, so every name of a loaded tree is).
bool plain(std::string_view s) {
  for (const char c : s) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
  }
  return true;
}

void put_int(std::string& b, int64_t v) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  b.append(digits, end);
}

// node_json(r, i).dump() written straight into `b` (issue 26: a 2 M-node tree in seconds, not
// one nlohmann object per node). A name the fast form cannot write as it is goes through
// node_json, so the one escaping rule (json_text.h) decides its text.
void write_node(std::string& b, const LoadResult& r, size_t i) {
  const XAnim& a = *r.anim;
  const XAnimEntry& e = a.entries[i];
  const std::string_view name = a.node_name(i);
  if (!plain(name)) {
    b += node_json(r, i).dump();
    return;
  }
  b += "{\"index\":";
  put_int(b, static_cast<int64_t>(i));
  b += ",\"name\":\"";
  b += name;
  b += "\",\"parent\":";
  if (e.parent >= 0) {
    put_int(b, e.parent);
  } else {
    b += "null";
  }
  b += ",\"first_child\":";
  put_int(b, e.first_child);
  b += ",\"child_count\":";
  put_int(b, e.child_count);
  b += ",\"flags\":[";
  const char* sep = "";
  for (const auto& [bit, text] : {std::pair{kLoopSync, "\"loopsync\""},
                                  std::pair{kNonLoopSync, "\"nonloopsync\""},
                                  std::pair{kComplete, "\"complete\""}}) {
    if (!(e.flags & bit)) continue;
    b += sep;
    b += text;
    sep = ",";
  }
  b += e.leaf ? "],\"leaf\":true" : "],\"leaf\":false";
  if (i != 0) {
    if (e.synthetic) {
      b += ",\"synthetic\":true";
    } else {
      b += ",\"line\":";
      put_int(b, e.line);
      b += ",\"column\":";
      put_int(b, e.column);
    }
  }
  if (e.leaf) {
    b += ",\"asset\":\"xanim/";
    b += name;
    b += '"';
    if (e.has_asset && e.looping_known) b += e.looping ? ",\"looping\":true" : ",\"looping\":false";
    if (e.has_asset && e.length_known) {
      b += ",\"length\":";
      b += Json(json_float(e.length)).dump();  // nlohmann's number text, as the whole document
    }
  }
  b += '}';
}

}  // namespace

Json tree_json(const LoadResult& r) {
  Json j = tree_head(r);
  Json nodes = Json::array();
  if (r.anim) {
    for (size_t i = 0; i < r.anim->entries.size(); ++i) nodes.push_back(node_json(r, i));
  }
  j["nodes"] = std::move(nodes);
  Json diags = Json::array();
  for (const Diagnostic& d : r.diagnostics) diags.push_back(diagnostic_json(d));
  j["diagnostics"] = std::move(diags);
  return j;
}

void write_tree_json(std::ostream& out, const LoadResult& r) {
  // The head's compact text without its closing brace, then the members written piece by piece
  // (the compact dump of an object is its members' texts joined by ',').
  std::string b = tree_head(r).dump();
  b.pop_back();
  b += ",\"nodes\":[";
  constexpr size_t kFlushAt = 1 << 16;
  if (r.anim) {
    for (size_t i = 0; i < r.anim->entries.size(); ++i) {
      if (i) b += ',';
      write_node(b, r, i);
      if (b.size() >= kFlushAt) {
        out.write(b.data(), static_cast<std::streamsize>(b.size()));
        b.clear();
      }
    }
  }
  b += "],\"diagnostics\":[";
  for (size_t i = 0; i < r.diagnostics.size(); ++i) {
    if (i) b += ',';
    b += diagnostic_json(r.diagnostics[i]).dump();
    if (b.size() >= kFlushAt) {
      out.write(b.data(), static_cast<std::streamsize>(b.size()));
      b.clear();
    }
  }
  b += "]}";
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
}

std::string tree_text(const LoadResult& r) {
  std::string s;
  if (r.anim) {
    s += fmt::format("tree '{}': {} nodes, checksum 0x{:08x} ({})\n", r.tree_name,
                     r.anim->node_count, r.anim->checksum, r.anim->checksum);
    // Depth-first in the stock order, indented by depth.
    const XAnim& a = *r.anim;
    std::vector<std::pair<int32_t, int>> stack{{0, 0}};
    while (!stack.empty()) {
      const auto [i, depth] = stack.back();
      stack.pop_back();
      const XAnimEntry& e = a.entries[i];
      std::string props;
      for (const std::string& f : flag_names(e.flags)) props += " " + f;
      s += fmt::format(
          "{:>5}  {}{}{}{}\n", i, std::string(static_cast<size_t>(depth) * 2, ' '), a.node_name(i),
          props.empty() ? "" : " :" + props,
          e.leaf ? ""
                 : fmt::format("  [{}..{}]", e.first_child, e.first_child + e.child_count - 1));
      for (int32_t c = e.child_count - 1; c >= 0; --c)
        stack.push_back({e.first_child + c, depth + 1});
    }
  } else {
    s += fmt::format("tree '{}': not loaded\n", r.tree_name);
  }
  for (const Diagnostic& d : r.diagnostics) s += d.to_string() + "\n";
  return s;
}

namespace {

// Text inside a DOT double-quoted string: `"` and `\` escaped.
std::string dot_escape(const std::string& s) {
  std::string q;
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q;
}

std::string dot_quote(const std::string& s) { return "\"" + dot_escape(s) + "\""; }

}  // namespace

std::string tree_dot(const LoadResult& r) {
  std::string s = fmt::format("digraph {} {{\n", dot_quote(r.tree_name));
  s += "  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n";
  if (r.anim) {
    const XAnim& a = *r.anim;
    for (size_t i = 0; i < a.entries.size(); ++i) {
      const XAnimEntry& e = a.entries[i];
      // One line per property: DOT's `\n` escape, so the name itself is escaped first.
      std::string label = "\"" + dot_escape(fmt::format("{}: {}", i, a.node_name(i)));
      for (const std::string& f : flag_names(e.flags)) label += "\\n" + f;
      label += "\"";
      std::string attrs;
      if (e.leaf) {
        attrs = e.synthetic ? "shape=ellipse, style=dashed" : "shape=ellipse";
      } else {
        attrs = "shape=box";
        std::string style;
        if (e.flags & kLoopSync) attrs += ", fillcolor=\"#cde8ff\"";
        if (e.flags & kNonLoopSync) attrs += ", fillcolor=\"#ffe2c2\"";
        if (e.flags & (kLoopSync | kNonLoopSync)) style = "filled";
        if (e.flags & kComplete) style += style.empty() ? "bold" : ",bold";
        if (!style.empty()) attrs += ", style=\"" + style + "\"";
      }
      s += fmt::format("  n{} [label={}, {}];\n", i, label, attrs);
    }
    for (size_t i = 1; i < a.entries.size(); ++i) {
      s += fmt::format("  n{} -> n{};\n", a.entries[i].parent, i);
    }
  }
  s += "}\n";
  return s;
}

bool graphviz_available() {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    if (access((std::filesystem::path(dir) / "dot").c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::string render_svg(const std::string& dot_source) {
  if (!graphviz_available()) {
    throw Error(
        "Graphviz is not installed: `dot` is not on PATH (Debian: apt-get install "
        "graphviz); --dot prints the Graphviz source instead");
  }
  char tmpl[] = "/tmp/animkit-cod-XXXXXX";
  if (!mkdtemp(tmpl)) throw Error("cannot make a temporary folder for Graphviz");
  const std::filesystem::path dir(tmpl);
  const auto in = dir / "tree.dot", out = dir / "tree.svg";
  {
    std::ofstream f(in, std::ios::binary);
    f << dot_source;
  }
  const std::string cmd =
      fmt::format("dot -Tsvg '{}' -o '{}' 2>/dev/null", in.string(), out.string());
  const int rc = std::system(cmd.c_str());
  std::string svg;
  {
    std::ifstream f(out, std::ios::binary);
    std::stringstream buf;
    buf << f.rdbuf();
    svg = buf.str();
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (rc != 0 || svg.empty()) throw Error(fmt::format("Graphviz `dot` failed (status {})", rc));
  return svg;
}

}  // namespace animkit::call_of_duty
