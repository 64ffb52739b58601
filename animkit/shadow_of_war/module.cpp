#include "animkit/shadow_of_war/module.h"

#include "animkit/shadow_of_war/anix_document.h"
#include "animkit/shadow_of_war/anix_import.h"
#include "animkit/shadow_of_war/demo.h"
#include "animkit/shadow_of_war/scenario.h"

namespace animkit::shadow_of_war {

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "shadow_of_war";
  Format anix;
  anix.name = "sow-anix";
  anix.engine = "shadow_of_war";
  anix.description = "Shadow of War .anix clips (header, tracks, blocksets, clip records, events)";
  anix.sniff = [](const std::filesystem::path&, Bytes head) {
    return head.size() >= 4 && head[0] == 'A' && head[1] == 'N' && head[2] == 'I' && head[3] == 'X';
  };
  anix.open = [](const std::filesystem::path&, Bytes bytes, const Options&) {
    return std::unique_ptr<Document>(new AnixDocument(parse_anix(bytes), bytes.size()));
  };
  anix.extensions = {".anix"};
  anix.import_gltf = import_anix;  // events and keywords only (anix_import.h)
  engine.formats.push_back(std::move(anix));
  engine.play = play;
  engine.demo = demo;
  registry.add(std::move(engine));
}

}  // namespace animkit::shadow_of_war
