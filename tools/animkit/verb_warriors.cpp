// The `animkit warriors ...` verbs: sample a clip at a frame, list / extract / rebuild a chunk
// container, the clip-length rule, CRC-32 names (animkit/warriors/README.md).
#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "animkit/core/safe_path.h"
#include "animkit/core/text.h"
#include "animkit/gltf/export.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/cursor.h"
#include "animkit/warriors/document.h"
#include "animkit/warriors/instance.h"
#include "animkit/warriors/pose_export.h"
#include "animkit/warriors/rebuild.h"
#include "animkit/warriors/scenario.h"
#include "cli.h"
#include "scenario_pose.h"

namespace animkit::cli {

namespace {
using namespace animkit::warriors;

FileKind kind_of(Bytes bytes) {
  if (sniff_pack(bytes)) return FileKind::kPack;
  if (sniff_anm(bytes)) return FileKind::kAnm;
  return FileKind::kCharacter;
}

WarriorsFile open_file(const std::string& path, std::vector<uint8_t>& bytes) {
  bytes = read_file(path);
  try {
    return read_warriors_file(bytes, kind_of(bytes));
  } catch (const Error& e) {
    throw e.with_file(path);
  }
}

Json clean(Quat q) { return to_json(tagged(q, false)); }
Json clean(Vec3 v) { return to_json(tagged(v, false)); }

void add_sample(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("sample", "the pose of a clip at a frame");
  static std::string file;
  static float frame = 0, rate = 1.0f;
  static int clip_index = -1, anim = -1;
  verb->add_option("file", file, "an .anm, character or pack file")->required();
  // Any finite frame, negative included (warriors.txt, "The key in force"); finite: check_numbers.
  verb->add_option("--frame", frame, "the frame (30 a second; fractions and negatives allowed)")
      ->required();
  verb->add_option("--rate", rate, "the playback rate (scales root velocity and turn)")
      ->check(CLI::NonNegativeNumber);  // finite: check_numbers
  verb->add_option("--clip", clip_index, "which clip of the file (0-based, file order)");
  verb->add_option("--anim", anim, "which clip by anim id (a character resource)");
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    std::vector<uint8_t> bytes;
    const WarriorsFile f = open_file(file, bytes);
    const AnmClip* clip = nullptr;
    float bind = 0;
    const BoneOffsets* off = f.bone_offsets();
    if (off) bind = off->bind_height();
    int index = 0;
    for (const ClipSet& s : f.sets) {
      if (anim >= 0) {
        const int c = s.clip_for_anim(anim);
        if (c >= 0 && !clip) clip = &s.clips[c].clip;
        continue;
      }
      for (const ClipEntry& e : s.clips) {
        if (index++ == std::max(clip_index, 0) && !clip) clip = &e.clip;
      }
    }
    if (!clip)
      throw Error(anim >= 0 ? fmt::format("no clip for anim id {}", anim)
                            : fmt::format("no clip {}", std::max(clip_index, 0)),
                  std::nullopt, file);
    const PlayClip p = make_play_clip(*clip, anim);
    const WarPose defaults = default_pose();
    SampleContext ctx{&defaults, bind};
    WarPose pose;
    sample_clip(p, frame, rate, ctx, pose);
    std::array<BoneTransform, kNumBones> model;
    std::array<Vec3, kNumBones> offsets = unit_offsets();
    if (off) {
      for (int b = 0; b < kNumBones; ++b) offsets[b] = off->offset(b);
    }
    build_bone_matrices(pose, offsets, model);
    Json rotations = Json::array(), defaults_json = Json::array(), m = Json::array();
    for (int b = 0; b < kNumBones; ++b) {
      rotations.push_back(clean(pose.rotations[b]));
      defaults_json.push_back(pose.rotation_default(b));
      m.push_back(Json{{"bone", b},
                       {"name", bone_name(b)},
                       {"position", clean(model[b].position)},
                       {"rotation", clean(model[b].rotation)}});
    }
    Json out = Json::object();
    put_text(out, "clip", clip->descriptor.name_bytes());  // the core rule (issue 31, item 2)
    out.update(Json{{"frame", json_float(frame)},
                    {"rate", json_float(rate)},
                    {"frame_count", p.frame_count},
                    {"root_velocity", clean(pose.root_velocity)},
                    {"root_velocity_default", pose.velocity_default()},
                    {"root_translation", clean(pose.root_translation)},
                    {"root_translation_default", pose.translation_default()},
                    {"rotations", std::move(rotations)},
                    {"default", std::move(defaults_json)},
                    {"offsets", off ? "0x28 chunk" : "unit offsets (no 0x28 chunk)"},
                    {"model", std::move(m)}});
    if (cli.json) {
      cli.out << dump_json(out, 1) << "\n";
      return;
    }
    cli.out << fmt::format("{} at frame {} (rate {}), {} frames\n", p.name, frame, rate,
                           p.frame_count);
    const auto v = pose.root_velocity, t = pose.root_translation;
    cli.out << fmt::format("root velocity ({:.4f}, {:.4f}, {:.4f}){}\n", v.x, v.y, v.z,
                           pose.velocity_default() ? " default" : "");
    cli.out << fmt::format("root translation ({:.4f}, {:.4f}, {:.4f}){}\n", t.x, t.y, t.z,
                           pose.translation_default() ? " default" : "");
    for (int b = 0; b < kNumBones; ++b) {
      const Quat q = pose.rotations[b];
      const auto& mb = model[b];
      cli.out << fmt::format(
          "{:2d} {:<11} ({:8.4f} {:8.4f} {:8.4f} {:8.4f}){} model ({:.3f}, "
          "{:.3f}, {:.3f})\n",
          b, bone_name(b), q.x, q.y, q.z, q.w, pose.rotation_default(b) ? " default" : "        ",
          mb.position.x, mb.position.y, mb.position.z);
    }
  });
}

void add_list(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("list", "the resources and chunks of a container file");
  static std::string file;
  verb->add_option("file", file, "a pack or resource")->required();
  verb->add_flag("--json", cli.json, "one JSON document");
  verb->callback([&cli] {
    std::vector<uint8_t> bytes;
    const WarriorsFile f = open_file(file, bytes);
    Json out{{"kind", to_string(f.kind)}};
    Json res = Json::array();
    for (const Resource* r : f.resources()) {
      Json chunks = Json::array();
      for (const Chunk& c : r->chunks) {
        chunks.push_back(Json{{"offset", c.offset},
                              {"type", c.header.type},
                              {"name", chunk_type_name(c.header.type)},
                              {"size", c.header.size},
                              {"hash", fmt::format("{:#010x}", c.header.hash)}});
      }
      res.push_back(Json{{"offset", r->offset},
                         {"count", r->header.count},
                         {"data_size", r->header.data_size},
                         {"name_hash", fmt::format("{:#010x}", r->header.name_hash)},
                         {"chunks", std::move(chunks)}});
    }
    out["resources"] = std::move(res);
    out["tail_bytes"] = f.entry.tail.size();
    if (cli.json) {
      cli.out << dump_json(out, 1) << "\n";
      return;
    }
    size_t i = 0;
    for (const Resource* r : f.resources()) {
      cli.out << fmt::format("resource {} at {:#x}: {} chunks, {} bytes, name hash {:#010x}\n", i++,
                             r->offset, r->header.count, r->header.data_size, r->header.name_hash);
      for (const Chunk& c : r->chunks) {
        cli.out << fmt::format("  {:#08x} chunk {:#04x} {:<20} {:6} bytes hash {:#010x}\n",
                               c.offset, c.header.type, chunk_type_name(c.header.type),
                               c.header.size, c.header.hash);
      }
    }
  });
}

void add_extract(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("extract", "write each resource as a file of its own");
  static std::string file, out_dir = ".";
  verb->add_option("file", file, "a pack or resource")->required();
  verb->add_option("-o,--out", out_dir, "the folder to write into");
  verb->add_flag("--json", cli.json, "report as JSON");
  verb->callback([&cli] {
    std::vector<uint8_t> bytes;
    const WarriorsFile f = open_file(file, bytes);
    // Clip names come from the file: each becomes a safe name inside -o (issue 30).
    OutputFolder folder(out_dir);
    Json written = Json::array();
    size_t i = 0;
    for (const Resource* r : f.resources()) {
      const ClipSet& s = f.sets[i];
      const bool anm = r->chunks.size() == 2 && s.clips.size() == 1;
      const std::string name =
          anm ? folder.claim(
                    fmt::format("{:03d}-{}", i, s.clips[0].clip.descriptor.name_text()), ".anm")
              : folder.claim(fmt::format("{:03d}-{:08x}", i, r->header.name_hash), ".res");
      Writer w;
      write_resource(w, *r);
      folder.write(name, w.bytes());
      written.push_back(name);
      if (!cli.json) cli.out << fmt::format("{}: {} bytes\n", name, w.pos());
      ++i;
    }
    if (cli.json) cli.out << dump_json(Json{{"written", written}}) << "\n";
  });
}

void add_rebuild(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand(
      "rebuild", "parse a container file and write it back; with --put, clips put in place");
  static std::string file, out_path;
  static std::vector<std::string> puts;
  static int anim_id = -1;
  verb->add_option("file", file, "a pack or resource")->required();
  verb->add_option("-o,--output", out_path, "where to write the rebuilt file")->required();
  verb->add_option("--put", puts,
                   "an .anm whose clip replaces the clip of its name (rebuild.h); repeatable");
  verb->add_option("--anim", anim_id, "with one --put: replace the clip this anim id gets instead")
      ->check(CLI::Range(0, kNumAnimIds - 1));
  verb->add_flag("--json", cli.json, "report as JSON");
  verb->callback([&cli] {
    std::vector<uint8_t> bytes;
    const WarriorsFile f = open_file(file, bytes);
    // Every clip re-serialised from its parsed form, then the whole entry.
    WadEntry entry = f.entry;
    std::vector<Resource*> res;
    if (Pack* p = std::get_if<Pack>(&entry.content)) {
      for (Resource& r : p->resources) res.push_back(&r);
    } else {
      res.push_back(&std::get<Resource>(entry.content));
    }
    for (size_t i = 0; i < res.size(); ++i) {
      for (const ClipEntry& c : f.sets[i].clips) {
        res[i]->chunks[c.keyframes_chunk].data = keyframes_chunk(c.clip, 0).data;
        res[i]->chunks[c.descriptor_chunk].data = descriptor_chunk(c.clip, 0).data;
      }
    }
    if (anim_id >= 0 && puts.size() != 1) {
      throw CLI::ValidationError("--anim", "takes exactly one --put");
    }
    Json placed = Json::array();
    for (const std::string& put : puts) {
      std::vector<uint8_t> anm_bytes;
      const WarriorsFile anm = open_file(put, anm_bytes);
      if (anm.kind != FileKind::kAnm) throw Error(fmt::format("{}: not an .anm resource", put));
      std::vector<ClipPlacement> where;
      try {
        where = put_clip(entry, anm.sets[0].clips[0].clip,
                         anim_id >= 0 ? std::optional<int>(anim_id) : std::nullopt);
      } catch (const Error& e) {
        throw e.with_file(file);
      }
      for (const ClipPlacement& p : where) {
        placed.push_back(Json{{"put", put}, {"resource", p.resource},
                              {"keyframes_chunk", p.keyframes_chunk},
                              {"descriptor_chunk", p.descriptor_chunk},
                              {"replaced", p.replaced}, {"changed", p.changed}});
        if (!cli.json) {
          cli.out << fmt::format("{}: resource {} chunks {} + {} ('{}'){}\n", put, p.resource,
                                 p.keyframes_chunk, p.descriptor_chunk,
                                 printable(p.replaced, Keep::kAscii),
                                 p.changed ? "" : ", unchanged");
        }
      }
    }
    const std::vector<uint8_t> out = write_entry(entry);
    write_file(out_path, out);
    const bool same = out == bytes;
    if (cli.json) {
      Json j{{"output", out_path}, {"bytes", out.size()}, {"identical", same}};
      if (!puts.empty()) j["placed"] = std::move(placed);
      cli.out << dump_json(j) << "\n";
    } else {
      cli.out << fmt::format("{}: {} bytes, {}\n", out_path, out.size(),
                             same ? "identical to the input" : "DIFFERS from the input");
    }
    // Without --put the rebuild is a check: exit 1 unless identical.
    if (!same && puts.empty()) cli.fail(file, "the rebuilt file differs from the input");
  });
}

void add_clip_length(CLI::App& group, Cli& cli) {
  auto* verb =
      group.add_subcommand("clip-length", "updates a clip that hands over plays (the end rule)");
  static int frames = 0;
  static float rate = 1.0f, dt = 0.033333335f;
  verb->add_option("--frames", frames, "the clip's frame count F")
      ->required()
      ->check(CLI::NonNegativeNumber);
  verb->add_option("--rate", rate, "the playback rate")->check(CLI::NonNegativeNumber);  // finite: check_numbers
  verb->add_option("--dt", dt, "the update's dt (default 1/30 as a float)")
      ->check(CLI::NonNegativeNumber);  // finite: check_numbers
  verb->add_flag("--json", cli.json, "report as JSON");
  verb->callback([&cli] {
    const ClipLength n = clip_length(static_cast<float>(frames) / 30.0f, rate, dt);
    using End = ClipLength::End;
    // Why it never ends, when it does not (warriors.txt, "When a clip ends").
    std::string why;
    switch (n.end) {
      case End::kEnds:
        break;
      case End::kRateZero:
        why = dt > 0 ? "never ends (rate 0)" : "never ends (dt 0)";
        break;
      case End::kZeroOvershoot:
        why = "never ends (overshoot exactly 0.0)";
        break;
      case End::kTimeStalls:
        why = fmt::format("never ends (the float32 time stops growing at {} s)", n.stall_time);
        break;
      case End::kCap:
        why = fmt::format("more than {} updates (the iteration cap)", n.updates);
        break;
    }
    if (cli.json) {
      Json j{{"frames", frames}, {"rate", json_float(rate)}};
      j["updates"] = n.end == End::kEnds ? Json(n.updates) : Json(nullptr);
      j["never_ends"] = n.end != End::kEnds && n.end != End::kCap;
      if (n.end != End::kEnds) {
        static constexpr const char* kReason[] = {"", "rate_zero", "zero_overshoot", "time_stalls",
                                                  "iteration_cap"};
        j["reason"] = kReason[static_cast<int>(n.end)];
        j["message"] = why;
      }
      cli.out << dump_json(j) << "\n";
    } else if (n.end != End::kEnds) {
      cli.out << fmt::format("{} frames at {}: {}\n", frames, rate, why);
    } else {
      cli.out << fmt::format("{} frames at {}: {} updates\n", frames, rate, n.updates);
    }
  });
}

// `warriors pose SCENARIO --update K -o pose.glb`: the pose a scenario gives at update K.
void add_pose(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("pose", "write the pose of one update of a scenario as glTF");
  static ScenarioPoseArgs args;
  static bool force = false;
  add_scenario_pose_options(*verb, args, "warriors");
  verb->add_flag("--force", force, "play clips that have error findings");
  verb->add_flag("--json", cli.json, "report as JSON, with the pose");
  verb->callback([&cli] {
    PlayOptions options;
    options.force = force;
    Json pose;
    write_scenario_pose(args, [&](const Json& scenario, const std::filesystem::path& dir) {
      std::optional<Animated> posed;
      run_scenario(scenario, dir, options, [&](int k, const CharacterInstance& inst) {
        if (k < args.update) return true;
        posed = pose_to_neutral(inst, fmt::format("update {}", k));
        pose = pose_json(inst);
        return false;
      });
      return posed;
    });
    if (cli.json) {
      cli.out << dump_json(Json{{"update", args.update}, {"output", args.out_path}, {"pose", pose}})
              << "\n";
    } else {
      cli.out << fmt::format("{}: the pose at update {} (34 joints)\n", args.out_path, args.update);
    }
  });
}

void add_crc(CLI::App& group, Cli& cli) {
  auto* verb = group.add_subcommand("crc32", "the CRC-32 the tools named things by");
  static std::vector<std::string> names;
  verb->add_option("names", names, "names, e.g. walk.anm walk.anm.b.cnk")->required();
  verb->add_flag("--json", cli.json, "report as JSON");
  verb->callback([&cli] {
    Json j = Json::object();
    for (const std::string& n : names) {
      j[n] = fmt::format("{:#010x}", crc32(n));
      if (!cli.json) cli.out << fmt::format("{:#010x} {}\n", crc32(n), n);
    }
    if (cli.json) cli.out << dump_json(j) << "\n";
  });
}
}  // namespace

void add_warriors_verbs(CLI::App& app, Cli& cli) {
  auto* group = app.add_subcommand("warriors", "The Warriors (PS2): sample, list, extract, ...");
  group->require_subcommand(1);
  add_sample(*group, cli);
  add_list(*group, cli);
  add_extract(*group, cli);
  add_rebuild(*group, cli);
  add_clip_length(*group, cli);
  add_pose(*group, cli);
  add_crc(*group, cli);
}

}  // namespace animkit::cli
