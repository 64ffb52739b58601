#include "animkit/monster_hunter/rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/records.h"

namespace animkit::monster_hunter {

namespace {
using L = Finding::Level;
}  // namespace

const std::vector<Rule>& rules() {
  // notes 1, mhfu_port.constraints.RULES: code, level, what holds, fix (in the table's order).
  static const std::vector<Rule> table = {
      {"PARENT_ORDER", L::kError, "renumber the bones", "every parent precedes its child"},
      {"ANIMATED_COUNT", L::kError, "params[1] is at most the bone count",
       "the skeleton's animated count fits it"},
      {"STREAM_RUNS", L::kError, "reorder the bones so each stream is one run",
       "the animated joints' streams form contiguous runs"},
      {"STREAM_SUBTREE", L::kError,
       "a part hangs off exactly one joint and holds no child of an earlier part",
       "each stream past the first is one subtree"},
      {"PARTITION", L::kError,
       "stream s plays part s // 2: one track per joint of that part, in joint order",
       "each animation stream carries its part's joints"},
      {"NO_TRACKS", L::kError, "give the clip one track per joint", "every clip has tracks"},
      {"SCALE_CHANNEL", L::kError, "drop them: the engine crashes on the scale bits",
       "no scale channels"},
      {"DUPLICATE_CHANNEL", L::kError, "one channel per bit; the mask holds one bit each",
       "no channel twice in a track"},
      {"NEGATIVE_FRAME", L::kError, "shift the keys", "keyframes at frame 0 or later"},
      {"FRAME_ORDER", L::kWarning, "sort the keys by frame", "keyframes in frame order"},
      {"EMPTY_CHANNEL", L::kWarning, "remove it or key it", "no channel without keyframes"},
      {"PALETTE_JOINT", L::kError, "a group's palette names skeleton bones",
       "every skinned joint exists"},
      {"EMPTY_GROUP", L::kWarning, "an empty group still binds a slot",
       "no group without vertices"},
      {"TEMPLATE", L::kError, "the species' overlay and AI assume its bone count and hierarchy",
       "the skeleton keeps its species' bone tree"},
      // monster-hunter.txt, "Engine rules (MHFU)": "No empty track on an animated joint". Not a
      // rule of the reference tool (notes 1.4): a warning, with --strict only (README Choices).
      {"EMPTY_TRACK", L::kWarning,
       "hold the joint still with zero-rotation keys spanning the clip (motion.rest)",
       "no empty track on an animated joint"},
      // "MHP3rd: clip sets and records": the record offset follows the fork rule.
      {"LOC_BELOW_FORK", L::kWarning,
       "choose the record offset and skipped bones (--em) so location records land at or above "
       "the body fork",
       "location records land at or above the body fork"},
  };
  return table;
}

const Rule& rule(const std::string& code) {
  for (const Rule& r : rules())
    if (code == r.code) return r;
  throw Error("unknown rule " + code);
}

std::string list_numbers(const std::vector<int>& numbers) {
  std::string out;
  for (size_t i = 0; i < numbers.size() && i < 8; ++i)
    out += (i ? " " : "") + std::to_string(numbers[i]);
  if (numbers.size() > 8) out += fmt::format(" (+{})", numbers.size() - 8);
  return out;
}

namespace {

Finding make(const char* code, std::string where, std::string message) {
  const Rule& r = rule(code);
  return {r.level, code, std::move(where), std::move(message), r.fix};
}

std::string where_of(int stream, int slot, int track = -1, int bit = -1) {
  std::string w = fmt::format("stream {} slot {}", stream, slot);
  if (track >= 0) w += fmt::format(" track {}", track);
  if (bit >= 0) w += fmt::format(" channel {:#05x}", bit);
  return w;
}

// Runs of equal Bone.stream over the animated joints: (stream, first joint, count).
struct Run {
  int stream, start, count;
};
std::vector<Run> runs_of(const Skeleton& s, int animated) {
  std::vector<Run> runs;
  for (int i = 0; i < animated; ++i) {
    const int id = static_cast<int>(s.bones[i].stream);
    if (runs.empty() || runs.back().stream != id) {
      runs.push_back({id, i, 1});
    } else {
      ++runs.back().count;
    }
  }
  return runs;
}

void skeleton_rules(const Skeleton& s, bool mhfu, std::vector<Finding>& out) {
  const int n = static_cast<int>(s.bones.size());
  std::vector<int> bad;
  for (int i = 0; i < n; ++i)
    if (s.bones[i].parent >= i) bad.push_back(i);
  if (!bad.empty()) out.push_back(make("PARENT_ORDER", "", "bones " + list_numbers(bad)));
  if (!mhfu) return;
  const int64_t animated = s.animated();
  if (animated < 1 || animated > n) {
    out.push_back(make("ANIMATED_COUNT", "", fmt::format("{} animated of {} bones", animated, n)));
    return;  // stops the other skeleton checks
  }
  const std::vector<Run> runs = runs_of(s, static_cast<int>(animated));
  std::set<int> ids;
  for (const Run& r : runs) ids.insert(r.stream);
  if (ids.size() != runs.size()) {  // every run, as the reference prints them
    std::string text;
    for (const Run& r : runs) text += fmt::format("{}{}:{}", text.empty() ? "" : " ", r.stream, r.count);
    out.push_back(make("STREAM_RUNS", "", text));
  }
  std::vector<std::vector<int>> kids(n);
  for (int i = 0; i < n; ++i)
    if (s.bones[i].parent >= 0 && s.bones[i].parent < n) kids[s.bones[i].parent].push_back(i);
  for (size_t k = 0; k < runs.size(); ++k) {
    const Run& r = runs[k];
    const int end = r.start + r.count;
    // The run's joints whose parent is a bone outside it.
    std::vector<int> roots;
    for (int j = r.start; j < end; ++j) {
      const int p = s.bones[j].parent;
      if (p >= 0 && (p < r.start || p >= end)) roots.push_back(j);
    }
    if (k > 0 && roots.size() > 1) {
      out.push_back(make("STREAM_SUBTREE", "",
                         fmt::format("stream {} hangs off {}", r.stream, list_numbers(roots))));
    }
    std::vector<int> behind;
    for (int j = r.start; j < end; ++j)
      for (int c : kids[j])
        if (c < r.start) behind.push_back(c);
    if (!behind.empty()) {
      out.push_back(
          make("STREAM_SUBTREE", "",
               fmt::format("stream {} holds children {}", r.stream, list_numbers(behind))));
    }
  }
}

// notes 1, PARTITION (runs only when 0 < animated <= bone count).
void partition_rule(const Skeleton& s, const AnimPack& pack, std::vector<Finding>& out) {
  const int64_t animated = s.animated();
  if (animated < 1 || animated > static_cast<int64_t>(s.bones.size())) return;
  std::map<int, int> part_size;
  for (int64_t i = 0; i < animated; ++i) ++part_size[static_cast<int>(s.bones[i].stream)];
  for (size_t st = 0; st < pack.streams.size(); ++st) {
    std::set<int> counts;
    for (int32_t c : pack.streams[st])
      if (c >= 0 && static_cast<size_t>(c) < pack.clips.size() && !pack.clips[c].tracks.empty())
        counts.insert(static_cast<int>(pack.clips[c].tracks.size()));
    if (counts.empty()) continue;
    const auto it = part_size.find(static_cast<int>(st / 2));
    const int expected = it == part_size.end() ? 0 : it->second;
    if (counts != std::set<int>{expected}) {
      std::string list;
      for (int c : counts) list += (list.empty() ? "" : ", ") + std::to_string(c);
      out.push_back(
          make("PARTITION", fmt::format("stream {}", st),
               fmt::format("stream {} carries [{}] tracks, its part {}", st, list, expected)));
    }
  }
  for (const auto& [part, joints] : part_size) {
    const size_t st = static_cast<size_t>(part) * 2;
    bool has = false;
    if (st < pack.streams.size())
      for (int32_t c : pack.streams[st]) has |= c >= 0;
    if (!has) {
      out.push_back(make("PARTITION", fmt::format("stream {}", st),
                         fmt::format("part {} has {} joints and no clips", part, joints)));
    }
  }
}

// The clip rules of notes 1 (mhfu_port.constraints._anim); EMPTY_TRACK with `strict` only.
void clip_rules(const AnimPack& pack, const Skeleton* skeleton, bool strict,
                std::vector<Finding>& out) {
  const bool mhfu = pack.game == Game::kMhfu;
  std::map<int, std::vector<int>> joints;
  int64_t animated = 0;
  if (skeleton != nullptr) {
    joints = part_joints(*skeleton);
    animated = skeleton->animated();
  }
  std::vector<bool> seen(pack.clips.size(), false);
  for (size_t st = 0; st < pack.streams.size(); ++st) {
    for (size_t sl = 0; sl < pack.streams[st].size(); ++sl) {
      const int32_t ci = pack.streams[st][sl];
      if (ci < 0 || static_cast<size_t>(ci) >= seen.size() || seen[ci])
        continue;  // each distinct clip once, named by its first slot
      seen[ci] = true;
      const Clip& clip = pack.clips[ci];
      const int s = static_cast<int>(st), i = static_cast<int>(sl);
      const std::string slot_text = where_of(s, i);
      if (mhfu && clip.tracks.empty()) out.push_back(make("NO_TRACKS", slot_text, slot_text));
      for (size_t t = 0; t < clip.tracks.size(); ++t) {
        const Track& tr = clip.tracks[t];
        const int tj = static_cast<int>(t);
        const std::string track_text = fmt::format("{} track {}", slot_text, tj);
        std::set<int> bits_seen;
        bool scale = false, dup = false;
        int first_scale = -1, first_dup = -1;
        for (const Channel& c : tr.channels) {
          if ((c.bit & bits::kScale) && !scale) {
            scale = true;
            first_scale = c.bit;
          }
          if (!bits_seen.insert(c.bit).second && !dup) {
            dup = true;
            first_dup = c.bit;
          }
        }
        if (mhfu && scale)
          out.push_back(make("SCALE_CHANNEL", where_of(s, i, tj, first_scale), track_text));
        if (dup) out.push_back(make("DUPLICATE_CHANNEL", where_of(s, i, tj, first_dup), track_text));
        if (strict && mhfu && tr.channels.empty()) {
          // Track i drives the part's i-th joint; without the skeleton every track counts.
          bool animated_joint = true;
          if (skeleton != nullptr) {
            const auto it = joints.find(s / 2);
            animated_joint =
                it != joints.end() && t < it->second.size() && it->second[t] < animated;
          }
          if (animated_joint) out.push_back(make("EMPTY_TRACK", where_of(s, i, tj), track_text));
        }
        for (const Channel& c : tr.channels) {
          // notes 1.2: first match only.
          const std::string text = fmt::format("{} bit {:#x}", track_text, c.bit);
          const std::string w = where_of(s, i, tj, c.bit);
          if (c.keys.empty()) {
            out.push_back(make("EMPTY_CHANNEL", w, text));
            continue;
          }
          int min_frame = c.keys[0].frame;
          bool sorted = true;
          for (size_t k = 0; k < c.keys.size(); ++k) {
            min_frame = std::min<int>(min_frame, c.keys[k].frame);
            if (k > 0 && c.keys[k].frame < c.keys[k - 1].frame) sorted = false;
          }
          if (min_frame < 0) {
            out.push_back(make("NEGATIVE_FRAME", w, text));
          } else if (!sorted) {
            out.push_back(make("FRAME_ORDER", w, text));
          }
        }
      }
    }
  }
}

// notes 1, PALETTE_JOINT and EMPTY_GROUP (mhfu_port.constraints._model).
void model_rules(const PmoModel& model, const Skeleton* skeleton, std::vector<Finding>& out) {
  std::vector<int> empty;
  for (size_t g = 0; g < model.groups.size(); ++g)
    if (model.groups[g].draws == false) empty.push_back(static_cast<int>(g));
  if (!empty.empty()) out.push_back(make("EMPTY_GROUP", "", "groups " + list_numbers(empty)));
  if (skeleton == nullptr) return;
  const int n = static_cast<int>(skeleton->bones.size());
  std::set<int> past;
  for (const PmoGroup& g : model.groups)
    for (const auto& [slot, bone] : g.bones)
      if (bone >= n) past.insert(bone);
  if (!past.empty()) {
    out.push_back(make("PALETTE_JOINT", "",
                       fmt::format("joints {} of {}", list_numbers({past.begin(), past.end()}), n)));
  }
}

void template_rule(const Skeleton& s, const Skeleton& species, std::vector<Finding>& out) {
  if (s.bones.size() != species.bones.size()) {
    out.push_back(
        make("TEMPLATE", "",
             fmt::format("{} bones, the species {}", s.bones.size(), species.bones.size())));
    return;
  }
  std::vector<int> differ;
  for (size_t i = 0; i < s.bones.size(); ++i)
    if (s.bones[i].parent != species.bones[i].parent) differ.push_back(static_cast<int>(i));
  if (!differ.empty())
    out.push_back(make("TEMPLATE", "", "parents differ at bones " + list_numbers(differ)));
}

// records.loc_below_fork over each distinct clip's location records.
void fork_rule(const Skeleton& s, const AnimPack& pack, std::optional<int> em,
               std::vector<Finding>& out) {
  const std::vector<int> parents = s.parents();
  const int fork = body_fork(parents);
  std::vector<bool> seen(pack.clips.size(), false);
  for (size_t st = 0; st < pack.streams.size(); ++st) {
    for (size_t sl = 0; sl < pack.streams[st].size(); ++sl) {
      const int32_t ci = pack.streams[st][sl];
      if (ci < 0 || static_cast<size_t>(ci) >= seen.size() || seen[ci]) continue;
      seen[ci] = true;
      const Clip& clip = pack.clips[ci];
      std::set<int> loc_bones;
      for (const auto& [bone, record] : for_monster(em, static_cast<int>(clip.tracks.size()),
                                                    static_cast<int>(s.bones.size()))) {
        for (const Channel& c : clip.tracks[record].channels)
          if (c.bit & bits::kLocation) loc_bones.insert(bone);
      }
      const std::vector<int> below = loc_below_fork(parents, loc_bones);
      if (!below.empty()) {
        // Once per distinct clip, named by its id (stream * 100 + slot, "MHP3rd: clip sets").
        const std::string where = where_of(static_cast<int>(st), static_cast<int>(sl));
        const std::string clip_name =
            sl < static_cast<size_t>(kEntryBank) ? fmt::format("clip {} ({})", st * 100 + sl, where)
                                                 : where;
        out.push_back(make("LOC_BELOW_FORK", where,
                           fmt::format("{}: location records land below the body fork {} at "
                                       "bones {}",
                                       clip_name, fork, list_numbers(below))));
      }
    }
  }
}

}  // namespace

std::vector<Finding> validate(const Skeleton* skeleton, const AnimPack* pack,
                              const Skeleton* species, std::optional<int> em) {
  RuleInputs in;
  in.skeleton = skeleton;
  in.pack = pack;
  in.species = species;
  in.em = em;
  return validate(in);
}

std::vector<Finding> validate(const RuleInputs& in) {
  std::vector<Finding> out;
  const Skeleton* skeleton = in.skeleton;
  const AnimPack* pack = in.pack;
  const bool mhfu = pack != nullptr ? pack->game == Game::kMhfu
                                    : skeleton != nullptr && skeleton->game() == Game::kMhfu;
  if (skeleton != nullptr) {
    skeleton_rules(*skeleton, mhfu, out);
    if (in.species != nullptr) template_rule(*skeleton, *in.species, out);
  }
  if (pack != nullptr) {
    clip_rules(*pack, skeleton, in.strict, out);
    if (skeleton != nullptr && mhfu) partition_rule(*skeleton, *pack, out);
  }
  if (in.model != nullptr) model_rules(*in.model, skeleton, out);
  // Only with the species: the default offset is a guess (notes 3: wrong for every pinned monster).
  if (skeleton != nullptr && pack != nullptr && !mhfu && in.em)
    fork_rule(*skeleton, *pack, in.em, out);
  return out;
}

std::string reference_line(const Finding& f) {
  const char* level = f.level == Finding::Level::kError ? "error" : "warn";
  return fmt::format("{} {}: {} (fix: {})", level, f.code, f.message, f.fix);
}

std::vector<Check> verify_checks(const std::vector<Finding>& findings) {
  std::vector<Check> out;
  for (const Rule& r : rules()) {
    const std::string code = r.code;
    if (code == "TEMPLATE" || code == "EMPTY_TRACK" || code == "LOC_BELOW_FORK") continue;
    Check c;
    c.name = r.holds;
    bool hit = false;
    for (const Finding& f : findings) {
      if (f.code != code) continue;
      hit = true;
      c.detail += (c.detail.empty() ? "" : "; ") + f.message;
    }
    c.ok = r.level == Finding::Level::kWarning || !hit;
    out.push_back(std::move(c));
  }
  return out;
}

std::string summary(const std::vector<Finding>& findings) {
  int e = 0, w = 0;
  for (const Finding& f : findings) {
    e += f.level == Finding::Level::kError;
    w += f.level == Finding::Level::kWarning;
  }
  return fmt::format("{} errors, {} warnings", e, w);
}

std::vector<std::string> fix(AnimPack* pack, Skeleton* skeleton) {
  std::vector<std::string> changes;
  if (skeleton != nullptr && skeleton->params.size() >= 2 && skeleton->game() == Game::kMhfu) {
    const int64_t n = static_cast<int64_t>(skeleton->bones.size());
    if ((skeleton->params[1] < 1 || skeleton->params[1] > n) && n > 0) {
      changes.push_back(fmt::format("skeleton: animated count {} set to the bone count {}",
                                    skeleton->params[1], n));
      skeleton->params[1] = static_cast<uint32_t>(n);
    }
  }
  if (pack == nullptr) return changes;
  const bool mhfu = pack->game == Game::kMhfu;
  std::map<int, std::vector<int>> joints;
  if (skeleton != nullptr) joints = part_joints(*skeleton);
  std::vector<bool> seen(pack->clips.size(), false);
  for (size_t st = 0; st < pack->streams.size(); ++st) {
    for (size_t sl = 0; sl < pack->streams[st].size(); ++sl) {
      const int32_t ci = pack->streams[st][sl];
      if (ci < 0 || static_cast<size_t>(ci) >= seen.size() || seen[ci]) continue;
      seen[ci] = true;
      Clip& clip = pack->clips[ci];
      const int s = static_cast<int>(st), i = static_cast<int>(sl);
      for (size_t t = 0; t < clip.tracks.size(); ++t) {
        auto& chs = clip.tracks[t].channels;
        const int tj = static_cast<int>(t);
        std::set<int> kept_bits;
        std::vector<Channel> kept;
        for (Channel& c : chs) {
          if (mhfu && (c.bit & bits::kScale)) {
            changes.push_back(where_of(s, i, tj, c.bit) + ": scale channel dropped");
          } else if (!kept_bits.insert(c.bit).second) {
            changes.push_back(where_of(s, i, tj, c.bit) + ": duplicate channel dropped");
          } else if (c.keys.empty()) {
            changes.push_back(where_of(s, i, tj, c.bit) + ": empty channel removed");
          } else {
            const bool sorted = std::is_sorted(
                c.keys.begin(), c.keys.end(),
                [](const Keyframe& a, const Keyframe& b) { return a.frame < b.frame; });
            if (!sorted) {
              std::stable_sort(
                  c.keys.begin(), c.keys.end(),
                  [](const Keyframe& a, const Keyframe& b) { return a.frame < b.frame; });
              changes.push_back(where_of(s, i, tj, c.bit) + ": keys sorted by frame");
            }
            kept.push_back(std::move(c));
          }
        }
        chs = std::move(kept);
      }
      // Negative frames: the whole clip shifts so its first key sits at frame 0 (channels stay
      // in step).
      int min_frame = 0, max_frame = 0;
      for (const Track& t : clip.tracks)
        for (const Channel& c : t.channels)
          for (const Keyframe& k : c.keys) {
            min_frame = std::min<int>(min_frame, k.frame);
            max_frame = std::max<int>(max_frame, k.frame);
          }
      if (min_frame < 0) {
        if (max_frame - min_frame <= 32767) {
          for (Track& t : clip.tracks)
            for (Channel& c : t.channels)
              for (Keyframe& k : c.keys) k.frame = static_cast<int16_t>(k.frame - min_frame);
          changes.push_back(
              fmt::format("{}: keys shifted by {} frames", where_of(s, i), -min_frame));
        } else {
          changes.push_back(where_of(s, i) +
                            ": negative frames left: the shift would overflow s16");
        }
      }
      if (!mhfu) continue;
      int span = frames(clip);
      if (span == 0) span = 2;
      if (clip.tracks.empty() && skeleton != nullptr) {
        const auto it = joints.find(s / 2);
        if (it != joints.end()) {
          const int64_t animated = skeleton->animated();
          for (int j : it->second)
            if (j < animated) clip.tracks.push_back(rest(span));
          changes.push_back(fmt::format("{}: {} rest tracks given to an empty clip", where_of(s, i),
                                        clip.tracks.size()));
        }
      }
      for (size_t t = 0; t < clip.tracks.size(); ++t) {
        if (!clip.tracks[t].channels.empty()) continue;
        clip.tracks[t] = rest(span);
        changes.push_back(fmt::format("{}: empty track given rest keys over frames 0..{}",
                                      where_of(s, i, static_cast<int>(t)), span));
      }
    }
  }
  return changes;
}

}  // namespace animkit::monster_hunter
