// animkit.read_gltf and animkit.import_gltf: `animkit import` (issue 17) from Python: glTF into
// the neutral model, and the neutral model into a format through its writer (Format::import_gltf).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include "animkit/gltf/import.h"
#include "animkit/gltf/import_budget.h"
#include "animkit/gltf/template_fit.h"
#include "bindings.h"

namespace animkit::python {

namespace {
// max_memory=None: the process's limit (1 GiB unless set); 0 is refused (0 means "the default"
// to the library).
uint64_t memory_bound(std::optional<uint64_t> max_memory) {
  if (!max_memory) return 0;
  if (*max_memory == 0) throw py::value_error("max_memory must be at least 1 byte");
  return *max_memory;
}
}  // namespace

void bind_gltf_import(py::module_& m) {
  m.def(
      "read_gltf",
      [](const py::object& path, const std::string& clip, std::optional<uint64_t> max_memory) {
        const std::string p = path_arg(path);
        gltf::ImportOptions io;
        io.clip = clip;
        io.max_memory = memory_bound(max_memory);
        py::gil_scoped_release release;
        return std::make_shared<Animated>(gltf::read(p, io));
      },
      py::arg("path"), py::arg("clip") = "", py::arg("max_memory") = py::none(),
      "read_gltf(path, clip='', max_memory=None) -> Animated\n\n"
      "A .glb / .gltf as the neutral model (the first skin's joints, one clip per animation;\n"
      "`clip` keeps one), as `animkit import` reads it. Raises animkit.Error on a bad file,\n"
      "and when its keys would take more than `max_memory` bytes to decode (default 1 GiB,\n"
      "as the CLI's --max-memory; counted from the accessors before decoding).");

  m.def(
      "import_gltf",
      [](const py::object& source, const std::string& format_name, const py::object& output,
         const py::object& template_path, const std::string& clip, std::optional<float> tolerance,
         std::optional<float> frame_rate, bool dry_run, std::optional<uint64_t> max_memory,
         const py::kwargs& kwargs) {
        const uint64_t bound = memory_bound(max_memory);
        const Format* format = registry().format(format_name);
        if (!format) throw py::value_error("unknown format '" + format_name + "'");
        if (!format->import_gltf) {
          std::string can;
          for (const Engine& e : registry().engines()) {
            for (const Format& f : e.formats) {
              if (f.import_gltf) can += (can.empty() ? "" : ", ") + f.name;
            }
          }
          throw py::value_error("'" + format_name +
                                "' cannot be written from glTF yet (formats that can: " + can + ")");
        }
        if (output.is_none() && !dry_run) throw py::value_error("name the output (or dry_run=True)");
        ImportRequest request;
        std::string input;
        std::vector<std::string> untimed, read_notes;
        if (py::isinstance<Animated>(source)) {
          request.source = source.cast<const Animated&>();
        } else {
          input = path_arg(source);
          gltf::ImportOptions io;
          io.clip = clip;
          io.untimed = &untimed;
          io.notes = &read_notes;
          io.max_memory = bound;
          py::gil_scoped_release release;
          request.source = gltf::read(input, io);
        }
        request.options = to_options(kwargs);
        if (!template_path.is_none()) request.template_path = path_arg(template_path);
        request.clip = clip;
        if (tolerance) request.options["tolerance"] = fmt::format("{}", *tolerance);
        if (frame_rate) request.options["frame-rate"] = fmt::format("{}", *frame_rate);
        request.dry_run = dry_run;
        const std::string out_path = output.is_none() ? "" : path_arg(output);
        ImportResult result;
        {
          py::gil_scoped_release release;
          // Another tool's rest and timing made the template's (issue 32; template_fit.h).
          const std::vector<std::string> fitted = gltf::fit_to_template(request, untimed, registry());
          gltf::check_import_budget(request, *format, input.empty() ? "<Animated>" : input, bound);
          result = format->import_gltf(request);
          result.notes.insert(result.notes.begin(), fitted.begin(), fitted.end());
          result.notes.insert(result.notes.begin(), read_notes.begin(), read_notes.end());
          if (!dry_run) write_file(out_path, result.bytes);
        }
        py::dict out;
        out["input"] = input.empty() ? py::object(py::none()) : py::object(text(input));
        out["format"] = format_name;
        out["output"] = dry_run ? py::object(py::none()) : py::object(text(out_path));
        out["bytes"] = result.bytes.size();
        out["report"] = from_json(result.report);
        out["notes"] = result.notes;
        return out;
      },
      py::arg("source"), py::arg("format"), py::arg("output") = py::none(),
      py::arg("template") = py::none(), py::arg("clip") = "", py::arg("tolerance") = py::none(),
      py::arg("frame_rate") = py::none(), py::arg("dry_run") = false,
      py::arg("max_memory") = py::none(),
      "import_gltf(source, format, output=None, template=None, clip='', tolerance=None,\n"
      "            frame_rate=None, dry_run=False, max_memory=None, **engine_options) -> dict\n\n"
      "`animkit import SOURCE --as FORMAT -o OUTPUT`: writes a .glb / .gltf (or an Animated)\n"
      "in a format through its writer; `template` the original file for what glTF does not\n"
      "carry. Returns the report `animkit import --json` prints (input, format, output, bytes,\n"
      "report, notes). ValueError for a format that cannot be written; animkit.Error when\n"
      "the animation does not fit it, or when decoding it or the format's samples would take\n"
      "more than `max_memory` bytes (default 1 GiB, as the CLI's --max-memory).");
}

}  // namespace animkit::python
