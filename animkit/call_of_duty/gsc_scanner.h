// A scanner for .gsc scripts that finds what the compiler does with animation trees
// (cod-animtrees.txt, "File location and selection", "Script integration";
// cod-animtrees-loader.md, "Script references"): `#using_animtree("name")` selects a tree for the
// rest of the file, `%name` references a node of the selected tree, `#animtree` its registry
// index. It understands `//` and `/* */` comments, strings, and `/# ... #/` developer blocks.
// It is not a GSC compiler: everything else is skipped.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "animkit/call_of_duty/diagnostic.h"

namespace animkit::call_of_duty {

struct ScriptReference {
  enum class Kind { kAnimation, kAnimTree };  // `%name` or `#animtree`
  Kind kind = Kind::kAnimation;
  std::string name;  // lower-cased node name (`%name`); empty for #animtree
  std::string tree;  // canonical name of the tree selected at that point
  // The script's name, shared by its references (a million references hold one copy: issue 26).
  std::shared_ptr<const std::string> file_name;
  const std::string& file() const {
    static const std::string none;
    return file_name ? *file_name : none;
  }
  int line = 0, column = 0;
  uint64_t offset = 0;
};

struct TreeDirective {
  std::string tree;  // canonical (lower-cased) name
  std::string file;
  int line = 0, column = 0;  // of the `#using_animtree`
  uint64_t offset = 0;
};

// A script this one loads: `#include path;` or a call into another file, `path::function`.
struct ScriptDependency {
  std::string script;  // canonical: lower case, '/' separators, ".gsc" added
  int line = 0, column = 0;
  uint64_t offset = 0;
};

struct ScriptScan {
  std::string file;
  std::vector<TreeDirective> directives;
  std::vector<ScriptDependency> dependencies;  // the first mention of each, in file order
  std::vector<ScriptReference> references;  // only those made with a tree selected
  std::vector<Diagnostic> diagnostics;      // every one (the compiler would stop at the first)
};

// Scans one script. Never throws. Each file starts without a selected tree.
ScriptScan scan_script(std::string_view text, const std::string& file);

}  // namespace animkit::call_of_duty
