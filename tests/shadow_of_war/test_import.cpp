// `animkit import --as sow-anix` (issue 17, item 5): glTF back into an .anix edits only its
// events and keywords; export -> import of an unchanged export gives the original byte for byte.
#include <gtest/gtest.h>

#include "animkit/core/error.h"
#include "animkit/gltf/export.h"
#include "animkit/gltf/import.h"
#include "animkit/shadow_of_war/anix_document.h"
#include "animkit/shadow_of_war/anix_import.h"
#include "animkit/shadow_of_war/anix_json.h"
#include "fixtures.h"

namespace animkit::shadow_of_war {
namespace {

using testing::one_clip;
using testing::simple_clip;

// Two clips; orc_idle carries a footstep at 250 ms and RAGDOLL 0.25 at 1500 ms, orc_die one
// event without text.
std::vector<uint8_t> two_clips_with_events() {
  AnixBuild b = one_clip();
  b.clips.push_back(simple_clip("orc_die", 1.5f, 4));
  EventDictionary d;
  d.path = "orc/deaths.anix";
  d.strings = {"footstep", "RAGDOLL 0.25"};
  d.clips = {{"orc_idle", 60, 2000, {event_word(0, 250), event_word(1, 1500)}},
             {"orc_die", 45, 1500, {event_word(kNoText, 100)}}};
  b.events = d;
  return build_anix_bytes(b);
}

// What `animkit export` writes, read back as `animkit import` reads it.
Animated exported(const std::vector<uint8_t>& anix) {
  const std::vector<uint8_t> glb = gltf::to_glb(gltf::build(to_neutral(parse_anix(anix))));
  return gltf::read("clip.glb", glb);
}

Clip& clip_named(Animated& a, const std::string& name) {
  for (Clip& c : a.clips)
    if (c.name == name) return c;
  throw std::runtime_error("no clip " + name);
}

const ClipEvents& events_of(const std::vector<uint8_t>& anix, const std::string& clip) {
  static AnixFile keep;
  keep = parse_anix(anix);
  return *keep.anim_chunk.event_dictionary->find(keyword_hash(clip));
}

TEST(AnixImport, UnchangedExportGivesTheOriginalBytes) {
  const std::vector<uint8_t> original = two_clips_with_events();
  const ImportResult r = import_anix_events(original, "orc.anix", exported(original));
  EXPECT_EQ(r.bytes, original);
  EXPECT_EQ(r.report["changed"], false);
  // Importing only one of the clips (--clip) changes nothing either.
  Animated one = exported(original);
  one.clips.erase(one.clips.begin());
  EXPECT_EQ(import_anix_events(original, "orc.anix", one).bytes, original);
}

TEST(AnixImport, MovedEventLandsInTheFile) {
  const std::vector<uint8_t> original = two_clips_with_events();
  Animated a = exported(original);
  clip_named(a, "orc_idle").events[0].time = 0.5f;  // footstep 250 ms -> 500 ms
  const ImportResult r = import_anix_events(original, "orc.anix", a);
  ASSERT_NE(r.bytes, original);
  EXPECT_EQ(r.bytes.size(), original.size());  // same strings: the dictionary keeps its size
  const ClipEvents& ce = events_of(r.bytes, "orc_idle");
  EXPECT_EQ(ce.events, (std::vector<uint32_t>{event_word(0, 500), event_word(1, 1500)}));
  EXPECT_EQ(ce.frames, 60u);  // the rest of the clip's entry stays
  EXPECT_EQ(event_frames(ce), (std::vector<uint32_t>{15, 45}));  // floor(ms x 60 / 2000)
  // Only the event word differs.
  size_t differ = 0;
  for (size_t i = 0; i < original.size(); ++i) differ += original[i] != r.bytes[i];
  EXPECT_GE(differ, 1u);
  EXPECT_LE(differ, 2u);  // 250 -> 500: the low bytes of one u32
  // dump shows it.
  const Json dump = AnixDocument(parse_anix(r.bytes), r.bytes.size()).dump();
  EXPECT_NE(dump.dump().find("\"ms\":500"), std::string::npos);
  EXPECT_EQ(dump.dump().find("\"ms\":250"), std::string::npos);
}

TEST(AnixImport, AddedAndRemovedKeywords) {
  const std::vector<uint8_t> original = two_clips_with_events();
  Animated a = exported(original);
  Clip& idle = clip_named(a, "orc_idle");
  idle.events.erase(idle.events.begin() + 1);                 // RAGDOLL 0.25 removed
  idle.events.push_back({1.8f, "DESTROY", "{}"});             // a new keyword: a new string
  clip_named(a, "orc_die").events.push_back({1.2f, "RAGDOLL 0.25", "{}"});  // an existing one
  const ImportResult r = import_anix_events(original, "orc.anix", a);
  EXPECT_EQ(r.report["strings_added"], Json::array({"DESTROY"}));
  const AnixFile f = parse_anix(r.bytes);
  ASSERT_TRUE(f.anim_chunk.event_dictionary) << f.anim_chunk.event_dictionary_error;
  const EventDictionary& d = *f.anim_chunk.event_dictionary;
  EXPECT_EQ(d.strings, (std::vector<std::string>{"footstep", "RAGDOLL 0.25", "DESTROY"}));
  const ClipEvents& ce = *d.find(keyword_hash("orc_idle"));
  EXPECT_EQ(ce.events, (std::vector<uint32_t>{event_word(0, 250), event_word(2, 1800)}));
  EXPECT_TRUE(d.carries_keyword(ce, keyword_hash("DESTROY")));
  EXPECT_FALSE(d.carries_keyword(ce, keyword_hash("RAGDOLL")));
  const ClipEvents& die = *d.find(keyword_hash("orc_die"));
  EXPECT_EQ(die.events, (std::vector<uint32_t>{event_word(kNoText, 100), event_word(1, 1200)}));
  // The file grew and still reads, validates its events and writes back byte-exact.
  EXPECT_EQ(f.header.file_size, r.bytes.size());
  EXPECT_EQ(write_anix(f), r.bytes);
  const AnixDocument doc(parse_anix(r.bytes), r.bytes.size());
  const std::string dump = doc.dump().dump();
  EXPECT_NE(dump.find("\"DESTROY\""), std::string::npos);
  for (const Finding& finding : doc.validate())
    EXPECT_EQ(finding.code.rfind("EVENT", 0), std::string::npos) << finding.message;
  // Everything but the events is the template's: dump -> build of the result equals it.
  EXPECT_EQ(write_anix(anix_from_json(to_json(f))), r.bytes);
  // Importing the result's own export gives it back.
  EXPECT_EQ(import_anix_events(r.bytes, "out.anix", exported(r.bytes)).bytes, r.bytes);
}

TEST(AnixImport, OtherEditsAreNotImportable) {
  const std::vector<uint8_t> original = two_clips_with_events();
  auto error_of = [&](const Animated& a) -> std::string {
    try {
      import_anix_events(original, "orc.anix", a);
    } catch (const Error& e) {
      return e.message();
    }
    return "no error";
  };
  Animated rotated = exported(original);
  clip_named(rotated, "orc_idle").joints[0].rotation.values[1] = {0, 0, 0.38268343f, 0.9238795f};
  EXPECT_EQ(error_of(rotated),
            "orc.anix: clip 'orc_idle': the root rotation key 1 (t = 2 s) differs from the "
            "template's; an .anix import edits only events and keywords (the key codecs are kept "
            "raw)");
  Animated moved = exported(original);
  clip_named(moved, "orc_die").joints[0].translation.values[0].x += 10;
  EXPECT_NE(error_of(moved).find("the root translation key 0"), std::string::npos);
  Animated longer = exported(original);
  clip_named(longer, "orc_die").duration = 2;
  EXPECT_NE(error_of(longer).find("its duration 2 s is not the template's 1.5 s"),
            std::string::npos);
  Animated renamed = exported(original);
  clip_named(renamed, "orc_die").name = "orc_die_new";
  EXPECT_NE(error_of(renamed).find("clip 'orc_die_new' is not in the template"), std::string::npos);
  Animated extra_joint = exported(original);
  extra_joint.skeleton.add_joint("spine", 0, Transform::identity());
  EXPECT_NE(error_of(extra_joint).find("single joint 'root'"), std::string::npos);
  Animated late = exported(original);
  clip_named(late, "orc_idle").events[0].time = 20000;
  EXPECT_NE(error_of(late).find("24-bit ms"), std::string::npos);
}

TEST(AnixImport, EventsNeedADictionaryEntry) {
  const std::vector<uint8_t> no_dictionary = build_anix_bytes(one_clip());
  Animated a = exported(no_dictionary);
  EXPECT_EQ(import_anix_events(no_dictionary, "x.anix", a).bytes, no_dictionary);
  clip_named(a, "orc_idle").events.push_back({0.5f, "footstep", "{}"});
  EXPECT_THROW(import_anix_events(no_dictionary, "x.anix", a), Error);
}

}  // namespace
}  // namespace animkit::shadow_of_war
