#include "animkit/shadow_of_war/anix_import.h"

#include <fmt/format.h>

#include <cmath>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/anix.h"
#include "animkit/shadow_of_war/anix_document.h"
#include "animkit/shadow_of_war/keyword.h"
#include "animkit/shadow_of_war/text.h"

namespace animkit::shadow_of_war {

namespace {

constexpr const char* kOnlyEvents =
    "an .anix import edits only events and keywords (the key codecs are kept raw)";

// Float32 written to glTF and read back are equal; a little slack lets a tool reformat numbers.
bool near(float a, float b) { return std::abs(a - b) <= 1e-5f * std::max(1.f, std::abs(a)); }
bool near(Vec3 a, Vec3 b) { return near(a.x, b.x) && near(a.y, b.y) && near(a.z, b.z); }
bool near(Quat a, Quat b) {  // q and -q are one rotation
  const auto same = [](Quat p, Quat q) {
    return near(p.x, q.x) && near(p.y, q.y) && near(p.z, q.z) && near(p.w, q.w);
  };
  return same(a, b) || same(a, -b);
}

template <class T>
std::string track_difference(const Track<T>& got, const Track<T>& want, const char* what) {
  if (got.times.size() != want.times.size())
    return fmt::format("{} has {} keys, the template's export {}", what, got.times.size(),
                       want.times.size());
  for (size_t k = 0; k < got.times.size(); ++k) {
    if (!near(got.times[k], want.times[k]) || !near(got.values[k], want.values[k]))
      return fmt::format("{} key {} (t = {} s) differs from the template's", what, k, got.times[k]);
  }
  return {};
}

// What the glTF clip changes besides its events ("" : nothing).
std::string non_event_difference(const Clip& got, const Clip& want) {
  if (!near(got.duration, want.duration))
    return fmt::format("its duration {} s is not the template's {} s", got.duration, want.duration);
  if (got.joints.size() != want.joints.size()) return "its joints are not the template's";
  for (size_t j = 0; j < want.joints.size(); ++j) {
    const JointTracks &g = got.joints[j], &w = want.joints[j];
    for (const std::string& d : {track_difference(g.translation, w.translation, "the root translation"),
                                 track_difference(g.rotation, w.rotation, "the root rotation"),
                                 track_difference(g.scale, w.scale, "the root scale")})
      if (!d.empty()) return d;
  }
  return {};
}

// The string index of an event named `name`: the original event's own index when its text is
// unchanged (so an unchanged event keeps its word), else the first string of that text, else a
// new string appended to the dictionary. "" without such a string: no text (0xFF).
uint32_t string_index(EventDictionary& d, const std::string& name, const uint32_t* original,
                      std::vector<std::string>& added) {
  if (original && printable(d.text(*original)) == name) return event_string_index(*original);
  for (size_t i = 0; i < d.strings.size(); ++i)
    if (printable(d.strings[i]) == name) return static_cast<uint32_t>(i);
  if (name.empty()) return kNoText;
  if (name.find("\\x") != std::string::npos)
    throw Error(fmt::format("event '{}': a new event text must be plain UTF-8", name));
  if (d.strings.size() >= kNoText)
    throw Error(fmt::format("event '{}': the dictionary already holds {} strings (index 0xFF "
                            "means no text)", name, d.strings.size()));
  d.strings.push_back(name);
  d.align_pad.clear();  // re-aligned after the strings
  added.push_back(name);
  return static_cast<uint32_t>(d.strings.size() - 1);
}

}  // namespace

ImportResult import_anix_events(Bytes bytes, const std::string& where, const Animated& source) {
  AnixFile f = parse_anix(bytes);
  const Animated original = to_neutral(f);
  if (source.skeleton.names != original.skeleton.names)
    throw Error(fmt::format("{}: the glTF's skeleton ({} joints) is not the .anix export's single "
                            "joint 'root'; {}", where, source.skeleton.num_joints(), kOnlyEvents));
  ImportResult result;
  std::optional<EventDictionary> d = f.anim_chunk.event_dictionary;
  std::vector<std::string> added;
  Json clips = Json::array();
  bool changed = false;
  for (const Clip& clip : source.clips) {
    const Record* record = nullptr;
    for (const DirectoryEntry& e : f.anim_chunk.directory) {
      const Record* r = f.anim_chunk.record_at(e.offset);
      if (r && !record && printable(r->name()) == clip.name) record = r;
    }
    const Clip* want = nullptr;
    for (const Clip& c : original.clips)
      if (!want && c.name == clip.name) want = &c;
    if (!record || !want)
      throw Error(fmt::format("{}: clip '{}' is not in the template; {}", where, clip.name,
                              kOnlyEvents));
    if (const std::string why = non_event_difference(clip, *want); !why.empty())
      throw Error(fmt::format("{}: clip '{}': {}; {}", where, clip.name, why, kOnlyEvents));
    ClipEvents* ce = nullptr;
    if (d) {
      const ClipEvents* found = d->find(keyword_hash(record->name()));
      if (found) ce = &d->clips[static_cast<size_t>(found - d->clips.data())];
    }
    std::vector<uint32_t> words;
    for (size_t k = 0; k < clip.events.size(); ++k) {
      const Event& e = clip.events[k];
      const double ms = std::round(static_cast<double>(e.time) * 1000.0);
      if (!(ms >= 0 && ms <= 0xFFFFFF))
        throw Error(fmt::format("{}: clip '{}' event '{}' at {} s: an event's time is 0 to "
                                "16777.215 s (24-bit ms)", where, clip.name, e.name, e.time));
      if (!ce) {
        const std::string why = d ? "has no entry in the template's event dictionary"
                                  : "has no event dictionary to hold it (" +
                                        f.anim_chunk.event_dictionary_error + ")";
        throw Error(fmt::format("{}: clip '{}' {}", where, clip.name, why));
      }
      const uint32_t* orig = k < ce->events.size() ? &ce->events[k] : nullptr;
      words.push_back(event_word(string_index(*d, e.name, orig, added), static_cast<uint32_t>(ms)));
      if (!e.payload.empty() && e.payload != "{}")
        result.notes.push_back(fmt::format("clip '{}' event '{}': the payload is not kept (an .anix "
                                           "event is a text and a time)", clip.name, e.name));
    }
    const bool clip_changed = ce ? words != ce->events : false;
    if (clip_changed) ce->events = words;
    changed = changed || clip_changed;
    clips.push_back({{"name", clip.name}, {"events", words.size()}, {"changed", clip_changed}});
  }
  if (source.clips.size() < original.clips.size())
    result.notes.push_back(fmt::format("{} of the template's {} clips are not in the glTF: kept "
                                       "as they are", original.clips.size() - source.clips.size(),
                                       original.clips.size()));
  result.report = {{"clips", clips}, {"strings_added", added}, {"changed", changed}};
  if (!changed) {  // the template itself, byte for byte
    result.bytes.assign(bytes.begin(), bytes.end());
    result.notes.push_back("no event changed: the template is written as it is");
    return result;
  }
  // The dictionary runs to the anim chunk's end; a size change moves the chunk's and the
  // file's end, which only works when nothing follows the anim chunk.
  Header& h = f.header;
  std::vector<uint8_t> dict = write_event_dictionary(*d);
  const int64_t delta = static_cast<int64_t>(dict.size()) -
                        static_cast<int64_t>(f.anim_chunk.event_dictionary_bytes.size());
  if (delta != 0) {
    const uint64_t chunk_end = uint64_t{h.anim_chunk_offset} + h.anim_chunk_size;
    if (chunk_end != bytes.size() || h.file_size != bytes.size() ||
        uint64_t{f.anim_chunk.event_dictionary_offset} +
                f.anim_chunk.event_dictionary_bytes.size() != h.anim_chunk_size)
      throw Error(fmt::format("{}: the edited event dictionary is {} bytes {} and the anim chunk "
                              "is not at the file's end, so it cannot grow or shrink", where,
                              std::abs(delta), delta > 0 ? "longer" : "shorter"));
    h.anim_chunk_size = static_cast<uint32_t>(h.anim_chunk_size + delta);
    h.file_size = static_cast<uint32_t>(h.file_size + delta);
  }
  f.anim_chunk.event_dictionary_bytes = std::move(dict);
  f.anim_chunk.event_dictionary = d;
  result.bytes = write_anix(f);
  // What was written must read back as the dictionary meant.
  const AnixFile check = parse_anix(result.bytes);
  const std::optional<EventDictionary>& back = check.anim_chunk.event_dictionary;
  if (!back || back->strings != d->strings || back->clips != d->clips || back->tail != d->tail)
    throw Error(fmt::format("{}: the written events do not read back (internal error)", where));
  return result;
}

ImportResult import_anix(const ImportRequest& request) {
  if (request.template_path.empty())
    throw Error("--as sow-anix needs --template ORIGINAL.anix: " + std::string(kOnlyEvents) +
                ", the rest comes from the original");
  const std::vector<uint8_t> bytes = read_file(request.template_path);
  return import_anix_events(bytes, request.template_path.string(), request.source);
}

}  // namespace animkit::shadow_of_war
