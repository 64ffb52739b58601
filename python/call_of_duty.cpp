// animkit.call_of_duty: load one .atr tree as the stock loader does (`animkit cod tree --json`).
#include <pybind11/stl.h>

#include "animkit/call_of_duty/loader.h"
#include "animkit/call_of_duty/tokenizer.h"
#include "animkit/call_of_duty/tree_output.h"
#include "bindings.h"

namespace animkit::python {

namespace cod = animkit::call_of_duty;

void bind_call_of_duty(py::module_& m) {
  py::module_ sub = m.def_submodule("call_of_duty", "Call of Duty: United Offensive trees.");
  sub.def(
      "load_tree",
      [](const py::object& path, const std::vector<std::string>& refs, bool anim_check,
         bool keep_going, const py::object& assets, const py::object& manifest, bool dot) {
        const std::string file = path_arg(path);
        const std::string assets_dir = assets.is_none() ? "" : path_arg(assets);
        const std::string manifest_file = manifest.is_none() ? "" : path_arg(manifest);
        Json tree;
        std::string dot_text;
        {
          py::gil_scoped_release release;
          const std::vector<uint8_t> bytes = read_file(file);
          cod::LoadOptions o;
          o.tree_name = cod::to_lower(std::filesystem::path(file).stem().string());
          o.file = file;
          for (std::string name : refs) {  // as `cod tree --refs a,b`: lower case, no '%'
            if (!name.empty() && name[0] == '%') name.erase(0, 1);
            if (name.empty()) continue;
            cod::Reference r;
            r.name = cod::to_lower(name);
            r.file = "refs";
            o.references.push_back(std::move(r));
          }
          o.anim_check = anim_check;
          o.keep_going = keep_going;
          cod::AssetResolver resolver;
          try {
            if (!assets_dir.empty()) resolver.set_directory(assets_dir);
            if (!manifest_file.empty()) resolver.load_manifest(manifest_file);
          } catch (const Error& e) {
            throw e.with_file(manifest_file.empty() ? assets_dir : manifest_file);
          }
          o.assets = &resolver;
          const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
          const cod::LoadResult r = cod::load_anim_tree(text, o);
          tree = cod::tree_json(r);
          if (dot) dot_text = cod::tree_dot(r);
        }
        py::object out = from_json(tree);
        if (dot) out["dot"] = dot_text;
        return out;
      },
      py::arg("path"), py::arg("refs") = std::vector<std::string>{},
      py::arg("anim_check") = false, py::arg("keep_going") = false,
      py::arg("assets") = py::none(), py::arg("manifest") = py::none(), py::arg("dot") = false,
      "load_tree(path, refs=[], anim_check=False, keep_going=False, assets=None,\n"
      "          manifest=None, dot=False) -> dict\n\n"
      "Loads one .atr tree as the stock game does (`animkit cod tree PATH --json`): `refs` the\n"
      "names scripts reference (a leading % is dropped), `anim_check` com_animCheck 1 (keep\n"
      "every node), `keep_going` record every error and recover, `assets` a folder of xanim\n"
      "files, `manifest` their JSON manifest. A tree that fails to load is not an exception:\n"
      "its diagnostics are in the dict. dot=True adds the Graphviz source under 'dot'.");
}

}  // namespace animkit::python
