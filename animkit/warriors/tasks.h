// Animation tasks (warriors.txt, "Animation tasks", "Fades", "Gait blend", "Paired tasks"): the
// small objects a character plays through, each owning one or more cursors.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>

#include "animkit/warriors/clock.h"
#include "animkit/warriors/cursor.h"
#include "animkit/warriors/pose.h"

namespace animkit::warriors {

class CharacterInstance;

// Task flags (+0x10), warriors.txt "Task flags".
inline constexpr uint32_t kTaskNoVelocity = 0x1, kTaskNoTurn = 0x2, kTaskMuted = 0x10,
                          kTaskFlag40 = 0x40, kTaskFlag80 = 0x80, kTaskContinuous = 0x200;
inline constexpr uint32_t kLocomotionFlags = 0x2c1;

// Human state flags (record +0x08) the clip tasks' release touches (warriors.txt, "When a clip
// ends", the release at 0x00105f78): it clears 0x4000000000 and, when the held flags had 0x400000,
// sets 0x80000000 at +0x40 of the object the human reports.
inline constexpr uint64_t kStateReleaseCleared = 0x4000000000ull;
inline constexpr uint64_t kHeldReportsObject = 0x400000ull;
inline constexpr uint32_t kReportedObjectBit = 0x80000000u;

// The pose stack: at most 7 poses (0x00104ce0 refuses an eighth).
//
// A slot keeps its pose and mask when popped or cleared, and holds the sampling's default pose
// wherever its mask is clear (every writer keeps this: the sampler writes the mask it returns,
// a blend in place only the values its result's mask has). So push() leaves mask() at what the
// slot held before, which AnimCursor::sample_over takes to put back only the defaults the slot's
// last pose changed. clear(defaults) forgets what the slots hold when the defaults may differ.
class PoseStack {
 public:
  static constexpr int kMax = 7;
  PoseStack() { masks_.fill(kAllPoseValues); }
  // The caller fills the pose and sets its untagged_mask() with mask(0).
  WarPose* push() { return count_ < kMax ? &poses_[count_++] : nullptr; }
  void pop() {
    if (count_ > 0) --count_;
  }
  int size() const { return count_; }
  WarPose& top(int below = 0) { return poses_[count_ - 1 - below]; }
  // untagged_mask() of top(below), kept beside the pose (pose_blend_masked).
  uint64_t& mask(int below = 0) { return masks_[count_ - 1 - below]; }
  // Empties the stack for a sampling on `defaults`: the slots' masks stay valid only when the
  // last sampling used the same `defaults` and `stable` says that pose never changes.
  void clear(const WarPose* defaults = nullptr, bool stable = false) {
    count_ = 0;
    if (!stable || defaults != defaults_) masks_.fill(kAllPoseValues);
    defaults_ = stable ? defaults : nullptr;
  }

 private:
  std::array<WarPose, kMax> poses_;
  std::array<uint64_t, kMax> masks_;
  int count_ = 0;
  const WarPose* defaults_ = nullptr;
};

enum class AdvanceResult { kContinue, kHandOver, kFinished, kFadeDone };

// AnimTask (0x48 bytes in the original): the common fields and the virtual calls.
class AnimTask {
 public:
  AnimTask(int type, CharacterInstance* instance) : type_(type), instance_(instance) {}
  virtual ~AnimTask() = default;
  AnimTask(const AnimTask&) = delete;
  AnimTask& operator=(const AnimTask&) = delete;

  int type() const { return type_; }    // +0x14
  float rate() const { return rate_; }  // +0x0c
  void set_rate(float r) { rate_ = r; }
  uint32_t flags() const { return flags_; }  // +0x10
  // +0xcc: sets the task flags and the cursors' flags (0x1, 0x2, 0x10).
  virtual void set_flags(uint32_t flags) { flags_ = flags; }
  CharacterInstance* instance() const { return instance_; }

  // +0x24 held flags (warriors.txt, "Held flags" in the task system): the bits of the human's
  // record +0x08 the task holds, and the start bits it sets as it starts (first clearing the
  // bits it holds). Events 0x2c / 0x2d / 0x48 change both the human's word and `held`.
  uint64_t held = 0;
  uint64_t start_bits = 0;
  bool started() const { return started_; }
  std::string end_callback;   // a name reported in the trace when the task is released
  std::string wrap_callback;  // type 1 and 12: reported on each wrap

  // +0x54: clears the bits it holds, then sets its start bits (warriors.txt, "Held flags").
  virtual void start();
  virtual void sample(PoseStack& poses) = 0;       // +0x5c
  virtual AdvanceResult advance(float dt) = 0;     // +0x64
  virtual float time() const { return 0; }         // +0x6c
  virtual float duration() const { return 0; }     // +0xd4
  virtual void release();                          // +0x94 (and the clean-up)
  virtual void set_blend_target(float) {}          // +0xac
  virtual float blend_value() const { return 0; }  // +0xb4
  virtual void set_blend_value(float) {}           // +0xbc
  virtual int anim_id() const { return -1; }       // +0x104
  virtual const AnimCursor* main_cursor() const { return nullptr; }
  // Poses the task adds to the pose stack when sampled: 1, a fade -1 (two become one), a clip
  // played over a subtree 0 (it blends into the pose under it; 1 when it is the bottom task).
  virtual int pose_delta(bool bottom) const {
    (void)bottom;
    return 1;
  }
  // Type 3 / 6: the next task that takes this one's place (moved out on hand-over).
  virtual std::unique_ptr<AnimTask> take_next() { return nullptr; }

 protected:
  static uint16_t cursor_flags(uint32_t task_flags) {
    return static_cast<uint16_t>(task_flags & (kTaskNoVelocity | kTaskNoTurn | kTaskMuted));
  }
  // The held-flag part of the release: what the task still holds, less what another task on
  // the stack holds, comes off the human's word. Returns the held bits it had.
  uint64_t release_held();
  // clock_step_size(dt, rate_), worked out again only when dt or the rate changes (their bits):
  // a task steps by the same s every update.
  float step_size(float dt) {
    const uint64_t key = uint64_t{std::bit_cast<uint32_t>(dt)} << 32 | std::bit_cast<uint32_t>(rate_);
    if (!step_known_ || key != step_key_) {
      step_key_ = key;
      step_ = clock_step_size(dt, rate_);
      step_known_ = true;
    }
    return step_;
  }
  int type_;
  CharacterInstance* instance_;
  float rate_ = 1.0f;
  uint32_t flags_ = 0;
  bool started_ = false;

 private:
  bool step_known_ = false;
  float step_ = 0;
  uint64_t step_key_ = 0;
};

// A task that plays one clip: type 1 (loop), 3 (clip then next), 6 (paired 3), 4 (paired, held
// at the end), 7 (a scene clip, held at the end).
class ClipTask : public AnimTask {
 public:
  ClipTask(int type, CharacterInstance* instance, const PlayClip* clip, float rate);
  void set_flags(uint32_t flags) override;
  void sample(PoseStack& poses) override;
  AdvanceResult advance(float dt) override;
  float time() const override { return cursor_.time(); }
  float duration() const override { return cursor_.duration(); }
  int anim_id() const override { return clip_ ? clip_->anim_id : -1; }
  const AnimCursor* main_cursor() const override { return &cursor_; }
  void release() override;
  std::unique_ptr<AnimTask> take_next() override { return std::move(next_); }

  // Type 3 / 6: the next task and the blend time into it (+0x1c, +0x20).
  void set_next(std::unique_ptr<AnimTask> next, float blend_time);
  const AnimTask* next() const { return next_.get(); }
  bool in_blend_window() const { return window_; }
  float blend_share() const { return share_; }
  AnimCursor& cursor() { return cursor_; }
  // Played over a subtree (a scenario's choice, README): the clip's pose is blended into the pose
  // under it for `bone`'s subtree only, with `weight` as its share (Pose_BlendPartial with a
  // bone, warriors.txt "Blending"): an upper-body clip over legs that walk.
  void set_subtree(int bone, float weight) {
    bone_ = bone;
    subtree_weight_ = weight;
  }
  int subtree_bone() const { return bone_; }
  float subtree_weight() const { return subtree_weight_; }
  int pose_delta(bool bottom) const override { return bone_ >= 0 && !bottom ? 0 : 1; }

 private:
  const PlayClip* clip_;
  AnimCursor cursor_;
  std::unique_ptr<AnimTask> next_;
  float blend_time_ = 0;
  bool window_ = false;
  float share_ = 0;
  bool held_at_end_ = false;
  int bone_ = -1;
  float subtree_weight_ = 1.0f;
};

// Type 9: a cross-fade over d seconds from the tasks below it (warriors.txt, "Fades").
class FadeTask : public AnimTask {
 public:
  FadeTask(CharacterInstance* instance, float duration, float rate);
  void sample(PoseStack& poses) override;
  AdvanceResult advance(float dt) override;
  float time() const override { return elapsed_; }
  float duration() const override { return duration_; }
  // The outgoing pose's weight, (1 + cos(pi t / d)) / 2; 0 for d = 0.
  float weight() const { return fade_weight(elapsed_, duration_); }
  static float fade_weight(float t, float d);
  // Finishes at once (advanced by its remaining time).
  void finish() { elapsed_ = duration_ + (duration_ > 0 ? 0.f : 1.f); }
  int pose_delta(bool) const override { return -1; }

  // "The new one" of warriors.txt "Fades": the task the fade fades into, which its completion
  // keeps (with everything under it) while it gives back itself and every task between the two.
  // A change names the task it inserted; a fade pushed by itself the top of the layer under the
  // one it fades out (README Choices). nullptr: nothing to keep apart, only the fade goes.
  const AnimTask* new_task() const { return new_task_; }
  void set_new_task(const AnimTask* task) { new_task_ = task; }

 private:
  float duration_;
  float elapsed_ = 0;
  const AnimTask* new_task_ = nullptr;
};

// Type 12: the gait blend (warriors.txt, "Gait blend").
class GaitTask : public AnimTask {
 public:
  GaitTask(CharacterInstance* instance, const std::array<const PlayClip*, 5>& clips, float value,
           float rate, float speed = 10.0f);
  void set_flags(uint32_t flags) override;
  void sample(PoseStack& poses) override;
  AdvanceResult advance(float dt) override;
  float time() const override { return leader().time(); }
  float duration() const override { return leader().duration(); }
  int anim_id() const override;
  const AnimCursor* main_cursor() const override { return &leader(); }
  void set_blend_target(float v) override;
  float blend_value() const override { return value_; }
  void set_blend_value(float v) override;

  float target() const { return target_; }
  int pair() const { return pair_; }
  bool upper_leads() const { return upper_leads_; }
  const AnimCursor& lower() const {
    sync_follower();
    return lower_;
  }
  const AnimCursor& upper() const {
    sync_follower();
    return upper_;
  }
  // floor(v) with the steps 0.995, 1.995, 2.995.
  static int pair_of(float v);

 private:
  const AnimCursor& leader() const { return upper_leads_ ? upper_ : lower_; }
  void enter_pair(int pair);
  void update_mutes();
  // The follower is set to the leader's normalised time after every advance (warriors.txt,
  // "Gait blend"); that state (time, frame, keys, the events taken as fired) is a function of the
  // leader's time alone, and the leader changes only in advance(), so it is set when something
  // reads the follower (a sampling that needs it, a change of pair or of leader, lower() and
  // upper()) instead of on every update: the same cursor, without the work while the gait plays
  // one clip.
  void sync_follower() const;
  // What every update reads first, then the cursors (their unused key slots last): the task's
  // first 8 cache lines, which the crowd prefetches, hold all that an update touches.
  int pair_ = 0;
  float value_ = 0, target_ = 0, speed_;
  bool upper_leads_ = false;
  mutable bool follower_stale_ = false;
  std::array<const PlayClip*, 5> clips_;
  mutable AnimCursor lower_, upper_;  // mutable: sync_follower() from the const readers
};

// Type 10: two clips mixed by a weight (the upper's share); type 13: an eight-direction blend
// (three neighbouring clips of eight); type 11: four clips, one audible by a value 0-3.
class MixTask : public AnimTask {
 public:
  enum class Kind { kTwo, kFour, kEight };
  MixTask(int type, Kind kind, CharacterInstance* instance, const PlayClip* const* clips, int count,
          float value, float rate);
  void set_flags(uint32_t flags) override;
  void sample(PoseStack& poses) override;
  AdvanceResult advance(float dt) override;
  float time() const override { return cursors_[lead_].time(); }
  float duration() const override { return cursors_[lead_].duration(); }
  int anim_id() const override;
  const AnimCursor* main_cursor() const override { return &cursors_[lead_]; }
  void set_blend_target(float v) override {
    value_ = v;
    choose();
  }
  float blend_value() const override { return value_; }
  void set_blend_value(float v) override { set_blend_target(v); }
  // Type 11's audible clip: thresholds 0.51, 1.51, 2.51.
  static int audible_of(float v);

 private:
  void choose();
  // The scalars first, before the cursors (GaitTask's comment).
  Kind kind_;
  int count_;
  float value_;
  int lead_ = 0, other_ = 0;
  float other_weight_ = 0;
  std::array<const PlayClip*, 8> clips_{};
  std::array<AnimCursor, 8> cursors_;
};

}  // namespace animkit::warriors
