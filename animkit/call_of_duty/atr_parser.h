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

// One node of the parsed tree. Nodes live in an arena; node 0 is the file's top level (`root`).
struct AtrNode {
  std::string name;   // stored lower-cased ("Tokens")
  size_t offset = 0;  // of the name token (of the closing `}` for a synthetic void)
  int line = 0, column = 0;
  uint8_t flags = 0;  // kept only when the body ends with children
  bool has_body = false;
  bool missing_from_tree = false;
  bool attached = false;   // in its parent's child list (false: pruned, or a duplicate kept aside)
  bool synthetic = false;  // an inserted `void` / `void_loop`
  int parent = -1;
  std::vector<int> children;  // kept children, in file order

  bool is_leaf() const { return children.empty(); }
};

struct ParseOptions {
  std::string file;  // for diagnostics
  // Lower-cased names the scripts reference for this tree (nullptr: none).
  const std::unordered_set<std::string>* references = nullptr;
  bool anim_check = false;  // com_animCheck != 0: keep every node
  bool keep_going = false;  // record every error and recover (the stock loader stops at the first)
};

struct AnimTreeFile {
  std::vector<AtrNode> nodes;  // nodes[0]: the top level
  std::vector<Diagnostic> diagnostics;
  size_t parsed_nodes = 0;  // name tokens that made a node (kept or not)

  const AtrNode& root() const { return nodes[0]; }
  bool ok() const { return !has_error(diagnostics); }
};

// The shared tokenizer's token buffer (MAX_TOKEN_CHARS): a name must fit it with its NUL.
inline constexpr size_t kMaxTokenChars = 1024;

// Deepest nesting animkit accepts (an animkit limit, not a stock rule: keeps recursion bounded).
inline constexpr int kMaxNesting = 256;

// Parses a tree. Never throws: problems are diagnostics.
AnimTreeFile parse_anim_tree(std::string_view text, const ParseOptions& options);

}  // namespace animkit::call_of_duty
