// Formats and round trips (warriors.txt "Data"; warriors-container.md).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>

#include "animkit/core/text.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/character.h"
#include "animkit/warriors/clip.h"
#include "animkit/warriors/container.h"
#include "animkit/warriors/document.h"

namespace animkit::warriors {
namespace {

AnmClip two_channel_clip() {
  ClipBuilder b;
  b.name = "test_clip";
  b.frames = 10;
  b.velocity = {{0, {0, 0, 0}}, {5, {0, 1.048f, 0}}};
  b.translation = {{0, {0.1f, 0.2f, 0.9f}}};
  b.rotations[1] = {
      {0, {0, 0, 0, 1}}, {4, {0.5f, 0, 0, 0.8660254f}}, {9, {0, 0.5f, 0, 0.8660254f}}};
  b.rotations[5] = {{0, {0, 0, 0.2f, 0.98f}}};
  AnimEvent e;
  e.frame = 4;
  e.type = 0x0b;
  e.position = {1234, 0, 0};
  b.events.push_back(e);
  return b.build();
}

std::vector<uint8_t> bytes_of(const Resource& r) {
  Writer w;
  write_resource(w, r);
  return w.take();
}

// warriors-container.md "Headers": marker = crc32("package").
TEST(WarriorsContainer, PackMarkerIsCrcOfPackage) { EXPECT_EQ(crc32("package"), kPackMarker); }

// warriors.txt "Keyframes": a key with +0 == 0 starts the next channel.
TEST(WarriorsClip, ChannelSplit) {
  const uint8_t keys[][8] = {{0, 7, 1, 0, 2, 0, 3, 0},
                             {3, 0, 4, 0, 5, 0, 6, 0},
                             {0, 9, 7, 0, 8, 0, 9, 0},
                             {2, 0, 1, 0, 1, 0, 1, 0},
                             {1, 0, 1, 0, 1, 0, 1, 0}};
  std::vector<uint8_t> b;
  for (const auto& k : keys) {
    for (uint8_t v : k) b.push_back(v);
  }
  Reader r(b);
  std::vector<Channel> c = split_channels(r, b.size());
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].keys.size(), 2u);
  EXPECT_EQ(c[1].keys.size(), 3u);
  EXPECT_EQ(c[0].keys[0].unknown, 7);  // byte +1 kept
  EXPECT_EQ(c[1].keys[0].unknown, 9);
  EXPECT_EQ(c[0].keys[1].x, 4);
}

// warriors.txt "Decoding": x/1023, y/1023, z/2047; rotations x 2^-15, w never negative.
TEST(WarriorsClip, Scales) {
  Key k{0, 0, 1023, -1023, 2047};
  const Vec3 p = decode_position(k);
  EXPECT_FLOAT_EQ(p.x, 1.0f);
  EXPECT_FLOAT_EQ(p.y, -1.0f);
  EXPECT_FLOAT_EQ(p.z, 1.0f);
  EXPECT_FLOAT_EQ(decode_position(2047, 0), 2047.f / 1023.f);
  const Quat q = decode_rotation(16384, 0, 0);
  EXPECT_FLOAT_EQ(q.x, 0.5f);
  EXPECT_FLOAT_EQ(q.w, std::sqrt(0.75f));
  EXPECT_FLOAT_EQ(decode_rotation(-32768, 0, 0).x, -1.0f);
}

TEST(WarriorsClip, WNeverNegative) {
  for (int x = -32768; x < 32768; x += 1021) {
    for (int y = -32768; y < 32768; y += 3001) {
      const Quat q = decode_rotation(int16_t(x), int16_t(y), int16_t(-x / 2));
      EXPECT_GE(q.w, 0.0f);
      EXPECT_FALSE(std::signbit(q.w));
    }
  }
}

// warriors.txt "Descriptor (chunk 0x02, 80 bytes)": every field at its offset.
TEST(WarriorsClip, DescriptorLayout) {
  AnmClip c = two_channel_clip();
  c.descriptor.reference_count = 0x5a;
  c.descriptor.flags = 0x11223344;
  c.descriptor.tail = {1, 2, 3, 4, 5, 6, 7, 8};
  Writer w;
  write_descriptor(w, c.descriptor);
  const auto& b = w.bytes();
  ASSERT_EQ(b.size(), kDescriptorSize);
  EXPECT_EQ(b[0], 0x40);  // 0x0045de40
  EXPECT_EQ(b[2], 0x45);
  float dur;
  std::memcpy(&dur, &b[0x0c], 4);
  EXPECT_FLOAT_EQ(dur, 10.f / 30.f);
  EXPECT_EQ(b[0x10], 16);    // section A: 2 keys
  EXPECT_EQ(b[0x12], 8);     // section B: 1 key
  EXPECT_EQ(b[0x14], 32);    // section C: 4 keys
  EXPECT_EQ(b[0x18], 2);     // two rotation channels
  EXPECT_EQ(b[0x1a], 1);     // one event
  EXPECT_EQ(b[0x20], 0x22);  // bones 1 and 5
  EXPECT_EQ(b[0x25], 't');
  EXPECT_EQ(b[0x43], 0x5a);
  EXPECT_EQ(b[0x44], 0x44);
  EXPECT_EQ(b[0x48], 1);
  Reader r(b);
  EXPECT_EQ(read_descriptor(r), c.descriptor);
  EXPECT_EQ(c.descriptor.name_text(), "test_clip");
}

// A name byte outside printable ASCII (or a backslash) prints as \xNN (core printable, kAscii:
// reversible); the resource and chunk hashes are CRC-32s of the raw bytes
// (warriors-container.md: "of the name as the tools spelled it").
TEST(WarriorsClip, OddNameBytesPrintAsEscapesAndHashRaw) {
  AnmClip c = two_channel_clip();
  const std::string raw("a\\\xE9", 3);
  c.descriptor.set_name(raw);
  EXPECT_EQ(c.descriptor.name_bytes(), raw);
  EXPECT_EQ(c.descriptor.name_text(), "a\\x5c\\xe9");
  EXPECT_EQ(from_printable(c.descriptor.name_text()), raw);
  const Resource r = make_anm_resource(c);
  EXPECT_EQ(r.header.name_hash, crc32(raw + ".anm"));
}

// Byte-exact round trip of a clip (DESIGN.md principle 2).
TEST(WarriorsClip, RoundTrip) {
  AnmClip c = two_channel_clip();
  c.keyframes.section_c[0].keys[1].unknown = 0xab;  // byte +1 survives
  const Resource res = make_anm_resource(c);
  const std::vector<uint8_t> bytes = bytes_of(res);
  const WadEntry e = read_entry(bytes);
  ASSERT_FALSE(e.is_pack());
  EXPECT_EQ(write_entry(e), bytes);
  const ClipSet set = read_clip_set(std::get<Resource>(e.content));
  ASSERT_EQ(set.clips.size(), 1u);
  EXPECT_EQ(set.clips[0].clip, c);
  EXPECT_EQ(bytes_of(make_anm_resource(set.clips[0].clip)), bytes);
}

// warriors.txt "A standalone .anm resource ... in either order".
TEST(WarriorsClip, EitherOrder) {
  const AnmClip c = two_channel_clip();
  const std::vector<uint8_t> bytes = bytes_of(make_anm_resource(c, true));
  const WadEntry e = read_entry(bytes);
  const ClipSet set = read_clip_set(std::get<Resource>(e.content));
  ASSERT_EQ(set.clips.size(), 1u);
  EXPECT_EQ(set.clips[0].descriptor_chunk, 0u);
  EXPECT_EQ(set.clips[0].clip, c);
  EXPECT_EQ(write_entry(e), bytes);
  EXPECT_TRUE(looks_like_resource(bytes, true));
  EXPECT_FALSE(looks_like_pack(bytes, true));
}

// Character resource and pack round trips; the Anim Range List and the slot rule.
TEST(WarriorsCharacter, RoundTripAndSlots) {
  ClipBuilder a = {}, b = {};
  a.name = "walk";
  b.name = "run";
  a.rotations[1] = {{0, {0, 0, 0, 1}}};
  b.rotations[2] = {{0, {0, 0, 0, 1}}};
  const AnmClip ca = a.build(), cb = b.build();
  Resource res = make_character_resource("rembrandt", {ca, cb}, {408, 409}, {{408, 0x1000}});
  res.chunks.push_back(make_bone_offsets_chunk(BoneOffsets{}));
  update_sizes(res);
  const std::vector<uint8_t> bytes = bytes_of(res);
  EXPECT_TRUE(looks_like_resource(bytes, true));
  const WadEntry e = read_entry(bytes);
  EXPECT_EQ(write_entry(e), bytes);
  const ClipSet set = read_clip_set(std::get<Resource>(e.content));
  ASSERT_EQ(set.clips.size(), 2u);
  ASSERT_TRUE(set.range_list && set.character_data && set.bone_offsets);
  EXPECT_EQ(set.range_list->records.size(), 722u);
  EXPECT_EQ(set.clip_for_anim(408), 0);
  EXPECT_EQ(set.clip_for_anim(409), 1);
  EXPECT_EQ(set.clip_for_anim(410), -1);
  EXPECT_EQ(set.range_flags(408), 0x1000);
  Writer rl;
  write_range_list(rl, *set.range_list);
  EXPECT_EQ(rl.bytes(), res.chunks[5].data);

  // A pack of the character and a standalone clip.
  const Pack pack = make_pack({res, make_anm_resource(ca)});
  WadEntry pe{pack, std::vector<uint8_t>(32, 0)};
  const std::vector<uint8_t> pb = write_entry(pe);
  EXPECT_EQ(pack.header.size + 16, pb.size() - 32);
  EXPECT_TRUE(looks_like_pack(pb, true));
  EXPECT_FALSE(looks_like_resource(pb, true));
  const WadEntry back = read_entry(pb);
  EXPECT_EQ(back, pe);
  EXPECT_EQ(write_entry(back), pb);
}

// warriors.txt "The Anim Range List": far range 0 -> reach x 1.25; the rate flags.
TEST(WarriorsCharacter, RangeRecord) {
  RangeRecord r;
  r.reach = 2.0f;
  EXPECT_FLOAT_EQ(r.far(), 2.5f);
  r.far_range = 3100;
  EXPECT_FLOAT_EQ(r.far(), 3.1f);
  r.flags = 0x400;
  EXPECT_TRUE(r.stuns());
  const AnimSpeeds s;
  EXPECT_FLOAT_EQ(anim_rate(s, 0), 0.75f);
  EXPECT_FLOAT_EQ(anim_rate(s, 0x800), 0.8f);
  EXPECT_FLOAT_EQ(anim_rate(s, 0x1000), 1.0f);
  EXPECT_FLOAT_EQ(anim_rate(s, 0x2000), 0.9f);
  EXPECT_FLOAT_EQ(AnimSpeeds::data_defaults().rates[1], 0.85f);
}

TEST(WarriorsContainer, BadInputIsAnError) {
  const std::vector<uint8_t> bytes = bytes_of(make_anm_resource(two_channel_clip()));
  for (size_t n = 0; n < bytes.size(); n += 7) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    EXPECT_THROW(
        {
          const WadEntry e = read_entry(cut);
          read_clip_set(std::get<Resource>(e.content));
          if (n < bytes.size()) throw Error("short");
        },
        Error);
  }
}

// The sniffs take only well-formed headers (other engines' files are not stolen).
TEST(WarriorsContainer, SniffsRejectOtherFiles) {
  const std::string json = R"({"engine": "warriors", "clips": {}})";
  const std::vector<uint8_t> text(json.begin(), json.end());
  const std::vector<uint8_t> zeros(64, 0);
  std::vector<uint8_t> glb0 = {'g', 'l', 'T', 'F', 2, 0, 0, 0, 64, 0, 0, 0};
  glb0.resize(64, 0);
  const std::vector<uint8_t> glb = glb0;
  for (const auto* b : {&text, &zeros, &glb}) {
    EXPECT_FALSE(sniff_pack(*b));
    EXPECT_FALSE(sniff_anm(*b));
    EXPECT_FALSE(sniff_character(*b));
    EXPECT_FALSE(sniff_cut_pack(*b));
    EXPECT_FALSE(sniff_cut_anm(*b));
    EXPECT_FALSE(sniff_cut_character(*b));
  }
  // A resource whose data_size disagrees with its chunks is not taken either.
  std::vector<uint8_t> bytes = bytes_of(make_anm_resource(two_channel_clip()));
  EXPECT_TRUE(sniff_anm(bytes));
  // Cut in half, the .anm is no longer whole, but its headers still walk (issue 31, item 4).
  const std::vector<uint8_t> half(bytes.begin(), bytes.begin() + bytes.size() / 2);
  EXPECT_FALSE(sniff_anm(half));
  EXPECT_TRUE(sniff_cut_anm(half));
  EXPECT_FALSE(sniff_cut_character(half));
  EXPECT_FALSE(sniff_cut_pack(half));
  bytes[4] += 16;
  EXPECT_FALSE(sniff_anm(bytes));
}

// warriors.txt "Events": the documented types decoded by name.
TEST(WarriorsClip, EventPayloads) {
  AnimEvent e;
  e.type = 0x0b;
  e.position = {0x1234, 0, 0};
  EXPECT_EQ(Json::parse(event_payload_json(e))["sound_id"], 0x1234);
  e.type = 0x21;
  e.arg1 = 19;
  e.code = {'b', 'l', 'd', 0};
  const Json fx = Json::parse(event_payload_json(e));
  EXPECT_EQ(fx["effect"], "sub_bld");
  EXPECT_EQ(fx["bone"], 19);
  e.type = 0x3a;
  const float fov = -1.0f;
  uint32_t w;
  std::memcpy(&w, &fov, 4);
  e.position = {int16_t(w & 0xffff), int16_t(w >> 16), 0};
  EXPECT_EQ(Json::parse(event_payload_json(e))["fov"].get<double>(), -1.0);
  e.type = 0x20;
  e.arg0 = 3;
  e.arg1 = 0;
  EXPECT_EQ(Json::parse(event_payload_json(e))["level"], 3);
  // warriors.txt "Paired tasks": events of type 9, 10 and 0x22 are handed to the effects
  // system with their position and rotation (the /1023, /1023, /2047 and 2^-15 scales).
  AnimEvent fx22;
  fx22.type = 0x22;
  fx22.position = {1023, -1023, 2047};
  fx22.rotation = {16384, 0, 0};
  const Json p22 = Json::parse(event_payload_json(fx22));
  ASSERT_TRUE(p22.contains("position"));
  ASSERT_TRUE(p22.contains("rotation"));
  EXPECT_FLOAT_EQ(p22["position"][0].get<float>(), 1.0f);
  EXPECT_FLOAT_EQ(p22["position"][1].get<float>(), -1.0f);
  EXPECT_FLOAT_EQ(p22["position"][2].get<float>(), 1.0f);
  EXPECT_FLOAT_EQ(p22["rotation"][0].get<float>(), 0.5f);
  EXPECT_EQ(event_name(0x2e), "slow_motion_on");
  EXPECT_EQ(event_name(0x39), "power_camera_begin");
}

// warriors.txt "Descriptor": the channel count must equal the mask's bit count.
TEST(WarriorsClip, ValidateChannelCount) {
  AnmClip c = two_channel_clip();
  EXPECT_TRUE(validate_clip(c, "clip").empty());
  c.descriptor.set_bone(9);  // a bit without a channel
  const std::vector<Finding> f = validate_clip(c, "clip");
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f[0].code, "CHANNEL_COUNT");
  EXPECT_EQ(f[0].level, Finding::Level::kError);
}

const ClipFinding* find_code(const std::vector<ClipFinding>& fs, const std::string& code) {
  for (const ClipFinding& f : fs) {
    if (f.finding.code == code) return &f;
  }
  return nullptr;
}

// Validation as strict as the spec ("Descriptor", "Keyframes", "Decoding"), each finding with the
// offset of the field or key (keyframes at 0x100, descriptor at 0x400 here). The fixture's keys:
// A at +0 and +8, B at +16, C bone 1 at +24, +32, +40 and bone 5 at +48.
TEST(WarriorsClip, ValidateStrictWithOffsets) {
  const AnmClip good = two_channel_clip();
  EXPECT_TRUE(check_clip(good, 0x100, 0x400).empty());
  {
    AnmClip c = good;
    c.keyframes.section_c[0].keys[0].delta = 3;
    const auto fs = check_clip(c, 0x100, 0x400);
    const ClipFinding* f = find_code(fs, "FIRST_DELTA");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->finding.level, Finding::Level::kError);
    EXPECT_EQ(f->offset, 0x100u + 24);
  }
  {
    AnmClip c = good;  // two keys with +0 = 0 in section A: a second channel
    c.keyframes.section_a.push_back(Channel{{Key{0, 0, 0, 0, 0}}});
    c.descriptor.section_a_size = 24;
    const auto fs = check_clip(c, 0x100, 0x400);
    const ClipFinding* f = find_code(fs, "SECOND_CHANNEL");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->finding.level, Finding::Level::kError);
    EXPECT_EQ(f->offset, 0x100u + 16);
  }
  {
    AnmClip c = good;  // x^2 + y^2 + z^2 = 2 x (30000 / 32768)^2 > 1
    c.keyframes.section_c[1].keys[0].x = 30000;
    c.keyframes.section_c[1].keys[0].y = 30000;
    const auto fs = check_clip(c, 0x100, 0x400);
    const ClipFinding* f = find_code(fs, "ROTATION_LENGTH");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->finding.level, Finding::Level::kError);
    EXPECT_EQ(f->offset, 0x100u + 48 + 2);
    // (23170 / 32768)^2 x 2 = 0.99998: still a unit quaternion.
    c.keyframes.section_c[1].keys[0].x = 23170;
    c.keyframes.section_c[1].keys[0].y = 23170;
    c.keyframes.section_c[1].keys[0].z = 0;
    const auto ok = check_clip(c, 0x100, 0x400);
    EXPECT_FALSE(find_code(ok, "ROTATION_LENGTH"));
  }
  {
    AnmClip c = good;
    c.descriptor.set_bone(35);
    const auto fs = check_clip(c, 0x100, 0x400);
    const ClipFinding* f = find_code(fs, "MASK_BONE");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->offset, 0x400u + 0x24);
    ASSERT_TRUE(find_code(fs, "CHANNEL_COUNT"));
    EXPECT_EQ(find_code(fs, "CHANNEL_COUNT")->offset, 0x400u + 0x18);
  }
  for (float bad : {INFINITY, -INFINITY, NAN}) {
    AnmClip c = good;
    c.descriptor.duration = bad;
    const auto fs = check_clip(c, 0x100, 0x400);
    const ClipFinding* f = find_code(fs, "DURATION");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->finding.level, Finding::Level::kError);
    EXPECT_EQ(f->offset, 0x400u + 0x0c);
  }
  // The formatted form names the offset.
  AnmClip c = good;
  c.descriptor.duration = INFINITY;
  const std::vector<Finding> fs = validate_clip(c, "clip 0", 0x100, 0x400);
  ASSERT_FALSE(fs.empty());
  EXPECT_EQ(fs[0].where, "clip 0: offset 0x40c");
}

// warriors-container.md: chunk 0x28 is 544 bytes; a shorter one is an error with its offset.
TEST(WarriorsCharacter, ValidateShortBoneOffsets) {
  Resource r = make_character_resource("set", {two_channel_clip()}, {408}, {});
  Chunk c;
  c.header.type = kBoneOffsets;
  c.header.size = 32;
  c.data.assign(32, 0);
  r.chunks.push_back(c);
  r.header.count += 1;
  r.header.data_size += 32;
  const std::vector<uint8_t> bytes = bytes_of(r);
  const auto doc = open_document("set.res", bytes, FileKind::kCharacter);
  bool found = false;
  for (const Finding& f : doc->validate()) {
    if (f.code != "BONE_OFFSETS_SIZE") continue;
    found = true;
    EXPECT_EQ(f.level, Finding::Level::kError);
    EXPECT_NE(f.where.find(fmt::format("offset {:#x}", bytes.size() - 48)), std::string::npos)
        << f.where;
  }
  EXPECT_TRUE(found);
}

// warriors.txt "Where clips are found": the Anim List (0x4E) is a count word then {hash, size}
// records; read and written byte for byte, listed by dump.
TEST(WarriorsCharacter, AnimListRoundTripAndDump) {
  Writer w;
  w.u32(kAnimListCountOnDisc);
  for (uint32_t i = 0; i < kAnimListCountOnDisc; ++i) {
    w.u32(crc32(fmt::format("clip{}.anm", i)));
    w.u32(1024 + 16 * i);
  }
  while (w.pos() % 16) w.u8(0);
  const std::vector<uint8_t> data = w.take();
  Reader r(data, 0x40);
  const AnimList list = read_anim_list(r);
  EXPECT_EQ(list.count, 564u);
  ASSERT_EQ(list.records.size(), 564u);
  EXPECT_EQ(list.records[3].hash, crc32("clip3.anm"));
  EXPECT_EQ(list.records[3].size, 1024u + 48);
  EXPECT_EQ(list.tail.size(), data.size() - 4 - 564 * 8);
  Writer back;
  write_anim_list(back, list);
  EXPECT_EQ(back.take(), data);
  // A count the chunk cannot hold: an error at the count word.
  std::vector<uint8_t> bad = data;
  bad[0] = 0xff;
  bad[1] = 0xff;
  Reader rb(bad, 0x40);
  try {
    read_anim_list(rb);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.offset(), std::optional<uint64_t>(0x40));
  }
  // In a resource: read, listed by dump, written back unchanged.
  Resource res;
  Chunk c;
  c.header = {kAnimList, static_cast<uint32_t>(data.size()), 0, crc32("warriors.glr")};
  c.data = data;
  res.chunks.push_back(c);
  res.header = {1, static_cast<uint32_t>(data.size()), 0, crc32("warriors.glr")};
  const std::vector<uint8_t> bytes = bytes_of(res);
  EXPECT_TRUE(sniff_character(bytes));
  const auto doc = open_document("warriors.glr", bytes, FileKind::kCharacter);
  const Json dump = doc->dump();
  const std::string text = dump.dump();
  EXPECT_NE(text.find("\"anim_list\""), std::string::npos);
  EXPECT_NE(text.find(fmt::format("{:#010x}", crc32("clip563.anm"))), std::string::npos);
  const WadEntry e = read_entry(bytes);
  EXPECT_EQ(write_entry(e), bytes);
  EXPECT_EQ(read_clip_set(std::get<Resource>(e.content)).anim_list, list);
}

}  // namespace
}  // namespace animkit::warriors
