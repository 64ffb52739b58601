#include "animkit/warriors/clip.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "animkit/core/json_text.h"
#include "animkit/core/json_util.h"
#include "animkit/core/text.h"
#include "animkit/core/work_budget.h"

namespace animkit::warriors {

// Names are ASCII fields of a PS2 game: for messages and text output, core printable with ASCII
// kept (issue 16 item 5); JSON writers give name_bytes() through the core rule (json_text.h).
std::string Descriptor::name_text() const {
  const std::string raw = name_bytes();
  return printable(raw, Keep::kAscii);
}

std::string Descriptor::name_bytes() const {
  size_t n = 0;
  while (n < name.size() && name[n] != 0) ++n;
  return std::string(reinterpret_cast<const char*>(name.data()), n);
}

void Descriptor::set_name(std::string_view text) {
  name.fill(0);
  std::memcpy(name.data(), text.data(), std::min(text.size(), name.size()));
}

int Descriptor::mask_bit_count() const {
  int n = 0;
  for (uint8_t b : bone_mask) n += std::popcount(b);
  return n;
}

Vec3 decode_position(const Key& k) {
  return {decode_position(k.x, 0), decode_position(k.y, 1), decode_position(k.z, 2)};
}

// warriors.txt "Decoding": x, y, z * 2^-15 (0x38000100 in the code), w rebuilt, never negative.
Quat decode_rotation(int16_t x, int16_t y, int16_t z) {
  constexpr float kScale = 1.0f / 32768.0f;
  Quat q{x * kScale, y * kScale, z * kScale, 0};
  const float s = 1.0f - q.x * q.x - q.y * q.y - q.z * q.z;
  q.w = s > 0 ? std::sqrt(s) : 0.0f;
  return q;
}

namespace {
int16_t clamp16(float v) {
  if (!(v == v)) return 0;
  const float r = std::round(v);
  if (r > 32767.f) return 32767;
  if (r < -32768.f) return -32768;
  return static_cast<int16_t>(r);
}
}  // namespace

int16_t encode_position(float v, int axis) { return clamp16(v * (axis == 2 ? 2047.f : 1023.f)); }
int16_t encode_rotation_component(float v) { return clamp16(v * 32768.f); }

// warriors.txt "Descriptor (chunk 0x02, 80 bytes)".
Descriptor read_descriptor(Reader& r) {
  r.need(kDescriptorSize);
  Descriptor d;
  d.vtable = r.u32();
  d.displacement_x = r.f32();
  d.displacement_y = r.f32();
  d.duration = r.f32();
  d.section_a_size = r.u16();
  d.section_b_size = r.u16();
  d.section_c_size = r.u32();
  d.num_channels = r.u16();
  d.num_events = r.u16();
  d.keyframes_pointer = r.u32();
  for (uint8_t& b : d.bone_mask) b = r.u8();
  for (uint8_t& b : d.name) b = r.u8();
  d.reference_count = r.u8();
  d.flags = r.u32();
  for (uint8_t& b : d.tail) b = r.u8();
  return d;
}

void write_descriptor(Writer& w, const Descriptor& d) {
  w.u32(d.vtable);
  w.f32(d.displacement_x);
  w.f32(d.displacement_y);
  w.f32(d.duration);
  w.u16(d.section_a_size);
  w.u16(d.section_b_size);
  w.u32(d.section_c_size);
  w.u16(d.num_channels);
  w.u16(d.num_events);
  w.u32(d.keyframes_pointer);
  w.bytes(d.bone_mask);
  w.bytes(d.name);
  w.u8(d.reference_count);
  w.u32(d.flags);
  w.bytes(d.tail);
}

// warriors.txt "Keyframes": a channel starts with a key whose +0 is 0 and runs until the next.
std::vector<Channel> split_channels(Reader& r, size_t bytes) {
  if (bytes % kKeySize != 0) {
    r.fail(fmt::format("section of {} bytes is not a whole number of 8-byte keys", bytes));
  }
  r.need(bytes);
  charge_work(Work::kKey, bytes / kKeySize, "warriors: keyframes");  // issue 30: the run's work
  std::vector<Channel> channels;
  for (size_t i = 0; i < bytes / kKeySize; ++i) {
    Key k;
    k.delta = r.u8();
    k.unknown = r.u8();
    k.x = r.i16();
    k.y = r.i16();
    k.z = r.i16();
    if (k.delta == 0 || channels.empty()) channels.emplace_back();
    channels.back().keys.push_back(k);
  }
  return channels;
}

Keyframes read_keyframes(Reader& r, const Descriptor& d) {
  const uint64_t need = uint64_t{d.section_a_size} + d.section_b_size + d.section_c_size +
                        uint64_t{d.num_events} * kEventSize;
  if (need > r.remaining()) {
    r.fail(fmt::format(
        "sections A {} + B {} + C {} and {} events need {} bytes, the keyframes "
        "hold {}",
        d.section_a_size, d.section_b_size, d.section_c_size, d.num_events, need, r.remaining()));
  }
  Keyframes k;
  k.section_a = split_channels(r, d.section_a_size);
  k.section_b = split_channels(r, d.section_b_size);
  k.section_c = split_channels(r, d.section_c_size);
  if (d.num_events > 0) charge_work(Work::kEvent, uint64_t(d.num_events), "warriors: clip events");
  k.events.reserve(d.num_events);
  for (int i = 0; i < d.num_events; ++i) {
    AnimEvent e;
    e.frame = r.u16();
    e.type = r.u16();
    e.arg0 = r.u16();
    e.arg1 = r.u16();
    for (int16_t& v : e.position) v = r.i16();
    for (int16_t& v : e.rotation) v = r.i16();
    for (uint8_t& b : e.code) b = r.u8();
    k.events.push_back(e);
  }
  Bytes tail = r.bytes(r.remaining());
  k.tail.assign(tail.begin(), tail.end());
  return k;
}

namespace {
void write_channels(Writer& w, const std::vector<Channel>& channels) {
  for (const Channel& c : channels) {
    for (const Key& k : c.keys) {
      w.u8(k.delta);
      w.u8(k.unknown);
      w.i16(k.x);
      w.i16(k.y);
      w.i16(k.z);
    }
  }
}
}  // namespace

void write_keyframes(Writer& w, const Keyframes& k) {
  write_channels(w, k.section_a);
  write_channels(w, k.section_b);
  write_channels(w, k.section_c);
  for (const AnimEvent& e : k.events) {
    w.u16(e.frame);
    w.u16(e.type);
    w.u16(e.arg0);
    w.u16(e.arg1);
    for (int16_t v : e.position) w.i16(v);
    for (int16_t v : e.rotation) w.i16(v);
    w.bytes(e.code);
  }
  w.bytes(k.tail);
}

size_t section_bytes(const std::vector<Channel>& channels) {
  size_t n = 0;
  for (const Channel& c : channels) n += c.keys.size() * kKeySize;
  return n;
}

void update_descriptor(Descriptor& d, const Keyframes& k) {
  d.section_a_size = static_cast<uint16_t>(section_bytes(k.section_a));
  d.section_b_size = static_cast<uint16_t>(section_bytes(k.section_b));
  d.section_c_size = static_cast<uint32_t>(section_bytes(k.section_c));
  d.num_channels = static_cast<uint16_t>(k.section_c.size());
  d.num_events = static_cast<uint16_t>(k.events.size());
}

std::string event_name(uint16_t type) {
  switch (type) {
    case 0x08:
      return "partner_place";
    case 0x09:
      return "effect_9";
    case 0x0a:
      return "effect_10";
    case 0x0b:
      return "sound";
    case 0x0c:
      return "message_12";
    case 0x20:
      return "camera_shake";
    case 0x21:
      return "named_effect";
    case 0x2c:
      return "held_flags_2c";
    case 0x2d:
      return "held_flags_2d";
    case 0x2e:
      return "slow_motion_on";
    case 0x2f:
      return "slow_motion_off";
    case 0x39:
      return "power_camera_begin";
    case 0x3a:
      return "power_camera_cut";
    case 0x3b:
      return "power_camera_shot";
    case 0x3d:
      return "power_camera_end";
    case 0x48:
      return "held_flags_48";
    default:
      return fmt::format("type_{:#x}", type);
  }
}

namespace {
uint32_t word_at_8(const AnimEvent& e) {
  return uint32_t(uint16_t(e.position[0])) | uint32_t(uint16_t(e.position[1])) << 16;
}
Json position_json(const AnimEvent& e) {
  return Json::array({json_float(decode_position(e.position[0], 0)),
                      json_float(decode_position(e.position[1], 1)),
                      json_float(decode_position(e.position[2], 2))});
}
Json rotation_json(const AnimEvent& e) {
  return to_json(decode_rotation(e.rotation[0], e.rotation[1], e.rotation[2]));
}
}  // namespace

// warriors.txt "Events" and "Event types documented elsewhere".
std::string event_payload_json(const AnimEvent& e) {
  Json j = Json::object();
  switch (e.type) {
    case 0x08:  // the partner's place in a paired clip (x right, y forward)
    case 0x09:
    case 0x0a:  // effects: a transform
    case 0x22:  // also handed to the effects system with its position and rotation (Paired tasks)
      j["position"] = position_json(e);
      j["rotation"] = rotation_json(e);
      break;
    case 0x0b:  // the animation sound id: the word at +8 (+0xa-+0xb 0 for an id)
      j["sound_id"] = word_at_8(e);
      j["is_id"] = e.position[1] == 0;
      break;
    case 0x0c:
      j["value"] = word_at_8(e);
      break;
    case 0x0f:
    case 0x10:
    case 0x13:
      j["arg0"] = e.arg0;
      j["arg1"] = e.arg1;
      break;
    case 0x20:  // camera shake: +0x04 as a 32-bit word, the level
      j["level"] = uint32_t(e.arg0) | uint32_t(e.arg1) << 16;
      break;
    case 0x21: {  // named effect: +0x06 the bone, transform, +0x14 a three-letter code
      size_t n = 0;
      while (n < 3 && e.code[n] != 0) ++n;
      const std::string code(reinterpret_cast<const char*>(e.code.data()), n);
      j["bone"] = static_cast<int16_t>(e.arg1);
      put_text(j, "code", code);  // the core rule, `code_hex` beside (issue 31, item 2)
      put_text(j, "effect", "sub_" + code);
      j["position"] = position_json(e);
      j["rotation"] = rotation_json(e);
      break;
    }
    case 0x39:  // power camera begin: +0x06 s16 mode (1 one shot, else 2 alternating)
      j["mode"] = static_cast<int16_t>(e.arg1);
      break;
    case 0x3a: {  // power camera cut: +0x08 as a float, the field of view
      j["fov"] = json_float(std::bit_cast<float>(word_at_8(e)));
      break;
    }
    case 0x3b:  // power camera shot
      j["check"] = static_cast<int16_t>(e.arg0);
      j["slot"] = static_cast<int16_t>(e.arg1);
      j["position"] = position_json(e);
      j["rotation"] = rotation_json(e);
      break;
    default:
      break;
  }
  return j.dump();
}

}  // namespace animkit::warriors
