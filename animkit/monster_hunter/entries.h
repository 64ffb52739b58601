// MHFU parts and entries (monster-hunter.txt, "MHFU: parts and streams"; notes 2): a rig split
// into parts by Bone.stream, part k's clips in streams 2k and 2k + 1; entry e of part k is slot
// e % 100 of stream 2k + e / 100. rig_clip joins an entry's parts into one clip over the whole
// rig; put() writes one back. MHP3rd clip ids are stream * 100 + slot.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/playback.h"
#include "animkit/monster_hunter/skeleton.h"

namespace animkit::monster_hunter {

// mhfu.entries constants.
constexpr int kEntryBank = 100;
constexpr int kPartStreams = 2;
constexpr int kActionInputBase = 1000;  // 0x3E8
constexpr int kActionInputStep = 200;

// 64-bit: a part id read from a bone (u32) times 2 does not fit an int (issue 11, item 6).
struct SlotRef {
  int64_t stream = 0;
  int64_t slot = 0;
  friend bool operator==(const SlotRef&, const SlotRef&) = default;
};

// mhfu.entries.entry_clip: divmod(entry + 200 part, 100).
SlotRef entry_clip(int entry, int part);
// mhfu_port.fk.entry_slot: (2 part + e / 100, e % 100) (the same slot).
SlotRef entry_slot(int part, int entry);
// fk.entry_of, the inverse: (stream mod 2) * 100 + slot.
int entry_of(int stream, int slot);
// mhfu.entries.input_action: value - 1000 - 200 part.
int input_action(int value, int part);
// The executor's input for an entry on a part: entry + 1000 + 200 part.
int action_input(int entry, int part);

// fk.part_joints: part id -> its joint indices in ascending order (every bone).
std::map<int, std::vector<int>> part_joints(const Skeleton& skeleton);
// The parts with at least one animated joint (bones [0, animated)), in id order.
std::vector<int> animated_parts(const Skeleton& skeleton);

// Known entry counts per species (layout.ENTRIES): em 75 (Tigrex) has 123.
std::optional<int> known_entries(int em);
// layout.capacity: `known` (the species' count) else max(100, last filled entry + 1), then capped
// by the entries every animated part has a slot for.
int capacity(const AnimPack& pack, const Skeleton& skeleton, std::optional<int> known = {});
// An id past the entry count plays another: e mod capacity (123 plays 0, 150 plays 27 on the
// Tigrex). The notes find no source for the form; it fits the spec's examples.
int wrap_entry(int entry, int capacity);
// layout.partial: entries under capacity that some but not all animated parts hold a clip for
// (the Tigrex's head-only 24 and 25).
std::set<int> partial_entries(const AnimPack& pack, const Skeleton& skeleton, int capacity);

// fk.part_clip: the clip at entry_slot(part, entry), or nullptr.
const Clip* part_clip(const AnimPack& pack, int part, int entry);
// fk.rig_clip: one track per bone (empty where no part drives it), loop from the first part that
// had a clip; nullopt when no part has one.
std::optional<Clip> rig_clip(const AnimPack& pack, int entry, const Skeleton& skeleton);
// motion.split: a whole-rig clip (one track per bone) into one clip per part.
std::map<int, Clip> split(const Clip& clip, const Skeleton& skeleton);
// motion.put: writes a whole-rig clip back into the parts' slots of `entry` (notes 2). Throws
// animkit::Error when a part without a native clip, or a track past the native count, is keyed.
void put(AnimPack& pack, int entry, const Clip& clip, const Skeleton& skeleton);

// motion.clip_id: stream * 100 + slot; a slot outside 0..99 is an error.
int clip_id(int stream, int slot);
SlotRef clip_slot(int id);

// The engine's per-part players for one monster (each part a CLIP_BLOCK): play(entry) sets each
// driven part's clip from its slot; a part whose slot is empty keeps the clip it was playing.
class EntryPlayer {
 public:
  EntryPlayer(const AnimPack& pack, const Skeleton& skeleton, std::optional<int> known = {});
  int capacity() const { return capacity_; }
  // Plays an entry (wrapped past the capacity) on the given parts (all animated parts when empty).
  // Restarts the phase of every part that changed clip.
  void play(int entry, std::span<const int> parts = {});
  // Advances every part's phase by `frames` clip frames.
  void advance(float frames);
  // Sets every part's phase.
  void seek(float frame);
  // Samples the parts' clips at their phases into local poses and world matrices (joints of no
  // part, or of a part with no clip yet, keep the bind pose).
  void pose(std::span<JointPose> local, std::span<Mat4> world);
  const Rig& rig() const { return rig_; }
  // The slot each part currently plays (nullopt: none yet), and its phase (clip frames).
  std::optional<SlotRef> current(int part) const;
  float phase(int part) const;
  // The animated parts' ids, in id order.
  std::vector<int> parts() const;

 private:
  struct Part {
    int id = 0;
    std::vector<int> joints;
    std::map<int64_t, Motion> motions;  // by stream * 1000 + slot, prepared on first use
    const Motion* motion = nullptr;
    std::optional<SlotRef> slot;
    float phase = 0;
    PoseCursor cursor;
  };
  const AnimPack& pack_;
  Rig rig_;
  int capacity_ = 0;
  std::vector<Part> parts_;
  std::vector<JointPose> scratch_;
};

}  // namespace animkit::monster_hunter
