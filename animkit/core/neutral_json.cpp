#include "animkit/core/neutral_json.h"

#include <fmt/format.h>

#include "animkit/core/joint_match.h"
#include "animkit/core/json_text.h"

namespace animkit {

namespace {

Interpolation interpolation_from(const std::string& s) {
  for (Interpolation i : {Interpolation::kStep, Interpolation::kLinear, Interpolation::kNlerp,
                          Interpolation::kSlerp, Interpolation::kHermite}) {
    if (s == to_string(i)) return i;
  }
  throw Error(fmt::format("unknown interpolation '{}'", s));
}

template <class T>
Json track_json(const Track<T>& t, const std::string& joint, const char* channel) {
  Json j;
  put_text(j, "joint", joint);  // names keep every byte (issue 31, json_util.h)
  j.update(Json{{"channel", channel}, {"interpolation", to_string(t.interpolation)}});
  Json times = Json::array(), values = Json::array();
  for (float v : t.times) times.push_back(json_float(v));
  for (const T& v : t.values) values.push_back(to_json(v));
  j["times"] = std::move(times);
  j["values"] = std::move(values);
  if (t.interpolation == Interpolation::kHermite) {
    Json in = Json::array(), out = Json::array();
    for (const T& v : t.in_slopes) in.push_back(to_json(v));
    for (const T& v : t.out_slopes) out.push_back(to_json(v));
    j["in_slopes"] = std::move(in);
    j["out_slopes"] = std::move(out);
  }
  return j;
}

Vec3 value_from(const Json& j, Vec3*) { return vec3_from_json(j, "track value"); }
Quat value_from(const Json& j, Quat*) { return quat_from_json(j, "track value"); }

template <class T>
void track_from(const Json& j, Track<T>& t) {
  t.interpolation = interpolation_from(j.value("interpolation", std::string("linear")));
  const Json& times = j.at("times");
  const Json& values = j.at("values");
  if (!times.is_array() || !values.is_array() || times.size() != values.size()) {
    throw Error("track needs arrays 'times' and 'values' of one size");
  }
  for (size_t k = 0; k < times.size(); ++k) {
    t.add(float_from_json(times[k], "track time"), value_from(values[k], static_cast<T*>(nullptr)));
  }
  if (t.interpolation == Interpolation::kHermite) {
    for (const Json& v : j.at("in_slopes")) t.in_slopes.push_back(value_from(v, static_cast<T*>(nullptr)));
    for (const Json& v : j.at("out_slopes")) t.out_slopes.push_back(value_from(v, static_cast<T*>(nullptr)));
  }
}

class NeutralDocument : public Document {
 public:
  explicit NeutralDocument(Animated a) : a_(std::move(a)) {}
  Json info() const override {
    Json clips = Json::array();
    for (const Clip& c : a_.clips) {
      clips.push_back({{"name", c.name}, {"duration", json_float(c.duration)},
                       {"events", c.events.size()}});
    }
    return {{"format", "neutral-json"}, {"joints", a_.skeleton.num_joints()}, {"clips", clips}};
  }
  Json dump() const override { return to_json(a_); }
  std::optional<Animated> to_neutral() const override { return a_; }

 private:
  Animated a_;
};

}  // namespace

Json to_json(const Skeleton& s) {
  Json joints = Json::array();
  for (size_t i = 0; i < s.num_joints(); ++i) {
    Json j;
    put_text(j, "name", s.names[i]);
    j["parent"] = s.parents[i];
    j.update(to_json(s.rest[i]));
    joints.push_back(std::move(j));
  }
  return {{"joints", std::move(joints)}};
}

Json to_json(const Clip& c, const Skeleton& s) {
  Json tracks = Json::array();
  for (size_t j = 0; j < c.joints.size(); ++j) {
    const std::string name = j < s.names.size() ? s.names[j] : std::to_string(j);
    const JointTracks& jt = c.joints[j];
    if (!jt.translation.empty()) tracks.push_back(track_json(jt.translation, name, "translation"));
    if (!jt.rotation.empty()) tracks.push_back(track_json(jt.rotation, name, "rotation"));
    if (!jt.scale.empty()) tracks.push_back(track_json(jt.scale, name, "scale"));
  }
  Json events = Json::array();
  for (const Event& e : c.events) {
    Json je{{"time", json_float(e.time)}};
    put_text(je, "name", e.name);
    je["payload"] = Json::parse(e.payload.empty() ? "{}" : e.payload);
    events.push_back(std::move(je));
  }
  Json j;
  put_text(j, "name", c.name);
  j.update(Json{{"duration", json_float(c.duration)}, {"frame_rate", json_float(c.frame_rate)},
                {"looping", c.looping}, {"tracks", std::move(tracks)}, {"events", std::move(events)}});
  return j;
}

Json to_json(const Animated& a) {
  Json clips = Json::array();
  for (const Clip& c : a.clips) clips.push_back(to_json(c, a.skeleton));
  return {{"animkit", "neutral"}, {"skeleton", to_json(a.skeleton)}, {"clips", std::move(clips)}};
}

Animated animated_from_json(const Json& root) {
  Animated a;
  try {
    if (!root.is_object() || root.value("animkit", std::string()) != "neutral") {
      throw Error("not an animkit neutral document ({\"animkit\": \"neutral\", ...})");
    }
    for (const Json& j : root.at("skeleton").at("joints")) {
      const std::string name = text_from_json(j, "name", "joint name");
      Transform t;
      if (j.contains("translation")) t.translation = vec3_from_json(j["translation"], "translation");
      if (j.contains("rotation")) t.rotation = normalize(quat_from_json(j["rotation"], "rotation"));
      if (j.contains("scale")) t.scale = vec3_from_json(j["scale"], "scale");
      const Json& jp = j.contains("parent") ? j["parent"] : Json(-1);
      if (!jp.is_number_integer() || jp.get<int64_t>() < -1 || jp.get<int64_t>() > 32767) {
        throw Error(fmt::format("joint '{}': parent {} is not a joint index", json_text(name), jp.dump()));
      }
      const int parent = static_cast<int>(jp.get<int64_t>());
      if (parent < -1 || parent >= static_cast<int>(a.skeleton.num_joints())) {
        throw Error(fmt::format("joint '{}': parent {} must name an earlier joint",
                                json_text(name), parent));
      }
      a.skeleton.add_joint(name, parent, t);
    }
    if (std::string e = a.skeleton.validate(); !e.empty()) throw Error(e);
    for (const Json& jc : root.value("clips", Json::array())) {
      Clip c;
      if (jc.contains("name")) c.name = text_from_json(jc, "name", "clip name");
      c.duration = jc.contains("duration") ? float_from_json(jc["duration"], "duration") : 0.f;
      c.frame_rate = jc.contains("frame_rate") ? float_from_json(jc["frame_rate"], "frame_rate") : 30.f;
      c.looping = jc.value("looping", false);
      c.joints.resize(a.skeleton.num_joints());
      for (const Json& jt : jc.value("tracks", Json::array())) {
        const Json& joint = jt.at("joint");
        int index = -1;
        if (joint.is_number_integer()) {
          const int64_t i = joint.get<int64_t>();
          index = i >= 0 && i < 32768 ? static_cast<int>(i) : -1;
        } else if (auto found = a.skeleton.find(text_from_json(jt, "joint", "track joint"))) {
          index = *found;
        }
        if (index < 0 || index >= static_cast<int>(c.joints.size())) {
          throw Error(fmt::format("clip '{}': unknown joint {}", c.name, joint.dump()));
        }
        const std::string channel = jt.at("channel").get<std::string>();
        JointTracks& target = c.joints[index];
        if (channel == "translation") track_from(jt, target.translation);
        else if (channel == "rotation") track_from(jt, target.rotation);
        else if (channel == "scale") track_from(jt, target.scale);
        else throw Error(fmt::format("clip '{}': unknown channel '{}'", c.name, channel));
      }
      for (const Json& je : jc.value("events", Json::array())) {
        c.events.push_back({float_from_json(je.at("time"), "event time"),
                            je.contains("name") ? text_from_json(je, "name", "event name") : std::string(),
                            je.value("payload", Json::object()).dump()});
      }
      if (std::string e = c.validate(a.skeleton.num_joints()); !e.empty()) {
        throw Error(fmt::format("clip '{}': {}", c.name, e));
      }
      a.clips.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("neutral document: {}", e.what()));
  }
  return a;
}

void register_neutral_format(Registry& registry) {
  Engine core;
  core.name = "core";
  Format f;
  f.name = "neutral-json";
  f.engine = "core";
  f.description = "animkit's JSON form of a skeleton and clips";
  f.sniff = [](const std::filesystem::path&, Bytes head) {
    const std::string_view s(reinterpret_cast<const char*>(head.data()), head.size());
    return s.find("\"animkit\"") != std::string_view::npos &&
           s.find("\"neutral\"") != std::string_view::npos;
  };
  f.open = [](const std::filesystem::path& path, Bytes bytes, const Options&) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    return std::make_unique<NeutralDocument>(animated_from_json(parse_json(text, path.string())));
  };
  // `animkit import --as neutral-json`: the glTF's skeleton and clips as they are (float32 both
  // sides: lossless); with --template, matched by joint name onto the template's skeleton.
  f.import_gltf = [](const ImportRequest& request) {
    Animated a = request.source;
    ImportResult result;
    if (!request.template_path.empty()) {
      const std::vector<uint8_t> bytes = read_file(request.template_path);
      const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      Animated original = animated_from_json(parse_json(text, request.template_path.string()));
      JointMatch m = match_joints(a, original.skeleton);
      a.skeleton = std::move(original.skeleton);
      a.clips = std::move(m.clips);
      result.notes = std::move(m.notes);
    }
    const std::string text = to_json(a).dump(1) + "\n";
    result.bytes.assign(text.begin(), text.end());
    Json joints = Json::object();
    for (const std::string& name : a.skeleton.names) joints[name] = 0.0;  // float32 kept exactly
    result.report = {{"joints", a.skeleton.num_joints()}, {"clips", a.clips.size()},
                     {"max_error", joints}};
    return result;
  };
  core.formats.push_back(std::move(f));
  registry.add(std::move(core));
}

}  // namespace animkit
