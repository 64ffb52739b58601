#include "animkit/call_of_duty/xanim_document.h"

#include <fmt/format.h>

#include <cmath>
#include <ostream>
#include <string_view>

#include "animkit/core/error.h"
#include "animkit/core/json_text.h"

namespace animkit::call_of_duty {

namespace {

Json frames_json(const std::vector<uint16_t>& frames) {
  Json j = Json::array();
  for (uint16_t f : frames) j.push_back(f);
  return j;
}

Json rotation_json(const XAnimRotationStream& s) {
  Json keys = Json::array();
  for (const XAnimQuatKey& k : s.keys) keys.push_back(Json::array({k[0], k[1], k[2], k[3]}));
  Json stored = Json::array();
  for (int16_t v : s.stored) stored.push_back(v);
  return Json{{"offset", s.offset},
              {"form", s.two_component ? "2-component" : "full"},
              {"key_count", s.key_count},
              {"frames", frames_json(s.frames)},
              {"stored", std::move(stored)},
              {"keys", std::move(keys)}};
}

Json translation_json(const XAnimTranslationStream& s) {
  Json values = Json::array();
  for (const Vec3& v : s.values) values.push_back(to_json(v));
  return Json{{"offset", s.offset},
              {"key_count", s.key_count},
              {"frames", frames_json(s.frames)},
              {"values", std::move(values)}};
}

Json header_json(const XAnimFile& f) {
  const XAnimHeader& h = f.header;
  Json j{{"version", h.version},
         {"num_frames", h.num_frames},
         {"num_parts", h.num_parts},
         {"flags", h.flags},
         {"looped", h.looped()},
         {"delta", h.has_delta()},
         {"frame_rate", h.frame_rate},
         {"total_frames", h.total_frames()},
         {"frame_count_minus_one", h.frame_count_minus_one()},
         {"index_bytes", h.small_indices() ? 1 : 2},
         {"frequency", json_float(h.frequency())}};
  const auto length = h.length();
  j["length"] = length ? Json(json_float(*length)) : Json(nullptr);
  return j;
}

Json notes_json(const XAnimFile& f) {
  Json j = Json::array();
  for (const XAnimTimedNote& n : xanim_notes(f)) {
    Json e;
    put_text(e, "name", n.name);  // issue 31: any byte out and back
    e["time"] = json_float(n.time);
    e["frame"] = n.frame >= 0 ? Json(n.frame) : Json(nullptr);
    j.push_back(std::move(e));
  }
  return j;
}

// Seconds of a frame: frame / frameRate (frames at 30 per second when the rate is 0).
float frame_seconds(const XAnimFile& f, uint32_t frame) {
  const float rate = f.header.frame_rate != 0 ? static_cast<float>(f.header.frame_rate) : 30.0f;
  return static_cast<float>(frame) / rate;
}

// The frame of each key of a stream: the index list, else key k = frame k (dense or constant).
uint32_t key_frame(const std::vector<uint16_t>& frames, size_t k) {
  return frames.empty() ? static_cast<uint32_t>(k) : frames[k];
}

// The normalised time of a clip time in seconds, as the player advances it (§2.4).
float normalised(const XAnimFile& f, float seconds) {
  float t = seconds * f.header.frequency();
  if (t >= 1.0f) t = f.header.looped() ? t - std::floor(t) : 1.0f;
  return std::max(0.0f, t);
}

class XAnimDocument : public Document {
 public:
  XAnimDocument(std::string file, XAnimFile x) : file_(std::move(file)), x_(std::move(x)) {}

  Json info() const override {
    size_t keys = 0;
    for (const XAnimPart& p : x_.parts) keys += p.rotation.key_count + p.translation.key_count;
    Json j{{"format", "cod-xanim"}, {"engine", "call_of_duty"}, {"file", json_text(file_)}};
    put_text(j, "name", x_.name);
    const Json header = header_json(x_);
    for (const auto& [k, v] : header.items()) j[k] = v;
    j["parts"] = x_.parts.size();
    j["keys"] = keys;
    j["notetracks"] = x_.notes.size();
    j["tail_bytes"] = x_.tail.size();
    return j;
  }

  Json part_json(size_t i) const {
    const XAnimPart& p = x_.parts[i];
    Json part{{"index", i}};
    put_text(part, "name", p.name);
    part["name_offset"] = p.name_offset;
    part["sign"] = p.sign;
    part["rotation"] = rotation_json(p.rotation);
    part["translation"] = translation_json(p.translation);
    return part;
  }

  Json dump() const override {
    Json parts = Json::array();
    for (size_t i = 0; i < x_.parts.size(); ++i) parts.push_back(part_json(i));
    return dump_with(std::move(parts));
  }

  // `dump --json` part by part (issue 26: 48 parts x 65,535 keys held as one Json took 1.1 GB):
  // the document without its parts, printed as dump_json(dump(), 1) prints it, with each part
  // printed in its place one at a time, indented as that whole value would indent it.
  bool print_dump(std::ostream& out, bool json) const override {
    if (!json || x_.parts.empty()) return false;
    const std::string head = dump_json(dump_with(Json::array()), 1);
    const std::string slot = "\n \"parts\": []";  // a string's newline is escaped: unique
    const size_t at = head.find(slot);
    if (at == std::string::npos) return false;
    out << std::string_view(head).substr(0, at) << "\n \"parts\": [";
    for (size_t i = 0; i < x_.parts.size(); ++i) {
      const std::string part = dump_json(part_json(i), 1);
      out << (i ? ",\n  " : "\n  ");
      size_t from = 0;
      for (size_t nl; (nl = part.find('\n', from)) != std::string::npos; from = nl + 1) {
        out << std::string_view(part).substr(from, nl + 1 - from) << "  ";
      }
      out << std::string_view(part).substr(from);
    }
    out << "\n ]" << std::string_view(head).substr(at + slot.size()) << "\n";
    return true;
  }

  Json dump_with(Json parts) const {
    Json j{{"format", "cod-xanim"}};
    put_text(j, "name", x_.name);
    j["header"] = header_json(x_);
    if (x_.has_delta) {
      j["delta"] = Json{{"rotation", rotation_json(x_.delta_rotation)},
                        {"translation", translation_json(x_.delta_translation)}};
    }
    Json bits{{"sign", Json::array()}, {"compressed", Json::array()}};
    for (uint8_t b : x_.sign_bits) bits["sign"].push_back(b);
    for (uint8_t b : x_.compressed_bits) bits["compressed"].push_back(b);
    j["bits"] = std::move(bits);
    j["parts"] = std::move(parts);
    j["notes_offset"] = x_.notes_offset;
    j["notetracks"] = notes_json(x_);
    j["tail_bytes"] = x_.tail.size();
    return j;
  }

  std::vector<Finding> validate() const override {
    std::vector<Finding> out;
    for (const XAnimFinding& f : check_xanim(x_)) {
      Finding g;
      g.level = f.error ? Finding::Level::kError : Finding::Level::kWarning;
      g.code = f.hardening ? "H" : "";
      g.where = fmt::format("{}: offset {:#x}", file_, f.offset);
      g.message = f.message + (f.hardening ? " [H: the port's check; the game does not make it]"
                                           : "");
      out.push_back(std::move(g));
    }
    return out;
  }

  std::optional<Animated> to_neutral() const override { return xanim_to_neutral(x_); }

  std::vector<ClipCurves> curves() const override {
    ClipCurves cc;
    cc.clip = x_.name;
    cc.duration = x_.header.length().value_or(0.0f);
    cc.frame_rate = x_.header.frame_rate != 0 ? x_.header.frame_rate : 30;
    const XAnimFile* x = &x_;
    for (size_t i = 0; i < x_.parts.size(); ++i) {
      const XAnimPart& p = x_.parts[i];
      static constexpr const char* kLanes[] = {"quat.x", "quat.y", "quat.z", "quat.w"};
      for (int lane = p.rotation.two_component ? 2 : 0; lane < 4 && p.rotation.key_count; ++lane) {
        Curve c;
        c.joint = p.name;
        c.channel = kLanes[lane];
        for (size_t k = 0; k < p.rotation.keys.size(); ++k) {
          c.key_times.push_back(frame_seconds(x_, key_frame(p.rotation.frames, k)));
          c.key_values.push_back(p.rotation.keys[k][lane] * 3.0518509447574615e-05f);
        }
        c.evaluate = [x, i, lane](float s) {
          const XAnimPartPose pose =
              sample_part(x->parts[i], xanim_frame(normalised(*x, s), x->frame_count_minus_one()));
          const float v[4] = {pose.lanes.x, pose.lanes.y, pose.lanes.z, pose.lanes.w};
          return v[lane];
        };
        cc.curves.push_back(std::move(c));
      }
      static constexpr const char* kAxes[] = {"location.x", "location.y", "location.z"};
      for (int axis = 0; axis < 3 && p.translation.key_count; ++axis) {
        Curve c;
        c.joint = p.name;
        c.channel = kAxes[axis];
        for (size_t k = 0; k < p.translation.values.size(); ++k) {
          c.key_times.push_back(frame_seconds(x_, key_frame(p.translation.frames, k)));
          const Vec3& v = p.translation.values[k];
          c.key_values.push_back(axis == 0 ? v.x : axis == 1 ? v.y : v.z);
        }
        c.evaluate = [x, i, axis](float s) {
          const XAnimPartPose pose =
              sample_part(x->parts[i], xanim_frame(normalised(*x, s), x->frame_count_minus_one()));
          return axis == 0 ? pose.translation.x : axis == 1 ? pose.translation.y
                                                             : pose.translation.z;
        };
        cc.curves.push_back(std::move(c));
      }
    }
    for (const XAnimTimedNote& n : xanim_notes(x_)) {
      cc.events.push_back({n.time * cc.duration, n.name, "{}"});
    }
    return {std::move(cc)};
  }

 private:
  std::string file_;
  XAnimFile x_;
};

}  // namespace

std::string delta_joint_name(const XAnimFile& f) {
  for (const XAnimPart& p : f.parts) {
    if (p.name == "root") return "root (delta)";
  }
  return "root";
}

bool sniff_xanim(const std::filesystem::path&, Bytes head) {
  if (head.size() < kXAnimHeaderSize) return false;
  Reader r(head);
  const XAnimHeader h = read_xanim_header(r);
  // §1.1 / §1.2: flag bits 2-7 and the bytes after the notetracks are ignored by the game, so
  // they do not stop a file from being one, nor does a frameRate of 0 or below (§1.1: not
  // checked; `validate` reports it as the error `export` makes of it); the whole layout must
  // still read.
  if (h.version != kXAnimVersion || h.num_parts < 0 || h.num_parts > 128) {
    return false;
  }
  try {
    (void)parse_xanim(head, "sniff");
    return true;
  } catch (const Error& e) {
    // A head cut at 64 KiB: a truncation at its very end still counts.
    return head.size() >= 65536 && e.message().find("truncated") != std::string::npos;
  }
}

std::unique_ptr<Document> open_xanim(const std::filesystem::path& path, Bytes bytes,
                                     const Options&) {
  return std::make_unique<XAnimDocument>(path.string(),
                                         parse_xanim(bytes, path.filename().string()));
}

Animated xanim_to_neutral(const XAnimFile& f) {
  Animated a;
  a.skeleton.add_joint(delta_joint_name(f), -1, Transform::identity());
  for (const XAnimPart& p : f.parts) a.skeleton.add_joint(p.name, 0, Transform::identity());
  Clip c;
  c.name = f.name;
  c.duration = f.header.length().value_or(0.0f);
  c.frame_rate = f.header.frame_rate != 0 ? f.header.frame_rate : 30;
  c.looping = f.header.looped();
  c.joints.resize(a.skeleton.num_joints());
  auto rotations = [&](const XAnimRotationStream& s, Track<Quat>& track) {
    track.interpolation = Interpolation::kLinear;  // lanes lerped, normalised, no sign flip
    for (size_t k = 0; k < s.keys.size(); ++k) {
      track.add(frame_seconds(f, key_frame(s.frames, k)), key_rotation(s.keys[k]));
    }
  };
  auto translations = [&](const XAnimTranslationStream& s, Track<Vec3>& track) {
    track.interpolation = Interpolation::kLinear;
    for (size_t k = 0; k < s.values.size(); ++k) {
      track.add(frame_seconds(f, key_frame(s.frames, k)), s.values[k]);
    }
  };
  if (f.has_delta) {
    rotations(f.delta_rotation, c.joints[0].rotation);
    translations(f.delta_translation, c.joints[0].translation);
  }
  for (size_t i = 0; i < f.parts.size(); ++i) {
    rotations(f.parts[i].rotation, c.joints[i + 1].rotation);
    translations(f.parts[i].translation, c.joints[i + 1].translation);
  }
  for (const XAnimTimedNote& n : xanim_notes(f)) {
    Json payload{{"time", json_float(n.time)}};
    if (n.frame >= 0) payload["frame"] = n.frame;
    c.events.push_back({n.time * c.duration, n.name, payload.dump()});
  }
  a.clips.push_back(std::move(c));
  a.notes.push_back("xanim: no model, so the parts form a flat skeleton under a root carrying the "
                    "delta motion; rest pose identity");
  return a;
}

Json sample_json(const XAnimFile& f, float t, XAnimPlatform platform) {
  const XAnimFrame at = xanim_frame(t, f.frame_count_minus_one(), platform);
  Json parts = Json::array();
  for (const XAnimPart& p : f.parts) {
    const XAnimPartPose pose = sample_part(p, at);
    Json j;
    put_text(j, "name", p.name);
    j.update(Json{{"lanes", to_json(pose.lanes)},
           {"rotation", to_json(pose.rotation())},
           {"translation", to_json(pose.translation)},
           {"has_rotation", pose.has_rotation},
           {"has_translation", pose.has_translation}});
    if (pose.undefined) j["undefined"] = true;
    parts.push_back(std::move(j));
  }
  Json j;
  put_text(j, "name", f.name);
  j.update(Json{{"time", json_float(t)},
                {"last", at.last},
                {"ft", json_float(at.ft)},
                {"frame", at.f},
                {"parts", std::move(parts)}});
  if (f.has_delta) {
    const XAnimDeltaSample d = sample_delta(f, at);
    j["delta"] = Json{{"rotation", Json::array({json_float(d.z), json_float(d.w)})},
                      {"translation", to_json(d.translation)}};
  }
  return j;
}

}  // namespace animkit::call_of_duty
