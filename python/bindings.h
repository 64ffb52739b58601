// The pieces of the `animkit._animkit` extension module, one file each (issue 18): the shared
// registry and error translation (module.cpp), documents (document.cpp), the neutral model as
// NumPy views (animated.cpp), the players (play.cpp) and one file per engine's own functions.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "animkit/core/registry.h"
#include "animkit/core/skeleton.h"

namespace animkit::python {

namespace py = pybind11;

// Every engine registered once, as tools/animkit/engines.cpp does for the CLI.
const Registry& registry();

// JSON text -> Python objects (json.loads: the same dict `--json` prints, keys in order).
py::object from_json(const Json& j);
// UTF-8 text -> str, bytes that are not UTF-8 kept as surrogates (file names).
py::str text(const std::string& s);
// A path argument (str, bytes or os.PathLike) as the file system's bytes (os.fsencode).
std::string path_arg(const py::handle& path);

// Python keyword arguments -> engine Options: `motion_table=` reaches "motion-table" when an
// engine names it so, values become text (paths, numbers; lists joined by commas, bools 1 / 0).
Options to_options(const py::kwargs& kwargs);

// The clip a Python argument names in `a`: None (then `rest`), a name, an index or a Clip of `a`.
const Clip& pick_clip(const Animated& a, const py::object& which, Clip& rest);

void bind_animated(py::module_& m);
void bind_runtime(py::module_& m);
void bind_document(py::module_& m);
void bind_play(py::module_& m);
void bind_call_of_duty(py::module_& m);
void bind_monster_hunter(py::module_& m);
void bind_shadow_of_war(py::module_& m);
void bind_gltf_import(py::module_& m);

}  // namespace animkit::python
