// `animkit._animkit`: the extension module the `animkit` package wraps (python/animkit/). The
// registry, animkit.Error, formats() and demo() live here; the rest is bound by the files named
// in bindings.h.
#include <pybind11/stl.h>

#include <algorithm>
#include <sstream>

#include "animkit/asherons_call/module.h"
#include "animkit/call_of_duty/module.h"
#include "animkit/core/demo_gltf.h"
#include "animkit/core/neutral_json.h"
#include "animkit/core/safe_path.h"
#include "animkit/core/synthetic.h"
#include "animkit/gltf/export.h"
#include "animkit/monster_hunter/module.h"
#include "animkit/shadow_of_war/module.h"
#include "animkit/warriors/module.h"
#include "bindings.h"

namespace animkit::python {

const Registry& registry() {
  static const Registry r = [] {
    Registry all;
    register_neutral_format(all);  // core first, as the CLI does
    warriors::register_module(all);
    monster_hunter::register_module(all);
    call_of_duty::register_module(all);
    asherons_call::register_module(all);
    shadow_of_war::register_module(all);
    return all;
  }();
  return r;
}

py::object from_json(const Json& j) {
  static py::handle loads = py::object(py::module_::import("json").attr("loads")).release();
  // Bytes that are not UTF-8 (a name read from a file) become U+FFFD rather than an exception.
  return loads(j.dump(-1, ' ', false, Json::error_handler_t::replace));
}

py::str text(const std::string& s) {
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape"));
}

std::string path_arg(const py::handle& path) {
  return py::bytes(py::module_::import("os").attr("fsencode")(path)).cast<std::string>();
}

Options to_options(const py::kwargs& kwargs) {
  Options options;
  for (auto [key, value] : kwargs) {
    std::string name = py::str(key);
    std::string dashed = name;
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    for (const Engine& e : registry().engines()) {
      for (const EngineOption& o : e.options) {
        if (o.name == dashed) name = dashed;
      }
    }
    if (value.is_none()) continue;
    std::string text;
    if (py::isinstance<py::bool_>(value)) {
      text = value.cast<bool>() ? "1" : "0";
    } else if (py::hasattr(value, "__fspath__")) {
      text = path_arg(value);
    } else if (py::isinstance<py::str>(value) || !py::isinstance<py::iterable>(value)) {
      text = py::str(value);
    } else {  // a list of names: "a,b,c", as on the command line
      for (auto item : value) {
        if (!text.empty()) text += ",";
        text += py::str(item).cast<std::string>();
      }
    }
    options[name] = text;
  }
  return options;
}

namespace {

PyObject* error_type = nullptr;

void translate_errors() {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      // Paths and messages may hold bytes that are not UTF-8: surrogateescape keeps them.
      py::object exc = py::reinterpret_steal<py::object>(
          PyObject_CallOneArg(error_type, text(e.what()).ptr()));
      if (!exc) return;  // the call set its own Python error
      exc.attr("message") = text(e.message());
      exc.attr("file") = e.file().empty() ? py::none() : py::object(text(e.file()));
      exc.attr("offset") = e.offset() ? py::object(py::int_(*e.offset())) : py::none();
      PyErr_SetObject(error_type, exc.ptr());
    }
  });
}

// The core part of `animkit demo`: the five-joint arm as core.json (neutral JSON) and core.glb.
void core_demo(DemoContext& ctx) {
  const Animated arm = synthetic_arm();
  write_text(ctx.out_dir / "core.json", to_json(arm).dump(1) + "\n");
  gltf::write(arm, ctx.out_dir / "core.glb");
  ctx.out << "core: wrote core.json and core.glb (" << arm.skeleton.num_joints() << " joints, "
          << arm.clips.size() << " clips)\n";
}

}  // namespace

}  // namespace animkit::python

PYBIND11_MODULE(_animkit, m) {
  using namespace animkit;
  using namespace animkit::python;
  m.doc() = "animkit's C++ library; use it through the `animkit` package.";

  error_type = PyErr_NewExceptionWithDoc(
      "animkit.Error",
      "Invalid input, as the CLI reports it (`FILE: offset 0x1a4: what is wrong`).\n\n"
      "Attributes: file (str or None), offset (int or None: the byte offset), message (str).",
      PyExc_Exception, nullptr);
  m.add_object("Error", py::handle(error_type));
  translate_errors();

  m.def(
      "formats",
      [] {
        py::list all;
        for (const Engine& e : registry().engines()) {
          for (const Format& f : e.formats) {
            py::dict d;
            d["name"] = f.name;
            d["engine"] = f.engine;
            d["description"] = f.description;
            d["extensions"] = f.extensions;
            all.append(d);
          }
        }
        return all;
      },
      "Every format animkit reads: dicts with name, engine, description, extensions.");

  m.def(
      "engines",
      [] {
        py::list all;
        for (const Engine& e : registry().engines()) {
          py::dict d;
          d["name"] = e.name;
          py::list formats, options;
          for (const Format& f : e.formats) formats.append(f.name);
          for (const EngineOption& o : e.options) {
            py::dict od;
            od["name"] = o.name;
            od["keyword"] = [&] {
              std::string k = o.name;
              std::replace(k.begin(), k.end(), '-', '_');
              return k;
            }();
            od["help"] = o.help;
            options.append(od);
          }
          d["formats"] = formats;
          d["options"] = options;
          d["player"] = static_cast<bool>(e.play);
          all.append(d);
        }
        return all;
      },
      "The engines: name, formats, options (name, keyword for animkit.open, help), "
      "player (True when animkit.play runs its scenarios).");

  // The core's one rule for file names taken from input (issue 30): animkit.batch names its
  // export files with it. Bytes in and out, so a name of any bytes round-trips.
  m.def(
      "safe_file_name",
      [](const py::bytes& name) { return py::bytes(safe_file_name(std::string(name))); },
      py::arg("name"),
      "A name from input as one safe file name (animkit/core/safe_path.h): no separators, no "
      "control bytes, no leading dot, at most 200 bytes; \"unnamed\" when nothing is left.");

  m.def(
      "demo",
      [](const std::string& out_dir, const std::string& engine) {
        std::ostringstream text;
        {
          py::gil_scoped_release release;
          std::filesystem::create_directories(out_dir);
          set_demo_gltf_writer([](const Animated& a, const std::filesystem::path& p) { gltf::write(a, p); });
          DemoContext ctx{out_dir, text};
          bool ran = false;
          if (engine.empty() || engine == "core") {
            core_demo(ctx);
            ran = true;
          }
          for (const Engine& e : registry().engines()) {
            if (!e.demo || (!engine.empty() && engine != e.name)) continue;
            e.demo(ctx);
            ran = true;
          }
          if (!ran) throw Error("no engine named '" + engine + "' has a demo");
        }
        return text.str();
      },
      py::arg("out_dir"), py::arg("engine") = "",
      "Writes the built-in sample files (what `animkit demo --out OUT_DIR` writes: each\n"
      "engine's synthetic assets and play scenarios; the core part writes core.json and\n"
      "core.glb) and returns the report. `engine` runs one engine's part only.");

  bind_animated(m);
  bind_runtime(m);
  bind_document(m);
  bind_play(m);
  bind_call_of_duty(m);
  bind_monster_hunter(m);
  bind_shadow_of_war(m);
  bind_gltf_import(m);
}
