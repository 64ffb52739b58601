#include "animkit/monster_hunter/port.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/monster_hunter/entries.h"
#include "animkit/monster_hunter/records.h"
#include "animkit/monster_hunter/rules.h"

namespace animkit::monster_hunter {

std::map<int, const Clip*> moveset(const AnimPack& donor) {
  std::map<int, const Clip*> out;
  for (size_t s = 0; s < donor.streams.size(); ++s)
    for (size_t i = 0; i < donor.streams[s].size(); ++i) {
      const Clip* c = donor.clip(s, i);
      if (c != nullptr) out[clip_id(static_cast<int>(s), static_cast<int>(i))] = c;
    }
  return out;
}

int moveset_records(const std::map<int, const Clip*>& clips) {
  if (clips.empty()) throw Error("the donor holds no clip");
  const size_t n = clips.begin()->second->tracks.size();
  for (const auto& [id, c] : clips) {
    if (c->tracks.size() != n) {
      throw Error(fmt::format("donor clip {} has {} tracks, clip {} {}: every clip of a moveset "
                              "drives the same records",
                              id, c->tracks.size(), clips.begin()->first, n));
    }
  }
  return static_cast<int>(n);
}

LayoutPlan plan_layout(const std::vector<int>& donor_ids, int capacity,
                       const std::set<int>& host_filled, const std::set<int>& head_only) {
  LayoutPlan plan;
  plan.capacity = capacity;
  plan.head_only = head_only;
  plan.host_filled = host_filled;
  std::vector<int> ids = donor_ids;
  std::sort(ids.begin(), ids.end());
  std::vector<int> rest;
  for (int id : ids) {
    if (id >= 0 && id < capacity && head_only.count(id) == 0) {
      plan.entries[id] = id;
    } else {
      rest.push_back(id);
    }
  }
  std::vector<int> free;
  for (int e : host_filled)
    if (e >= 0 && e < capacity && head_only.count(e) == 0 && plan.entries.count(e) == 0)
      free.push_back(e);
  for (int e = 0; e < capacity; ++e)
    if (head_only.count(e) == 0 && plan.entries.count(e) == 0 && host_filled.count(e) == 0)
      free.push_back(e);
  size_t next = 0;
  for (int id : rest) {
    if (next < free.size()) {
      plan.entries[free[next++]] = id;
    } else {
      plan.dropped.push_back(id);
    }
  }
  return plan;
}

Clip build_clip(const Clip& donor, const std::map<int, int>& bone_to_record, size_t bones) {
  Clip out;
  out.loop = donor.loop;
  out.loop_start = donor.loop_start;
  int span = frames(donor);
  if (span == 0) span = 2;
  for (size_t b = 0; b < bones; ++b) {
    Track t;
    const auto it = bone_to_record.find(static_cast<int>(b));
    if (it != bone_to_record.end() && it->second >= 0 &&
        static_cast<size_t>(it->second) < donor.tracks.size()) {
      for (const Channel& c : donor.tracks[it->second].channels)
        if ((c.bit & ~0x1FF) == 0) t.channels.push_back(c);
      std::stable_sort(t.channels.begin(), t.channels.end(),
                       [](const Channel& a, const Channel& b) { return a.bit < b.bit; });
    }
    // notes 1.4: motion.build writes motion.rest where a joint would have no channel.
    out.tracks.push_back(t.channels.empty() ? rest(span) : std::move(t));
  }
  return out;
}

PortResult port(const AnimPack& donor, const Skeleton& target, const AnimPack& host,
                const PortOptions& options) {
  if (donor.game != Game::kMhp3rd) throw Error("the donor must be an MHP3rd moveset");
  if (host.game != Game::kMhfu) throw Error("the target's pack must be MHFU's");
  const std::map<int, const Clip*> clips = moveset(donor);
  PortResult r;
  r.records = moveset_records(clips);
  const int bones = static_cast<int>(target.bones.size());
  r.bone_to_record = for_monster(options.donor_em, r.records, bones);
  // The fork rule ("MHP3rd: clip sets and records"): location records at or above the fork.
  const std::vector<int> parents = target.parents();
  r.fork = body_fork(parents);
  std::set<int> loc;
  for (const auto& [bone, record] : r.bone_to_record)
    for (const auto& [id, c] : clips)
      for (const Channel& ch : c->tracks[record].channels)
        if (ch.bit & bits::kLocation) loc.insert(bone);
  r.loc_below_fork = loc_below_fork(parents, loc);
  // layout.plan over the host pack.
  const std::optional<int> known = options.host_em ? known_entries(*options.host_em) : std::nullopt;
  const int cap = capacity(host, target, known);
  const std::set<int> head_only = partial_entries(host, target, cap);
  std::set<int> filled;
  const std::vector<int> parts = animated_parts(target);
  for (int e = 0; e < cap; ++e)
    for (int p : parts)
      if (part_clip(host, p, e) != nullptr) filled.insert(e);
  std::vector<int> ids;
  for (const auto& [id, c] : clips) ids.push_back(id);
  r.plan = plan_layout(ids, cap, filled, head_only);
  // Each planned entry: the donor clip over the target rig, split into the animated parts.
  r.pack = host;
  const auto joints = part_joints(target);
  for (const auto& [entry, id] : r.plan.entries) {
    const Clip whole = build_clip(*clips.at(id), r.bone_to_record, target.bones.size());
    for (int p : parts) {
      const SlotRef ref = entry_slot(p, entry);
      if (ref.stream < 0 || static_cast<size_t>(ref.stream) >= r.pack.streams.size() ||
          ref.slot < 0 || static_cast<size_t>(ref.slot) >= r.pack.streams[ref.stream].size())
        throw Error(fmt::format("entry {}: part {} has no slot (stream {} slot {})", entry, p,
                                ref.stream, ref.slot));
      Clip part;
      part.loop = whole.loop;
      part.loop_start = whole.loop_start;
      for (int j : joints.at(p)) part.tracks.push_back(whole.tracks[j]);
      r.pack.clips.push_back(std::move(part));
      r.pack.streams[ref.stream][ref.slot] = static_cast<int32_t>(r.pack.clips.size() - 1);
    }
  }
  // Clips in first-use order, unused host clips dropped (what write_pack gives back).
  std::vector<int32_t> remap(r.pack.clips.size(), -1);
  std::vector<Clip> ordered;
  for (auto& slots : r.pack.streams)
    for (int32_t& c : slots) {
      if (c < 0) continue;
      if (remap[c] < 0) {
        remap[c] = static_cast<int32_t>(ordered.size());
        ordered.push_back(r.pack.clips[c]);
      }
      c = remap[c];
    }
  r.pack.clips = std::move(ordered);
  return r;
}

Json to_json(const PortResult& r) {
  Json entries = Json::object();
  for (const auto& [e, id] : r.plan.entries) entries[std::to_string(e)] = id;
  Json map = Json::object();
  for (const auto& [bone, record] : r.bone_to_record) map[std::to_string(bone)] = record;
  return {{"capacity", r.plan.capacity},
          {"head_only", r.plan.head_only},
          {"host_filled", r.plan.host_filled},
          {"entries", entries},
          {"dropped", r.plan.dropped},
          {"records", r.records},
          {"bone_to_record", map},
          {"body_fork", r.fork},
          {"loc_below_fork", r.loc_below_fork}};
}

std::optional<int> em_by_model(int n) {
  for (const auto& [model, em] : {std::pair{5248, 58}, {5339, 40}})
    if (n == model || n == model + 2) return em;
  return std::nullopt;
}

std::optional<int> em_of_model_pac(int n) {
  if (n > 6110 && n < 6110 + 200) return n - 6110;
  return std::nullopt;
}

}  // namespace animkit::monster_hunter
