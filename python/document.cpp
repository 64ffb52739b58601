// animkit.open() and the Document it returns: what the CLI's shared verbs ask of a file
// (info, dump --json, validate --json, export), through the format registry.
#include <pybind11/stl.h>

#include <algorithm>

#include "animkit/gltf/export.h"
#include "bindings.h"

namespace animkit::python {

namespace {

struct PyDocument {
  std::shared_ptr<const Document> doc;
  std::string path;    // empty for a set opened from options
  std::string format;  // the format's name, e.g. "warriors-anm"
  std::string engine;
  std::shared_ptr<Animated> animated;  // to_neutral(), made once
  bool converted = false;
};

PyDocument open_document(const py::object& path, const py::kwargs& kwargs) {
  const Options options = to_options(kwargs);
  PyDocument d;
  if (!path.is_none()) {
    d.path = path_arg(path);
    const Format* used = nullptr;
    {
      py::gil_scoped_release release;
      d.doc = registry().open(d.path, options, &used);
    }
    d.format = used->name;
    d.engine = used->engine;
    return d;
  }
  {
    py::gil_scoped_release release;
    for (const Engine& e : registry().engines()) {
      if (!e.open_set) continue;
      if (auto doc = e.open_set(options)) {
        d.doc = std::move(doc);
        d.engine = e.name;
        break;
      }
    }
  }
  if (!d.doc) {
    throw py::value_error("name a file, or the files an engine needs (e.g. skeleton=, pack=)");
  }
  py::gil_scoped_release release;
  const Json info = d.doc->info();
  d.format = info.is_object() && info.contains("format") && info["format"].is_string()
                 ? info["format"].get<std::string>()
                 : d.engine;
  return d;
}

// Made once; the GIL is held again before the result is stored, so two threads asking at once
// both convert but store one.
std::shared_ptr<Animated> neutral(PyDocument& d) {
  if (!d.converted) {
    std::shared_ptr<Animated> made;
    {
      py::gil_scoped_release release;
      if (std::optional<Animated> a = d.doc->to_neutral()) {
        made = std::make_shared<Animated>(std::move(*a));
      }
    }
    if (!d.converted) {
      d.animated = std::move(made);
      d.converted = true;
    }
  }
  return d.animated;
}

// What the CLI's export does with several inputs (tools/animkit/common.cpp, merge_neutral): the
// first skeleton, then every clip of the others that fits it.
Animated merge(const std::vector<std::shared_ptr<Animated>>& parts) {
  const Animated* base = nullptr;
  for (const auto& a : parts) {
    if (a && a->skeleton.num_joints() > 0) {
      base = a.get();
      break;
    }
  }
  if (!base) throw Error("none of the inputs holds a skeleton or animation");
  Animated merged = *base;
  for (const auto& a : parts) {
    if (!a || a.get() == base) continue;
    for (const Clip& c : a->clips) {
      if (c.joints.size() != merged.skeleton.num_joints()) {
        throw Error("clip '" + c.name + "' has " + std::to_string(c.joints.size()) +
                    " joints, the skeleton " + std::to_string(merged.skeleton.num_joints()));
      }
      merged.clips.push_back(c);
    }
    for (const std::string& n : a->notes) {
      if (std::find(merged.notes.begin(), merged.notes.end(), n) == merged.notes.end()) {
        merged.notes.push_back(n);
      }
    }
  }
  return merged;
}

// `skeleton_doc`, when given, receives the document whose skeleton the merge keeps (the first
// with one), for its meshes.
std::shared_ptr<Animated> merge_sources(const py::iterable& sources, const py::kwargs& kwargs,
                                        std::shared_ptr<const Document>* skeleton_doc = nullptr) {
  std::vector<std::shared_ptr<Animated>> parts;
  bool found = false;
  auto keep = [&](const PyDocument& d, const std::shared_ptr<Animated>& a) {
    if (!found && a && a->skeleton.num_joints() > 0) {
      found = true;
      if (skeleton_doc) *skeleton_doc = d.doc;
    }
  };
  for (py::handle s : sources) {
    if (py::isinstance<PyDocument>(s)) {
      PyDocument& d = s.cast<PyDocument&>();
      parts.push_back(neutral(d));
      keep(d, parts.back());
    } else if (py::isinstance<Animated>(s)) {
      parts.push_back(s.cast<std::shared_ptr<Animated>>());
      if (parts.back() && parts.back()->skeleton.num_joints() > 0) found = true;
    } else {
      PyDocument d = open_document(py::reinterpret_borrow<py::object>(s), kwargs);
      parts.push_back(neutral(d));
      keep(d, parts.back());
    }
  }
  py::gil_scoped_release release;
  return std::make_shared<Animated>(merge(parts));
}

void write_gltf(const Animated& a, const std::string& path, float rate,
                const MeshSet* meshes = nullptr) {
  gltf::ExportOptions eo;
  eo.binary = std::filesystem::path(path).extension() != ".gltf";
  eo.resample_rate = rate;
  py::gil_scoped_release release;
  gltf::write(a, path, eo, meshes);
}

}  // namespace

void bind_document(py::module_& m) {
  py::class_<PyDocument>(m, "Document",
                         "An opened file (or set of files), as the CLI's verbs see it. Made by "
                         "animkit.open().")
      .def_readonly("format", &PyDocument::format, "The format's name, e.g. 'warriors-anm'.")
      .def_readonly("engine", &PyDocument::engine, "The engine module, e.g. 'warriors'.")
      .def_property_readonly(
          "path", [](const PyDocument& d) { return d.path.empty() ? py::object(py::none()) : py::object(text(d.path)); },
          "The file opened (None for a set opened from options).")
      .def(
          "info",
          [](const PyDocument& d) {
            Json j;
            {
              py::gil_scoped_release release;
              j = d.doc->info();
            }
            return from_json(j);
          },
          "A short summary: the dict `animkit info --json FILE` prints.")
      .def(
          "dump",
          [](const PyDocument& d) {
            Json j;
            {
              py::gil_scoped_release release;
              j = d.doc->dump();
            }
            return from_json(j);
          },
          "Every decoded field by the spec's names: the dict `animkit dump --json FILE` prints.")
      .def(
          "validate",
          [](const PyDocument& d) {
            std::vector<Finding> findings;
            {
              py::gil_scoped_release release;
              findings = d.doc->validate();
            }
            py::list out;
            for (const Finding& f : findings) {
              py::dict x;
              x["file"] = text(d.path.empty() ? std::string("input") : d.path);
              x["level"] = to_string(f.level);
              x["code"] = f.code;
              x["where"] = f.where;
              x["message"] = f.message;
              x["fix"] = f.fix;
              out.append(x);
            }
            return out;
          },
          "The engine's rules for this file: a list of findings, each the dict of\n"
          "`animkit validate --json` (file, level 'error' / 'warning' / 'info', code, where,\n"
          "message, fix); empty when every rule passes.")
      .def(
          "validate_summary",
          [](const PyDocument& d) {
            py::gil_scoped_release release;
            const std::vector<Finding> findings = d.doc->validate();
            std::string s = d.doc->validate_summary(findings);
            if (s.empty()) {
              int e = 0, w = 0;
              for (const Finding& f : findings) {
                e += f.level == Finding::Level::kError;
                w += f.level == Finding::Level::kWarning;
              }
              s = std::to_string(e) + " errors, " + std::to_string(w) + " warnings";
            }
            return s;
          },
          "The summary line `animkit validate` prints after the findings.")
      .def(
          "animated",
          [](PyDocument& d) -> py::object {
            const auto a = neutral(d);
            if (!a) return py::none();
            return py::cast(a);
          },
          "The skeleton and clips in neutral form (an Animated whose keys are NumPy arrays),\n"
          "or None when the file holds no animation (a CoD tree).")
      .def(
          "export",
          [](PyDocument& d, const py::object& path, float rate) {
            const auto a = neutral(d);
            if (!a) throw Error("the file holds no skeleton or animation", std::nullopt, d.path);
            // A model's skinned meshes ride along, as with `animkit export` (issues 27, 32).
            Animated merged = merge({a});
            std::optional<MeshSet> meshes;
            {
              py::gil_scoped_release release;
              meshes = d.doc->mesh_set(merged.notes);
            }
            write_gltf(merged, path_arg(path), rate, meshes ? &*meshes : nullptr);
          },
          py::arg("path"), py::arg("rate") = 0.0f,
          "Writes glTF 2.0 (.glb, or .gltf with the buffer embedded), as `animkit export FILE\n"
          "-o PATH` (a model's skinned meshes included). `rate` resamples Hermite tracks (0: each clip's frame rate).")
      .def("__repr__", [](const PyDocument& d) {
        return "<animkit.Document " + d.format + (d.path.empty() ? "" : " '" + d.path + "'") + ">";
      });

  m.def(
      "open",
      [](const py::object& path, const py::kwargs& kwargs) { return open_document(path, kwargs); },
      py::arg("path") = py::none(),
      "open(path=None, **engine_options) -> Document\n\n"
      "Opens a file as `animkit info/dump/validate FILE` do: the format is detected (or forced\n"
      "with format='warriors-anm'). Engine options are the CLI's, underscores for dashes:\n"
      "game='mhfu', skeleton='mh-skeleton.bin', cod_refs=['walk', 'run'], motion_table=...\n"
      "With no path, the engine whose files the options name opens them as a set\n"
      "(open(skeleton=..., pack=...)). Raises animkit.Error on invalid input.");

  m.def(
      "merge",
      [](const py::iterable& sources, const py::kwargs& kwargs) {
        return merge_sources(sources, kwargs);
      },
      py::arg("sources"),
      "merge(sources, **engine_options) -> Animated\n\n"
      "The first skeleton among the sources (paths, Documents or Animated) and every clip of\n"
      "the others that fits it, as `animkit export FILE...` combines its inputs.");

  m.def(
      "export",
      [](const py::iterable& sources, const py::object& path, float rate, const py::kwargs& kwargs) {
        std::shared_ptr<const Document> skeleton_doc;
        const auto a = merge_sources(sources, kwargs, &skeleton_doc);
        std::optional<MeshSet> meshes;  // a model's skinned meshes, as `animkit export`
        if (skeleton_doc) {
          py::gil_scoped_release release;
          meshes = skeleton_doc->mesh_set(a->notes);
        }
        write_gltf(*a, path_arg(path), rate, meshes ? &*meshes : nullptr);
        py::dict out;
        out["output"] = text(path_arg(path));
        out["joints"] = a->skeleton.num_joints();
        out["clips"] = a->clips.size();
        out["meshes"] = meshes ? meshes->meshes.size() : 0;
        out["notes"] = a->notes;
        return out;
      },
      py::arg("sources"), py::arg("path"), py::arg("rate") = 0.0f,
      "export(sources, path, rate=0, **engine_options) -> dict\n\n"
      "`animkit export FILE... -o PATH`: glTF 2.0 of the merged sources (see merge); returns\n"
      "the report `animkit export --json` prints (output, joints, clips, notes).");
}

}  // namespace animkit::python
