// A hand-made glTF for the bind-pose rule of gltf::read (issue 32): shared by the reader's test
// and the CLI's (`animkit import` prints the reader's notes).
#pragma once

#include <cstring>
#include <vector>

#include "animkit/gltf/export.h"

namespace animkit::gltf::testing {

inline void put_floats(std::vector<uint8_t>& b, const std::vector<float>& v) {
  const size_t at = b.size();
  b.resize(at + v.size() * 4);
  std::memcpy(b.data() + at, v.data(), v.size() * 4);
}

// hips -> spine -> head bound standing straight (inverse bind matrices of translations (0, 1, 0),
// (0, 1.5, 0), (0, 1.8, 0)); the file then bends the spine 90 degrees about X in its node, which
// no channel drives, and keys only the hips. The nodes disagree with the inverse bind matrices, so
// the rest becomes the bind pose (issue 32): the spine's edit must survive as a constant channel.
inline std::vector<uint8_t> bent_spine(bool with_ibm) {
  std::vector<uint8_t> buf;
  put_floats(buf, {0, 1});                            // 0: times
  put_floats(buf, {0, 0, 0, 1, 0, 0.7071068f, 0, 0.7071068f});  // 8: hips rotations (identity, 90 deg Y)
  for (float y : {1.f, 1.5f, 1.8f}) put_floats(buf, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y, 0, 1});  // 40
  Json j;
  j["nodes"] = Json::array({{{"name", "hips"}, {"children", {1}}, {"translation", {0, 1, 0}}},
                            {{"name", "spine"}, {"children", {2}}, {"translation", {0, 0.5, 0}},
                             {"rotation", {0.7071068, 0, 0, 0.7071068}}},
                            {{"name", "head"}, {"translation", {0, 0.3, 0}}}});
  j["skins"] = Json::array({{{"joints", {0, 1, 2}}}});
  if (with_ibm) j["skins"][0]["inverseBindMatrices"] = 2;
  j["scenes"] = Json::array({{{"nodes", {0}}}});
  j["bufferViews"] = Json::array({{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 8}},
                                  {{"buffer", 0}, {"byteOffset", 8}, {"byteLength", 32}},
                                  {{"buffer", 0}, {"byteOffset", 40}, {"byteLength", 192}}});
  j["accessors"] = Json::array(
      {{{"bufferView", 0}, {"componentType", 5126}, {"count", 2}, {"type", "SCALAR"}, {"min", {0}}, {"max", {1}}},
       {{"bufferView", 1}, {"componentType", 5126}, {"count", 2}, {"type", "VEC4"}},
       {{"bufferView", 2}, {"componentType", 5126}, {"count", 3}, {"type", "MAT4"}}});
  j["animations"] = Json::array(
      {{{"name", "turn"},
        {"samplers", Json::array({{{"input", 0}, {"output", 1}}})},
        {"channels", Json::array({{{"sampler", 0}, {"target", {{"node", 0}, {"path", "rotation"}}}}})}}});
  Document d;
  j["asset"] = {{"version", "2.0"}};
  j["buffers"] = Json::array({{{"byteLength", buf.size()}}});
  d.json = std::move(j);
  d.buffer = std::move(buf);
  return to_glb(d);
}

}  // namespace animkit::gltf::testing
