#include "animkit/gltf/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "animkit/core/json_text.h"
#include "animkit/core/local_to_model_job.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/writer.h"

namespace animkit::gltf {

namespace {

constexpr int kFloat = 5126;  // glTF componentType FLOAT

// Appends float data to the buffer and describes it with a bufferView + accessor.
class BufferBuilder {
 public:
  explicit BufferBuilder(Document& doc) : doc_(doc) {
    doc_.json["bufferViews"] = Json::array();
    doc_.json["accessors"] = Json::array();
  }

  int add(const std::vector<float>& data, const char* type, size_t count,
          bool with_min_max = false) {
    const size_t offset = doc_.buffer.size();
    doc_.buffer.resize(offset + data.size() * sizeof(float));
    std::memcpy(doc_.buffer.data() + offset, data.data(), data.size() * sizeof(float));
    Json& views = doc_.json["bufferViews"];
    views.push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", data.size() * sizeof(float)}});
    Json accessor{{"bufferView", views.size() - 1}, {"componentType", kFloat},
                  {"count", count}, {"type", type}};
    if (with_min_max && !data.empty()) {  // scalar accessors only (animation inputs)
      const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
      accessor["min"] = Json::array({*lo});
      accessor["max"] = Json::array({*hi});
    }
    Json& accessors = doc_.json["accessors"];
    accessors.push_back(std::move(accessor));
    return static_cast<int>(accessors.size()) - 1;
  }

 private:
  Document& doc_;
};

void push(std::vector<float>& v, Vec3 a) { v.insert(v.end(), {a.x, a.y, a.z}); }
void push(std::vector<float>& v, Quat q) {
  q = normalize(q);
  v.insert(v.end(), {q.x, q.y, q.z, q.w});
}

// A track in glTF terms: LINEAR or STEP keys. Hermite tracks are resampled at `rate` (Blender
// ignores CUBICSPLINE tangents), evaluated exactly as the sampler does.
template <class T>
void emit_track(const Track<T>& track, float rate, int node, const char* path,
                const char* type, BufferBuilder& buffers, Json& samplers, Json& channels) {
  std::vector<float> times, values;
  const char* interpolation = track.interpolation == Interpolation::kStep ? "STEP" : "LINEAR";
  if (track.interpolation == Interpolation::kHermite && track.size() > 1) {
    const float start = track.times.front();
    const float end = std::max(track.times.back(), start);
    const int frames = static_cast<int>(std::ceil((end - start) * rate - 1e-4f));
    uint32_t key = 0;
    for (int f = 0; f <= frames; ++f) {
      const float t = std::min(start + static_cast<float>(f) / rate, end);
      if (!times.empty() && !(t > times.back())) continue;
      key = find_key(track.times, t, key);
      times.push_back(t);
      push(values, evaluate(track, t, key));
    }
  } else {
    times = track.times;
    for (const T& v : track.values) push(values, v);
  }
  const int input = buffers.add(times, "SCALAR", times.size(), true);
  const int output = buffers.add(values, type, times.size());
  samplers.push_back({{"input", input}, {"output", output}, {"interpolation", interpolation}});
  channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", node}, {"path", path}}}});
}

}  // namespace

Document build(const Animated& a, const ExportOptions& options) {
  const Skeleton& sk = a.skeleton;
  if (std::string e = sk.validate(); !e.empty()) throw Error(e);
  if (sk.num_joints() == 0) throw Error("nothing to export: the skeleton has no joints");
  Document doc;
  Json& j = doc.json;
  j["asset"] = {{"version", "2.0"}, {"generator", "animkit 0.1.0"}};
  BufferBuilder buffers(doc);

  // Nodes: one per joint, in skeleton order, children listed under their parent.
  Json nodes = Json::array();
  Json roots = Json::array();
  for (size_t i = 0; i < sk.num_joints(); ++i) {
    const Transform& r = sk.rest[i];
    const Quat q = normalize(r.rotation);
    // glTF names are UTF-8 strings: other bytes go escaped, exact in extras (issue 31).
    Json node{{"name", json_text(sk.names[i])},
              {"translation", to_json(r.translation)},
              {"rotation", to_json(q)},
              {"scale", to_json(r.scale)}};
    if (std::string hex = text_hex(sk.names[i]); !hex.empty()) node["extras"] = {{"name_hex", hex}};
    nodes.push_back(std::move(node));
    if (sk.parents[i] < 0) roots.push_back(i);
  }
  for (size_t i = 0; i < sk.num_joints(); ++i) {
    if (const int p = sk.parents[i]; p >= 0) nodes[p]["children"].push_back(i);
  }

  // Skin: inverse bind matrices from the rest pose in model space.
  std::vector<Mat4> model(sk.num_joints());
  LocalToModelJob ltm;
  ltm.skeleton = &sk;
  ltm.input = sk.rest;
  ltm.output = model;
  ltm.run();
  std::vector<float> ibm;
  for (const Mat4& m : model) {
    Mat4 inv = inverse_affine(m);
    ibm.insert(ibm.end(), inv.m.begin(), inv.m.end());
  }
  Json joints = Json::array();
  for (size_t i = 0; i < sk.num_joints(); ++i) joints.push_back(i);
  const int ibm_accessor = buffers.add(ibm, "MAT4", sk.num_joints());

  // A scene root node holds the skeleton roots and the skin (a skin needs no mesh to be valid).
  j["skins"] = Json::array({{{"joints", joints}, {"inverseBindMatrices", ibm_accessor},
                             {"skeleton", roots[0]}, {"name", "skeleton"}}});

  Json animations = Json::array();
  for (const Clip& clip : a.clips) {
    if (std::string e = clip.validate(sk.num_joints()); !e.empty()) {
      throw Error(fmt::format("clip '{}': {}", clip.name, e));
    }
    const float rate = options.resample_rate > 0 ? options.resample_rate : clip.frame_rate;
    Json samplers = Json::array(), channels = Json::array();
    for (size_t n = 0; n < clip.joints.size(); ++n) {
      const JointTracks& jt = clip.joints[n];
      const int node = static_cast<int>(n);
      if (!jt.translation.empty()) emit_track(jt.translation, rate, node, "translation", "VEC3", buffers, samplers, channels);
      if (!jt.rotation.empty()) emit_track(jt.rotation, rate, node, "rotation", "VEC4", buffers, samplers, channels);
      if (!jt.scale.empty()) emit_track(jt.scale, rate, node, "scale", "VEC3", buffers, samplers, channels);
    }
    if (channels.empty()) {
      // glTF requires a channel: hold the first root's rest rotation over the clip.
      Track<Quat> hold;
      hold.add(0, sk.rest[0].rotation);
      if (clip.duration > 0) hold.add(clip.duration, sk.rest[0].rotation);
      emit_track(hold, rate, 0, "rotation", "VEC4", buffers, samplers, channels);
    }
    Json events = Json::array();
    for (const Event& e : clip.events) {
      Json je{{"time", json_float(e.time)}};
      put_text(je, "name", e.name);
      je["payload"] = Json::parse(e.payload.empty() ? "{}" : e.payload);
      events.push_back(std::move(je));
    }
    Json extras{{"duration", json_float(clip.duration)},
                {"frame_rate", json_float(clip.frame_rate)},
                {"looping", clip.looping},
                {"events", std::move(events)}};
    if (std::string hex = text_hex(clip.name); !hex.empty()) extras["name_hex"] = hex;
    animations.push_back({{"name", json_text(clip.name)},
                          {"channels", std::move(channels)},
                          {"samplers", std::move(samplers)},
                          {"extras", std::move(extras)}});
  }
  j["nodes"] = std::move(nodes);
  j["scenes"] = Json::array({{{"name", "animkit"}, {"nodes", roots}}});
  j["scene"] = 0;
  if (!animations.empty()) j["animations"] = std::move(animations);
  if (!a.notes.empty()) {
    j["asset"]["extras"] = Json::object();
    put_texts(j["asset"]["extras"], "notes", a.notes);
  }
  j["buffers"] = Json::array({{{"byteLength", doc.buffer.size()}}});
  return doc;
}

std::vector<uint8_t> to_glb(const Document& doc) {
  std::string text = doc.json.dump();
  while (text.size() % 4 != 0) text.push_back(' ');
  std::vector<uint8_t> bin = doc.buffer;
  while (bin.size() % 4 != 0) bin.push_back(0);
  Writer w;
  w.u32(0x46546C67);  // "glTF"
  w.u32(2);
  w.u32(static_cast<uint32_t>(12 + 8 + text.size() + 8 + bin.size()));
  w.u32(static_cast<uint32_t>(text.size()));
  w.u32(0x4E4F534A);  // "JSON"
  w.bytes({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
  w.u32(static_cast<uint32_t>(bin.size()));
  w.u32(0x004E4942);  // "BIN\0"
  w.bytes(bin);
  return w.take();
}

std::string to_gltf_text(const Document& doc) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string b64;
  const std::vector<uint8_t>& b = doc.buffer;
  for (size_t i = 0; i < b.size(); i += 3) {
    const uint32_t v = (b[i] << 16) | ((i + 1 < b.size() ? b[i + 1] : 0) << 8) |
                       (i + 2 < b.size() ? b[i + 2] : 0);
    b64 += kAlphabet[(v >> 18) & 63];
    b64 += kAlphabet[(v >> 12) & 63];
    b64 += i + 1 < b.size() ? kAlphabet[(v >> 6) & 63] : '=';
    b64 += i + 2 < b.size() ? kAlphabet[v & 63] : '=';
  }
  Json j = doc.json;
  j["buffers"][0]["uri"] = "data:application/octet-stream;base64," + b64;
  return j.dump(1) + "\n";
}

void write(const Animated& animated, const std::filesystem::path& path,
           const ExportOptions& options) {
  const Document doc = build(animated, options);
  if (options.binary) {
    write_file(path, to_glb(doc));
  } else {
    write_text(path, to_gltf_text(doc));
  }
}

}  // namespace animkit::gltf
