// Issue 31, item 2: any byte out and back. A name holding 0x00 (where the format's strings are
// counted, not C strings), 0x7F, 0xE9, 0xFF and invalid UTF-8 (0xC3 0x28, a truncated 0xE2 0x82)
// goes out of every JSON writer as valid JSON from which the exact bytes come back by the one core
// rule (json_text.h: `<key>`, with `<key>_hex` beside when the text is not the bytes; no writer
// has a form of its own), and back through every reader that rebuilds a file from JSON, byte for
// byte. One table per engine: fixtures built in code by the modules' builders from the specs'
// layouts.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "animkit/core/json_read.h"
#include "animkit/core/json_text.h"
#include "animkit/core/neutral_json.h"
#include "animkit/core/synthetic.h"
#include "animkit/core/text.h"
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/skeleton.h"
#include "animkit/monster_hunter/synthetic.h"
#include "animkit/shadow_of_war/anix_build.h"
#include "animkit/warriors/builder.h"
#include "animkit/warriors/document.h"
#include "tests/common/run_cli.h"
#include "tests/shadow_of_war/fixtures.h"

namespace animkit {
namespace {

namespace fs = std::filesystem;
using Result = test::CliResult;

// Every byte class the issue names, and a backslash; kCString leaves out 0x00 (the formats whose names are C
// strings cut there).
// The backslash makes a text that is not the bytes ambiguous unless it is a reversible escape.
const std::string kAnyByte("a\\\x00\x7f\xe9\xff\xc3\x28\xe2\x82", 10);
const std::string kCString("a\\\x7f\xe9\xff\xc3\x28\xe2\x82", 9);

// True when some string of `j` gives `bytes` back (within it: "c" + bytes for a clip name) by the
// core rule: the text, with its `_hex` beside when there is one (text_from_json); a glTF node's
// or animation's name with its `extras.name_hex`.
bool holds_bytes(const Json& j, const std::string& bytes) {
  if (j.is_array()) {
    for (const Json& e : j) {
      if (holds_bytes(e, bytes)) return true;
    }
    return false;
  }
  if (!j.is_object()) return false;
  if (j.contains("name") && j.contains("extras") && j["extras"].is_object() &&
      j["extras"].contains("name_hex")) {
    try {
      if (text_from_json(j["name"], &j["extras"]["name_hex"], "name").find(bytes) != std::string::npos)
        return true;
    } catch (const Error&) {
    }
  }
  for (const auto& [key, value] : j.items()) {
    if (value.is_array() && j.contains(key + "_hex") && j[key + "_hex"].is_array()) {
      const Json& hex = j[key + "_hex"];  // a list of texts (put_texts)
      for (size_t i = 0; i < value.size() && i < hex.size(); ++i) {
        try {
          if (text_from_json(value[i], &hex[i], key).find(bytes) != std::string::npos) return true;
        } catch (const Error&) {
        }
      }
    }
    if (value.is_string()) {
      try {
        if (text_from_json(j, key, key).find(bytes) != std::string::npos) return true;
      } catch (const Error&) {
      }
    } else if (holds_bytes(value, bytes)) {
      return true;
    }
  }
  return false;
}

// One writer: a command whose JSON (stdout, or a file it writes) must hold the bytes.
struct JsonWriter {
  std::string command;  // {d}: the test's folder
  std::string output;   // "" for stdout, else the file written (in {d})
};

class AnyByte : public test::CliFixture {
 protected:
  std::string Expand(std::string c) const {
    for (size_t at; (at = c.find("{d}")) != std::string::npos;) c.replace(at, 3, dir_.string());
    return c;
  }
  // Runs each writer: exit 0, valid JSON (strict UTF-8: parse_json refuses anything else; a
  // JSON Lines trace line by line), and the bytes come back from it.
  void ExpectWritersHold(const std::vector<JsonWriter>& writers, const std::string& bytes) {
    for (const JsonWriter& w : writers) {
      SCOPED_TRACE(w.command);
      const Result r = Run(Expand(w.command));
      ASSERT_EQ(r.code, 0) << r.err;
      const std::string text = w.output.empty() ? r.out : Slurp(Expand(w.output));
      bool held = false;
      size_t lines = 0;
      for (size_t at = 0; at < text.size();) {  // one document, or JSON Lines
        const size_t end = w.command.rfind("play", 0) == 0 ? text.find('\n', at) : std::string::npos;
        const std::string doc = text.substr(at, end == std::string::npos ? end : end - at);
        if (!doc.empty()) {
          const Json j = parse_json(doc, w.command);
          held = held || holds_bytes(j, bytes);
          ++lines;
        }
        if (end == std::string::npos) break;
        at = end + 1;
      }
      EXPECT_GT(lines, 0u);
      EXPECT_TRUE(held) << text.substr(0, 2000);
    }
  }
  // Imports {d}/`gltf` (an export of {d}/h.anm, which holds `clip`) onto h.anm, giving that file
  // back, and with no template, giving a new clip of the same name and event codes.
  void ExpectWarriorsImportsBack(const std::string& gltf, const warriors::AnmClip& clip);
};

// The core's own format: joint, clip and event names of neutral JSON carry any byte (their
// `_hex`); dump, pose, validate and export write them, import and the neutral reader take them
// back exactly.
TEST_F(AnyByte, NeutralJson) {
  Animated arm = synthetic_arm();
  arm.skeleton.names[2] = kAnyByte;
  arm.clips[0].name = "c" + kAnyByte;
  arm.clips[0].events.at(0).name = "e" + kAnyByte;
  write_text(dir_ / "arm.json", dump_json(to_json(arm)));
  ExpectWritersHold({{"dump --json {d}/arm.json", ""},
                     {"info --json {d}/arm.json", ""},
                     {"pose --json {d}/arm.json -t 0", ""},
                     {"export {d}/arm.json -o {d}/arm.gltf", "{d}/arm.gltf"}},
                    kAnyByte);
  ASSERT_EQ(Run(Expand("import {d}/arm.gltf --as neutral-json -o {d}/back.json")).code, 0);
  const Animated back = animated_from_json(parse_json(Slurp(dir_ / "back.json"), "back.json"));
  EXPECT_EQ(back.skeleton.names[2], kAnyByte);
  ASSERT_FALSE(back.clips.empty());
  EXPECT_EQ(back.clips[0].name, "c" + kAnyByte);
  ASSERT_FALSE(back.clips[0].events.empty());
  EXPECT_EQ(back.clips[0].events[0].name, "e" + kAnyByte);
  // The dump is neutral JSON itself: read back, the same names.
  write_text(dir_ / "dumped.json", Run(Expand("dump --json {d}/arm.json")).out);
  const Animated again = animated_from_json(parse_json(Slurp(dir_ / "dumped.json"), "dumped.json"));
  EXPECT_EQ(again.skeleton.names, arm.skeleton.names);
  EXPECT_EQ(again.clips[0].name, arm.clips[0].name);
}

// The Warriors .anm: the clip name is a C string of 30 bytes (warriors.txt, the descriptor); an
// effect event (type 0x21) carries a three-byte code at +0x14, NUL-cut (warriors.txt "Events"),
// so the byte classes are spread over two codes.
const std::string kCode1("\x7f\xe9\xff", 3), kCode2("\xc3\x28\\", 3);

warriors::AnmClip hostile_warriors_clip() {
  warriors::ClipBuilder b;
  b.name = "x";
  b.frames = 10;
  b.translation = {{0, {0, 0, 1}}};
  b.rotations[1] = {{0, {0, 0, 0, 1}}};
  for (const auto& [frame, code] : {std::pair{1, kCode1}, std::pair{2, kCode2}}) {
    warriors::AnimEvent e;
    e.frame = static_cast<uint16_t>(frame);
    e.type = 0x21;
    for (size_t i = 0; i < 3; ++i) e.code[i] = static_cast<uint8_t>(code[i]);
    b.events.push_back(e);
  }
  warriors::AnmClip clip = b.build();
  clip.descriptor.set_name(kCString);
  return clip;
}

// The clip of a written .anm.
warriors::AnmClip read_anm(const fs::path& path) {
  const std::vector<uint8_t> bytes = read_file(path);
  return warriors::read_warriors_file(bytes, warriors::FileKind::kAnm).sets.at(0).clips.at(0).clip;
}

void AnyByte::ExpectWarriorsImportsBack(const std::string& gltf, const warriors::AnmClip& clip) {
  SCOPED_TRACE(gltf);
  Result r = Run(Expand("import {d}/" + gltf + " --as warriors-anm --template {d}/h.anm -o {d}/back.anm"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "back.anm"), read_file(dir_ / "h.anm"));
  r = Run(Expand("import {d}/" + gltf + " --as warriors-anm -o {d}/new.anm"));
  ASSERT_EQ(r.code, 0) << r.err;
  const warriors::AnmClip made = read_anm(dir_ / "new.anm");
  EXPECT_EQ(made.descriptor.name_bytes(), clip.descriptor.name_bytes());
  ASSERT_EQ(made.keyframes.events.size(), clip.keyframes.events.size());
  for (size_t i = 0; i < made.keyframes.events.size(); ++i) {
    EXPECT_EQ(made.keyframes.events[i].code, clip.keyframes.events[i].code) << i;
  }
}

TEST_F(AnyByte, Warriors) {
  const warriors::AnmClip clip = hostile_warriors_clip();
  Writer w;
  warriors::write_resource(w, warriors::make_anm_resource(clip));
  write_file(dir_ / "h.anm", w.bytes());
  write_text(dir_ / "s.json", R"({"engine": "warriors", "clips": {"1": "h.anm"}, "updates": 4,
    "actions": [{"at": 0, "do": "loop", "anim": 1}]})");
  ExpectWritersHold({{"dump --json {d}/h.anm", ""},
                     {"info --json {d}/h.anm", ""},
                     {"warriors sample --json {d}/h.anm --frame 0", ""},
                     {"export {d}/h.anm -o {d}/h.gltf", "{d}/h.gltf"}},
                    kCString);
  for (const std::string& code : {kCode1, kCode2}) {  // the trace's fired events, dump, glTF
    ExpectWritersHold({{"dump --json {d}/h.anm", ""},
                       {"play --json {d}/s.json", ""},
                       {"export {d}/h.anm -o {d}/h.gltf", "{d}/h.gltf"}},
                      code);
  }
  ExpectWarriorsImportsBack("h.gltf", clip);
}

// A glTF written before the core rule named the clip and gave the codes as \xNN text alone
// (printable, ASCII kept): import still finds the template's clip by it and takes the bytes back.
TEST_F(AnyByte, WarriorsOlderGltf) {
  const warriors::AnmClip clip = hostile_warriors_clip();
  Writer w;
  warriors::write_resource(w, warriors::make_anm_resource(clip));
  write_file(dir_ / "h.anm", w.bytes());
  ASSERT_EQ(Run(Expand("export {d}/h.anm -o {d}/h.gltf")).code, 0);
  Json g = parse_json(Slurp(dir_ / "h.gltf"), "h.gltf");
  Json& anim = g["animations"][0];
  ASSERT_TRUE(anim["extras"].contains("name_hex"));  // the new form, before it is made old
  anim["name"] = printable(kCString, Keep::kAscii);
  anim["extras"].erase("name_hex");
  for (Json& e : anim["extras"]["events"]) {
    ASSERT_TRUE(e["payload"].contains("code_hex"));
    const std::string code = text_from_json(e["payload"], "code", "code");
    e["payload"]["code"] = printable(code, Keep::kAscii);
    e["payload"].erase("code_hex");
    e["payload"]["effect"] = "sub_" + printable(code, Keep::kAscii);
    e["payload"].erase("effect_hex");
  }
  write_text(dir_ / "old.gltf", g.dump());
  ExpectWarriorsImportsBack("old.gltf", clip);
}

// Shadow of War: clip names are C strings in a fixed field (the bytes after the NUL are kept as
// its tail), the event dictionary's clip names and strings too; `sow build` of the dump gives the
// file back byte for byte.
TEST_F(AnyByte, ShadowOfWar) {
  shadow_of_war::AnixBuild b = shadow_of_war::testing::two_clips_with_events();
  b.clips[0].name = kCString;
  b.events->clips[0].name = kCString;
  b.events->strings[2] = "s" + kCString;
  const std::vector<uint8_t> bytes = shadow_of_war::build_anix_bytes(b);
  write_file(dir_ / "h.anix", bytes);
  ExpectWritersHold({{"dump --json {d}/h.anix", ""},
                     {"info --json {d}/h.anix", ""},
                     {"sow events --json {d}/h.anix", ""},
                     {"export {d}/h.anix -o {d}/h.gltf", "{d}/h.gltf"}},
                    kCString);
  const Result dump = Run(Expand("dump --json {d}/h.anix"));
  ASSERT_EQ(dump.code, 0) << dump.err;
  const Json j = parse_json(dump.out, "dump");
  write_text(dir_ / "h.json", dump.out);
  const Result built = Run(Expand("sow build {d}/h.json -o {d}/back.anix"));
  ASSERT_EQ(built.code, 0) << built.err;
  EXPECT_EQ(read_file(dir_ / "back.anix"), bytes);
}

// Monster Hunter (MHP3rd): a bone's name is an 8-byte C string (monster_hunter notes, the bone
// section at 0x54); dump, mh sample and export write it, import matches the glTF's joints to the
// bones by it (the bytes, or the \xNN text alone an older export wrote).
TEST_F(AnyByte, MonsterHunter) {
  monster_hunter::MonsterSpec spec;
  spec.game = monster_hunter::Game::kMhp3rd;
  monster_hunter::Monster m = monster_hunter::synthetic_monster(spec);
  ASSERT_GT(m.skeleton.bones.size(), 2u);
  ASSERT_TRUE(m.skeleton.bones[1].name.has_value());
  const std::string name("\\\x7f\xe9\xff\xc3\x28\xe2", 7);  // and a NUL: 8 bytes
  std::copy(name.begin(), name.end(), m.skeleton.bones[1].name->begin());
  (*m.skeleton.bones[1].name)[7] = 0;
  write_file(dir_ / "h.bin", monster_hunter::write_skeleton(m.skeleton));
  write_file(dir_ / "p.bin", monster_hunter::write_pack(m.pack));
  ExpectWritersHold({{"dump --json {d}/h.bin", ""},
                     {"mh sample --json --skeleton {d}/h.bin --pack {d}/p.bin --clip 0 --frame 1", ""},
                     {"export {d}/h.bin -o {d}/h.gltf", "{d}/h.gltf"},
                     {"mh export --skeleton {d}/h.bin --pack {d}/p.bin -o {d}/hp.gltf", "{d}/hp.gltf"}},
                    name);
  const std::string import = " --as mh-pack --template {d}/p.bin --skeleton {d}/h.bin -o {d}/back.bin";
  Result r = Run(Expand("import {d}/hp.gltf" + import));
  ASSERT_EQ(r.code, 0) << r.err;
  // The older glTF: the joint named by its \xNN text alone.
  Json g = parse_json(Slurp(dir_ / "hp.gltf"), "hp.gltf");
  bool renamed = false;
  for (Json& node : g["nodes"]) {
    if (!node.contains("extras") || !node["extras"].contains("name_hex")) continue;
    ASSERT_EQ(text_from_json(node["name"], &node["extras"]["name_hex"], "node"), name);
    node["name"] = printable(name, Keep::kAscii);
    node["extras"].erase("name_hex");
    renamed = true;
  }
  ASSERT_TRUE(renamed);
  write_text(dir_ / "old.gltf", g.dump());
  r = Run(Expand("import {d}/old.gltf" + import));
  EXPECT_EQ(r.code, 0) << r.err;
}

// Call of Duty: a level script's file name (a mod's file names are bytes) in lint's JSON. (The
// xanim part and note names, refs and the glTF round trip: tests/call_of_duty/test_cli.cpp,
// AnyByteOutAndBack; .atr names are tokens of the tree grammar, which refuses these bytes.)
TEST_F(AnyByte, CallOfDutyLint) {
  fs::create_directories(dir_ / "mod" / "maps");
  fs::create_directories(dir_ / "mod" / "animtrees");
  write_text(dir_ / "mod" / "animtrees" / "soldier.atr", "main\n{\n    idle\n}\n");
  write_text(dir_ / "mod" / "maps" / ("l" + kCString + ".gsc"),
             "#using_animtree(\"soldier\");\nmain() { self setanim(%idle); }\n");
  ExpectWritersHold({{"cod lint --json {d}/mod", ""},
                     {"cod refs --json '{d}/mod/maps/l" + kCString + ".gsc' --tree {d}/mod/animtrees/soldier.atr", ""}},
                    kCString);
}

// File names are bytes too: survey names each file escaped with its bytes beside.
TEST_F(AnyByte, SurveyFileNames) {
  fs::create_directories(dir_ / "s");
  const std::string name = "f" + kCString + ".json";
  write_text(dir_ / "s" / name, R"({"animkit": "neutral", "skeleton": )");  // a failure entry
  write_text(dir_ / "s" / ("g" + kCString + ".json"), to_json(synthetic_arm()).dump());
  const Result r = Run(Expand("survey --json {d}/s"));
  EXPECT_EQ(r.code, 1);
  const Json j = parse_json(r.out, "survey");
  EXPECT_TRUE(holds_bytes(j, (dir_ / "s" / name).string())) << r.out;
}

}  // namespace
}  // namespace animkit
