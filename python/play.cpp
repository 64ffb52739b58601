// The players: Engine::play over a scenario with JSON Lines output (what `animkit play --json`
// prints). The engines expose no step-by-step API through the registry, so the whole trace is
// made first (without the GIL) and the package's Trace iterator parses it a line at a time.
#include <pybind11/stl.h>

#include <sstream>

#include "bindings.h"

namespace animkit::python {

void bind_play(py::module_& m) {
  m.def(
      "_play",
      [](const std::string& scenario_text, const std::string& base, int threads,
         const std::string& file, const std::string& expect_engine) {
        std::ostringstream out;
        int code = 0;
        {
          py::gil_scoped_release release;
          try {
            const Json scenario = parse_json(scenario_text, file);
            std::string name = scenario.is_object() && scenario.contains("engine") &&
                                       scenario["engine"].is_string()
                                   ? scenario["engine"].get<std::string>()
                                   : std::string();
            if (name.empty()) name = expect_engine;
            if (!expect_engine.empty() && name != expect_engine) {
              throw Error("the scenario is for engine '" + name + "', not '" + expect_engine + "'");
            }
            const Engine* engine = registry().engine(name);
            if (!engine || !engine->play) throw Error("no player for engine '" + name + "'");
            Json with_engine = scenario;
            if (with_engine.is_object()) with_engine["engine"] = name;
            PlayOptions o;
            o.json = true;
            o.threads = threads;
            code = engine->play(with_engine, base, o, out);
          } catch (const Error& e) {
            throw file.empty() ? e : e.with_file(file);
          }
        }
        return std::make_pair(code, out.str());
      },
      py::arg("scenario"), py::arg("base"), py::arg("threads") = 0, py::arg("file") = "",
      py::arg("engine") = "",
      "Runs a scenario (JSON text) with its engine's player; returns (exit code, JSON Lines).");
}

}  // namespace animkit::python
