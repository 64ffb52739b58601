#include "animkit/monster_hunter/module.h"

#include <fmt/format.h>

#include <ostream>

#include "animkit/core/demo_gltf.h"
#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/import.h"
#include "animkit/monster_hunter/play.h"
#include "animkit/monster_hunter/rules.h"
#include "animkit/monster_hunter/synthetic.h"
#include "animkit/monster_hunter/synthetic_model.h"

namespace animkit::monster_hunter {

namespace {

// A small synthetic monster (body, head and tail parts, six entries, entry 5 the head's alone),
// written by the module's writers, read back, validated, played and exported.
void demo(DemoContext& ctx) {
  MonsterSpec spec;
  spec.entries = 6;
  spec.head_only = {5};
  const Monster m = synthetic_monster(spec);
  const std::vector<uint8_t> skeleton_bytes = write_skeleton(m.skeleton);
  const std::vector<uint8_t> pack_bytes = write_pack(m.pack);
  write_file(ctx.out_dir / "mh-skeleton.bin", skeleton_bytes);
  write_file(ctx.out_dir / "mh-pack.bin", pack_bytes);
  const Skeleton skeleton = read_skeleton(skeleton_bytes);
  const AnimPack pack = read_pack(pack_bytes);
  const bool exact = write_skeleton(skeleton) == skeleton_bytes && write_pack(pack) == pack_bytes;
  ctx.out << fmt::format(
      "monster_hunter: {} bones in 3 parts, {} streams, {} clips; written and "
      "read back {}\n",
      skeleton.bones.size(), pack.streams.size(), pack.clips.size(),
      exact ? "byte-identical" : "DIFFERENT");
  const std::vector<Finding> findings = validate(&skeleton, &pack);
  ctx.out << "monster_hunter: validate: " << summary(findings) << "\n";

  EntryPlayer player(pack, skeleton);
  std::vector<JointPose> local(skeleton.bones.size());
  std::vector<Mat4> world(skeleton.bones.size());
  player.play(1);
  player.advance(10);
  player.play(5);  // the head alone: body and tail keep entry 1
  player.advance(5);
  player.pose(local, world);
  const Vec3 head = world[5].translation();
  ctx.out << fmt::format(
      "monster_hunter: entry 1 for 10 frames, then head-only entry 5 for 5: "
      "body keeps stream {} slot {}, head at ({:.2f}, {:.2f}, {:.2f})\n",
      player.current(0)->stream, player.current(0)->slot, head.x, head.y, head.z);
  // A scenario for `animkit play`: the same sequence, traced per game frame.
  const Json scenario = {
      {"engine", "monster_hunter"},
      {"skeleton", "mh-skeleton.bin"},
      {"pack", "mh-pack.bin"},
      {"joints", {0, 5, 7}},
      {"steps", Json::array({{{"play", 1}}, {{"advance", 10}}, {{"play", 5}}, {{"advance", 5}}})}};
  write_text(ctx.out_dir / "mh-scenario.json", scenario.dump(1) + "\n");
  const Animated animated = to_animated(skeleton, &pack, {});
  const auto path = ctx.out_dir / "monster_hunter.glb";
  write_demo_gltf(animated, path);
  ctx.out << fmt::format(
      "monster_hunter: wrote {} ({} entries sampled at 30 fps) and "
      "mh-scenario.json (animkit play)\n",
      path.string(), animated.clips.size());
  // A model PAC with the severed tail (a second root chain), a skinned PMO and a TMH bank
  // (monster-hunter-model.md): `animkit export mh-model.pac` writes the textured monster.
  MonsterSpec tailed = spec;  // the notes' Tigrex layout: parts of 31, 9, 5; roots [0, 45]
  tailed.part_sizes = {31, 9, 5};
  tailed.severed = 3;
  write_file(ctx.out_dir / "mh-model.pac", synthetic_model_pac(synthetic_monster(tailed), 12));
  ctx.out << "monster_hunter: wrote mh-model.pac (skeleton with a severed tail, PMO, TMH, pack)\n";
}

}  // namespace

void register_module(Registry& registry) {
  Engine engine;
  engine.name = "monster_hunter";
  engine.formats.push_back(
      {"mh-skeleton", "monster_hunter", "Monster Hunter (MHFU / MHP3rd) skeleton",
       [](const std::filesystem::path&, Bytes head) { return sniff_skeleton(head); },
       open_skeleton,
       {},
       nullptr,
       false,
       [](const std::filesystem::path&, Bytes head) { return sniff_cut_skeleton(head); }});
  engine.formats.push_back({"mh-pac", "monster_hunter",
                            "Monster Hunter PAC container (a model PAC: skeleton, PMO, TMH, pack)",
                            [](const std::filesystem::path&, Bytes head) { return sniff_pac(head); },
                            open_pac,
                            {".pac"},
                            [](const ImportRequest& r) { return import_gltf(r, true); }});
  // The table chain alone: a pack with damaged clips still reaches the parser's error.
  engine.formats.push_back(
      {"mh-pack", "monster_hunter", "Monster Hunter (MHFU / MHP3rd) animation pack",
       [](const std::filesystem::path&, Bytes head) { return sniff_pack_layout(head); },
       open_pack,
       {},
       [](const ImportRequest& r) { return import_gltf(r, false); }});
  // `rate` is read from the options too, but not registered: `animkit export` has its own --rate
  // and CLI11 refuses an option added twice (see the README, "Choices").
  engine.options = {
      {"game", "Monster Hunter game: mhfu or mhp3rd (forces a pack's clip encoding)"},
      {"skeleton", "Monster Hunter skeleton file"},
      {"pack", "Monster Hunter animation pack file"},
      {"template",
       "Monster Hunter TEMPLATE rule: a species number EM (its file_0{EM+6110} under --data) or a "
       "skeleton / model PAC file"},
      {"data", "Monster Hunter: the extracted game folder (--template EM looks there)"},
      {"em", "Monster Hunter species number (entry count, MHP3rd record offset and skip)",
       EngineOption::Kind::kInteger, 0},
      {"strict", "Monster Hunter: validate also checks EMPTY_TRACK (not a rule of the reference)",
       EngineOption::Kind::kFlag},
      {"max-bytes", "Monster Hunter: the most animation data export writes (default 512 MiB)",
       EngineOption::Kind::kInteger, 0, static_cast<double>(INT64_MAX)},
      {"entry",
       "Monster Hunter import: the MHFU entry, or the MHP3rd clip id (stream * 100 + slot), to "
       "write (default: from the animation's name, entry_NNN / clip_NNN)",
       EngineOption::Kind::kInteger, 0},
      {"refit",
       "Monster Hunter import: fit every channel anew (never keep the template's keys)",
       EngineOption::Kind::kFlag},
  };
  engine.open_set = open_set;
  engine.play = play;
  engine.demo = demo;
  // The import bound's layout (gltf/import_budget.h): every target joint's rotation and
  // translation sampled at every 30 Hz clip frame, 28 bytes (import.cpp, sample_targets).
  for (Format& f : engine.formats) {
    if (f.import_gltf) f.import_joint_frame_bytes = 28, f.import_frame_rate = 30;
  }
  registry.add(std::move(engine));
}

}  // namespace animkit::monster_hunter
