#include "animkit/monster_hunter/entries.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "animkit/core/error.h"

namespace animkit::monster_hunter {

namespace {
// Floor division in 64 bits: exact for every int input, INT_MIN included.
int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
}  // namespace

SlotRef entry_clip(int entry, int part) {
  const int64_t v = int64_t{entry} + int64_t{kActionInputStep} * part;
  const int64_t stream = floor_div(v, kEntryBank);
  return {stream, v - stream * kEntryBank};
}

SlotRef entry_slot(int part, int entry) {
  const int64_t bank = floor_div(entry, kEntryBank);
  return {int64_t{kPartStreams} * part + bank, entry - bank * kEntryBank};
}

int entry_of(int stream, int slot) { return (((stream % 2) + 2) % 2) * kEntryBank + slot; }

int input_action(int value, int part) { return value - kActionInputBase - kActionInputStep * part; }
int action_input(int entry, int part) { return entry + kActionInputBase + kActionInputStep * part; }

std::map<int, std::vector<int>> part_joints(const Skeleton& skeleton) {
  std::map<int, std::vector<int>> parts;
  for (size_t i = 0; i < skeleton.bones.size(); ++i)
    parts[static_cast<int>(skeleton.bones[i].stream)].push_back(static_cast<int>(i));
  return parts;
}

std::vector<int> animated_parts(const Skeleton& skeleton) {
  std::set<int> ids;
  const int64_t n = std::min<int64_t>(skeleton.animated(), skeleton.bones.size());
  for (int64_t i = 0; i < n; ++i) ids.insert(static_cast<int>(skeleton.bones[i].stream));
  return {ids.begin(), ids.end()};
}

std::optional<int> known_entries(int em) {
  if (em == 75) return 123;  // layout.ENTRIES = {75: 123}
  return std::nullopt;
}

int capacity(const AnimPack& pack, const Skeleton& skeleton, std::optional<int> known) {
  int cap;
  if (known) {
    cap = *known;
  } else {
    int last = -1;
    for (size_t s = 0; s < pack.streams.size(); ++s)
      for (size_t i = 0; i < pack.streams[s].size(); ++i)
        if (pack.streams[s][i] >= 0)
          last = std::max(last, entry_of(static_cast<int>(s), static_cast<int>(i)));
    cap = std::max(kEntryBank, last + 1);
  }
  // Capped by the entries every animated part has a slot for.
  for (int part : animated_parts(skeleton)) {
    const auto slots = [&](int64_t s) -> int {
      return s >= 0 && static_cast<uint64_t>(s) < pack.streams.size()
                 ? static_cast<int>(std::min<size_t>(pack.streams[s].size(), 1 << 30))
                 : 0;
    };
    const int even = slots(int64_t{kPartStreams} * part);
    const int odd = slots(int64_t{kPartStreams} * part + 1);
    cap = std::min(cap, even < kEntryBank ? even : kEntryBank + std::min(odd, kEntryBank));
  }
  return cap;
}

int wrap_entry(int entry, int capacity) {
  if (capacity <= 0) return entry;
  const int r = entry % capacity;
  return r < 0 ? r + capacity : r;
}

const Clip* part_clip(const AnimPack& pack, int part, int entry) {
  const SlotRef ref = entry_slot(part, entry);
  if (ref.stream < 0 || ref.slot < 0) return nullptr;
  return pack.clip(ref.stream, ref.slot);
}

std::set<int> partial_entries(const AnimPack& pack, const Skeleton& skeleton, int capacity) {
  std::set<int> out;
  const std::vector<int> parts = animated_parts(skeleton);
  for (int e = 0; e < capacity; ++e) {
    size_t held = 0;
    for (int p : parts) held += part_clip(pack, p, e) != nullptr;
    if (held > 0 && held < parts.size()) out.insert(e);
  }
  return out;
}

namespace {
// Part ids in order of their first appearance in bone order.
std::vector<int> parts_in_bone_order(const Skeleton& skeleton) {
  std::vector<int> order;
  std::set<int> seen;
  for (const Bone& b : skeleton.bones)
    if (seen.insert(static_cast<int>(b.stream)).second) order.push_back(static_cast<int>(b.stream));
  return order;
}
}  // namespace

std::optional<Clip> rig_clip(const AnimPack& pack, int entry, const Skeleton& skeleton) {
  const auto joints = part_joints(skeleton);
  Clip out;
  out.tracks.resize(skeleton.bones.size());
  bool any = false;
  for (int part : parts_in_bone_order(skeleton)) {
    const Clip* clip = part_clip(pack, part, entry);
    if (clip == nullptr) continue;
    const std::vector<int>& js = joints.at(part);
    for (size_t i = 0; i < js.size() && i < clip->tracks.size(); ++i)
      out.tracks[js[i]] = clip->tracks[i];
    if (!any) {
      out.loop = clip->loop;
      out.loop_start = clip->loop_start;
    }
    any = true;
  }
  if (!any) return std::nullopt;
  return out;
}

std::map<int, Clip> split(const Clip& clip, const Skeleton& skeleton) {
  if (clip.tracks.size() != skeleton.bones.size()) {
    throw Error(fmt::format("a whole-rig clip has {} tracks, the skeleton {} bones",
                            clip.tracks.size(), skeleton.bones.size()));
  }
  std::map<int, Clip> parts;
  for (const auto& [part, js] : part_joints(skeleton)) {
    Clip c;
    c.loop = clip.loop;
    c.loop_start = clip.loop_start;
    for (int j : js) c.tracks.push_back(clip.tracks[j]);
    parts[part] = std::move(c);
  }
  return parts;
}

namespace {
// Clips in first-use order, unused ones dropped (what write_pack would give back).
void normalize(AnimPack& pack) {
  std::vector<int32_t> remap(pack.clips.size(), -1);
  std::vector<Clip> clips;
  for (auto& slots : pack.streams) {
    for (int32_t& c : slots) {
      if (c < 0) continue;
      if (remap[c] < 0) {
        remap[c] = static_cast<int32_t>(clips.size());
        clips.push_back(pack.clips[c]);
      }
      c = remap[c];
    }
  }
  pack.clips = std::move(clips);
}
}  // namespace

void put(AnimPack& pack, int entry, const Clip& clip, const Skeleton& skeleton) {
  const std::optional<Clip> whole = rig_clip(pack, entry, skeleton);
  int span = frames(clip);
  if (span == 0) span = 2;
  const bool retimed =
      whole && (whole->loop != clip.loop || std::bit_cast<uint32_t>(whole->loop_start) !=
                                                std::bit_cast<uint32_t>(clip.loop_start));
  for (const auto& [part, part_clip_new] : split(clip, skeleton)) {
    const Clip* native = part_clip(pack, part, entry);
    if (native == nullptr) {
      for (const Track& t : part_clip_new.tracks) {
        if (!t.channels.empty()) {
          throw Error(
              fmt::format("entry {}: part {} has no clip to carry its keyed tracks", entry, part));
        }
      }
      continue;
    }
    Clip next = *native;
    for (size_t i = 0; i < part_clip_new.tracks.size(); ++i) {
      const Track& t = part_clip_new.tracks[i];
      if (i < next.tracks.size()) {
        if (t.channels.empty() && !next.tracks[i].channels.empty()) {
          next.tracks[i] = rest(span);
        } else {
          next.tracks[i] = t;
        }
      } else if (!t.channels.empty()) {
        throw Error(
            fmt::format("entry {}: part {} track {} is keyed past the native clip's {} tracks",
                        entry, part, i, native->tracks.size()));
      }
    }
    if (retimed) {
      next.loop = clip.loop;
      next.loop_start = clip.loop_start;
    }
    if (next == *native) continue;  // the native object stays, still shared
    const SlotRef ref = entry_slot(part, entry);
    pack.clips.push_back(std::move(next));
    pack.streams[ref.stream][ref.slot] = static_cast<int32_t>(pack.clips.size() - 1);
  }
  normalize(pack);
}

int clip_id(int stream, int slot) {
  if (slot < 0 || slot >= kEntryBank) throw Error(fmt::format("slot {} outside 0..99", slot));
  return stream * kEntryBank + slot;
}

SlotRef clip_slot(int id) {
  return {floor_div(id, kEntryBank), id - floor_div(id, kEntryBank) * kEntryBank};
}

EntryPlayer::EntryPlayer(const AnimPack& pack, const Skeleton& skeleton, std::optional<int> known)
    : pack_(pack),
      rig_(make_rig(skeleton)),
      capacity_(monster_hunter::capacity(pack, skeleton, known)) {
  const auto joints = part_joints(skeleton);
  for (int id : animated_parts(skeleton)) {
    Part p;
    p.id = id;
    p.joints = joints.at(id);
    parts_.push_back(std::move(p));
  }
  scratch_.resize(rig_.size());
}

void EntryPlayer::play(int entry, std::span<const int> parts) {
  const int e = wrap_entry(entry, capacity_);
  for (Part& p : parts_) {
    if (!parts.empty() && std::find(parts.begin(), parts.end(), p.id) == parts.end()) continue;
    const SlotRef ref = entry_slot(p.id, e);
    const Clip* clip = pack_.clip(ref.stream, ref.slot);
    if (clip == nullptr) continue;  // an empty slot keeps the clip the part was playing
    const int64_t key = int64_t{ref.stream} * 1000 + ref.slot;
    auto it = p.motions.find(key);
    if (it == p.motions.end())
      it = p.motions.emplace(key, prepare(*clip, p.joints, rig_.size())).first;
    p.motion = &it->second;
    p.slot = ref;
    p.phase = 0;
  }
}

void EntryPlayer::advance(float frames) {
  for (Part& p : parts_) p.phase += frames;
}

void EntryPlayer::seek(float frame) {
  for (Part& p : parts_) p.phase = frame;
}

void EntryPlayer::pose(std::span<JointPose> local, std::span<Mat4> world) {
  for (size_t j = 0; j < rig_.size() && j < local.size(); ++j)
    local[j] = {{}, rig_.bind_offsets[j]};
  for (Part& p : parts_) {
    if (p.motion == nullptr) continue;
    sample_joints(*p.motion, p.joints, clip_frame(*p.motion, p.phase), &p.cursor, rig_, local);
  }
  if (world.size() == rig_.size() && local.size() == rig_.size())
    local_to_world(rig_, local, world);
}

float EntryPlayer::phase(int part) const {
  for (const Part& p : parts_)
    if (p.id == part) return p.phase;
  return 0;
}

std::vector<int> EntryPlayer::parts() const {
  std::vector<int> ids;
  for (const Part& p : parts_) ids.push_back(p.id);
  return ids;
}

std::optional<SlotRef> EntryPlayer::current(int part) const {
  for (const Part& p : parts_)
    if (p.id == part) return p.slot;
  return std::nullopt;
}

}  // namespace animkit::monster_hunter
