#include "animkit/gltf/export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <type_traits>

#include "animkit/core/json_text.h"
#include "animkit/core/local_to_model_job.h"
#include "animkit/core/sampling_job.h"
#include "animkit/core/writer.h"
#include "animkit/gltf/png.h"

namespace animkit::gltf {

static_assert(sizeof(Vec3) == 12 && sizeof(std::array<float, 2>) == 8, "tightly packed vertex data");

namespace {

// glTF componentType and bufferView.target codes.
constexpr int kByte = 5121, kShort = 5123, kUint = 5125, kFloat = 5126;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;

// Appends data to the buffer (each view 4-byte aligned) and describes it with a bufferView and,
// for arrays, an accessor.
class BufferBuilder {
 public:
  explicit BufferBuilder(Document& doc) : doc_(doc) {
    doc_.json["bufferViews"] = Json::array();
    doc_.json["accessors"] = Json::array();
  }

  // A bufferView over `bytes` bytes, returning where to write them.
  uint8_t* view(size_t bytes, int target, int& index) {
    while (doc_.buffer.size() % 4 != 0) doc_.buffer.push_back(0);
    const size_t offset = doc_.buffer.size();
    doc_.buffer.resize(offset + bytes);
    Json v{{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}};
    if (target != 0) v["target"] = target;
    Json& views = doc_.json["bufferViews"];
    views.push_back(std::move(v));
    index = static_cast<int>(views.size()) - 1;
    return doc_.buffer.data() + offset;
  }

  int accessor(int view, int component, size_t count, const char* type, bool normalized = false) {
    Json a{{"bufferView", view}, {"componentType", component}, {"count", count}, {"type", type}};
    if (normalized) a["normalized"] = true;
    Json& accessors = doc_.json["accessors"];
    accessors.push_back(std::move(a));
    return static_cast<int>(accessors.size()) - 1;
  }
  Json& last_accessor() { return doc_.json["accessors"].back(); }

  // An array of plain components (float, u8, u16, u32) as one view and accessor.
  template <class T>
  int add(const T* data, size_t components, const char* type, size_t count, int component,
          int target = 0, bool normalized = false) {
    int v = 0;
    std::memcpy(view(components * sizeof(T), target, v), data, components * sizeof(T));
    return accessor(v, component, count, type, normalized);
  }
  int add(const std::vector<float>& data, const char* type, size_t count, bool with_min_max = false) {
    const int a = add(data.data(), data.size(), type, count, kFloat);
    if (with_min_max && !data.empty()) {  // scalar accessors only (animation inputs)
      const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
      last_accessor()["min"] = Json::array({*lo});
      last_accessor()["max"] = Json::array({*hi});
    }
    return a;
  }

 private:
  Document& doc_;
};

void put(float*& out, Vec3 a) {
  *out++ = a.x;
  *out++ = a.y;
  *out++ = a.z;
}
void put(float*& out, Quat q) {
  q = normalize(q);
  *out++ = q.x;
  *out++ = q.y;
  *out++ = q.z;
  *out++ = q.w;
}
template <class T>
constexpr size_t kComponents = std::is_same_v<T, Quat> ? 4 : 3;

// The keys a track writes: Hermite tracks are resampled at `rate` (Blender ignores CUBICSPLINE
// tangents), evaluated exactly as the sampler does.
template <class T>
std::vector<float> resampled_times(const Track<T>& track, float rate) {
  std::vector<float> times;
  const float start = track.times.front();
  const float end = std::max(track.times.back(), start);
  const int frames = static_cast<int>(std::ceil((end - start) * rate - 1e-4f));
  for (int f = 0; f <= frames; ++f) {
    const float t = std::min(start + static_cast<float>(f) / rate, end);
    if (!times.empty() && !(t > times.back())) continue;
    times.push_back(t);
  }
  return times;
}
template <class T>
bool resampled(const Track<T>& track) {
  return track.interpolation == Interpolation::kHermite && track.size() > 1;
}

// A track in glTF terms: LINEAR or STEP keys, written straight into the buffer (no copy of the
// keys: the export's memory is the neutral clips plus the buffer, issue 27 item 3).
template <class T>
void emit_track(const Track<T>& track, float rate, int node, const char* path,
                const char* type, BufferBuilder& buffers, Json& samplers, Json& channels) {
  const char* interpolation = track.interpolation == Interpolation::kStep ? "STEP" : "LINEAR";
  int input = 0, output = 0;
  if (resampled(track)) {
    const std::vector<float> times = resampled_times(track, rate);
    input = buffers.add(times, "SCALAR", times.size(), true);
    int v = 0;
    float* out = reinterpret_cast<float*>(buffers.view(times.size() * kComponents<T> * 4, 0, v));
    uint32_t key = 0;
    for (float t : times) {
      key = find_key(track.times, t, key);
      put(out, evaluate(track, t, key));
    }
    output = buffers.accessor(v, kFloat, times.size(), type);
  } else {
    input = buffers.add(track.times, "SCALAR", track.times.size(), true);
    int v = 0;
    float* out = reinterpret_cast<float*>(buffers.view(track.values.size() * kComponents<T> * 4, 0, v));
    for (const T& value : track.values) put(out, value);
    output = buffers.accessor(v, kFloat, track.values.size(), type);
  }
  samplers.push_back({{"input", input}, {"output", output}, {"interpolation", interpolation}});
  channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", node}, {"path", path}}}});
}

template <class T>
uint64_t track_bytes(const Track<T>& track, float rate) {
  if (track.empty()) return 0;
  const uint64_t keys = resampled(track) ? resampled_times(track, rate).size() : track.size();
  return keys * 4 * (1 + kComponents<T>) + 8;
}

template <class T>
uint64_t array_bytes(const std::vector<T>& v) {
  return v.size() * sizeof(T) + 4;
}

// What the buffer will hold, so that it is allocated once (a growing vector holds its old and
// new storage at once while it copies).
uint64_t planned_bytes(const Animated& a, const ExportOptions& options, const MeshSet& set) {
  uint64_t bytes = a.skeleton.num_joints() * 64 + 4;
  for (const Clip& clip : a.clips) {
    const float rate = options.resample_rate > 0 ? options.resample_rate : clip.frame_rate;
    bytes += 48;  // a held root rotation when the clip has no track
    for (const JointTracks& jt : clip.joints)
      bytes += track_bytes(jt.translation, rate) + track_bytes(jt.rotation, rate) +
               track_bytes(jt.scale, rate);
  }
  for (const Mesh& m : set.meshes)
    bytes += array_bytes(m.positions) + array_bytes(m.normals) + array_bytes(m.uvs) +
             array_bytes(m.colors) + array_bytes(m.joints) + array_bytes(m.weights) +
             array_bytes(m.indices);
  for (const Image& i : set.images) bytes += i.rgba.size() / 2 + 1024;  // PNG: a guess
  return bytes;
}

// The meshes as one glTF mesh per kind (skinned to skin 0, or not), one primitive each.
void emit_meshes(const Animated& a, const MeshSet& set, BufferBuilder& buffers, Json& j,
                 Json& nodes, Json& scene) {
  const size_t joints = a.skeleton.num_joints();
  Json skinned = Json::array(), rigid = Json::array();
  for (size_t i = 0; i < set.meshes.size(); ++i) {
    const Mesh& m = set.meshes[i];
    const size_t n = m.positions.size();
    const auto check = [&](size_t size, const char* what) {
      if (size != 0 && size != n)
        throw Error(fmt::format("mesh '{}': {} {} for {} vertices", m.name, size, what, n));
    };
    check(m.normals.size(), "normals");
    check(m.uvs.size(), "texture coordinates");
    check(m.colors.size(), "colours");
    check(m.joints.size(), "joint sets");
    check(m.weights.size(), "weight sets");
    if (n == 0 || m.indices.empty()) continue;  // glTF needs data; nothing to draw
    if (m.indices.size() % 3 != 0 || m.joints.size() != m.weights.size())
      throw Error(fmt::format("mesh '{}': indices not in triangles, or joints without weights", m.name));
    Vec3 lo = m.positions[0], hi = m.positions[0];
    for (const Vec3& p : m.positions) {
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
      hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
    for (uint32_t index : m.indices)
      if (index >= n) throw Error(fmt::format("mesh '{}': index {} past {} vertices", m.name, index, n));
    for (const auto& js : m.joints)
      for (uint16_t jt : js)
        if (jt >= joints) throw Error(fmt::format("mesh '{}': joint {} past the skeleton", m.name, jt));
    Json attributes;
    attributes["POSITION"] = buffers.add(&m.positions[0].x, n * 3, "VEC3", n, kFloat, kArrayBuffer);
    buffers.last_accessor()["min"] = to_json(lo);
    buffers.last_accessor()["max"] = to_json(hi);
    if (!m.normals.empty())
      attributes["NORMAL"] = buffers.add(&m.normals[0].x, n * 3, "VEC3", n, kFloat, kArrayBuffer);
    const bool textured = m.material >= 0 && static_cast<size_t>(m.material) < set.materials.size() &&
                          set.materials[m.material].image >= 0;
    if (!m.uvs.empty()) {
      attributes["TEXCOORD_0"] = buffers.add(m.uvs[0].data(), n * 2, "VEC2", n, kFloat, kArrayBuffer);
    } else if (textured) {  // a textured material needs TEXCOORD_0: every vertex at (0, 0)
      const std::vector<float> zeros(n * 2, 0.f);
      attributes["TEXCOORD_0"] = buffers.add(zeros.data(), n * 2, "VEC2", n, kFloat, kArrayBuffer);
    }
    if (!m.colors.empty())
      attributes["COLOR_0"] = buffers.add(m.colors[0].data(), n * 4, "VEC4", n, kByte, kArrayBuffer, true);
    if (!m.joints.empty() && joints > 0) {
      attributes["JOINTS_0"] = buffers.add(m.joints[0].data(), n * 4, "VEC4", n, kShort, kArrayBuffer);
      attributes["WEIGHTS_0"] = buffers.add(m.weights[0].data(), n * 4, "VEC4", n, kFloat, kArrayBuffer);
    }
    Json primitive{{"attributes", attributes}, {"mode", 4}};
    const bool wide = n > 65535;  // u16 index 65535 is the primitive restart value
    if (wide) {
      primitive["indices"] = buffers.add(m.indices.data(), m.indices.size(), "SCALAR",
                                         m.indices.size(), kUint, kElementArrayBuffer);
    } else {
      std::vector<uint16_t> narrow(m.indices.begin(), m.indices.end());
      primitive["indices"] = buffers.add(narrow.data(), narrow.size(), "SCALAR", narrow.size(),
                                         kShort, kElementArrayBuffer);
    }
    if (m.material >= 0) {
      if (static_cast<size_t>(m.material) >= set.materials.size())
        throw Error(fmt::format("mesh '{}': material {} does not exist", m.name, m.material));
      primitive["material"] = m.material;
    }
    if (!m.name.empty()) primitive["extras"] = {{"name", m.name}};
    (attributes.contains("JOINTS_0") ? skinned : rigid).push_back(std::move(primitive));
  }
  Json meshes = Json::array();
  const auto add_node = [&](Json primitives, const char* name, bool skin) {
    if (primitives.empty()) return;
    meshes.push_back({{"name", name}, {"primitives", std::move(primitives)}});
    Json node{{"name", name}, {"mesh", meshes.size() - 1}};
    if (skin) node["skin"] = 0;
    nodes.push_back(std::move(node));
    scene.push_back(nodes.size() - 1);  // a skinned mesh's node is a scene root, untransformed
  };
  add_node(std::move(skinned), "mesh", true);
  add_node(std::move(rigid), "mesh_unskinned", false);
  if (!meshes.empty()) j["meshes"] = std::move(meshes);
}

// Images as embedded PNGs, one texture each (nearest filtering, repeat), and the materials.
void emit_materials(const MeshSet& a, BufferBuilder& buffers, Json& j) {
  if (!a.images.empty()) {
    Json images = Json::array(), textures = Json::array();
    for (size_t i = 0; i < a.images.size(); ++i) {
      const std::vector<uint8_t> png = encode_png(a.images[i]);
      int v = 0;
      std::memcpy(buffers.view(png.size(), 0, v), png.data(), png.size());
      Json image{{"bufferView", v}, {"mimeType", "image/png"}};
      if (!a.images[i].name.empty()) image["name"] = a.images[i].name;
      images.push_back(std::move(image));
      textures.push_back({{"source", i}, {"sampler", 0}});
    }
    j["images"] = std::move(images);
    j["textures"] = std::move(textures);
    j["samplers"] = Json::array({{{"magFilter", 9728}, {"minFilter", 9728},
                                  {"wrapS", 10497}, {"wrapT", 10497}}});
  }
  if (a.materials.empty()) return;
  Json materials = Json::array();
  for (const Material& m : a.materials) {
    Json pbr{{"baseColorFactor", Json::array()}, {"metallicFactor", 0}, {"roughnessFactor", 1}};
    for (float c : m.base_color) pbr["baseColorFactor"].push_back(json_float(std::clamp(c, 0.f, 1.f)));
    if (m.image >= 0) {
      if (static_cast<size_t>(m.image) >= a.images.size())
        throw Error(fmt::format("material '{}': image {} does not exist", m.name, m.image));
      pbr["baseColorTexture"] = {{"index", m.image}};
    }
    Json material{{"pbrMetallicRoughness", std::move(pbr)}};
    if (!m.name.empty()) material["name"] = m.name;
    if (m.alpha_mode == Material::AlphaMode::kMask) {
      material["alphaMode"] = "MASK";
      material["alphaCutoff"] = json_float(m.alpha_cutoff);
    } else if (m.alpha_mode == Material::AlphaMode::kBlend) {
      material["alphaMode"] = "BLEND";
    }
    if (!m.extras.empty()) material["extras"] = m.extras;
    materials.push_back(std::move(material));
  }
  j["materials"] = std::move(materials);
}

}  // namespace

Document build(const Animated& a, const ExportOptions& options, const MeshSet* meshes) {
  static const MeshSet kNone;
  const MeshSet& set = meshes ? *meshes : kNone;
  const Skeleton& sk = a.skeleton;
  if (std::string e = sk.validate(); !e.empty()) throw Error(e);
  if (sk.num_joints() == 0) throw Error("nothing to export: the skeleton has no joints");
  Document doc;
  doc.buffer.reserve(planned_bytes(a, options, set));
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

  // A skin's joints need one common root (the validator's SKIN_NO_COMMON_ROOT), and
  // `skins[].skeleton` must be it (SKIN_SKELETON_INVALID). A forest of roots (a monster's severed
  // tail is a second root chain) hangs under an untransformed node that is not a joint, so the
  // joints keep their indices and rest transforms.
  int common_root = roots[0].get<int>();
  Json scene = roots;
  if (roots.size() > 1) {
    nodes.push_back({{"name", "skeleton_root"}, {"children", roots}});
    common_root = static_cast<int>(nodes.size()) - 1;
    scene = Json::array({common_root});
  }
  // A scene root node holds the skeleton roots and the skin (a skin needs no mesh to be valid).
  j["skins"] = Json::array({{{"joints", joints}, {"inverseBindMatrices", ibm_accessor},
                             {"skeleton", common_root}, {"name", "skeleton"}}});
  emit_materials(set, buffers, j);
  emit_meshes(a, set, buffers, j, nodes, scene);

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
  j["scenes"] = Json::array({{{"name", "animkit"}, {"nodes", scene}}});
  j["scene"] = 0;
  if (!animations.empty()) j["animations"] = std::move(animations);
  if (!a.notes.empty()) {
    j["asset"]["extras"] = Json::object();
    put_texts(j["asset"]["extras"], "notes", a.notes);
  }
  while (doc.buffer.size() % 4 != 0) doc.buffer.push_back(0);
  j["buffers"] = Json::array({{{"byteLength", doc.buffer.size()}}});
  return doc;
}

namespace {

// The 12-byte GLB header and the JSON chunk's header and text (padded with spaces).
std::string glb_head(const Document& doc) {
  std::string text = doc.json.dump();
  while (text.size() % 4 != 0) text.push_back(' ');
  const size_t bin = (doc.buffer.size() + 3) / 4 * 4;
  Writer w;
  w.u32(0x46546C67);  // "glTF"
  w.u32(2);
  w.u32(static_cast<uint32_t>(12 + 8 + text.size() + 8 + bin));
  w.u32(static_cast<uint32_t>(text.size()));
  w.u32(0x4E4F534A);  // "JSON"
  w.bytes({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
  w.u32(static_cast<uint32_t>(bin));
  w.u32(0x004E4942);  // "BIN\0"
  return {reinterpret_cast<const char*>(w.bytes().data()), w.bytes().size()};
}

constexpr const char* kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Base64 of b[from, to), `to` a multiple of 3 or the end.
void base64(const std::vector<uint8_t>& b, size_t from, size_t to, std::string& out) {
  for (size_t i = from; i < to; i += 3) {
    const uint32_t v = (b[i] << 16) | ((i + 1 < b.size() ? b[i + 1] : 0) << 8) |
                       (i + 2 < b.size() ? b[i + 2] : 0);
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += i + 1 < b.size() ? kBase64[(v >> 6) & 63] : '=';
    out += i + 2 < b.size() ? kBase64[v & 63] : '=';
  }
}

constexpr const char* kUriMark = "@animkit-buffer@";

}  // namespace

std::vector<uint8_t> to_glb(const Document& doc) {
  const std::string head = glb_head(doc);
  std::vector<uint8_t> out(head.begin(), head.end());
  out.insert(out.end(), doc.buffer.begin(), doc.buffer.end());
  while (out.size() % 4 != 0) out.push_back(0);
  return out;
}

std::string to_gltf_text(const Document& doc) {
  std::string b64 = "data:application/octet-stream;base64,";
  base64(doc.buffer, 0, doc.buffer.size(), b64);
  Json j = doc.json;
  j["buffers"][0]["uri"] = b64;
  return j.dump(1) + "\n";
}

// Streams the file: the buffer goes straight from the Document to the disk, never copied whole
// (issue 27 item 3: the export's peak memory is the neutral clips plus the buffer).
void write(const Document& doc, const std::filesystem::path& path, bool binary) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(fmt::format("cannot write {}", path.string()));
  if (binary) {
    out << glb_head(doc);
    out.write(reinterpret_cast<const char*>(doc.buffer.data()),
              static_cast<std::streamsize>(doc.buffer.size()));
    for (size_t pad = doc.buffer.size(); pad % 4 != 0; ++pad) out.put(0);
  } else {
    // The JSON with a mark where the data URI goes; the URI is written in slices.
    Json head;
    head["buffers"] = Json::array({{{"byteLength", doc.buffer.size()}, {"uri", kUriMark}}});
    std::string text;
    {
      Json j = doc.json;  // the JSON only (the buffer is not in it)
      j["buffers"] = head["buffers"];
      text = j.dump(1) + "\n";
    }
    const size_t mark = text.find(kUriMark);
    out << text.substr(0, mark) << "data:application/octet-stream;base64,";
    std::string slice;
    constexpr size_t kSlice = 3 << 16;
    for (size_t at = 0; at < doc.buffer.size(); at += kSlice) {
      slice.clear();
      base64(doc.buffer, at, std::min(at + kSlice, doc.buffer.size()), slice);
      out << slice;
    }
    out << text.substr(mark + std::strlen(kUriMark));
  }
  if (!out.flush()) throw Error(fmt::format("cannot write {}", path.string()));
}

void write(const Animated& animated, const std::filesystem::path& path,
           const ExportOptions& options, const MeshSet* meshes) {
  write(build(animated, options, meshes), path, options.binary);
}

}  // namespace animkit::gltf
