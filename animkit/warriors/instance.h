// The character instance's task stack and queue (warriors.txt, "The task stack"), the human
// record it reports to, and Human_ApplyRootMotion (warriors.txt, "Root motion").
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "animkit/warriors/tasks.h"

namespace animkit::warriors {

// What the human record holds for the player.
struct Human {
  uint64_t state_flags = 0;  // record +0x08, the combat state word (held flags)
  int playing_anim = -1;     // record +0x20, refreshed from the top task
  float heading = 0;         // radians about z
  Vec3 velocity;             // world m/s from the root motion this update
  Vec3 position;
  float speed_multiplier = 1.0f;  // +0x3a4, the locomotion blends' rate
  uint32_t reported_object_flags = 0;  // +0x40 of the object the human reports (vtable +0xf4)
  int attachment = -1;                 // +0x280: not -1 while attached (Root motion)
  // The human test 0x00223440 that lets the queued tasks' pose be the default (not traced: the
  // scenario sets it).
  bool queued_pose_test = false;
};

struct FiredEvent {
  int anim = -1;
  const AnimEvent* event = nullptr;
};
struct Callback {
  int anim = -1;
  int task_type = 0;
  std::string name;
  bool wrap = false;
};

// What sampling needs only while it runs: the pose stack, the blends' scratch poses and the
// queued tasks' default pose (4.6 KB a character would otherwise carry; a crowd shares one per
// thread, so it stays in cache).
struct SampleWorkspace {
  PoseStack poses;
  std::array<WarPose, 3> scratch;
  // Where scratch[i] may differ from the defaults (as PoseStack's masks; reset with its clear).
  std::array<uint64_t, 3> scratch_masks{kAllPoseValues, kAllPoseValues, kAllPoseValues};
  WarPose queued_default;  // 0x005fd040
  // Empties the pose stack for a sampling on `defaults` (PoseStack::clear).
  void begin(const WarPose* defaults, bool stable) {
    if (!stable || defaults != poses_defaults_) scratch_masks.fill(kAllPoseValues);
    poses_defaults_ = stable ? defaults : nullptr;
    poses.clear(defaults, stable);
  }

 private:
  const WarPose* poses_defaults_ = nullptr;
};

class CharacterInstance : public EventSink {
 public:
  static constexpr int kMaxStack = 18, kMaxQueue = 10;

  CharacterInstance();
  ~CharacterInstance() override;

  Human human;
  // defaults -> the reference default pose (default_pose(), one copy shared by every instance:
  // it stays in cache however many characters there are).
  SampleContext sample_context;

  // The bone offsets Instance_BuildBoneMatrices composes with: unit offsets (one shared copy)
  // until set (a character's 0x28 chunk).
  const std::array<Vec3, kNumBones>& offsets() const { return *offsets_; }
  void set_offsets(const std::array<Vec3, kNumBones>& offsets);

  // Whether sample() keeps the local pose for pose() (the player's trace); a crowd that only
  // needs the bone transforms turns it off, so the 576 bytes are not written back every update.
  // The bone transforms and everything else are the same either way.
  bool keep_local_pose = true;

  // TaskStack_InsertBottom (0x001754e8) / TaskStack_Push (0x001753d8): both first finish the
  // newest fade when the stack holds more than 6 tasks, then refresh the playing anim id. The
  // task is started (its held bits set on the human).
  void insert_bottom(std::unique_ptr<AnimTask> task);
  void push(std::unique_ptr<AnimTask> task);
  // A change of animation: fade over `fade` s, the new task under it (warriors.txt, "The task
  // stack"): make the fade, insert the new task at the bottom, push the fade on top.
  void change(std::unique_ptr<AnimTask> task, float fade);
  // The same with a fade made by the caller (held bits, its own rate).
  void change(std::unique_ptr<AnimTask> task, std::unique_ptr<FadeTask> fade);
  // The queue (up to 10): tasks inserted at the bottom when the queue runs; false when full.
  bool queue(std::unique_ptr<AnimTask> task);
  // CharacterInstance_RunQueuedTasks (0x00175610).
  void run_queued_tasks();

  // TaskStack_Top (0x00175210): the top task, or the bottom one when the top is a fade.
  AnimTask* top() const {
    if (count_ == 0) return nullptr;
    AnimTask* t = stack_[count_ - 1].get();
    return t->type() == 9 ? stack_[0].get() : t;
  }
  void refresh_playing_anim() {  // 0x001752c8
    const AnimTask* t = top();
    human.playing_anim = t ? t->anim_id() : -1;
  }
  // Advances every task by dt, bottom to top (hand-overs, fade clean-up, ends).
  void advance(float dt);
  // AnimTask_FlushDeferred (0x00105570): releases the tasks given back this update.
  void flush_deferred() {
    if (!deferred_.empty()) release_deferred();
    refresh_playing_anim();
  }
  // CharacterInstance_Sample (0x00176d60): the tasks bottom-up onto the pose stack; the result
  // is the top pose (the default pose when nothing was pushed). With tasks queued and the human
  // test passing, the queued tasks are sampled first (onto a buffer initialised with the
  // reference pose) and their pose is the default pose of this frame.
  const WarPose& sample();
  // The same on a workspace of the caller's (a crowd's per-thread one); same result. Without
  // keep_local_pose the pose returned lives in the workspace until its next use.
  const WarPose& sample(SampleWorkspace& work);
  int queued() const { return static_cast<int>(queue_.size()); }
  const AnimTask* queued_task(int i) const { return queue_[i].get(); }
  // Whether this frame's default pose came from the queued tasks.
  bool default_from_queue() const { return default_from_queue_; }
  // Human_ApplyRootMotion (0x0023f238) from the built entry 0.
  void apply_root_motion(float dt);
  const std::array<BoneTransform, kNumBones>& bones() const { return bones_; }
  // The last sampled local pose (while keep_local_pose).
  const WarPose& pose() const { return pose_; }

  // Asks the cache for what the next update reads and writes (the instance and its tasks): a
  // crowd calls it one character ahead, so the misses of one overlap the work of another.
  void prefetch() const;

  int size() const { return count_; }
  AnimTask* task(int i) const { return stack_[i].get(); }
  // The topmost task of a type (for the scenario's targets), or nullptr.
  AnimTask* find_top(int type) const;

  // This update's events and callbacks (cleared by begin_update()).
  void begin_update() {
    events_.clear();
    if (!callbacks_.empty()) callbacks_.clear();
  }
  const std::vector<FiredEvent>& events() const { return events_; }
  const std::vector<Callback>& callbacks() const { return callbacks_; }
  void note_callback(const AnimTask& task, const std::string& name, bool wrap);
  // EventSink: events of the newest task only (the advance passes the sink to it alone).
  void fire(const PlayClip& clip, const AnimEvent& event) override;
  // The sink a task's cursors should fire into this update (nullptr when not the newest).
  EventSink* sink_for(const AnimTask* task) { return task == firing_ ? this : nullptr; }
  // Whether another task on the stack holds these bits.
  uint64_t held_by_others(const AnimTask* task) const;

  // The workspace of the sampling under way (tasks' scratch poses).
  WarPose& scratch(int i) { return work_->scratch[i]; }
  uint64_t& scratch_mask(int i) { return work_->scratch_masks[i]; }

 private:
  void finish_newest_fade_if_crowded();
  void remove_range(int first, int last);  // [first, last], deferred
  int layer_start(int top) const;
  const AnimTask* fade_target_on_top() const;
  void retarget_fades(const AnimTask* from, const AnimTask* to);
  int complete_fade(int i);
  void defer(std::unique_ptr<AnimTask> task);
  void release_deferred();

  // What every update reads and writes comes first and together (prefetch() fetches it); the
  // local pose last, written only while kept.
  std::array<std::unique_ptr<AnimTask>, kMaxStack> stack_;
  int count_ = 0;
  bool default_from_queue_ = false;
  const AnimTask* firing_ = nullptr;
  SampleWorkspace* work_ = nullptr;  // while sampling
  const std::array<Vec3, kNumBones>* offsets_;
  const BoneOffsetLanes* offset_lanes_;  // bone_offset_lanes(*offsets_)
  std::vector<std::unique_ptr<AnimTask>> queue_;
  std::vector<std::unique_ptr<AnimTask>> deferred_;
  std::vector<FiredEvent> events_;
  std::vector<Callback> callbacks_;
  // cos and sin of heading_of_cos_sin_ (apply_root_motion): cos(+0) = 1, sin(+0) = +0 exactly.
  float heading_of_cos_sin_ = 0.0f, heading_cos_ = 1.0f, heading_sin_ = 0.0f;
  std::unique_ptr<SampleWorkspace> own_work_;  // made on the first sample() without one
  std::unique_ptr<std::array<Vec3, kNumBones>> own_offsets_;
  std::unique_ptr<BoneOffsetLanes> own_offset_lanes_;
  alignas(64) std::array<BoneTransform, kNumBones> bones_;
  WarPose pose_;
};

}  // namespace animkit::warriors
