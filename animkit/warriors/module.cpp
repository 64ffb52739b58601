#include "animkit/warriors/module.h"

#include "animkit/warriors/anm_import.h"
#include "animkit/warriors/demo.h"
#include "animkit/warriors/document.h"
#include "animkit/warriors/scenario.h"

namespace animkit::warriors {

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "warriors";
  // warriors-container.md: a WAD entry is a pack or a standalone resource.
  engine.formats.push_back(
      {"warriors-pack", "warriors", "The Warriors (PS2) chunk pack (marker 0xDE686795)",
       [](const std::filesystem::path&, Bytes head) { return sniff_pack(head); },
       [](const std::filesystem::path& path, Bytes bytes, const Options&) {
         return open_document(path, bytes, FileKind::kPack);
       },
       {},
       [](const ImportRequest& r) { return import_warriors_container(r, true); },
       false,
       [](const std::filesystem::path&, Bytes head) { return sniff_cut_pack(head); }});
  engine.formats.push_back(
      {"warriors-anm", "warriors", "The Warriors (PS2) .anm resource (chunks 0x00 + 0x02)",
       [](const std::filesystem::path&, Bytes head) { return sniff_anm(head); },
       [](const std::filesystem::path& path, Bytes bytes, const Options&) {
         return open_document(path, bytes, FileKind::kAnm);
       },
       {".anm"},
       import_warriors_anm,  // `animkit import --as warriors-anm` (anm_import.h)
       false,
       [](const std::filesystem::path&, Bytes head) { return sniff_cut_anm(head); }});
  engine.formats.push_back(
      {"warriors-character", "warriors",
       "The Warriors (PS2) character data resource (clips, 0x08, 0x45)",
       [](const std::filesystem::path&, Bytes head) { return sniff_character(head); },
       [](const std::filesystem::path& path, Bytes bytes, const Options&) {
         return open_document(path, bytes, FileKind::kCharacter);
       },
       {},
       [](const ImportRequest& r) { return import_warriors_container(r, false); },
       false,
       [](const std::filesystem::path&, Bytes head) { return sniff_cut_character(head); }});
  engine.play = [](const Json& scenario, const std::filesystem::path& base,
                   const PlayOptions& options,
                   std::ostream& out) { return play_scenario(scenario, base, options, out); };
  engine.demo = [](DemoContext& ctx) { run_demo(ctx); };
  // The import bound's layout (gltf/import_budget.h): every keyed channel gets a float error per
  // 30 Hz frame (anm_import.cpp, write_channel's `base`).
  for (Format& f : engine.formats) {
    if (f.import_gltf) f.import_joint_frame_bytes = 4, f.import_frame_rate = 30;
  }
  registry.add(std::move(engine));
}

}  // namespace animkit::warriors
