// animkit.shadow_of_war: the clip keyword hash and the two keyword tables (`animkit sow hash`,
// `animkit sow keywords`).
#include <pybind11/stl.h>

#include "animkit/shadow_of_war/keyword.h"
#include "bindings.h"

namespace animkit::python {

namespace sow = animkit::shadow_of_war;

void bind_shadow_of_war(py::module_& m) {
  py::module_ sub = m.def_submodule("shadow_of_war", "Shadow of War.");
  sub.def(
      "keyword_hash", [](const std::string& word) { return sow::keyword_hash(word); },
      py::arg("word"),
      "The clip keyword hash (spec, 'Clip keywords'): seed the upper-cased first byte, then\n"
      "h * 31 + c over the upper-cased, sign-extended bytes, 32-bit; '' hashes to 0.");
  sub.def(
      "keywords",
      [] {
        auto table = [](std::span<const sow::Keyword> t) {
          py::dict d;
          for (const sow::Keyword& k : t) d[py::str(std::string(k.name))] = k.hash;
          return d;
        };
        py::dict out;
        out["ragdoll"] = table(sow::kRagdollKeywords);
        out["sync_action"] = table(sow::kSyncActionKeywords);
        return out;
      },
      "The ragdoll and sync-action keyword tables: {'ragdoll': {name: hash}, 'sync_action': ...}.");
}

}  // namespace animkit::python
