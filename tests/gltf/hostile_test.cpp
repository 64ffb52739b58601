// Hostile glTF (issue 32, item 5): the JSON depth is held before tinygltf parses, node walks are
// linear, zero quaternions and singular matrices are refused naming the node. Files are written
// as text here (a 20,000-level Json would itself recurse to dump).
#include <gtest/gtest.h>

#include <ctime>
#include <cstring>
#include <string>

#include "animkit/core/error.h"
#include "animkit/gltf/import.h"
#include "spin_gltf.h"

namespace animkit::gltf {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
constexpr double kSanitizerSlowdown = 4;
#else
constexpr double kSanitizerSlowdown = 1;
#endif

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

// A GLB of one JSON chunk (glTF 2.0, "Binary glTF Layout"): header, chunk length, "JSON", text
// padded with spaces to 4 bytes.
std::vector<uint8_t> glb_of(std::string json) {
  while (json.size() % 4) json += ' ';
  std::vector<uint8_t> out(20 + json.size());
  const uint32_t header[5] = {0x46546C67, 2, static_cast<uint32_t>(out.size()),
                              static_cast<uint32_t>(json.size()), 0x4E4F534A};
  std::memcpy(out.data(), header, 20);
  std::memcpy(out.data() + 20, json.data(), json.size());
  return out;
}

std::string error_of(const std::vector<uint8_t>& bytes, std::optional<uint64_t>* offset = nullptr) {
  try {
    read("hostile.glb", bytes);
  } catch (const Error& e) {
    if (offset) *offset = e.offset();
    return e.message();
  }
  return "no error";
}

const std::string kHead = R"({"asset": {"version": "2.0"}, )";

TEST(GltfHostile, DeepExtrasAreRefusedBeforeTinygltfParses) {
  const std::string deep = std::string(20000, '[') + std::string(20000, ']');
  const std::string text = kHead + R"("nodes": [{"name": "a", "extras": {"x": )" + deep + "}}]}";
  for (const bool glb : {false, true}) {
    std::optional<uint64_t> at;
    EXPECT_EQ(error_of(glb ? glb_of(text) : bytes_of(text), &at), "glTF JSON nested deeper than 512 levels");
    // The '[' that opens level 513: the root object, "nodes" array, the node and "extras" are 4.
    const uint64_t first = text.find('[', text.find("\"x\""));
    EXPECT_EQ(at, (glb ? 20 : 0) + first + 508) << glb;
  }
  // Brackets inside strings do not count; 512 levels are read.
  const std::string fine = kHead + R"("nodes": [{"name": "[[[[", "extras": {"x": )" + std::string(508, '[') +
                           std::string(508, ']') + "}}]}";
  EXPECT_EQ(error_of(bytes_of(fine)), "no error");
}

// `count` nodes, each the child of the one before; with a skin over the last `joints` of them.
std::string chain(int count, int joints) {
  std::string s = kHead + R"("scenes": [{"nodes": [0]}], "nodes": [)";
  for (int i = 0; i < count; ++i) {
    s += i ? "," : "";
    s += R"({"name": "n)" + std::to_string(i) + '"';
    if (i + 1 < count) s += R"(, "children": [)" + std::to_string(i + 1) + "]";
    s += "}";
  }
  s += "]";
  if (joints > 0) {
    s += R"(, "skins": [{"joints": [)";
    for (int i = count - joints; i < count; ++i) s += (i > count - joints ? "," : "") + std::to_string(i);
    s += "]}]";
  }
  return s + "}";
}

double seconds_of(const std::string& text, std::string* error = nullptr, Animated* out = nullptr) {
  const auto bytes = bytes_of(text);
  const std::clock_t start = std::clock();  // CPU time: the machine running the tests is shared
  try {
    Animated a = read("chain.gltf", bytes);
    if (out) *out = std::move(a);
  } catch (const Error& e) {
    if (error) *error = e.message();
  }
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

TEST(GltfHostile, HundredThousandNodeChainInLinearTime) {
  // Every node a joint: more joints than a skeleton holds, refused after the walks (23 s before).
  std::string error;
  EXPECT_LT(seconds_of(chain(100000, 0), &error), 1.0 * kSanitizerSlowdown);
  EXPECT_EQ(error, "skeleton has 100000 joints");
  // A skin over the last 20,000: each joint's parent is found once, through the memo.
  Animated a;
  EXPECT_LT(seconds_of(chain(100000, 20000), &error, &a), 1.0 * kSanitizerSlowdown);
  ASSERT_EQ(a.skeleton.num_joints(), 20000u);
  EXPECT_EQ(a.skeleton.parents[0], -1);
  EXPECT_EQ(a.skeleton.parents[19999], 19998);
  EXPECT_EQ(a.skeleton.names[0], "n80000");
}

TEST(GltfHostile, CycleOfChildrenIsStillAnError) {
  const std::string text = kHead + R"("nodes": [{"name": "a", "children": [1]}, {"name": "b", "children": [2]},
      {"name": "c", "children": [1]}]})";
  // b has parents a and c: the forest check names it first.
  EXPECT_EQ(error_of(bytes_of(text)), "node 1 has two parents (glTF nodes form a forest)");
  const std::string loop = kHead + R"("nodes": [{"name": "a", "children": [1]}, {"name": "b", "children": [0]}]})";
  EXPECT_EQ(error_of(bytes_of(loop)), "node 0 is in a cycle of children");
}

TEST(GltfHostile, ZeroQuaternionAndSingularMatrixNameTheNode) {
  const std::string zero = kHead + R"("nodes": [{"name": "ok"}, {"name": "hips", "rotation": [0, 0, 0, 0]}]})";
  EXPECT_EQ(error_of(bytes_of(zero)),
            "node 1 ('hips'): rotation (0, 0, 0, 0) is not a rotation (a quaternion of length 0)");
  const std::string singular = kHead + R"("nodes": [{"name": "arm", "matrix": [0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,1]}]})";
  EXPECT_EQ(error_of(bytes_of(singular)), "node 0 ('arm'): matrix is singular (determinant 0): not a transform");
  const std::string flat = kHead + R"("nodes": [{"name": "arm", "matrix": [1,0,0,0, 0,1,0,0, 0,0,0,0, 0,0,0,1]}]})";
  EXPECT_NE(error_of(bytes_of(flat)).find("singular"), std::string::npos);
  // A unit quaternion and an invertible matrix are read.
  const std::string fine = kHead + R"("nodes": [{"name": "a", "rotation": [0, 0, 1, 0]},
      {"name": "b", "matrix": [2,0,0,0, 0,2,0,0, 0,0,2,0, 1,2,3,1]}]})";
  EXPECT_EQ(error_of(bytes_of(fine)), "no error");
}

TEST(GltfHostile, ZeroQuaternionKeyNamesTheChannel) {
  // Times {0, 1} then rotations {identity, zero}, as base64 in a data URI.
  float data[10] = {0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
  std::string raw(reinterpret_cast<const char*>(data), sizeof data);
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string b64;
  for (size_t i = 0; i < raw.size(); i += 3) {
    uint32_t v = static_cast<uint8_t>(raw[i]) << 16;
    if (i + 1 < raw.size()) v |= static_cast<uint8_t>(raw[i + 1]) << 8;
    if (i + 2 < raw.size()) v |= static_cast<uint8_t>(raw[i + 2]);
    b64 += k[v >> 18 & 63];
    b64 += k[v >> 12 & 63];
    b64 += i + 1 < raw.size() ? k[v >> 6 & 63] : '=';
    b64 += i + 2 < raw.size() ? k[v & 63] : '=';
  }
  const std::string text = kHead + R"("nodes": [{"name": "a"}], "scenes": [{"nodes": [0]}],
      "buffers": [{"byteLength": 40, "uri": "data:application/octet-stream;base64,)" + b64 + R"("}],
      "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 32}],
      "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
                    {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"}],
      "animations": [{"name": "spin", "samplers": [{"input": 0, "output": 1}],
                      "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}]}]})";
  EXPECT_EQ(error_of(bytes_of(text)),
            "animation 'spin' channel 0: key 1 (0, 0, 0, 0) is not a rotation (a quaternion of length 0)");
}

// Issue 32, item 5: a count its buffer cannot hold is refused before anything is allocated (the
// GLB is 2 keys, 40 bytes of buffer; 2^31 keys would decode to 40 GiB).
TEST(GltfHostile, ClaimedCountBeyondTheBufferIsRefusedNamingTheAccessor) {
  testing::Spin s;
  s.claimed = uint64_t{1} << 31;
  EXPECT_EQ(error_of(testing::spin_glb(s)),
            "animation 'spin' channel 0 input: accessor 0 (2147483648 elements of 4 bytes, stride 4) "
            "does not fit its buffer view (8 bytes at 0 in a buffer of 40)");
}

// The decode bound (import_budget.h, check 1), from the counts before decoding: 10,000 keys are
// 10,000 x (4 + 16) = 200,000 bytes as a neutral track, and (10,000 + 40,000) x 4 = 200,000 bytes
// of decode buffers while read. Three channels share the accessors (a 200 KB buffer claims
// 600 KB of keys): under 700,000 bytes the third one is refused, naming it and the budget.
TEST(GltfHostile, SharedAccessorsAreCountedPerChannelAgainstTheMemoryLimit) {
  testing::Spin s;
  s.keys = 10000;
  s.channels = 3;
  const std::vector<uint8_t> bytes = testing::spin_glb(s);
  ImportOptions o;
  o.max_memory = 700000;
  try {
    read("big.glb", bytes, o);
    ADD_FAILURE() << "read";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "animation 'spin' channel 2 (accessors 0 and 1, 10000 keys): decoding needs "
                           "800000 bytes (400000 for the keys read before it), over the memory limit "
                           "of 700000 bytes (--max-memory)");
  }
  o.max_memory = 800000;  // exactly enough
  const Animated a = read("big.glb", bytes, o);
  ASSERT_EQ(a.clips.size(), 1u);
  EXPECT_EQ(a.clips[0].joints[2].rotation.size(), 10000u);
  o.clip = "other";  // an animation not chosen is not counted (and not found)
  o.max_memory = 1;
  EXPECT_THROW(
      try { read("big.glb", bytes, o); } catch (const Error& e) {
        EXPECT_EQ(e.message(), "no animation named 'other' (the file has: spin)");
        throw;
      },
      Error);
}

}  // namespace
}  // namespace animkit::gltf
