// A program outside the tree, built against an installed animkit (find_package or pkg-config):
// it opens a file of each engine from `animkit demo`'s output, exports each one's animation as
// glTF and plays the demo's scenarios. Exit 0 when all of it worked.
#include <animkit/asherons_call/module.h>
#include <animkit/call_of_duty/module.h>
#include <animkit/core/neutral_json.h>
#include <animkit/core/registry.h>
#include <animkit/gltf/export.h>
#include <animkit/monster_hunter/module.h>
#include <animkit/shadow_of_war/module.h>
#include <animkit/warriors/module.h>

#include <cstring>
#include <iostream>
#include <sstream>

namespace {

// A small tree in the .atr grammar (cod-animtrees.txt: a name, then its children in braces).
constexpr const char* kTree = "main\n{\n    stand_idle\n    legs\n    {\n        walk_loop\n    }\n}\n";

int failures = 0;

void check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok: " : "FAILED: ") << what << "\n";
  failures += !ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer DEMO_DIR (the output of `animkit demo`)\n";
    return 2;
  }
  const std::filesystem::path demo = argv[1];
  animkit::Registry registry;
  animkit::register_neutral_format(registry);
  animkit::warriors::register_module(registry);
  animkit::monster_hunter::register_module(registry);
  animkit::call_of_duty::register_module(registry);
  animkit::asherons_call::register_module(registry);
  animkit::shadow_of_war::register_module(registry);
  animkit::write_text(demo / "consumer.atr", kTree);
  try {
    struct File {
      const char* name;
      const char* engine;
      animkit::Options options;
    };
    const File files[] = {
        {"warriors-walk.anm", "warriors", {}},
        // A Monster Hunter pack is posed on its skeleton.
        {"mh-pack.bin", "monster_hunter", {{"skeleton", (demo / "mh-skeleton.bin").string()}}},
        {"consumer.atr", "call_of_duty", {}},
        // An entry of a dat: the creature of Setup 0x02000001 with its motion table.
        {"asherons_call/humanoid.dat", "asherons_call", {{"setup", "0x02000001"}}},
        {"shadow_of_war.anix", "shadow_of_war", {}}};
    for (const auto& [name, engine, options] : files) {
      const animkit::Format* used = nullptr;
      const auto document = registry.open(demo / name, options, &used);
      check(used && used->engine == engine, std::string(name) + " opens as " + (used ? used->name : "?"));
      check(!document->info().empty(), std::string(name) + ": info");
      if (std::optional<animkit::Animated> animated = document->to_neutral()) {
        const std::vector<uint8_t> glb = animkit::gltf::to_glb(animkit::gltf::build(*animated));
        check(glb.size() > 12 && std::memcmp(glb.data(), "glTF", 4) == 0,
              std::string(name) + ": " + std::to_string(glb.size()) + " bytes of glTF");
      } else {
        check(std::string(engine) == "call_of_duty", std::string(name) + ": no animation to export");
      }
    }
    for (const char* name : {"warriors-scenario.json", "mh-scenario.json"}) {
      const std::vector<uint8_t> bytes = animkit::read_file(demo / name);
      const animkit::Json scenario =
          animkit::parse_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), name);
      const animkit::Engine* engine = registry.engine(scenario.value("engine", ""));
      std::ostringstream trace;
      animkit::PlayOptions options;
      options.json = true;
      const int code = engine && engine->play ? engine->play(scenario, demo, options, trace) : -1;
      check(code == 0 && !trace.str().empty(), std::string(name) + " plays (" +
                                                   std::to_string(trace.str().size()) + " bytes of trace)");
    }
  } catch (const animkit::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
