// The stock tree parser (AnimTreeParseInternal), token by token, with the pruning it does while it
// parses (cod-animtrees-loader.md, "The parse, token by token"; cod-animtrees.txt, "Syntax",
// "Pruning and placeholders").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "animkit/call_of_duty/diagnostic.h"

namespace animkit::call_of_duty {

// Property bits of the recovered encoding (cod-animtrees.txt, "Node properties").
enum AnimTreeFlags : uint8_t {
  kLoopSync = 1 << 0,
  kNonLoopSync = 1 << 1,
  kComplete = 1 << 3,
};

// One node of the parsed tree, 24 bytes (issue 26: a 2 M-node tree is parsed in about 48 MB plus
// its names, with no allocation per node). Nodes live in an arena; node 0 is the file's top level
// (`root`). A node's kept children form a list linked newest first: the order of the script
// variable list that holds them in the stock loader, where GetVariable links each new child at
// the head (cod-animtrees-loader.md, "The compact tree (XAnim)", "Order of siblings").
struct AtrNode {
  uint32_t name_offset = 0;  // the name in AnimTreeFile::names, stored lower-cased ("Tokens")
  uint16_t name_size = 0;    // below kMaxTokenChars
  uint8_t flags = 0;         // kept only when the body ends with children
  bool has_body : 1 = false;
  bool missing_from_tree : 1 = false;
  bool attached : 1 = false;   // in its parent's child list (false: pruned, or a duplicate kept aside)
  bool synthetic : 1 = false;  // an inserted `void` / `void_loop`
  int32_t line = 0, column = 0;  // of the name token (of the closing `}` for a synthetic void)
  int32_t last_child = -1;       // the newest kept child; -1: none (a leaf)
  int32_t prev_sibling = -1;     // the kept sibling attached before this one; -1: the oldest

  bool is_leaf() const { return last_child < 0; }
};

struct ParseOptions {
  std::string file;  // for diagnostics
  // Lower-cased names the scripts reference for this tree (nullptr: none).
  const std::unordered_set<std::string>* references = nullptr;
  bool anim_check = false;  // com_animCheck != 0: keep every node
  bool keep_going = false;  // record every error and recover (the stock loader stops at the first)
};

struct AnimTreeFile {
  std::string names;  // every node's name, back to back (AtrNode::name_offset)
  std::vector<AtrNode> nodes;  // nodes[0]: the top level
  std::vector<Diagnostic> diagnostics;
  size_t parsed_nodes = 0;  // name tokens that made a node (kept or not)

  const AtrNode& root() const { return nodes[0]; }
  std::string_view name(const AtrNode& n) const {
    return std::string_view(names).substr(n.name_offset, n.name_size);
  }
  // The kept children of `n`, newest first (the stock order).
  template <class F>
  void for_each_child(const AtrNode& n, F&& f) const {
    for (int32_t c = n.last_child; c >= 0; c = nodes[c].prev_sibling) f(c);
  }
  bool ok() const { return !has_error(diagnostics); }
};

// The shared tokenizer's token buffer (MAX_TOKEN_CHARS): a name must fit it with its NUL.
inline constexpr size_t kMaxTokenChars = 1024;

// Deepest nesting animkit accepts (an animkit limit, not a stock rule: keeps recursion bounded).
inline constexpr int kMaxNesting = 256;

// Parses a tree. Never throws: problems are diagnostics.
AnimTreeFile parse_anim_tree(std::string_view text, const ParseOptions& options);

}  // namespace animkit::call_of_duty
