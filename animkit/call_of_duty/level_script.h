// Which scripts are levels (issue 26): a level is `maps/<name>.gsc` (or `maps/mp/<name>.gsc`)
// whose `main` calls `maps\_load::main`, the call every stock level makes first; helper scripts
// (`stalingrad_anim.gsc`, `_fx.gsc`) do not, and are linted inside the levels that reach them.
#pragma once

#include <string_view>

namespace animkit::call_of_duty {

// True when the script defines `main()` at the top level and its body calls `maps\_load::main`
// (`\` or `/`, any case; comments and strings skipped).
bool main_calls_load_main(std::string_view text);

}  // namespace animkit::call_of_duty
