#include "animkit/asherons_call/animation.h"

#include <fmt/format.h>

#include <bit>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/json_helpers.h"
#include "animkit/core/limits.h"
#include "animkit/core/writer.h"
#include "animkit/core/work_budget.h"

namespace animkit::asherons_call {

namespace {

enum class Kind : uint8_t { kU32, kF32, kFrame, kU16, kPacked };

struct Field {
  const char* name;
  Kind kind;
};

struct HookSchema {
  const char* name;
  std::vector<Field> fields;
};

// dat page, "Hooks": the payload of each type (field names ours).
const std::vector<HookSchema>& schemas() {
  using K = Kind;
  static const std::vector<HookSchema> s = {
      {"", {}},
      {"Sound", {{"sound_id", K::kU32}}},
      {"SoundTable", {{"sound_type", K::kU32}}},
      {"Attack",
       {{"part_index", K::kU32},
        {"left_x", K::kF32},
        {"left_y", K::kF32},
        {"right_x", K::kF32},
        {"right_y", K::kF32},
        {"radius", K::kF32},
        {"height", K::kF32}}},
      {"AnimationDone", {}},
      {"ReplaceObject", {{"part_index", K::kU16}, {"object", K::kPacked}}},
      {"Ethereal", {{"ethereal", K::kU32}}},
      {"TransparentPart",
       {{"part_index", K::kU32}, {"start", K::kF32}, {"end", K::kF32}, {"time", K::kF32}}},
      {"Luminous", {{"start", K::kF32}, {"end", K::kF32}, {"time", K::kF32}}},
      {"LuminousPart",
       {{"part_index", K::kU32}, {"start", K::kF32}, {"end", K::kF32}, {"time", K::kF32}}},
      {"Diffuse", {{"start", K::kF32}, {"end", K::kF32}, {"time", K::kF32}}},
      {"DiffusePart",
       {{"part_index", K::kU32}, {"start", K::kF32}, {"end", K::kF32}, {"time", K::kF32}}},
      {"Scale", {{"end", K::kF32}, {"time", K::kF32}}},
      {"CreateParticle",
       {{"emitter_info_id", K::kU32},
        {"part_index", K::kU32},
        {"offset", K::kFrame},
        {"emitter_id", K::kU32}}},
      {"DestroyParticle", {{"emitter_id", K::kU32}}},
      {"StopParticle", {{"emitter_id", K::kU32}}},
      {"NoDraw", {{"no_draw", K::kU32}}},
      {"DefaultScript", {}},
      {"DefaultScriptPart", {{"part_index", K::kU32}}},
      {"CallPES", {{"pes", K::kU32}, {"pause", K::kF32}}},
      {"Transparent", {{"start", K::kF32}, {"end", K::kF32}, {"time", K::kF32}}},
      {"SoundTweaked",
       {{"sound_id", K::kU32},
        {"priority", K::kF32},
        {"probability", K::kF32},
        {"volume", K::kF32}}},
      {"SetOmega", {{"x", K::kF32}, {"y", K::kF32}, {"z", K::kF32}}},
      {"TextureVelocity", {{"u_speed", K::kF32}, {"v_speed", K::kF32}}},
      {"TextureVelocityPart",
       {{"part_index", K::kU32}, {"u_speed", K::kF32}, {"v_speed", K::kF32}}},
      {"SetLight", {{"lights_on", K::kU32}}},
      {"CreateBlockingParticle", {}},
  };
  return s;
}

const HookSchema* schema(uint32_t type) {
  return type >= 1 && type < schemas().size() ? &schemas()[type] : nullptr;
}

}  // namespace

AFrame read_frame(Reader& r) {
  AFrame f;
  f.origin.x = r.f32();
  f.origin.y = r.f32();
  f.origin.z = r.f32();
  f.orientation.w = r.f32();  // dat page: stored w, x, y, z
  f.orientation.x = r.f32();
  f.orientation.y = r.f32();
  f.orientation.z = r.f32();
  return f;
}

void write_frame(Writer& w, const AFrame& f) {
  w.f32(f.origin.x);
  w.f32(f.origin.y);
  w.f32(f.origin.z);
  w.f32(f.orientation.w);
  w.f32(f.orientation.x);
  w.f32(f.orientation.y);
  w.f32(f.orientation.z);
}

namespace {

AnimHook read_hook(Reader& r) {
  AnimHook h;
  const uint64_t at = r.offset();
  h.type = r.u32();
  const HookSchema* s = schema(h.type);
  if (!s) throw Error(fmt::format("unknown hook type {}", h.type), at);
  h.direction = r.i32();
  for (const Field& f : s->fields) {
    switch (f.kind) {
      case Kind::kU32:
      case Kind::kF32:
        h.words.push_back(r.u32());
        break;
      case Kind::kFrame:
        for (int i = 0; i < 7; ++i) h.words.push_back(r.u32());
        break;
      case Kind::kU16:
        h.words.push_back(r.u16());
        break;
      case Kind::kPacked: {
        const uint16_t a = r.u16();
        h.words.push_back(a);
        if (a & 0x8000u) h.words.push_back(r.u16());
        break;
      }
    }
  }
  return h;
}

// The number of words a hook's fields take (ReplaceObject: 2 or 3).
size_t expected_words(const AnimHook& h, const HookSchema& s) {
  size_t n = 0;
  for (const Field& f : s.fields) {
    if (f.kind == Kind::kFrame) {
      n += 7;
    } else if (f.kind == Kind::kPacked) {
      n += (h.words.size() > n && (h.words[n] & 0x8000u)) ? 2 : 1;
    } else {
      n += 1;
    }
  }
  return n;
}

void write_hook(Writer& w, const AnimHook& h) {
  const HookSchema* s = schema(h.type);
  if (!s) throw Error(fmt::format("unknown hook type {}", h.type));
  if (h.words.size() != expected_words(h, *s)) {
    throw Error(fmt::format("hook {}: {} payload words, expected {}", s->name, h.words.size(),
                            expected_words(h, *s)));
  }
  w.u32(h.type);
  w.i32(h.direction);
  size_t i = 0;
  for (const Field& f : s->fields) {
    switch (f.kind) {
      case Kind::kU32:
      case Kind::kF32:
        w.u32(h.words[i++]);
        break;
      case Kind::kFrame:
        for (int k = 0; k < 7; ++k) w.u32(h.words[i++]);
        break;
      case Kind::kU16:
        w.u16(static_cast<uint16_t>(h.words[i++]));
        break;
      case Kind::kPacked: {
        const uint32_t a = h.words[i++];
        w.u16(static_cast<uint16_t>(a));
        if (a & 0x8000u) w.u16(static_cast<uint16_t>(h.words[i++]));
        break;
      }
    }
  }
}

}  // namespace

std::string_view hook_type_name(uint32_t type) {
  const HookSchema* s = schema(type);
  return s ? std::string_view(s->name) : std::string_view();
}

uint32_t replace_object_id(const AnimHook& h) {
  if (h.type != 5 || h.words.size() < 2) return 0;
  const uint32_t a = h.words[1];
  if (a & 0x8000u) {
    const uint32_t b = h.words.size() > 2 ? h.words[2] : 0;
    return 0x01000000u + (((a & 0x3FFFu) << 16) | b);  // dat page, hook 5
  }
  return 0x01000000u + a;
}

AnimationFrame read_animation_frame(Reader& r, uint32_t num_parts) {
  AnimationFrame fr;
  if (!fits(num_parts, 28, r.remaining())) {
    r.fail(fmt::format("{} part frames need {} x 28 bytes, {} left", num_parts, num_parts,
                       r.remaining()));
  }
  fr.parts.resize(num_parts);
  for (AFrame& f : fr.parts) f = read_frame(r);
  const uint64_t hat = r.offset();
  const uint32_t nh = r.u32();
  if (nh > r.remaining() / 8) {
    throw Error(fmt::format("{} hooks need at least {} bytes, {} left", nh, uint64_t{nh} * 8,
                            r.remaining()),
                hat);
  }
  fr.hooks.reserve(nh);
  for (uint32_t i = 0; i < nh; ++i) fr.hooks.push_back(read_hook(r));
  return fr;
}

void write_animation_frame(Writer& w, const AnimationFrame& fr) {
  for (const AFrame& f : fr.parts) write_frame(w, f);
  w.u32(static_cast<uint32_t>(fr.hooks.size()));
  for (const AnimHook& h : fr.hooks) write_hook(w, h);
}

Animation read_animation(Bytes bytes) {
  Reader r(bytes);
  Animation a;
  a.id = r.u32();
  a.flags = r.u32();
  a.num_parts = r.u32();
  const uint64_t at = r.offset();
  const uint32_t num_frames = r.u32();
  // Each frame takes at least num_parts x 28 bytes + a u32 hook count (and a pos frame).
  const uint64_t per_frame = uint64_t{a.num_parts} * 28 + 4 + (a.has_pos_frames() ? 28 : 0);
  // fits(): the product is checked without overflow (2^29 frames x 2^35 bytes wraps to 0).
  if (!fits(num_frames, per_frame, r.remaining())) {
    throw Error(fmt::format("{} frames of {} parts need at least {} x {} bytes, {} left",
                            num_frames, a.num_parts, num_frames, per_frame, r.remaining()),
                at);
  }
  // issue 30: the run's work, one key per part per frame (checked to fit above).
  charge_work(Work::kKey, uint64_t{num_frames} * (uint64_t{a.num_parts} + 1), "asherons_call: animation frames");
  if (a.has_pos_frames()) {
    a.pos_frames.resize(num_frames);
    for (AFrame& f : a.pos_frames) f = read_frame(r);
  }
  a.frames.resize(num_frames);
  for (AnimationFrame& fr : a.frames) fr = read_animation_frame(r, a.num_parts);
  const Bytes rest = r.bytes(r.remaining());
  a.tail.assign(rest.begin(), rest.end());
  return a;
}

std::vector<uint8_t> write_animation(const Animation& a) {
  if (a.has_pos_frames() && a.pos_frames.size() != a.frames.size()) {
    throw Error(fmt::format("animation: {} pos_frames for {} frames", a.pos_frames.size(),
                            a.frames.size()));
  }
  Writer w;
  w.u32(a.id);
  w.u32(a.flags);
  w.u32(a.num_parts);
  w.u32(static_cast<uint32_t>(a.frames.size()));
  if (a.has_pos_frames()) {
    for (const AFrame& f : a.pos_frames) write_frame(w, f);
  }
  for (const AnimationFrame& fr : a.frames) {
    if (fr.parts.size() != a.num_parts) {
      throw Error(fmt::format("animation: a frame has {} parts, num_parts is {}", fr.parts.size(),
                              a.num_parts));
    }
    write_animation_frame(w, fr);
  }
  w.bytes(a.tail);
  return w.take();
}

bool looks_like_animation(Bytes head, bool whole) {
  if (head.size() < 16) return false;
  Reader r(head);
  const uint32_t id = r.u32(), flags = r.u32(), parts = r.u32(), frames = r.u32();
  if ((id & 0xFFFF0000u) != 0x03000000u || flags > 0xFF || parts > 0x10000) return false;
  if (whole && head.size() < 65536) {
    const uint64_t per_frame = uint64_t{parts} * 28 + 4 + ((flags & 1) ? 28 : 0);
    if (!fits(frames, per_frame, head.size() - 16)) return false;
  }
  return true;
}

// ---- JSON form ------------------------------------------------------------------------------

Json to_json(const AFrame& f) {
  return Json{
      {"origin", to_json(f.origin)},
      {"orientation", Json::array({json_float(f.orientation.w), json_float(f.orientation.x),
                                   json_float(f.orientation.y), json_float(f.orientation.z)})}};
}

AFrame frame_from_json(const Json& j) {
  AFrame f;
  f.origin = vec3_from_json(member(j, "origin"), "origin");
  const Json& o = member(j, "orientation");
  if (!o.is_array() || o.size() != 4) throw Error("orientation: expected [w, x, y, z]");
  f.orientation = {float_from_json(o[1], "orientation"), float_from_json(o[2], "orientation"),
                   float_from_json(o[3], "orientation"), float_from_json(o[0], "orientation")};
  return f;
}

Json to_json(const AnimHook& h) {
  const HookSchema* s = schema(h.type);
  Json j{{"type", s ? Json(s->name) : Json(h.type)}, {"direction", h.direction}};
  if (!s) return j;
  size_t i = 0;
  auto word = [&]() { return i < h.words.size() ? h.words[i++] : 0u; };
  for (const Field& f : s->fields) {
    switch (f.kind) {
      case Kind::kU32:
      case Kind::kU16:
        j[f.name] = word();
        break;
      case Kind::kF32:
        j[f.name] = json_float(std::bit_cast<float>(word()));
        break;
      case Kind::kFrame: {
        float v[7];
        for (float& x : v) x = std::bit_cast<float>(word());
        j[f.name] = to_json(AFrame{{v[0], v[1], v[2]}, {v[4], v[5], v[6], v[3]}});
        break;
      }
      case Kind::kPacked: {
        Json packed = Json::array();
        const uint32_t a = word();
        packed.push_back(a);
        if (a & 0x8000u) packed.push_back(word());
        j["object_id"] = hex32(replace_object_id(h));
        j["packed"] = std::move(packed);
        break;
      }
    }
  }
  return j;
}

AnimHook hook_from_json(const Json& j) {
  AnimHook h;
  const Json& t = member(j, "type");
  if (t.is_string()) {
    h.type = 0;
    for (uint32_t k = 1; k < schemas().size(); ++k) {
      if (t.get<std::string>() == schemas()[k].name) h.type = k;
    }
    if (h.type == 0) throw Error(fmt::format("unknown hook type '{}'", t.get<std::string>()));
  } else {
    h.type = static_cast<uint32_t>(int_from_json(t, "hook type", 0, UINT32_MAX));
  }
  const HookSchema* s = schema(h.type);
  if (!s) throw Error(fmt::format("unknown hook type {}", h.type));
  h.direction = static_cast<int32_t>(
      int_from_json(j.value("direction", Json(0)), "direction", INT32_MIN, INT32_MAX));
  for (const Field& f : s->fields) {
    switch (f.kind) {
      case Kind::kU32:
        h.words.push_back(
            static_cast<uint32_t>(int_from_json(j.value(f.name, Json(0)), f.name, 0, UINT32_MAX)));
        break;
      case Kind::kU16:
        h.words.push_back(
            static_cast<uint32_t>(int_from_json(j.value(f.name, Json(0)), f.name, 0, 0xFFFF)));
        break;
      case Kind::kF32:
        h.words.push_back(
            std::bit_cast<uint32_t>(float_from_json(j.value(f.name, Json(0.0)), f.name)));
        break;
      case Kind::kFrame: {
        const AFrame fr = j.contains(f.name) ? frame_from_json(j[f.name]) : AFrame{};
        for (float v : {fr.origin.x, fr.origin.y, fr.origin.z, fr.orientation.w, fr.orientation.x,
                        fr.orientation.y, fr.orientation.z}) {
          h.words.push_back(std::bit_cast<uint32_t>(v));
        }
        break;
      }
      case Kind::kPacked: {
        if (auto it = j.find("packed"); it != j.end()) {
          if (!it->is_array() || it->empty() || it->size() > 2)
            throw Error("packed: expected [a] or [a, b]");
          const uint32_t a = static_cast<uint32_t>(int_from_json((*it)[0], "packed", 0, 0xFFFF));
          h.words.push_back(a);
          if (a & 0x8000u) {
            if (it->size() != 2) throw Error("packed: a & 0x8000 needs [a, b]");
            h.words.push_back(static_cast<uint32_t>(int_from_json((*it)[1], "packed", 0, 0xFFFF)));
          }
        } else {
          const uint32_t id = u32_from_json(member(j, "object_id"), "object_id");
          const uint32_t rel = id - 0x01000000u;
          if (id < 0x01000000u || rel > 0x3FFFFFFFu) throw Error("object_id: not packable");
          if (rel < 0x8000u) {
            h.words.push_back(rel);
          } else {
            h.words.push_back(0x8000u | (rel >> 16));
            h.words.push_back(rel & 0xFFFFu);
          }
        }
        break;
      }
    }
  }
  return h;
}

Json to_json(const Animation& a) {
  Json j{{"asherons_call", "animation"},
         {"id", hex32(a.id)},
         {"flags", a.flags},
         {"num_parts", a.num_parts},
         {"num_frames", a.frames.size()}};
  if (a.has_pos_frames()) {
    Json p = Json::array();
    for (const AFrame& f : a.pos_frames) p.push_back(to_json(f));
    j["pos_frames"] = std::move(p);
  }
  Json frames = Json::array();
  for (const AnimationFrame& fr : a.frames) {
    Json parts = Json::array(), hooks = Json::array();
    for (const AFrame& f : fr.parts) parts.push_back(to_json(f));
    for (const AnimHook& h : fr.hooks) hooks.push_back(to_json(h));
    frames.push_back(Json{{"parts", std::move(parts)}, {"hooks", std::move(hooks)}});
  }
  j["frames"] = std::move(frames);
  if (!a.tail.empty()) j["tail"] = a.tail;
  return j;
}

Animation animation_from_json(const Json& j) {
  if (!j.is_object() || j.value("asherons_call", std::string()) != "animation") {
    throw Error("not an animation: expected {\"asherons_call\": \"animation\", ...}");
  }
  Animation a;
  a.id = u32_from_json(j.value("id", Json("0x03000000")), "id");
  const bool has_pos = j.contains("pos_frames");
  a.flags = j.contains("flags")
                ? static_cast<uint32_t>(int_from_json(j["flags"], "flags", 0, UINT32_MAX))
                : (has_pos ? kHasPosFrames : 0u);
  const Json& frames = member(j, "frames");
  if (!frames.is_array()) throw Error("frames: expected an array");
  for (const Json& fr : frames) {
    AnimationFrame af;
    for (const Json& p : member(fr, "parts")) af.parts.push_back(frame_from_json(p));
    for (const Json& h : fr.value("hooks", Json::array())) af.hooks.push_back(hook_from_json(h));
    a.frames.push_back(std::move(af));
  }
  a.num_parts =
      j.contains("num_parts")
          ? static_cast<uint32_t>(int_from_json(j["num_parts"], "num_parts", 0, UINT32_MAX))
          : (a.frames.empty() ? 0u : static_cast<uint32_t>(a.frames[0].parts.size()));
  for (const AnimationFrame& af : a.frames) {
    if (af.parts.size() != a.num_parts) {
      throw Error(
          fmt::format("a frame has {} parts, num_parts is {}", af.parts.size(), a.num_parts));
    }
  }
  if (a.has_pos_frames()) {
    for (const Json& p : j.value("pos_frames", Json::array()))
      a.pos_frames.push_back(frame_from_json(p));
    if (a.pos_frames.size() != a.frames.size()) {
      throw Error(fmt::format("{} pos_frames for {} frames", a.pos_frames.size(), a.frames.size()));
    }
  }
  if (auto it = j.find("tail"); it != j.end()) {
    for (const Json& b : *it)
      a.tail.push_back(static_cast<uint8_t>(int_from_json(b, "tail", 0, 255)));
  }
  return a;
}

}  // namespace animkit::asherons_call
