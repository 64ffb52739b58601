#include "animkit/asherons_call/motion_table.h"

#include <fmt/format.h>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/json_helpers.h"
#include "animkit/asherons_call/vec3_io.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

namespace {

// dat page, "MotionData": pad to a 4-byte boundary counted from the object's start.
size_t pad_after_header(size_t header_end) { return (4 - header_end % 4) % 4; }

uint32_t read_count(Reader& r, size_t min_entry_size, const char* what) {
  const uint64_t at = r.offset();
  const uint32_t n = r.u32();
  if (min_entry_size != 0 && n > r.remaining() / min_entry_size) {
    throw Error(fmt::format("{} count {} needs at least {} bytes, {} left", what, n,
                            uint64_t{n} * min_entry_size, r.remaining()),
                at);
  }
  return n;
}

MotionData read_motion_data(Reader& r) {
  MotionData md;
  const uint8_t num_anims = r.u8();
  md.bitfield = r.u8();
  md.flags = r.u8();
  const size_t pad = pad_after_header(r.pos());
  for (size_t i = 0; i < pad; ++i) md.pad[i] = r.u8();
  const uint64_t at = r.offset();
  if (size_t{num_anims} * 16 > r.remaining()) {
    throw Error(fmt::format("MotionData: {} AnimData need {} bytes, {} left", num_anims,
                            size_t{num_anims} * 16, r.remaining()),
                at);
  }
  md.anims.resize(num_anims);
  for (AnimData& a : md.anims) {
    a.anim_id = r.u32();
    a.low_frame = r.i32();
    a.high_frame = r.i32();
    a.framerate = r.f32();
  }
  if (md.flags & kHasVelocity) md.velocity = read_vec3(r);
  if (md.flags & kHasOmega) md.omega = read_vec3(r);
  return md;
}

void write_vec3(Writer& w, Vec3 v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

void write_motion_data(Writer& w, const MotionData& md) {
  if (md.anims.size() > 255) {
    throw Error(fmt::format("MotionData: {} anims do not fit the u8 count", md.anims.size()));
  }
  w.u8(static_cast<uint8_t>(md.anims.size()));
  w.u8(md.bitfield);
  w.u8(md.flags);
  const size_t pad = pad_after_header(w.pos());
  for (size_t i = 0; i < pad; ++i) w.u8(md.pad[i]);
  for (const AnimData& a : md.anims) {
    w.u32(a.anim_id);
    w.i32(a.low_frame);
    w.i32(a.high_frame);
    w.f32(a.framerate);
  }
  if (md.flags & kHasVelocity) write_vec3(w, md.velocity);
  if (md.flags & kHasOmega) write_vec3(w, md.omega);
}

std::vector<KeyedMotion> read_keyed(Reader& r, const char* what) {
  const uint32_t n = read_count(r, 7, what);
  std::vector<KeyedMotion> out(n);
  for (KeyedMotion& k : out) {
    k.key = r.u32();
    k.data = read_motion_data(r);
  }
  return out;
}

}  // namespace

MotionTable read_motion_table(Bytes bytes) {
  Reader r(bytes);
  MotionTable t;
  t.id = r.u32();
  t.default_style = r.u32();
  const uint32_t ns = read_count(r, 8, "style_defaults");
  t.style_defaults.resize(ns);
  for (StyleDefault& s : t.style_defaults) {
    s.style = r.u32();
    s.default_substate = r.u32();
  }
  t.cycles = read_keyed(r, "cycles");
  t.modifiers = read_keyed(r, "modifiers");
  const uint32_t nl = read_count(r, 8, "links");
  t.links.resize(nl);
  for (LinkSet& l : t.links) {
    l.key = r.u32();
    const uint32_t m = read_count(r, 7, "link targets");
    l.targets.resize(m);
    for (LinkTarget& lt : l.targets) {
      lt.to_motion = r.u32();
      lt.data = read_motion_data(r);
    }
  }
  const Bytes rest = r.bytes(r.remaining());
  t.tail.assign(rest.begin(), rest.end());
  return t;
}

std::vector<uint8_t> write_motion_table(const MotionTable& t) {
  Writer w;
  w.u32(t.id);
  w.u32(t.default_style);
  w.u32(static_cast<uint32_t>(t.style_defaults.size()));
  for (const StyleDefault& s : t.style_defaults) {
    w.u32(s.style);
    w.u32(s.default_substate);
  }
  for (const auto* list : {&t.cycles, &t.modifiers}) {
    w.u32(static_cast<uint32_t>(list->size()));
    for (const KeyedMotion& k : *list) {
      w.u32(k.key);
      write_motion_data(w, k.data);
    }
  }
  w.u32(static_cast<uint32_t>(t.links.size()));
  for (const LinkSet& l : t.links) {
    w.u32(l.key);
    w.u32(static_cast<uint32_t>(l.targets.size()));
    for (const LinkTarget& lt : l.targets) {
      w.u32(lt.to_motion);
      write_motion_data(w, lt.data);
    }
  }
  w.bytes(t.tail);
  return w.take();
}

bool looks_like_motion_table(Bytes head) {
  if (head.size() < 12) return false;
  Reader r(head);
  const uint32_t id = r.u32();
  const uint32_t default_style = r.u32();
  const uint32_t n = r.u32();
  return (id & 0xFFFF0000u) == 0x09000000u && (default_style & kStyleBit) != 0 &&
         n <= (head.size() - 12) / 8 + 1;
}

// ---- JSON form ------------------------------------------------------------------------------

std::string motion_key_label(uint32_t key) {
  const uint32_t low = key & 0xFFFFu;
  const uint32_t style_low = key >> 16;
  const std::string motion = command_label(command_from_wire(static_cast<uint16_t>(low), 0));
  if (style_low == 0) return motion;
  return command_label(kStyleBit | style_low) + "/" + motion;
}

namespace {

Json vec_json(Vec3 v) { return to_json(v); }

// A key given as "key", or as "style" + the named member (or that member alone).
uint32_t key_from_json(const Json& j, const char* motion_member) {
  if (auto it = j.find("key"); it != j.end()) return u32_from_json(*it, "key");
  const uint32_t motion = u32_from_json(member(j, motion_member), motion_member);
  if (auto it = j.find("style"); it != j.end()) {
    return motion_key(u32_from_json(*it, "style"), motion);
  }
  return motion & 0xFFFFFFu;
}

Json keyed_json(const std::vector<KeyedMotion>& list) {
  Json a = Json::array();
  for (const KeyedMotion& k : list) {
    a.push_back(Json{
        {"key", hex_json(k.key)}, {"label", motion_key_label(k.key)}, {"data", to_json(k.data)}});
  }
  return a;
}

std::vector<KeyedMotion> keyed_from_json(const Json& a, const char* what) {
  if (!a.is_array()) throw Error(fmt::format("\"{}\": expected an array", what));
  std::vector<KeyedMotion> out;
  for (const Json& e : a)
    out.push_back({key_from_json(e, "motion"), motion_data_from_json(member(e, "data"))});
  return out;
}

}  // namespace

Json to_json(const MotionData& md) {
  Json j{{"bitfield", md.bitfield}, {"flags", md.flags}};
  if (md.pad != std::array<uint8_t, 3>{}) j["pad"] = md.pad;
  Json anims = Json::array();
  for (const AnimData& a : md.anims) {
    anims.push_back(Json{{"anim", hex_json(a.anim_id)},
                         {"low", a.low_frame},
                         {"high", a.high_frame},
                         {"framerate", json_float(a.framerate)}});
  }
  j["anims"] = std::move(anims);
  if (md.flags & kHasVelocity) j["velocity"] = vec_json(md.velocity);
  if (md.flags & kHasOmega) j["omega"] = vec_json(md.omega);
  return j;
}

MotionData motion_data_from_json(const Json& j) {
  if (!j.is_object()) throw Error("MotionData: expected an object");
  MotionData md;
  md.bitfield =
      static_cast<uint8_t>(int_from_json(j.value("bitfield", Json(0)), "bitfield", 0, 255));
  const bool has_v = j.contains("velocity"), has_o = j.contains("omega");
  if (auto it = j.find("flags"); it != j.end()) {
    md.flags = static_cast<uint8_t>(int_from_json(*it, "flags", 0, 255));
  } else {
    md.flags = static_cast<uint8_t>((has_v ? kHasVelocity : 0) | (has_o ? kHasOmega : 0));
  }
  if (auto it = j.find("pad"); it != j.end()) {
    if (!it->is_array() || it->size() > 3) throw Error("pad: expected up to 3 bytes");
    for (size_t i = 0; i < it->size(); ++i) {
      md.pad[i] = static_cast<uint8_t>(int_from_json((*it)[i], "pad", 0, 255));
    }
  }
  if (has_v) md.velocity = vec3_from_json(j["velocity"], "velocity");
  if (has_o) md.omega = vec3_from_json(j["omega"], "omega");
  if (auto it = j.find("anims"); it != j.end()) {
    if (!it->is_array() || it->size() > 255) throw Error("anims: expected an array of up to 255");
    for (const Json& a : *it) {
      AnimData d;
      d.anim_id = u32_from_json(member(a, "anim"), "anim");
      d.low_frame =
          static_cast<int32_t>(int_from_json(a.value("low", Json(0)), "low", INT32_MIN, INT32_MAX));
      d.high_frame = static_cast<int32_t>(
          int_from_json(a.value("high", Json(-1)), "high", INT32_MIN, INT32_MAX));
      d.framerate = float_from_json(a.value("framerate", Json(30.0)), "framerate");
      md.anims.push_back(d);
    }
  }
  return md;
}

Json to_json(const MotionTable& t) {
  Json j{{"asherons_call", "motion_table"},
         {"id", hex_json(t.id)},
         {"default_style", command_json(t.default_style)}};
  Json sd = Json::array();
  for (const StyleDefault& s : t.style_defaults) {
    sd.push_back(
        Json{{"style", command_json(s.style)}, {"substate", command_json(s.default_substate)}});
  }
  j["style_defaults"] = std::move(sd);
  j["cycles"] = keyed_json(t.cycles);
  j["modifiers"] = keyed_json(t.modifiers);
  Json links = Json::array();
  for (const LinkSet& l : t.links) {
    Json to = Json::array();
    for (const LinkTarget& lt : l.targets) {
      to.push_back(Json{{"motion", command_json(lt.to_motion)}, {"data", to_json(lt.data)}});
    }
    links.push_back(
        Json{{"key", hex_json(l.key)}, {"label", motion_key_label(l.key)}, {"to", std::move(to)}});
  }
  j["links"] = std::move(links);
  if (!t.tail.empty()) j["tail"] = t.tail;
  return j;
}

MotionTable motion_table_from_json(const Json& j) {
  if (!j.is_object() || j.value("asherons_call", std::string()) != "motion_table") {
    throw Error("not a motion table: expected {\"asherons_call\": \"motion_table\", ...}");
  }
  MotionTable t;
  t.id = u32_from_json(j.value("id", Json("0x09000000")), "id");
  t.default_style = u32_from_json(member(j, "default_style"), "default_style");
  for (const Json& s : j.value("style_defaults", Json::array())) {
    t.style_defaults.push_back({u32_from_json(member(s, "style"), "style"),
                                u32_from_json(member(s, "substate"), "substate")});
  }
  t.cycles = keyed_from_json(j.value("cycles", Json::array()), "cycles");
  t.modifiers = keyed_from_json(j.value("modifiers", Json::array()), "modifiers");
  const Json links = j.value("links", Json::array());
  if (!links.is_array()) throw Error("\"links\": expected an array");
  for (const Json& l : links) {
    LinkSet set;
    set.key = key_from_json(l, "from");
    const Json& to = member(l, "to");
    if (!to.is_array()) throw Error("links \"to\": expected an array");
    for (const Json& e : to) {
      set.targets.push_back(
          {u32_from_json(member(e, "motion"), "motion"), motion_data_from_json(member(e, "data"))});
    }
    t.links.push_back(std::move(set));
  }
  if (auto it = j.find("tail"); it != j.end()) {
    if (!it->is_array()) throw Error("tail: expected an array of bytes");
    for (const Json& b : *it)
      t.tail.push_back(static_cast<uint8_t>(int_from_json(b, "tail", 0, 255)));
  }
  return t;
}

}  // namespace animkit::asherons_call
