// Test files built in code (glTF 2.0 "Binary glTF Layout", "Animations"): a chain of joints
// j0 -> j1 -> ... whose rotations every channel of one animation 'spin' drives through the same
// two accessors (key times i / 30 s, rotations about +Z). The accessors' counts can be claimed
// larger than the buffer holds, and the animation can carry extras.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace animkit::gltf::testing {

struct Spin {
  uint32_t keys = 2;         // keys in the buffer
  uint64_t claimed = 0;      // the accessors' count (0: keys)
  int channels = 1;          // joints driven (all through the same accessors)
  std::string extras = "";   // the animation's extras JSON ("" for none)
};

inline std::vector<uint8_t> spin_glb(const Spin& s) {
  std::vector<uint8_t> bin(uint64_t{s.keys} * 20);
  for (uint32_t i = 0; i < s.keys; ++i) {
    const float t = static_cast<float>(i) / 30.f, half = 0.01f * static_cast<float>(i);
    const float q[4] = {0, 0, std::sin(half), std::cos(half)};
    std::memcpy(bin.data() + uint64_t{i} * 4, &t, 4);
    std::memcpy(bin.data() + uint64_t{s.keys} * 4 + uint64_t{i} * 16, q, 16);
  }
  const uint64_t count = s.claimed ? s.claimed : s.keys;
  std::string nodes, channels;
  for (int j = 0; j < s.channels; ++j) {
    nodes += (j ? ", " : "") + std::string(R"({"name": "j)") + std::to_string(j) + '"';
    if (j + 1 < s.channels) nodes += R"(, "children": [)" + std::to_string(j + 1) + "]";
    nodes += "}";
    channels += (j ? ", " : "") + std::string(R"({"sampler": 0, "target": {"node": )") +
                std::to_string(j) + R"(, "path": "rotation"}})";
  }
  std::string json = R"({"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [)" + nodes +
                     R"(], "buffers": [{"byteLength": )" + std::to_string(bin.size()) +
                     R"(}], "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": )" +
                     std::to_string(uint64_t{s.keys} * 4) + R"(}, {"buffer": 0, "byteOffset": )" +
                     std::to_string(uint64_t{s.keys} * 4) + R"(, "byteLength": )" +
                     std::to_string(uint64_t{s.keys} * 16) +
                     R"(}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": )" +
                     std::to_string(count) + R"(, "type": "SCALAR", "min": [0], "max": [)" +
                     std::to_string(static_cast<double>(s.keys - 1) / 30) +
                     R"(]}, {"bufferView": 1, "componentType": 5126, "count": )" + std::to_string(count) +
                     R"(, "type": "VEC4"}], "animations": [{"name": "spin", "samplers": [{"input": 0, "output": 1}], "channels": [)" +
                     channels + "]" + (s.extras.empty() ? "" : R"(, "extras": )" + s.extras) + "}]}";
  while (json.size() % 4) json += ' ';
  while (bin.size() % 4) bin.push_back(0);
  const uint32_t total = static_cast<uint32_t>(12 + 8 + json.size() + 8 + bin.size());
  std::vector<uint8_t> out(total);
  const uint32_t head[5] = {0x46546C67, 2, total, static_cast<uint32_t>(json.size()), 0x4E4F534A};
  std::memcpy(out.data(), head, 20);
  std::memcpy(out.data() + 20, json.data(), json.size());
  const uint32_t bin_head[2] = {static_cast<uint32_t>(bin.size()), 0x004E4942};
  std::memcpy(out.data() + 20 + json.size(), bin_head, 8);
  std::memcpy(out.data() + 28 + json.size(), bin.data(), bin.size());
  return out;
}

}  // namespace animkit::gltf::testing
