// Listing the files of a folder the way a modder expects: recursively, following symbolic links
// to folders (issue 12, item 5), with a link that leads back to a folder being walked reported
// once and not followed.
#pragma once

#include <filesystem>
#include <vector>

#include "animkit/call_of_duty/diagnostic.h"

namespace animkit::call_of_duty {

struct WalkedFile {
  std::filesystem::path path;      // as reached (through links)
  std::filesystem::path relative;  // to the walked folder
};

// Every regular file under `dir`, sorted by relative path. Loops are warnings in `diagnostics`.
std::vector<WalkedFile> walk_files(const std::filesystem::path& dir,
                                   std::vector<Diagnostic>& diagnostics);

}  // namespace animkit::call_of_duty
