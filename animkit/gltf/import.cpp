#include "animkit/gltf/import.h"

#include <fmt/format.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <type_traits>

#include "animkit/core/error.h"
#include "animkit/core/json_read.h"
#include "animkit/core/json_text.h"
#include "animkit/core/limits.h"
#include "animkit/gltf/import_budget.h"

namespace animkit::gltf {

namespace {

// Images are never needed for animation: accept them undecoded.
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                const unsigned char*, int, void*) {
  return true;
}

// One component of an accessor element as a float (glTF 2.0, "Animations": rotations may be
// stored as normalised integers; the spec's decoding is max(c / (2^(n-1) - 1), -1) for signed).
float component(const uint8_t* p, int type, bool normalized) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      const float c = static_cast<float>(static_cast<int8_t>(*p));
      return normalized ? std::max(c / 127.f, -1.f) : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return normalized ? static_cast<float>(*p) / 255.f : static_cast<float>(*p);
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      int16_t s;
      std::memcpy(&s, p, 2);
      const float c = static_cast<float>(s);
      return normalized ? std::max(c / 32767.f, -1.f) : c;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      uint16_t s;
      std::memcpy(&s, p, 2);
      return normalized ? static_cast<float>(s) / 65535.f : static_cast<float>(s);
    }
    default:
      return 0;
  }
}

int component_size(int type) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
    default: return 0;
  }
}

class GltfReader {
 public:
  GltfReader(const tinygltf::Model& model, std::string file) : m_(model), file_(std::move(file)) {}

  // Accessor `index` as `comps` components per element, every byte it would touch checked
  // against its buffer view and buffer before anything is allocated (a count of 2^31 in a small
  // buffer is refused here, naming the accessor).
  struct View {
    const tinygltf::Accessor* accessor = nullptr;
    const uint8_t* base = nullptr;  // the first element (null when count is 0)
    uint64_t stride = 0;
    int csize = 0;
  };
  View view(int index, int comps, const std::string& what) const {
    if (index < 0 || static_cast<size_t>(index) >= m_.accessors.size()) {
      fail(fmt::format("{}: accessor {} does not exist ({} accessors)", what, index,
                       m_.accessors.size()));
    }
    const tinygltf::Accessor& a = m_.accessors[index];
    if (a.sparse.isSparse) fail(fmt::format("{}: accessor {} is sparse (not supported)", what, index));
    if (tinygltf::GetNumComponentsInType(a.type) != comps) {
      fail(fmt::format("{}: accessor {} has {} components per element, expected {}", what, index,
                       tinygltf::GetNumComponentsInType(a.type), comps));
    }
    View out{&a, nullptr, 0, component_size(a.componentType)};
    if (out.csize == 0) {
      fail(fmt::format("{}: accessor {} has component type {} (expected float, or normalised "
                       "8/16-bit integers)", what, index, a.componentType));
    }
    if (a.count == 0) return out;
    if (a.bufferView < 0 || static_cast<size_t>(a.bufferView) >= m_.bufferViews.size()) {
      fail(fmt::format("{}: accessor {} has no buffer view", what, index));
    }
    const tinygltf::BufferView& v = m_.bufferViews[a.bufferView];
    if (v.buffer < 0 || static_cast<size_t>(v.buffer) >= m_.buffers.size()) {
      fail(fmt::format("{}: buffer view {} names buffer {}, which does not exist", what,
                       a.bufferView, v.buffer));
    }
    const std::vector<unsigned char>& data = m_.buffers[v.buffer].data;
    const uint64_t element = static_cast<uint64_t>(out.csize) * comps;
    out.stride = v.byteStride != 0 ? v.byteStride : element;
    const auto span = mul_u64(out.stride, a.count - 1);
    const uint64_t view_end = static_cast<uint64_t>(v.byteOffset) + v.byteLength;
    if (out.stride < element || !span || view_end > data.size() ||
        a.byteOffset > v.byteLength || *span > v.byteLength - a.byteOffset ||
        element > v.byteLength - a.byteOffset - *span) {
      fail(fmt::format("{}: accessor {} ({} elements of {} bytes, stride {}) does not fit its "
                       "buffer view ({} bytes at {} in a buffer of {})", what, index, a.count,
                       element, out.stride, v.byteLength, v.byteOffset, data.size()));
    }
    out.base = data.data() + v.byteOffset + a.byteOffset;
    return out;
  }

  // Accessor `index` as `comps` floats per element (view() checks it first).
  std::vector<float> floats(int index, int comps, const std::string& what) const {
    const View v = view(index, comps, what);
    std::vector<float> out;
    const tinygltf::Accessor& a = *v.accessor;
    if (a.count == 0) return out;
    out.resize(checked_size(a.count, comps * sizeof(float), what) / sizeof(float));
    for (size_t i = 0; i < a.count; ++i) {
      for (int c = 0; c < comps; ++c) {
        out[i * comps + c] = component(v.base + i * v.stride + c * v.csize, a.componentType, a.normalized);
      }
    }
    return out;
  }

  [[noreturn]] void fail(const std::string& message) const { throw Error(message, std::nullopt, file_); }

  const tinygltf::Model& model() const { return m_; }

 private:
  const tinygltf::Model& m_;
  std::string file_;
};

Transform rest_of(const tinygltf::Node& n) {
  Transform t;
  if (n.matrix.size() == 16) {
    Mat4 m;
    for (int i = 0; i < 16; ++i) m.m[i] = static_cast<float>(n.matrix[i]);
    t.translation = m.translation();
    Vec3 cols[3];
    for (int c = 0; c < 3; ++c) cols[c] = {m.at(0, c), m.at(1, c), m.at(2, c)};
    t.scale = {length(cols[0]), length(cols[1]), length(cols[2])};
    if (dot(cross(cols[0], cols[1]), cols[2]) < 0) t.scale.x = -t.scale.x;  // a mirror
    if (t.scale.x < 0) {
      for (int r = 0; r < 3; ++r) m.at(r, 0) = -m.at(r, 0);
    }
    t.rotation = rotation_of(m);
    return t;
  }
  if (n.translation.size() == 3) {
    t.translation = {static_cast<float>(n.translation[0]), static_cast<float>(n.translation[1]),
                     static_cast<float>(n.translation[2])};
  }
  if (n.rotation.size() == 4) {
    t.rotation = {static_cast<float>(n.rotation[0]), static_cast<float>(n.rotation[1]),
                  static_cast<float>(n.rotation[2]), static_cast<float>(n.rotation[3])};
  }
  if (n.scale.size() == 3) {
    t.scale = {static_cast<float>(n.scale[0]), static_cast<float>(n.scale[1]),
               static_cast<float>(n.scale[2])};
  }
  return t;
}

// A node's rest must be a rotation and an invertible transform (issue 32, item 5): a (0, 0, 0, 0)
// rotation or a singular matrix has no TRS to import (an all-zero matrix became a 180° rest).
void check_node_rest(const GltfReader& r, const tinygltf::Node& n, size_t i) {
  const std::string what = fmt::format("node {} ('{}')", i, n.name);
  if (n.rotation.size() == 4) {
    double norm = 0;
    for (double c : n.rotation) norm += c * c;
    if (!(norm > 1e-12) || !std::isfinite(norm)) {
      r.fail(fmt::format("{}: rotation ({}, {}, {}, {}) is not a rotation (a quaternion of length 0)", what,
                         n.rotation[0], n.rotation[1], n.rotation[2], n.rotation[3]));
    }
  }
  if (n.matrix.size() == 16) {
    const auto& m = n.matrix;  // column-major: element (row, col) is m[col * 4 + row]
    const double det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
                       m[8] * (m[1] * m[6] - m[5] * m[2]);
    if (!(std::fabs(det) > 1e-12) || !std::isfinite(det)) {
      r.fail(fmt::format("{}: matrix is singular (determinant {}): not a transform", what, det));
    }
  }
}

// Rotation keys of a channel: each value must be a rotation (glTF keys are unit quaternions; a
// zero one has no direction to normalise to). CUBICSPLINE tangents may be zero.
void check_rotation_keys(const GltfReader& r, const std::vector<float>& values, bool cubic, const std::string& what) {
  const size_t stride = cubic ? 12 : 4, first = cubic ? 4 : 0;
  for (size_t at = first, k = 0; at + 4 <= values.size(); at += stride, ++k) {
    const float* q = values.data() + at;
    const double norm = double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] + double(q[3]) * q[3];
    if (!(norm > 1e-12) || !std::isfinite(norm)) {
      r.fail(fmt::format("{}: key {} ({}, {}, {}, {}) is not a rotation (a quaternion of length 0)", what, k,
                         q[0], q[1], q[2], q[3]));
    }
  }
}

// Each node's parent (-1 for none); a node with two parents or a cycle is an error. Linear in the
// nodes (a 100,000-node chain took 23 s when each node walked to its root: issue 32, item 5).
std::vector<int> node_parents(const GltfReader& r) {
  const auto& nodes = r.model().nodes;
  std::vector<int> parent(nodes.size(), -1);
  for (size_t i = 0; i < nodes.size(); ++i) {
    check_node_rest(r, nodes[i], i);
    for (int c : nodes[i].children) {
      if (c < 0 || static_cast<size_t>(c) >= nodes.size()) {
        r.fail(fmt::format("node {} has child {}, which does not exist", i, c));
      }
      if (parent[c] != -1 || static_cast<size_t>(c) == i) {
        r.fail(fmt::format("node {} has two parents (glTF nodes form a forest)", c));
      }
      parent[c] = static_cast<int>(i);
    }
  }
  // A cycle never reaches a root. Each walk up stops at a node an earlier walk proved reaches
  // one, or at a node of its own walk (a cycle): every node is walked through once.
  constexpr int kUnknown = -1, kReachesRoot = -2;
  std::vector<int> walk(nodes.size(), kUnknown);  // else: the walk that passed through it
  for (size_t i = 0; i < nodes.size(); ++i) {
    int p = static_cast<int>(i);
    while (p != -1 && walk[p] == kUnknown) {
      walk[p] = static_cast<int>(i);
      p = parent[p];
    }
    if (p != -1 && walk[p] == static_cast<int>(i)) r.fail(fmt::format("node {} is in a cycle of children", p));
    for (int q = static_cast<int>(i); q != p; q = parent[q]) walk[q] = kReachesRoot;
  }
  return parent;
}

Json extras_of(const GltfReader& r, const std::string& text, const std::string& what) {
  if (text.empty()) return Json::object();
  try {
    Json j = Json::parse(text);
    return j.is_object() ? j : Json::object();
  } catch (const std::exception& e) {
    r.fail(fmt::format("{}: extras are not JSON: {}", what, e.what()));
  }
}

// A name with its exact bytes when the exporter carried them (`extras.name_hex`, issue 31):
// glTF names are UTF-8, so a name that was not is written escaped with its bytes beside.
std::string exact_name(const GltfReader& r, const std::string& name, const std::string& extras_text,
                       const std::string& what) {
  const Json extras = extras_of(r, extras_text, what);
  if (!extras.contains("name_hex")) return name;
  try {
    return text_from_json(Json(name), &extras["name_hex"], what + " name");
  } catch (const Error& e) {
    r.fail(e.message());
  }
}

struct JointSet {
  std::vector<int> nodes;          // joint index -> node index
  std::vector<int> joint_of_node;  // node index -> joint index, or -1
};

// The skin's joints in the file's order when parents precede children, else depth first; with no
// skin, the scene's nodes depth first.
JointSet find_joints(const GltfReader& r, const std::vector<int>& parent, Animated& out) {
  const tinygltf::Model& m = r.model();
  std::vector<int> chosen;
  if (!m.skins.empty()) {
    if (m.skins.size() > 1) out.notes.push_back(fmt::format("{} skins: the first one is read", m.skins.size()));
    std::set<int> seen;
    for (int j : m.skins[0].joints) {
      if (j < 0 || static_cast<size_t>(j) >= m.nodes.size()) r.fail(fmt::format("skin joint {} does not exist", j));
      if (!seen.insert(j).second) r.fail(fmt::format("skin lists node {} twice", j));
      chosen.push_back(j);
    }
  } else {
    std::vector<int> roots;
    if (m.scenes.empty()) {
      for (size_t i = 0; i < m.nodes.size(); ++i) {
        if (parent[i] == -1) roots.push_back(static_cast<int>(i));
      }
    } else {
      const size_t s = m.defaultScene >= 0 ? static_cast<size_t>(m.defaultScene) : 0;
      if (s >= m.scenes.size()) r.fail(fmt::format("default scene {} does not exist", s));
      for (int n : m.scenes[s].nodes) {
        if (n < 0 || static_cast<size_t>(n) >= m.nodes.size()) r.fail(fmt::format("scene node {} does not exist", n));
        roots.push_back(n);
      }
    }
    std::vector<int> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      chosen.push_back(n);
      const auto& kids = m.nodes[n].children;
      for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
    }
  }
  JointSet js;
  js.joint_of_node.assign(m.nodes.size(), -1);
  for (size_t i = 0; i < chosen.size(); ++i) js.joint_of_node[chosen[i]] = static_cast<int>(i);
  // The nearest ancestor that is a joint, each node's found once (linear: a chain of non-joint
  // nodes above many joints is not walked again for each of them).
  std::vector<int> nearest(m.nodes.size(), -2);  // -2: not computed yet
  std::vector<int> path;
  auto joint_parent = [&](int node) {
    int p = parent[node];
    while (p != -1 && js.joint_of_node[p] < 0 && nearest[p] == -2) {
      path.push_back(p);
      p = parent[p];
    }
    const int found = p == -1 ? -1 : js.joint_of_node[p] >= 0 ? p : nearest[p];
    for (int q : path) nearest[q] = found;
    path.clear();
    return found;
  };
  bool ordered = true;
  for (size_t i = 0; i < chosen.size() && ordered; ++i) {
    const int p = joint_parent(chosen[i]);
    ordered = p == -1 || js.joint_of_node[p] < static_cast<int>(i);
  }
  if (!ordered) {  // depth first from the joint roots, children in node order
    std::vector<int> order;
    std::vector<int> stack;
    for (auto it = chosen.rbegin(); it != chosen.rend(); ++it) {
      if (joint_parent(*it) == -1) stack.push_back(*it);
    }
    std::vector<std::vector<int>> kids(m.nodes.size());
    for (int n : chosen) {
      if (const int p = joint_parent(n); p != -1) kids[p].push_back(n);
    }
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      order.push_back(n);
      for (auto it = kids[n].rbegin(); it != kids[n].rend(); ++it) stack.push_back(*it);
    }
    chosen = std::move(order);
    js.joint_of_node.assign(m.nodes.size(), -1);
    for (size_t i = 0; i < chosen.size(); ++i) js.joint_of_node[chosen[i]] = static_cast<int>(i);
    out.notes.push_back("joints reordered so that parents come before children");
  }
  js.nodes = chosen;
  for (int n : chosen) {
    const int p = joint_parent(n);
    if (p != parent[n]) {
      out.notes.push_back(fmt::format("joint '{}' hangs below node '{}', which is not a joint: "
                                      "its rest transform is folded into the joint's",
                                      m.nodes[n].name, m.nodes[parent[n]].name));
    }
    const std::string name = m.nodes[n].name.empty()
                                 ? fmt::format("node_{}", n)
                                 : exact_name(r, m.nodes[n].name, m.nodes[n].extras_json_string,
                                              fmt::format("node {}", n));
    out.skeleton.add_joint(name, p == -1 ? -1 : js.joint_of_node[p], rest_of(m.nodes[n]));
  }
  return js;
}

// Issue 32, item 5: what decoding the chosen animations will hold, from the accessors' counts and
// before any key is decoded (import_budget.h, the bound rule): every channel's keys as the neutral
// clip holds them, plus the decode buffers of the channel being read. Each accessor is checked
// against its buffer first, so a count its buffer cannot hold is refused as such.
void check_decode_budget(const GltfReader& r, const std::vector<size_t>& animations,
                         const JointSet& js, uint64_t max) {
  const tinygltf::Model& m = r.model();
  uint64_t held = 0;
  for (size_t index : animations) {
    const tinygltf::Animation& a = m.animations[index];
    const std::string name = a.name.empty() ? fmt::format("animation_{}", index) : a.name;
    for (size_t c = 0; c < a.channels.size(); ++c) {
      const tinygltf::AnimationChannel& ch = a.channels[c];
      const bool trs = ch.target_path == "rotation" || ch.target_path == "translation" ||
                       ch.target_path == "scale";
      // What read_clip skips or refuses with its own message is not counted here.
      if (!trs || ch.target_node < 0 || static_cast<size_t>(ch.target_node) >= js.joint_of_node.size() ||
          js.joint_of_node[ch.target_node] < 0 || ch.sampler < 0 ||
          static_cast<size_t>(ch.sampler) >= a.samplers.size()) {
        continue;
      }
      const tinygltf::AnimationSampler& s = a.samplers[ch.sampler];
      const std::string what = fmt::format("animation '{}' channel {}", name, c);
      const int comps = ch.target_path == "rotation" ? 4 : 3;
      const uint64_t keys = r.view(s.input, 1, what + " input").accessor->count;
      const uint64_t values = r.view(s.output, comps, what + " output").accessor->count;
      const uint64_t track = keys * track_key_bytes(4 * comps, s.interpolation == "CUBICSPLINE");
      const uint64_t buffers = (keys + values * comps) * 4;  // counts fit their buffers: no wrap
      if (track + buffers > max - held) {  // held <= max: no wrap
        r.fail(fmt::format("{} (accessors {} and {}, {} keys): decoding needs {} bytes ({} for the "
                           "keys read before it), over the memory limit of {} bytes (--max-memory)",
                           what, s.input, s.output, keys, held + track + buffers, held, max));
      }
      held += track;
    }
  }
}

float extras_number(const GltfReader& r, const Json& j, const std::string& what) {
  if (!j.is_number()) r.fail(fmt::format("{}: expected a number", what));
  const double d = j.get<double>();
  if (!std::isfinite(d) || std::fabs(d) > 3.4e38) r.fail(fmt::format("{}: {} is not a finite float", what, d));
  return static_cast<float>(d);
}

template <class T>
void fill_track(Track<T>& track, const std::vector<float>& times, const std::vector<float>& values,
                bool cubic, int comps) {
  auto at = [&](size_t element) {
    const float* f = values.data() + element * comps;
    if constexpr (std::is_same_v<T, Quat>) {
      return Quat{f[0], f[1], f[2], f[3]};
    } else {
      return Vec3{f[0], f[1], f[2]};
    }
  };
  track.times.reserve(times.size());  // exactly the keys: what check_decode_budget counted
  track.values.reserve(times.size());
  if (cubic) {
    track.in_slopes.reserve(times.size());
    track.out_slopes.reserve(times.size());
  }
  for (size_t k = 0; k < times.size(); ++k) {
    if (cubic) {  // glTF order per key: in-tangent, value, out-tangent
      track.add(times[k], at(3 * k + 1), at(3 * k), at(3 * k + 2));
    } else {
      track.add(times[k], at(k));
    }
  }
}

Clip read_clip(const GltfReader& r, size_t index, const JointSet& js, size_t num_joints,
               Animated& out) {
  const tinygltf::Animation& a = r.model().animations[index];
  Clip clip;
  clip.name = a.name.empty() ? fmt::format("animation_{}", index)
                             : exact_name(r, a.name, a.extras_json_string, fmt::format("animation {}", index));
  const std::string where = fmt::format("animation '{}'", clip.name);
  clip.joints.resize(num_joints);
  std::set<std::pair<int, std::string>> targets;
  float last = 0;
  for (size_t c = 0; c < a.channels.size(); ++c) {
    const tinygltf::AnimationChannel& ch = a.channels[c];
    const std::string what = fmt::format("{} channel {}", where, c);
    if (ch.target_node < 0 || static_cast<size_t>(ch.target_node) >= js.joint_of_node.size()) {
      r.fail(fmt::format("{}: target node {} does not exist", what, ch.target_node));
    }
    const int joint = js.joint_of_node[ch.target_node];
    if (joint < 0 || ch.target_path == "weights") {
      out.notes.push_back(fmt::format("{}: {} of node {} skipped (not a joint transform)", what,
                                      ch.target_path, ch.target_node));
      continue;
    }
    if (!targets.insert({joint, ch.target_path}).second) {
      r.fail(fmt::format("{}: a second channel drives {} of joint '{}'", what, ch.target_path,
                         out.skeleton.names[joint]));
    }
    if (ch.sampler < 0 || static_cast<size_t>(ch.sampler) >= a.samplers.size()) {
      r.fail(fmt::format("{}: sampler {} does not exist", what, ch.sampler));
    }
    const tinygltf::AnimationSampler& s = a.samplers[ch.sampler];
    const bool cubic = s.interpolation == "CUBICSPLINE";
    const bool step = s.interpolation == "STEP";
    if (!cubic && !step && s.interpolation != "LINEAR") {
      r.fail(fmt::format("{}: interpolation '{}' is not LINEAR, STEP or CUBICSPLINE", what, s.interpolation));
    }
    const int comps = ch.target_path == "rotation" ? 4 : 3;
    if (ch.target_path != "rotation" && ch.target_path != "translation" && ch.target_path != "scale") {
      r.fail(fmt::format("{}: unknown target path '{}'", what, ch.target_path));
    }
    const std::vector<float> times = r.floats(s.input, 1, what + " input");
    const std::vector<float> values = r.floats(s.output, comps, what + " output");
    if (comps == 4) check_rotation_keys(r, values, cubic, what);
    if (values.size() != times.size() * comps * (cubic ? 3 : 1)) {
      r.fail(fmt::format("{}: {} keys but {} output elements", what, times.size(), values.size() / comps));
    }
    if (!times.empty() && std::isfinite(times.back())) last = std::max(last, times.back());
    const Interpolation interp = step ? Interpolation::kStep
                                 : cubic ? Interpolation::kHermite
                                 : comps == 4 ? Interpolation::kSlerp
                                              : Interpolation::kLinear;
    JointTracks& jt = clip.joints[joint];
    if (comps == 4) {
      jt.rotation.interpolation = interp;
      fill_track(jt.rotation, times, values, cubic, 4);
    } else {
      Track<Vec3>& t = ch.target_path == "translation" ? jt.translation : jt.scale;
      t.interpolation = interp;
      fill_track(t, times, values, cubic, 3);
    }
  }
  const Json extras = extras_of(r, a.extras_json_string, where);
  clip.duration = extras.contains("duration") ? extras_number(r, extras["duration"], where + " extras.duration") : last;
  if (extras.contains("frame_rate")) {
    clip.frame_rate = extras_number(r, extras["frame_rate"], where + " extras.frame_rate");
    if (!(clip.frame_rate > 0)) r.fail(where + " extras.frame_rate: must be above 0");
  }
  if (extras.contains("looping")) {
    if (!extras["looping"].is_boolean()) r.fail(where + " extras.looping: expected true or false");
    clip.looping = extras["looping"].get<bool>();
  }
  if (extras.contains("events")) {
    const Json& events = extras["events"];
    if (!events.is_array()) r.fail(where + " extras.events: expected an array");
    for (size_t e = 0; e < events.size(); ++e) {
      const std::string ew = fmt::format("{} extras.events[{}]", where, e);
      const Json& j = events[e];
      if (!j.is_object() || !j.contains("time") || !j.contains("name") || !j["name"].is_string()) {
        r.fail(ew + ": expected {\"time\": seconds, \"name\": text, \"payload\": {...}}");
      }
      Event ev;
      ev.time = extras_number(r, j["time"], ew + ".time");
      try {
        ev.name = text_from_json(j, "name", ew + ".name");
      } catch (const Error& e) {
        r.fail(e.message());
      }
      ev.payload = j.contains("payload") ? j["payload"].dump() : "{}";
      clip.events.push_back(std::move(ev));
    }
  }
  if (std::string e = clip.validate(num_joints); !e.empty()) r.fail(fmt::format("{}: {}", where, e));
  return clip;
}

// With the bind pose as the rest, a joint (or one of its paths) with no keys would take the bind
// pose, where the glTF poses it by its node's transform: an edit of that node was lost (issue
// 32). Each such path whose node value differs from the bind rest becomes a constant channel (one
// key at 0) in every clip, named in a note; fit_to_template then drops it when it restates the
// template's rest, else the format writes it as its rules allow.
void keep_node_transforms(const std::vector<Transform>& nodes, float size, Animated& out) {
  const Skeleton& sk = out.skeleton;
  for (size_t j = 0; j < nodes.size(); ++j) {
    const Transform& n = nodes[j];
    const Transform& b = sk.rest[j];
    const bool moved = length(n.translation - b.translation) > 1e-4f * size;
    const bool turned = std::fabs(dot(normalize(n.rotation), normalize(b.rotation))) < 1 - 1e-7f;
    const bool scaled = length(n.scale - b.scale) > 1e-5f;
    bool kept = false;
    for (Clip& c : out.clips) {
      JointTracks& jt = c.joints[j];
      if (moved && jt.translation.empty()) jt.translation.add(0, n.translation), kept = true;
      if (turned && jt.rotation.empty()) jt.rotation.add(0, normalize(n.rotation)), kept = true;
      if (scaled && jt.scale.empty()) jt.scale.add(0, n.scale), kept = true;
    }
    if (kept) {
      out.notes.push_back(fmt::format("joint '{}': its node transform, which differs from the bind "
                                      "pose and has no keys, is kept as a constant channel",
                                      sk.names[j]));
    } else if ((moved || turned || scaled) && out.clips.empty()) {
      out.notes.push_back(fmt::format("joint '{}': its node transform differs from the bind pose "
                                      "(no animation to keep it in)", sk.names[j]));
    }
  }
}

// The file's own rest for fit_to_template (template_fit.h, issue 32): the static transforms of
// non-joint ancestors (an armature node) folded into each joint's rest and keys, so the joints'
// model space is the file's world; and, when the skin's inverse bind matrices disagree with the
// nodes' rest, the bind pose they give (the pose the mesh was bound in) as the rest.
void fold_file_rest(const GltfReader& r, const std::vector<int>& parent, const JointSet& js,
                    Animated& out) {
  const tinygltf::Model& m = r.model();
  Skeleton& sk = out.skeleton;
  for (size_t j = 0; j < js.nodes.size(); ++j) {
    Transform pre;
    bool any = false;
    for (int p = parent[js.nodes[j]]; p != -1 && js.joint_of_node[p] < 0; p = parent[p]) {
      pre = compose(rest_of(m.nodes[p]), pre);
      any = true;
    }
    if (!any || pre == Transform{}) continue;
    sk.rest[j] = compose(pre, sk.rest[j]);
    for (Clip& c : out.clips) {
      JointTracks& jt = c.joints[j];
      for (Vec3& v : jt.translation.values) v = pre.translation + rotate(pre.rotation, pre.scale * v);
      for (auto* sl : {&jt.translation.in_slopes, &jt.translation.out_slopes})
        for (Vec3& v : *sl) v = rotate(pre.rotation, pre.scale * v);
      for (Quat& q : jt.rotation.values) q = normalize(pre.rotation * q);
      for (auto* sl : {&jt.rotation.in_slopes, &jt.rotation.out_slopes})
        for (Quat& q : *sl) q = pre.rotation * q;
      for (Vec3& v : jt.scale.values) v = pre.scale * v;
      for (auto* sl : {&jt.scale.in_slopes, &jt.scale.out_slopes})
        for (Vec3& v : *sl) v = pre.scale * v;
    }
  }
  if (m.skins.empty() || m.skins[0].inverseBindMatrices < 0) return;
  const std::vector<float> ibm = r.floats(m.skins[0].inverseBindMatrices, 16, "skin 0 inverseBindMatrices");
  if (ibm.size() != 16 * js.nodes.size()) return;  // (a count the skin does not match: unused)
  std::vector<Mat4> bind(js.nodes.size());
  std::vector<Transform> world(js.nodes.size());
  float size = 1, worst = 0;
  for (size_t j = 0; j < bind.size(); ++j) {
    Mat4 inv;
    for (int i = 0; i < 16; ++i) inv.m[i] = ibm[16 * j + i];
    bind[j] = inverse_affine(inv);
    for (float v : bind[j].m) {
      if (!std::isfinite(v)) return;  // a singular inverse bind matrix: the nodes' rest stays
    }
    world[j] = sk.parents[j] < 0 ? sk.rest[j] : compose(world[sk.parents[j]], sk.rest[j]);
    size = std::max(size, length(world[j].translation));
    const Mat4 w = to_matrix(world[j]);
    for (int i = 0; i < 16; ++i) worst = std::max(worst, std::fabs(w.m[i] - bind[j].m[i]));
  }
  if (worst <= 1e-4f * size) return;
  const std::vector<Transform> nodes = sk.rest;
  for (size_t j = 0; j < bind.size(); ++j) {
    const int p = sk.parents[j];
    const Mat4 local = p < 0 ? bind[j] : inverse_affine(bind[p]) * bind[j];
    tinygltf::Node n;
    n.matrix.assign(local.m.begin(), local.m.end());
    sk.rest[j] = rest_of(n);
  }
  out.notes.push_back("the rest pose is the skin's bind pose (its inverse bind matrices differ "
                      "from the nodes' rest)");
  keep_node_transforms(nodes, size, out);
}

// tinygltf copies extras into its own Value recursively, one stack frame per level: 20,000 nested
// '[' overflowed the stack (issue 32, item 5). The JSON (a GLB's first chunk, glTF 2.0 "Binary
// glTF Layout") is held to parse_json's depth before tinygltf sees it.
void check_json_depth(Bytes bytes, bool glb, const std::string& file) {
  uint64_t start = 0, length = bytes.size();
  if (glb) {
    if (bytes.size() < 20) return;  // tinygltf refuses the header
    uint32_t chunk = 0;
    std::memcpy(&chunk, bytes.data() + 12, 4);
    start = 20;
    length = std::min<uint64_t>(chunk, bytes.size() - start);
  }
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()) + start, length);
  if (const auto at = json_too_deep_at(text)) {
    throw Error(fmt::format("glTF JSON nested deeper than {} levels", kMaxJsonDepth), start + *at, file);
  }
}

}  // namespace

Animated read(const std::filesystem::path& path, Bytes bytes, const ImportOptions& options) {
  const std::string file = path.string();
  check_memory(bytes.size(), "glTF file");
  if (bytes.size() > UINT32_MAX) throw Error("glTF files above 4 GiB are not supported", std::nullopt, file);
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(skip_image, nullptr);
  loader.SetStoreOriginalJSONForExtrasAndExtensions(true);
  tinygltf::Model model;
  std::string err, warn;
  const std::string base = path.parent_path().string();
  const bool glb = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
  check_json_depth(bytes, glb, file);
  bool ok = false;
  try {  // tinygltf reports through `err`, but its JSON layer may still throw
    ok = glb ? loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(),
                                           static_cast<unsigned>(bytes.size()), base)
             : loader.LoadASCIIFromString(&model, &err, &warn,
                                          reinterpret_cast<const char*>(bytes.data()),
                                          static_cast<unsigned>(bytes.size()), base);
  } catch (const std::exception& e) {
    err = e.what();
  }
  if (!ok) {
    while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
    throw Error(fmt::format("not a readable glTF 2.0 file: {}", err.empty() ? "tinygltf refused it" : err),
                std::nullopt, file);
  }
  GltfReader r(model, file);
  Animated out;
  const std::vector<int> parent = node_parents(r);
  const JointSet joints = find_joints(r, parent, out);
  if (out.skeleton.num_joints() == 0) r.fail("the file has no nodes to make a skeleton of");
  if (std::string e = out.skeleton.validate(); !e.empty()) r.fail(e);
  std::vector<size_t> chosen;
  for (size_t i = 0; i < model.animations.size(); ++i) {
    if (options.clip.empty() || model.animations[i].name == options.clip) chosen.push_back(i);
  }
  const bool found = options.clip.empty() || !chosen.empty();
  check_decode_budget(r, chosen, joints, options.max_memory ? options.max_memory : limits().max_memory);
  for (size_t i : chosen) {
    out.clips.push_back(read_clip(r, i, joints, out.skeleton.num_joints(), out));
    if (options.untimed) {
      const Json x = extras_of(r, model.animations[i].extras_json_string, "animation");
      if (!x.contains("duration") && !x.contains("events")) options.untimed->push_back(out.clips.back().name);
    }
  }
  fold_file_rest(r, parent, joints, out);
  if (!found) {
    std::string names;
    for (const auto& a : model.animations) names += (names.empty() ? "" : ", ") + a.name;
    r.fail(fmt::format("no animation named '{}' (the file has: {})", options.clip,
                       names.empty() ? "none" : names));
  }
  if (options.notes) *options.notes = out.notes;
  const Json asset = extras_of(r, model.asset.extras_json_string, "asset");
  if (asset.contains("notes") && asset["notes"].is_array()) {
    const Json& hex = asset.value("notes_hex", Json::array());
    for (size_t i = 0; i < asset["notes"].size(); ++i) {
      const Json& n = asset["notes"][i];
      if (!n.is_string()) continue;
      const bool exact = hex.is_array() && i < hex.size() && hex[i].is_string();
      try {
        out.notes.push_back(text_from_json(n, exact ? &hex[i] : nullptr, "asset extras.notes"));
      } catch (const Error& e) {
        r.fail(e.message());
      }
    }
  }
  return out;
}

Animated read(const std::filesystem::path& path, const ImportOptions& options) {
  const std::vector<uint8_t> bytes = read_file(path);
  return read(path, bytes, options);
}

}  // namespace animkit::gltf
