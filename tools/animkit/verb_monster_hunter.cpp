// The `animkit mh ...` verbs of the monster_hunter module: `mh sample` (a pose of an MHFU entry or
// an MHP3rd clip at a frame) and `mh fix` (the engine rules' documented fixes).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "animkit/gltf/export.h"
#include "animkit/monster_hunter/convert.h"
#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/dump.h"
#include "animkit/monster_hunter/pac.h"
#include "animkit/monster_hunter/port.h"
#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/rules.h"
#include "cli.h"

namespace animkit::cli {

namespace mh = animkit::monster_hunter;

namespace {

Json vec_json(Vec3 v) { return Json::array({json_float(v.x), json_float(v.y), json_float(v.z)}); }
Json quat_json(Quat q) {
  return Json::array({json_float(q.x), json_float(q.y), json_float(q.z), json_float(q.w)});
}

// A monster as the mh verbs take it: a model PAC (kept to write back), or --skeleton + --pack.
struct Model {
  std::optional<mh::PacView> pac;
  mh::Skeleton skeleton;
  mh::AnimPack pack;
  std::optional<mh::PmoModel> pmo;     // a model PAC's mesh and textures (model.md 1)
  std::optional<mh::TmhBank> textures;
};

Model load_model(const std::string& pac_path, const std::string& skeleton_path,
                 const std::string& pack_path, std::optional<mh::Game> game) {
  Model m;
  if (!pac_path.empty()) {
    if (!skeleton_path.empty())
      throw CLI::ValidationError("--skeleton", "a model PAC holds the skeleton: give one or the other");
    const std::vector<uint8_t> bytes = read_file(pac_path);
    try {
      if (!mh::sniff_pac(bytes)) {
        (void)mh::read_pac(bytes);  // a cut or damaged PAC: its table's error, at its offset
        throw Error("not a PAC (a model PAC: skeleton, PMO, TMH, pack)", 0);
      }
      mh::ModelPac mp = mh::read_model_pac(bytes, game);
      if (!mp.skeleton) throw Error("the PAC holds no skeleton");
      if (!mp.pack && pack_path.empty()) throw Error("the PAC holds no animation pack");
      m.skeleton = std::move(*mp.skeleton);
      if (mp.pack) m.pack = std::move(*mp.pack);
      m.pac = std::move(mp.view);
      m.pmo = std::move(mp.model);
      m.textures = std::move(mp.textures);
    } catch (const Error& e) {
      throw e.with_file(pac_path);
    }
  } else {
    if (skeleton_path.empty() || pack_path.empty())
      throw CLI::ValidationError("input", "give a model PAC, or --skeleton S and --pack P");
    m.skeleton = mh::load_skeleton(skeleton_path);
  }
  if (!pack_path.empty()) m.pack = mh::load_pack(pack_path, game, &m.skeleton);
  return m;
}

// Writes the model back: the PAC with its pack entry (and, with `skeleton_too`, its skeleton
// entry) replaced, the zero tail re-padded to 0x800; or the bare pack.
void write_model(const Model& m, const std::string& out, bool skeleton_too = false) {
  if (!m.pac || !m.pac->pack_entry) {
    write_file(out, mh::write_pack(m.pack));
    return;
  }
  mh::Pac pac = m.pac->pac;
  pac.entries[*m.pac->pack_entry] = mh::write_pack(m.pack);
  if (skeleton_too && m.pac->skeleton_entry)
    pac.entries[*m.pac->skeleton_entry] = mh::write_skeleton(m.skeleton);
  if (std::all_of(pac.tail.begin(), pac.tail.end(), [](uint8_t b) { return b == 0; }))
    mh::pad_to_block(pac);
  write_file(out, mh::write_pac(pac));
}

void add_sample(CLI::App& group, Cli& cli) {
  auto* verb =
      group.add_subcommand("sample", "the pose of an MHFU entry or an MHP3rd clip at a frame");
  static std::string pac_path, skeleton_path, pack_path, game, parts_text;
  static std::optional<int> entry, clip, em;
  static float frame = 0;
  verb->add_option("pac", pac_path, "a model PAC (or give --skeleton and --pack)");
  verb->add_option("--skeleton", skeleton_path, "skeleton file");
  verb->add_option("--pack", pack_path, "animation pack file");
  verb->add_option("--game", game, "mhfu or mhp3rd (default: the pack's encoding)");
  integer_range(
      verb->add_option("--entry", entry, "MHFU: the entry (ids past the entry count wrap)"), 0,
      kMaxId);
  integer_range(verb->add_option("--clip", clip, "MHP3rd: the clip id, stream * 100 + slot"), 0,
                kMaxId);
  verb->add_option("--frame", frame, "the clip frame (fractional allowed; 30 per second)");
  verb->add_option("--parts", parts_text,
                   "MHFU: the parts the entry drives (e.g. 1 or 0,2; default all)");
  integer_range(verb->add_option("--em", em, "the species number (entry count, MHP3rd records)"), 0,
                kMaxId);
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    mh::DocumentOptions o;
    if (!game.empty()) o.game = mh::parse_game(game);
    o.em = em;
    const Model model = load_model(pac_path, skeleton_path, pack_path, o.game);
    const mh::Skeleton& skeleton = model.skeleton;
    const mh::AnimPack& pack = model.pack;
    const size_t n = skeleton.bones.size();
    std::vector<mh::JointPose> local(n);
    std::vector<Mat4> world(n);
    Json head = {{"game", mh::to_string(pack.game)}};
    if (pack.game == mh::Game::kMhfu) {
      if (!entry) throw Error("MHFU: name the entry with --entry E");
      mh::EntryPlayer player(pack, skeleton, em ? mh::known_entries(*em) : std::nullopt);
      std::vector<int> parts;
      for (size_t at = 0; at < parts_text.size();) {
        size_t comma = parts_text.find(',', at);
        if (comma == std::string::npos) comma = parts_text.size();
        try {
          parts.push_back(std::stoi(parts_text.substr(at, comma - at)));
        } catch (const std::exception&) {
          throw Error("--parts: part numbers separated by commas");
        }
        at = comma + 1;
      }
      player.play(*entry, parts);
      player.seek(frame);
      player.pose(local, world);
      head["entry"] = *entry;
      head["plays"] = mh::wrap_entry(*entry, player.capacity());
      head["entries"] = player.capacity();
      Json jparts = Json::array();
      for (const auto& [id, joints] : mh::part_joints(skeleton)) {
        const auto cur = player.current(id);
        if (!cur && static_cast<int64_t>(joints.front()) >= skeleton.animated()) continue;
        jparts.push_back({{"part", id},
                          {"joints", joints.size()},
                          {"stream", cur ? Json(cur->stream) : Json(nullptr)},
                          {"slot", cur ? Json(cur->slot) : Json(nullptr)}});
      }
      head["parts"] = jparts;
    } else {
      if (!clip) throw Error("MHP3rd: name the clip with --clip ID (stream * 100 + slot)");
      const mh::Playable p = mh::mhp3rd_clip(skeleton, pack, *clip, o);
      const mh::Rig rig = mh::make_rig(skeleton);
      mh::PoseJob{&rig, &p.motion, mh::clip_frame(p.motion, frame), nullptr, local, world}.run();
      head["clip"] = *clip;
      head["frames"] = p.motion.end;
    }
    head["frame"] = json_float(frame);
    Json joints = Json::array();
    std::string text;
    for (size_t j = 0; j < n; ++j) {
      const Quat q = mh::euler_quat(local[j].euler);
      const Quat r = rotation_of(world[j]);
      const Vec3 pos = world[j].translation();
      Json joint = {{"joint", j}};
      // MHP3rd's bone name, by the core rule (`name_hex` beside when not UTF-8, issue 31)
      if (skeleton.bones[j].name) put_text(joint, "name", skeleton.bones[j].name_bytes());
      joint.update(Json{{"parent", skeleton.bones[j].parent},
                        {"euler", vec_json(local[j].euler)},
                        {"quaternion", quat_json(q)},
                        {"translation", vec_json(local[j].translation)},
                        {"position", vec_json(pos)},
                        {"rotation", quat_json(r)}});
      joints.push_back(std::move(joint));
      text += fmt::format(
          "joint {:3} euler ({:.6f}, {:.6f}, {:.6f}) t ({:.4f}, {:.4f}, {:.4f}) "
          "model ({:.4f}, {:.4f}, {:.4f})\n",
          j, local[j].euler.x, local[j].euler.y, local[j].euler.z, local[j].translation.x,
          local[j].translation.y, local[j].translation.z, pos.x, pos.y, pos.z);
    }
    head["joints"] = joints;
    if (cli.json) {
      cli.out << dump_json(head) << "\n";
    } else {
      Json summary = head;
      summary.erase("joints");
      cli.out << dump_json(summary) << "\n" << text;
    }
  });
}

void add_fix(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand(
      "fix", "apply the engine rules' documented fixes to a pack (or skeleton)");
  static std::string in, out, skeleton_path, game;
  verb->add_option("input", in, "animation pack, skeleton or model PAC to repair")->required();
  verb->add_option("-o,--output", out, "where to write the repaired file")->required();
  verb->add_option("--skeleton", skeleton_path, "the skeleton (parts for clips without tracks)");
  verb->add_option("--game", game, "mhfu or mhp3rd (forces the pack's clip encoding)");
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    const std::vector<uint8_t> bytes = read_file(in);
    std::optional<mh::Game> g;
    if (!game.empty()) g = mh::parse_game(game);
    std::vector<std::string> changes;
    std::vector<Finding> left;
    try {
      if (mh::sniff_pac(bytes)) {  // a model PAC: its skeleton and pack, written back in place
        Model m = load_model(in, "", "", g);
        if (!skeleton_path.empty()) throw Error("a model PAC holds its skeleton: drop --skeleton");
        changes = mh::fix(&m.pack, &m.skeleton);
        left = mh::validate(&m.skeleton, &m.pack);
        write_model(m, out, true);
      } else if (mh::sniff_skeleton(bytes) && !mh::sniff_pack(bytes)) {
        mh::Skeleton s = mh::read_skeleton(bytes);
        changes = mh::fix(nullptr, &s);
        left = mh::validate(&s, nullptr);
        write_file(out, mh::write_skeleton(s));
      } else {
        mh::AnimPack p = mh::read_pack(bytes, g);
        std::optional<mh::Skeleton> s;
        if (!skeleton_path.empty()) s = mh::load_skeleton(skeleton_path);
        changes = mh::fix(&p, s ? &*s : nullptr);
        left = mh::validate(s ? &*s : nullptr, &p);
        write_file(out, mh::write_pack(p));
      }
    } catch (const Error& e) {
      throw e.with_file(in);
    }
    if (cli.json) {
      Json jl = Json::array();
      for (const Finding& f : left)
        jl.push_back({{"level", to_string(f.level)},
                      {"code", f.code},
                      {"where", f.where},
                      {"message", f.message}});
      cli.out << dump_json(Json{{"output", out}, {"changes", changes}, {"left", jl}}) << "\n";
      return;
    }
    for (const std::string& c : changes) cli.out << "fixed: " << c << "\n";
    for (const Finding& f : left) {
      cli.out << fmt::format("left: {} {}: {}{}\n", to_string(f.level), f.code,
                             f.where.empty() ? "" : f.where + ": ", f.message);
    }
    cli.out << fmt::format("{}: {} changes; {}\n", out, changes.size(), mh::summary(left));
  });
}

void add_convert(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("convert", "re-encode a pack's clips for the other game");
  static std::string in, out, to, from;
  verb->add_option("input", in, "animation pack, or a model PAC")->required();
  verb->add_option("-o,--output", out, "where to write the converted pack (or PAC)")->required();
  verb->add_option("--to", to, "mhfu or mhp3rd")->required();
  verb->add_option("--game", from, "the input's game (default: sniffed)");
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    std::optional<mh::Game> g;
    if (!from.empty()) g = mh::parse_game(from);
    const std::vector<uint8_t> bytes = read_file(in);
    std::optional<Model> model;  // a model PAC: its pack entry is converted in place
    if (mh::sniff_pac(bytes)) {
      model = load_model(in, "", "", g);
    } else if (mh::sniff_skeleton(bytes)) {
      throw Error("a skeleton, not an animation pack: convert re-encodes a pack's clips", 0, in);
    }
    const mh::AnimPack pack = model ? model->pack : mh::load_pack(in, g);
    const mh::Conversion c = mh::convert_pack(pack, mh::parse_game(to));
    if (model) {
      model->pack = c.pack;
      write_model(*model, out);
    } else {
      write_file(out, mh::write_pack(c.pack));
    }
    if (cli.json) {
      cli.out << dump_json(Json{{"output", out},
                      {"from", mh::to_string(pack.game)},
                      {"to", to},
                      {"clips", c.pack.clips.size()},
                      {"report", c.report}})
              << "\n";
      return;
    }
    for (const std::string& line : c.report) cli.out << "note: " << line << "\n";
    cli.out << fmt::format("{}: {} -> {}, {} clips\n", out, mh::to_string(pack.game), to,
                           c.pack.clips.size());
  });
}

// `animkit export` owns --rate for its Hermite resampling; this verb takes the MH sample rate.
void add_export(CLI::App& group, Cli& cli) {
  auto* verb =
      group.add_subcommand("export", "glTF of the bind pose and every entry / clip at a rate");
  static std::string pac_path, skeleton_path, pack_path, game, out;
  static float rate = 30;
  static std::optional<int> em;
  static uint64_t max_bytes = uint64_t{512} << 20;
  verb->add_option("pac", pac_path, "a model PAC (or give --skeleton, and --pack)");
  verb->add_option("--skeleton", skeleton_path, "skeleton file");
  verb->add_option("--pack", pack_path, "animation pack file");
  verb->add_option("--max-bytes", max_bytes, "the most animation data to write (default 512 MiB)");
  verb->add_option("--game", game, "mhfu or mhp3rd (default: the pack's encoding)");
  verb->add_option("--rate", rate, "samples per second (default 30: one per clip frame)");
  integer_range(verb->add_option("--em", em, "the species number (entry count, MHP3rd records)"), 0,
                kMaxId);
  verb->add_option("-o,--output", out, "OUT.glb, or OUT.gltf")->required();
  verb->add_flag("--json", cli.json, "report as JSON");
  verb->callback([&cli] {
    mh::DocumentOptions o;
    if (!game.empty()) o.game = mh::parse_game(game);
    if (!(rate > 0 && rate <= 1000)) throw CLI::ValidationError("--rate", "a frame rate in (0, 1000]");
    o.rate = rate;
    o.em = em;
    o.max_bytes = max_bytes;
    std::optional<Model> model;
    mh::Skeleton skeleton;
    std::optional<mh::AnimPack> pack;
    if (!pac_path.empty()) {
      model = load_model(pac_path, skeleton_path, pack_path, o.game);
      skeleton = model->skeleton;
      pack = model->pack;
    } else {
      if (skeleton_path.empty())
        throw CLI::ValidationError("input", "give a model PAC, or --skeleton S (and --pack P)");
      skeleton = mh::load_skeleton(skeleton_path);
      if (!pack_path.empty()) pack = mh::load_pack(pack_path, o.game, &skeleton);
    }
    Animated animated = mh::to_animated(skeleton, pack ? &*pack : nullptr, o);
    std::optional<MeshSet> meshes;  // a model PAC: the skinned, textured monster (model.md 6)
    if (model && model->pmo && model->pac->model_entry) {
      try {
        meshes = mh::model_mesh_set(*model->pac, *model->pmo,
                                    model->textures ? &*model->textures : nullptr, skeleton,
                                    animated.notes);
      } catch (const Error& e) {
        throw e.with_file(pac_path);
      }
    }
    gltf::ExportOptions eo;
    eo.binary = std::filesystem::path(out).extension() != ".gltf";
    gltf::write(animated, out, eo, meshes ? &*meshes : nullptr);
    if (cli.json) {
      cli.out << dump_json(Json{{"output", out},
                      {"joints", animated.skeleton.num_joints()},
                      {"clips", animated.clips.size()},
                      {"meshes", meshes ? meshes->meshes.size() : 0},
                      {"images", meshes ? meshes->images.size() : 0},
                      {"rate", json_float(rate)}})
              << "\n";
    } else {
      cli.out << fmt::format("{}: {} joints, {} clips at {} fps\n", out,
                             animated.skeleton.num_joints(), animated.clips.size(), rate);
      for (const std::string& n : animated.notes) cli.out << "note: " << n << "\n";
    }
  });
}

// notes 1: `verify` reuses the rules (all but TEMPLATE; a warning counts as a pass): one check per
// rule, `PASS  <what holds>  <messages>`, then "N checks, F failed"; exit 1 when one fails.
void add_verify(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("verify", "the engine's rules as pass/fail checks of a model PAC");
  static std::string in, game;
  verb->add_option("pac", in, "a model PAC (entry 0 skeleton, 1 PMO, 3 anim pack)")->required();
  verb->add_option("--game", game, "mhfu or mhp3rd (when the bytes do not say)");
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    std::optional<mh::Game> g;
    if (!game.empty()) g = mh::parse_game(game);
    const std::vector<uint8_t> bytes = read_file(in);
    mh::ModelPac m;
    try {
      if (!mh::sniff_pac(bytes)) {
        (void)mh::read_pac(bytes);  // a cut or damaged PAC: its table's error, at its offset
        throw Error("not a PAC: verify takes a model PAC", 0);
      }
      m = mh::read_model_pac(bytes, g);
    } catch (const Error& e) {
      throw e.with_file(in);
    }
    mh::RuleInputs rules;
    rules.skeleton = m.skeleton ? &*m.skeleton : nullptr;
    rules.pack = m.pack ? &*m.pack : nullptr;
    rules.model = m.model ? &*m.model : nullptr;
    const std::vector<mh::Check> checks = mh::verify_checks(mh::validate(rules));
    int failed = 0;
    size_t width = 0;
    for (const mh::Check& c : checks) {
      failed += !c.ok;
      width = std::max(width, c.name.size());
    }
    if (cli.json) {
      Json jc = Json::array();
      for (const mh::Check& c : checks)
        jc.push_back({{"check", c.name}, {"ok", c.ok}, {"detail", c.detail}});
      cli.out << dump_json(Json{{"checks", jc}, {"failed", failed}}) << "\n";
    } else {
      for (const mh::Check& c : checks)
        cli.out << fmt::format("{}  {:<{}}  {}\n", c.ok ? "PASS" : "FAIL", c.name, width, c.detail);
      cli.out << fmt::format("\n{} checks, {} failed\n", checks.size(), failed);
    }
    if (failed > 0) cli.fail(in, fmt::format("{} of {} checks failed", failed, checks.size()));
  });
}

std::optional<int> file_number(const std::string& path) {
  const std::string stem = std::filesystem::path(path).stem().string();
  if (stem.rfind("file_", 0) != 0) return std::nullopt;
  try {
    return std::stoi(stem.substr(5));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// notes 2-3: `mhfu-port`'s packer: an MHP3rd moveset onto an MHFU monster.
void add_port(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("port", "build an MHFU pack from an MHP3rd moveset");
  static std::string donor_path, target_path, out;
  static std::optional<int> em, host_em;
  static bool plan_only = false;
  verb->add_option("--donor", donor_path, "the MHP3rd moveset (a pack, or a PAC holding one)")
      ->required();
  verb->add_option("--target", target_path, "the MHFU model PAC to carry it")->required();
  integer_range(verb->add_option(
                    "--em", em,
                    "the donor species (record offset and skipped bones; default from the donor's "
                    "file number: file_05248/05250 -> 58, 05339/05341 -> 40)"),
                0, kMaxId);
  integer_range(
      verb->add_option("--host-em", host_em,
                       "the target species (its entry count; default from file_0{em+6110})"),
      0, kMaxId);
  verb->add_option("-o,--output", out, "the ported model PAC");
  verb->add_flag("--plan", plan_only, "print the layout plan (entry <- donor clip id) only");
  verb->add_flag("--json", cli.json, "JSON");
  verb->callback([&cli] {
    if (out.empty() && !plan_only) throw CLI::ValidationError("-o", "give -o OUT.pac (or --plan)");
    Model target = load_model(target_path, "", "", std::nullopt);
    std::vector<uint8_t> donor_bytes = read_file(donor_path);
    mh::AnimPack donor;
    try {
      if (mh::sniff_pac(donor_bytes)) {
        mh::ModelPac d = mh::read_model_pac(donor_bytes, mh::Game::kMhp3rd);
        if (!d.pack) throw Error("the donor PAC holds no animation pack");
        donor = std::move(*d.pack);
      } else {
        donor = mh::read_pack(donor_bytes, mh::pack_game(donor_bytes, std::nullopt, nullptr));
      }
    } catch (const Error& e) {
      throw e.with_file(donor_path);
    }
    mh::PortOptions po;
    po.donor_em = em;
    if (!po.donor_em)
      if (auto n = file_number(donor_path)) po.donor_em = mh::em_by_model(*n);
    po.host_em = host_em;
    if (!po.host_em)
      if (auto n = file_number(target_path)) po.host_em = mh::em_of_model_pac(*n);
    const mh::PortResult r = mh::port(donor, target.skeleton, target.pack, po);
    if (plan_only) {
      if (cli.json) {
        cli.out << dump_json(mh::to_json(r)) << "\n";
        return;
      }
      std::vector<int> head(r.plan.head_only.begin(), r.plan.head_only.end());
      cli.out << fmt::format("capacity {}; head-only {}; {} donor clips of {} records\n",
                             r.plan.capacity, head.empty() ? "none" : mh::list_numbers(head),
                             r.plan.entries.size() + r.plan.dropped.size(), r.records);
      for (const auto& [entry, id] : r.plan.entries)
        cli.out << fmt::format("entry {} <- donor clip {}\n", entry, id);
      if (!r.plan.dropped.empty())
        cli.out << "dropped (no free entry): " << mh::list_numbers(r.plan.dropped) << "\n";
      return;
    }
    Model result = target;
    result.pack = r.pack;
    write_model(result, out);
    const std::vector<Finding> findings = mh::validate(&result.skeleton, &result.pack);
    if (cli.json) {
      Json j = mh::to_json(r);
      j["output"] = out;
      j["validate"] = mh::summary(findings);
      cli.out << dump_json(j) << "\n";
    } else {
      for (const Finding& f : findings) cli.out << mh::reference_line(f) << "\n";
      if (!r.loc_below_fork.empty())
        cli.out << fmt::format("warning: location records below the body fork {} at bones {}\n",
                               r.fork, mh::list_numbers(r.loc_below_fork));
      if (!r.plan.dropped.empty())
        cli.out << "warning: donor clips with no free entry: " << mh::list_numbers(r.plan.dropped)
                << "\n";
      cli.out << fmt::format("{}: {} entries from the donor's {} records; {}\n", out,
                             r.plan.entries.size(), r.records, mh::summary(findings));
    }
    for (const Finding& f : findings)
      if (f.level == Finding::Level::kError) cli.fail(out.empty() ? target_path : out, mh::reference_line(f));
  });
}

// fk.rig_clip as a command: an entry's parts joined into one clip over the whole rig, written as
// a one-slot MHFU pack (lossless; `mh put` takes it back).
void add_rig(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("rig", "join an MHFU entry's parts into one whole-rig clip");
  static std::string in, skeleton_path, pack_path, out;
  static int entry = 0;
  verb->add_option("pac", in, "a model PAC (or give --skeleton and --pack)");
  verb->add_option("--skeleton", skeleton_path, "skeleton file");
  verb->add_option("--pack", pack_path, "animation pack file");
  integer_range(verb->add_option("--entry", entry, "the entry")->required(), 0, kMaxId);
  verb->add_option("-o,--output", out, "a one-slot pack holding the clip");
  verb->add_flag("--json", cli.json, "print the clip as JSON");
  verb->callback([&cli] {
    const Model m = load_model(in, skeleton_path, pack_path, std::nullopt);
    if (m.pack.game != mh::Game::kMhfu) throw Error("rig joins MHFU entries; the pack is MHP3rd's");
    const std::optional<mh::Clip> clip = mh::rig_clip(m.pack, entry, m.skeleton);
    if (!clip) throw Error(fmt::format("entry {}: no part has a clip", entry));
    if (!out.empty()) {
      mh::AnimPack one;
      one.streams = {{0}};
      one.clips = {*clip};
      write_file(out, mh::write_pack(one));
    }
    if (cli.json) {
      cli.out << dump_json(mh::to_json(*clip, mh::Game::kMhfu)) << "\n";
    } else {
      cli.out << fmt::format("entry {}: {} tracks, {} frames, loop {}{}\n", entry,
                             clip->tracks.size(), mh::frames(*clip), clip->loop,
                             out.empty() ? "" : "; wrote " + out);
    }
  });
}

// motion.put as a command: a whole-rig clip written back into an entry's parts.
void add_put(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("put", "write a whole-rig clip back into an MHFU entry");
  static std::string in, skeleton_path, pack_path, clip_path, out;
  static int entry = 0;
  verb->add_option("pac", in, "a model PAC (or give --skeleton and --pack)");
  verb->add_option("--skeleton", skeleton_path, "skeleton file");
  verb->add_option("--pack", pack_path, "animation pack file");
  integer_range(verb->add_option("--entry", entry, "the entry")->required(), 0, kMaxId);
  verb->add_option("--clip", clip_path, "a pack whose first clip is the whole-rig clip (mh rig)")
      ->required();
  verb->add_option("-o,--output", out, "the PAC (or pack) written back")->required();
  verb->add_flag("--json", cli.json, "JSON");
  verb->callback([&cli] {
    Model m = load_model(in, skeleton_path, pack_path, std::nullopt);
    const mh::AnimPack source = mh::load_pack(clip_path, mh::Game::kMhfu);
    if (source.clips.empty()) throw Error("holds no clip", std::nullopt, clip_path);
    mh::put(m.pack, entry, source.clips.front(), m.skeleton);
    write_model(m, out);
    const std::vector<Finding> findings = mh::validate(&m.skeleton, &m.pack);
    if (cli.json) {
      cli.out << dump_json(Json{{"output", out}, {"entry", entry}, {"validate", mh::summary(findings)}})
              << "\n";
    } else {
      for (const Finding& f : findings) cli.out << mh::reference_line(f) << "\n";
      cli.out << fmt::format("{}: entry {} written; {}\n", out, entry, mh::summary(findings));
    }
    for (const Finding& f : findings)
      if (f.level == Finding::Level::kError) cli.exit_code = 1;
  });
}

}  // namespace

void add_monster_hunter_verbs(CLI::App& app, Cli& cli) {
  auto* group = app.add_subcommand("mh", "Monster Hunter (MHFU / MHP3rd) tools");
  group->require_subcommand(1);
  add_sample(*group, cli);
  add_fix(*group, cli);
  add_convert(*group, cli);
  add_export(*group, cli);
  add_verify(*group, cli);
  add_port(*group, cli);
  add_rig(*group, cli);
  add_put(*group, cli);
}

}  // namespace animkit::cli
