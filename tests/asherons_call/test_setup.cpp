// The Setup object (asherons-call-dat-container.md section 5): every field, the flag-gated ones
// included, byte-exact round trips, and the EoR test vectors' shapes built in code.
#include <gtest/gtest.h>

#include <cstring>

#include "animkit/asherons_call/setup.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {
namespace {

AFrame identity() { return AFrame{{0, 0, 0}, Quat::identity()}; }

// Shaped like 0x02000108 (container page 5 vectors): flags 0x8, one part, one Default
// placement, one sphere, the physics figures.
asherons_call::Setup setup_0108() {
  asherons_call::Setup s;
  s.id = 0x02000108u;
  s.flags = kSetupHasPhysicsBSP;
  s.parts = {0x010008ABu};
  s.placement_frames.push_back({kPlacementDefault, AnimationFrame{{identity()}, {}}});
  s.spheres.push_back({{0, -0.1475f, 0.439f}, 0.439f});
  s.height = 0.878f;
  s.radius = 0.5269661f;
  s.step_up_height = 0.3612f;
  s.step_down_height = 0.3612f;
  s.sorting_sphere = {{0.000971317f, -0.0658602f, 0.439f}, 0.520641f};
  s.selection_sphere = {{0, 0, 0.439f}, 0.5269661f};
  return s;
}

float f32_at(const std::vector<uint8_t>& b, size_t at) {
  float v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
uint32_t u32_at(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

// The field order, with every size the page gives (no padding).
TEST(AcSetup, LayoutOfASimpleSetup) {
  const asherons_call::Setup s = setup_0108();
  const std::vector<uint8_t> b = write_setup(s);
  // id, flags, N=1, part; no parents/scales (flags 0x8); holding 0, connection 0; placements 1:
  // key + 28-byte frame + hook count; cyl 0; spheres 1 x 16; 4 floats; 2 spheres; lights 0; 5 ids.
  EXPECT_EQ(u32_at(b, 8), 1u);
  EXPECT_EQ(u32_at(b, 12), 0x010008ABu);
  EXPECT_EQ(u32_at(b, 16), 0u);  // holding_locations
  EXPECT_EQ(u32_at(b, 20), 0u);  // connection_points
  EXPECT_EQ(u32_at(b, 24), 1u);  // placement_frames
  EXPECT_EQ(u32_at(b, 28), 0u);  // key 0, then 28 bytes of frame and a hook count: 36 bytes
  EXPECT_EQ(f32_at(b, 32 + 12), 1.0f);  // w first
  EXPECT_EQ(u32_at(b, 60), 0u);         // no hooks
  EXPECT_EQ(u32_at(b, 64), 0u);         // cyl_spheres
  EXPECT_EQ(u32_at(b, 68), 1u);         // spheres
  EXPECT_EQ(f32_at(b, 72 + 4), -0.1475f);
  EXPECT_EQ(f32_at(b, 88), 0.878f);       // height
  EXPECT_EQ(f32_at(b, 92), 0.5269661f);   // radius
  EXPECT_EQ(f32_at(b, 96), 0.3612f);      // step_up
  EXPECT_EQ(f32_at(b, 100), 0.3612f);     // step_down
  EXPECT_EQ(f32_at(b, 104 + 12), 0.520641f);   // sorting sphere radius
  EXPECT_EQ(f32_at(b, 120 + 12), 0.5269661f);  // selection sphere radius
  EXPECT_EQ(u32_at(b, 136), 0u);               // lights
  EXPECT_EQ(b.size(), 140u + 5 * 4);
  EXPECT_EQ(read_setup(b), s);
  EXPECT_EQ(write_setup(read_setup(b)), b);
}

// Flags 0x7 (0x02000240's shape): parent indices and default scales, one per part.
TEST(AcSetup, FlagGatedFieldsRoundTrip) {
  asherons_call::Setup s;
  s.id = 0x02000240u;
  s.flags = kSetupHasParent | kSetupHasDefaultScale | kSetupAllowFreeHeading;
  for (uint32_t i = 0; i < 5; ++i) {
    s.parts.push_back(0x01003769u + i);
    s.parent_index.push_back(i == 0 ? kNoParent : i - 1);
    s.default_scale.push_back(i == 4 ? Vec3{0.795999f, 0.795999f, 0.795999f}
                                     : Vec3{0.532f, 0.532f, 0.532f});
  }
  AnimationFrame rest;
  for (int i = 0; i < 5; ++i) rest.parts.push_back({{0, 0, 0.1f * i}, Quat::identity()});
  s.placement_frames.push_back({kPlacementDefault, rest});
  rest.parts[1].origin.x = 0.5f;
  rest.hooks.push_back(AnimHook{static_cast<uint32_t>(HookType::kSound), 0, {0x0A000001u}});
  s.placement_frames.push_back({kPlacementResting, rest});
  // 0x0200185A's shape: holding locations with a rotated frame.
  s.holding_locations.push_back({0, 9, {{0, 0.1f, 0.1825f}, Quat::identity()}});
  s.holding_locations.push_back(
      {8, 12, {{-0.045f, 0, -0.076f}, Quat{0.707107f, 0, 0, 0.707107f}}});
  s.connection_points.push_back({1, 2, identity()});
  s.cyl_spheres.push_back({{0, 0, 0.5f}, 0.3f, 1.8f});
  // 0x02000229's shape: a light, colour A255 R250 G200 B0 stored B, G, R, A.
  LightInfo light;
  light.frame = {{-0.0325001f, 0.0525f, 0.4975f}, Quat{-0.277816f, 0.115075f, -0.364972f, 0.88112f}};
  light.color = 0xFFFAC800u;
  light.intensity = 100;
  light.falloff = 5;
  uint32_t cd = 0xCDCDCDCDu;
  std::memcpy(&light.cone_angle, &cd, 4);
  s.lights.push_back(light);
  s.default_animation = 0x03000001u;
  s.default_motion_table = 0x09000001u;
  s.default_script_table = 0x34000004u;
  s.tail = {0xAB, 0xCD};
  const std::vector<uint8_t> b = write_setup(s);
  EXPECT_EQ(u32_at(b, 12 + 5 * 4), kNoParent);  // parent_index[0] right after the parts
  EXPECT_EQ(f32_at(b, 12 + 10 * 4), 0.532f);     // default_scale[0].x after the parents
  const asherons_call::Setup back = read_setup(b);
  EXPECT_EQ(back, s);
  EXPECT_EQ(write_setup(back), b);
  // The light's colour bytes are B, G, R, A on disk; cone_angle keeps its bits.
  const size_t light_at = b.size() - 2 - 20 - 48;
  EXPECT_EQ(b[light_at + 32], 0x00);
  EXPECT_EQ(b[light_at + 33], 0xC8);
  EXPECT_EQ(b[light_at + 34], 0xFA);
  EXPECT_EQ(b[light_at + 35], 0xFF);
  EXPECT_EQ(u32_at(b, light_at + 44), 0xCDCDCDCDu);
  // Container page 6: the rest pose is placement 101, else 0.
  ASSERT_NE(back.rest_placement(), nullptr);
  EXPECT_EQ(back.rest_placement()->key, kPlacementResting);
  EXPECT_EQ(setup_0108().rest_placement()->key, kPlacementDefault);
  EXPECT_EQ(asherons_call::Setup{}.rest_placement(), nullptr);
}

// Counts are guarded by the bytes left: a huge count is an error at its offset, never an
// allocation; truncations anywhere are errors.
TEST(AcSetup, BadCountsAndTruncationsAreErrors) {
  const std::vector<uint8_t> b = write_setup(setup_0108());
  for (size_t cut = 0; cut < b.size(); ++cut) {
    EXPECT_THROW(read_setup(Bytes(b).first(cut)), Error) << cut;
  }
  std::vector<uint8_t> bad = b;
  const uint32_t huge = 0x40000000u;
  std::memcpy(bad.data() + 24, &huge, 4);  // placement_frames count
  try {
    read_setup(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), 24u);
    EXPECT_NE(e.message().find("placement_frames"), std::string::npos) << e.message();
  }
  bad = b;
  std::memcpy(bad.data() + 8, &huge, 4);  // num_parts
  EXPECT_THROW(read_setup(bad), Error);
}

}  // namespace
}  // namespace animkit::asherons_call
