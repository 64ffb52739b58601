// `sow build`'s writer with the reader's bounds (issue 29): before a byte is written, every
// structure an AnixFile places (as anix_from_json reads it from a description) must lie inside
// the region that holds it, overlap nothing, and the file must fit --max-memory; after writing,
// the bytes must read back and pass `validate`. Errors name the description's JSON path.
#pragma once

#include <cstdint>
#include <vector>

#include "animkit/shadow_of_war/anix.h"

namespace animkit::shadow_of_war {

// Throws animkit::Error "PATH: what is wrong" for the first structure that does not fit its
// region or the memory limit, without allocating anything of the file's size.
void check_layout(const AnixFile& file);

// check_layout, write_anix, then parse_anix and the `validate` checks on the bytes: a file the
// reader or validate would reject is an Error, never returned.
std::vector<uint8_t> write_anix_checked(const AnixFile& file);

}  // namespace animkit::shadow_of_war
