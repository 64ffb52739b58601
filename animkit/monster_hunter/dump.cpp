#include "animkit/monster_hunter/dump.h"

#include <fmt/format.h>

#include <cmath>

#include "animkit/core/json_text.h"

namespace animkit::monster_hunter {

Json dump_float(float v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return json_float(v);
}

namespace {
Json floats(const std::array<float, 4>& v) {
  Json a = Json::array();
  for (float f : v) a.push_back(dump_float(f));
  return a;
}
}  // namespace

Json to_json(const Keyframe& k) {
  return {{"value", k.value}, {"frame", k.frame}, {"ease_in", k.ease_in}, {"ease_out", k.ease_out}};
}

Json to_json(const Clip& clip, Game game) {
  Json tracks = Json::array();
  for (const Track& t : clip.tracks) {
    Json channels = Json::array();
    for (const Channel& c : t.channels) {
      Json keys = Json::array();
      for (const Keyframe& k : c.keys) keys.push_back(to_json(k));
      channels.push_back(
          {{"bit", c.bit}, {"channel", channel_name(c.bit)}, {"keys", std::move(keys)}});
    }
    Json jt = Json::object();
    if (game == Game::kMhfu) jt["mask"] = t.mask();  // MHFU's track tag; MHP3rd stores none
    jt["channels"] = std::move(channels);
    tracks.push_back(std::move(jt));
  }
  return {{"loop", clip.loop},
          {"loop_start", dump_float(clip.loop_start)},
          {"frames", frames(clip)},
          {"tracks", std::move(tracks)}};
}

Json to_json(const Skeleton& s) {
  Json bones = Json::array();
  for (const Bone& b : s.bones) {
    Json j = {{"kind", b.kind},
              {"one", b.one},
              {"section_size", b.section_size()},
              {"index", b.index},
              {"parent", b.parent},
              {"first_child", b.first_child},
              {"next_sibling", b.next_sibling},
              {"bind_scale", floats(b.bind_scale)},
              {"bind_rotation", floats(b.bind_rotation)},
              {"bind_position", floats(b.bind_position)},
              {"link", b.link},
              {"stream", b.stream}};
    if (b.name) {
      put_text(j, "name", b.name_bytes());  // the core rule, `name_hex` beside (issue 31)
      j["name_bytes"] = to_hex(*b.name);    // the whole field, leftovers after the NUL too
    } else {
      j["name"] = nullptr;
    }
    bones.push_back(std::move(j));
  }
  return {{"format", "mh-skeleton"},
          {"game", to_string(s.game())},
          {"magic", s.magic},
          {"bone_count", s.bones.size()},
          {"params", s.params},
          {"params_count", s.params_count ? Json(*s.params_count) : Json(nullptr)},
          {"animated", s.animated()},
          {"bones", std::move(bones)},
          {"tail_size", s.tail.size()},
          {"tail", to_hex(s.tail)}};
}

Json to_json(const AnimPack& p) {
  Json streams = Json::array();
  for (const auto& slots : p.streams) {
    Json js = Json::array();
    for (int32_t c : slots) js.push_back(c < 0 ? Json(nullptr) : Json(c));
    streams.push_back({{"slots", std::move(js)}});
  }
  Json clips = Json::array();
  for (const Clip& c : p.clips) clips.push_back(to_json(c, p.game));
  return {{"format", "mh-pack"},       {"game", to_string(p.game)},
          {"reserved", p.reserved},    {"streams", std::move(streams)},
          {"clips", std::move(clips)}, {"tail_size", p.tail.size()},
          {"tail", to_hex(p.tail)}};
}

}  // namespace animkit::monster_hunter
