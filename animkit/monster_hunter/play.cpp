#include "animkit/monster_hunter/play.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "animkit/core/json_text.h"
#include "animkit/core/limits.h"
#include "animkit/monster_hunter/document.h"
#include "animkit/monster_hunter/entries.h"

namespace animkit::monster_hunter {

namespace {

std::string path_of(const Json& scenario, const char* key, const std::filesystem::path& base) {
  if (!scenario.contains(key) || !scenario[key].is_string()) {
    throw Error(fmt::format("scenario: \"{}\" must name a file", key));
  }
  const std::filesystem::path p = scenario[key].get<std::string>();
  return (p.is_absolute() ? p : base / p).string();
}

int int_of(const Json& j, const char* what) {
  if (!j.is_number_integer()) throw Error(fmt::format("scenario: {} must be an integer", what));
  return j.get<int>();
}

}  // namespace

int play(const Json& scenario, const std::filesystem::path& base, const PlayOptions& options,
         std::ostream& out) {
  DocumentOptions o;
  if (scenario.contains("game")) o.game = parse_game(scenario["game"].get<std::string>());
  if (scenario.contains("em")) o.em = int_of(scenario["em"], "\"em\"");
  const float speed = scenario.contains("speed") && scenario["speed"].is_number()
                          ? scenario["speed"].get<float>()
                          : 1.f;
  const Skeleton skeleton = load_skeleton(path_of(scenario, "skeleton", base));
  const AnimPack pack = load_pack(path_of(scenario, "pack", base), o.game);
  std::vector<int> joints;
  if (scenario.contains("joints")) {
    for (const Json& j : scenario["joints"]) {
      const int v = int_of(j, "a joint");
      if (v < 0 || static_cast<size_t>(v) >= skeleton.bones.size()) {
        throw Error(
            fmt::format("scenario: joint {} outside the {} bones", v, skeleton.bones.size()));
      }
      joints.push_back(v);
    }
  }
  if (!scenario.contains("steps") || !scenario["steps"].is_array()) {
    throw Error("scenario: \"steps\" must be an array");
  }
  const size_t n = skeleton.bones.size();
  std::vector<JointPose> local(n);
  std::vector<Mat4> world(n);
  const bool mhfu = pack.game == Game::kMhfu;
  EntryPlayer player(pack, skeleton, o.em ? known_entries(*o.em) : std::nullopt);
  const Rig rig = make_rig(skeleton);
  // The whole play's work (issue 19, issues 27 and 30), before it runs: every advanced frame traces each part (MHFU)
  // or the clip (MHP3rd) and poses every bone.
  // Every step traces at least once too (issue 30: 300,000 "play" steps of no frames ran 20 s).
  uint64_t frames_asked = 0;
  for (const Json& step : scenario["steps"]) {
    frames_asked = add_play_steps(frames_asked, 1);
    if (step.is_object() && step.contains("advance") && step["advance"].is_number_integer())
      frames_asked = add_play_steps(frames_asked, std::max<int64_t>(0, step["advance"].get<int64_t>()));
  }
  const uint64_t traced = mhfu ? std::max<size_t>(1, player.parts().size()) : 1;
  check_play_steps(play_steps(frames_asked, play_steps_per_update(traced, n)),
                   "scenario: the steps and their \"advance\" frames");
  Playable clip;  // MHP3rd
  bool has_clip = false;
  float clip_phase = 0;
  PoseCursor cursor;
  int frame = 0;
  auto trace = [&](const std::string& event) {
    Json line = {{"frame", frame}};
    if (!event.empty()) line["event"] = event;
    if (mhfu) {
      player.pose(local, world);
      Json parts = Json::array();
      for (int p : player.parts()) {
        const auto cur = player.current(p);
        parts.push_back({{"part", p},
                         {"stream", cur ? Json(cur->stream) : Json(nullptr)},
                         {"slot", cur ? Json(cur->slot) : Json(nullptr)},
                         {"phase", json_float(player.phase(p))}});
      }
      line["parts"] = parts;
    } else {
      PoseJob{&rig,
              has_clip ? &clip.motion : nullptr,
              has_clip ? clip_frame(clip.motion, clip_phase) : 0,
              &cursor,
              local,
              world}
          .run();
      line["clip"] = has_clip ? Json(clip.id) : Json(nullptr);
      line["phase"] = json_float(clip_phase);
    }
    Json pos = Json::object();
    for (int j : joints) {
      const Vec3 t = world[j].translation();
      pos[std::to_string(j)] = {json_float(t.x), json_float(t.y), json_float(t.z)};
    }
    if (!joints.empty()) line["positions"] = pos;
    if (options.json) {
      out << dump_json(std::move(line)) << "\n";
    } else {
      out << to_text(line);
    }
  };
  for (const Json& step : scenario["steps"]) {
    if (step.contains("play")) {
      const int id = int_of(step["play"], "\"play\"");
      if (mhfu) {
        std::vector<int> parts;
        if (step.contains("parts"))
          for (const Json& p : step["parts"]) parts.push_back(int_of(p, "a part"));
        player.play(id, parts);
      } else {
        clip = mhp3rd_clip(skeleton, pack, id, o);
        has_clip = true;
        clip_phase = 0;
      }
      trace(fmt::format("play {}", id));
    } else if (step.contains("advance")) {
      const int frames = int_of(step["advance"], "\"advance\"");
      for (int f = 0; f < frames; ++f) {
        ++frame;
        player.advance(speed);
        clip_phase += speed;
        trace({});
      }
    } else {
      throw Error("scenario: a step is {\"play\": id} or {\"advance\": frames}");
    }
  }
  return 0;
}

}  // namespace animkit::monster_hunter
