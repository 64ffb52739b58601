// What the command line prints of a loaded tree: the JSON of `animkit cod tree --json`, an
// indented text listing, and a Graphviz picture (sync groups and `complete` marked).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "animkit/call_of_duty/loader.h"
#include "animkit/core/json_util.h"

namespace animkit::call_of_duty {

// The property bits by name, in bit order: "loopsync", "nonloopsync", "complete".
std::vector<std::string> flag_names(uint8_t flags);

Json diagnostic_json(const Diagnostic& d);
// {"tree", "node_count", "checksum", "nodes": [{"index", "name", "parent", "first_child",
//  "child_count", "flags", "leaf", ...}], "diagnostics": [...]}
Json tree_json(const LoadResult& result);
// The same document written node by node (a 2 M-node tree is never held as one Json): the bytes
// of tree_json(result).dump().
void write_tree_json(std::ostream& out, const LoadResult& result);
// An indented listing in the stock order, one node a line, then the diagnostics.
std::string tree_text(const LoadResult& result);
// Graphviz source: parents as boxes (sync groups filled, `complete` bold), leaves as ellipses.
std::string tree_dot(const LoadResult& result);

// Whether Graphviz `dot` is on PATH.
bool graphviz_available();
// SVG of DOT source, by Graphviz `dot`; throws animkit::Error saying clearly when Graphviz is
// not installed or fails.
std::string render_svg(const std::string& dot_source);

}  // namespace animkit::call_of_duty
