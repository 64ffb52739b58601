#include "animkit/call_of_duty/tree_output.h"

#include <fmt/format.h>
#include <unistd.h>

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
  const XAnimEntry& e = r.anim->entries[i];
  Json n{{"index", i}};
  put_text(n, "name", e.name);
  n.update(Json{{"parent", e.parent >= 0 ? Json(e.parent) : Json(nullptr)},
         {"first_child", e.first_child},
         {"child_count", e.child_count},
         {"flags", flag_names(e.flags)},
         {"leaf", e.leaf}});
  if (e.source >= 0) {
    const AtrNode& s = r.parsed.nodes[e.source];
    if (s.synthetic) {
      n["synthetic"] = true;
    } else {
      n["line"] = s.line;
      n["column"] = s.column;
    }
  }
  if (e.leaf) {
    put_text(n, "asset", "xanim/" + e.name);
    if (e.asset && e.asset->looping) n["looping"] = *e.asset->looping;
    if (e.asset && e.asset->length) n["length"] = json_float(*e.asset->length);
  }
  return n;
}

// Everything but the nodes, with "nodes" holding `nodes`.
Json tree_json_with(const LoadResult& r, Json nodes) {
  Json diags = Json::array();
  for (const Diagnostic& d : r.diagnostics) diags.push_back(diagnostic_json(d));
  Json j;
  put_text(j, "tree", r.tree_name);
  j.update(Json{{"loaded", r.loaded()},
              {"node_count", r.anim ? r.anim->node_count : 0},
              {"checksum", r.anim ? Json(r.anim->checksum) : Json(nullptr)},
              {"nodes", std::move(nodes)},
              {"diagnostics", std::move(diags)}});
  return j;
}

}  // namespace

Json tree_json(const LoadResult& r) {
  Json nodes = Json::array();
  if (r.anim) {
    for (size_t i = 0; i < r.anim->entries.size(); ++i) nodes.push_back(node_json(r, i));
  }
  return tree_json_with(r, std::move(nodes));
}

void write_tree_json(std::ostream& out, const LoadResult& r) {
  // The document around a placeholder, split where the nodes go.
  const std::string shell = tree_json_with(r, Json("\x01nodes\x01")).dump();
  const std::string mark = "\"\\u0001nodes\\u0001\"";
  const size_t at = shell.find(mark);
  out << shell.substr(0, at) << '[';
  if (r.anim) {
    for (size_t i = 0; i < r.anim->entries.size(); ++i) {
      if (i) out << ',';
      out << node_json(r, i).dump();
    }
  }
  out << ']' << shell.substr(at + mark.size());
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
          "{:>5}  {}{}{}{}\n", i, std::string(static_cast<size_t>(depth) * 2, ' '), e.name,
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
      std::string label = "\"" + dot_escape(fmt::format("{}: {}", i, e.name));
      for (const std::string& f : flag_names(e.flags)) label += "\\n" + f;
      label += "\"";
      std::string attrs;
      if (e.leaf) {
        const bool synthetic = e.source >= 0 && r.parsed.nodes[e.source].synthetic;
        attrs = synthetic ? "shape=ellipse, style=dashed" : "shape=ellipse";
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
