#include "animkit/warriors/instance.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace animkit::warriors {

namespace {
const WarPose& shared_default_pose() {
  static const WarPose pose = default_pose();
  return pose;
}
const std::array<Vec3, kNumBones>& shared_unit_offsets() {
  static const std::array<Vec3, kNumBones> offsets = unit_offsets();
  return offsets;
}
const BoneOffsetLanes& shared_unit_offset_lanes() {
  static const BoneOffsetLanes lanes = bone_offset_lanes(shared_unit_offsets());
  return lanes;
}
}  // namespace

CharacterInstance::CharacterInstance()
    : offsets_(&shared_unit_offsets()), offset_lanes_(&shared_unit_offset_lanes()) {
  sample_context.defaults = &shared_default_pose();
  queue_.reserve(kMaxQueue);
  deferred_.reserve(2 * kMaxStack);
  events_.reserve(64);
  callbacks_.reserve(16);
}

CharacterInstance::~CharacterInstance() = default;

void CharacterInstance::set_offsets(const std::array<Vec3, kNumBones>& offsets) {
  own_offsets_ = std::make_unique<std::array<Vec3, kNumBones>>(offsets);
  own_offset_lanes_ = std::make_unique<BoneOffsetLanes>(bone_offset_lanes(offsets));
  offsets_ = own_offsets_.get();
  offset_lanes_ = own_offset_lanes_.get();
}

// The lines an update touches: the instance up to the end of the bone transforms (the local pose
// only while kept) and the tasks.
// Constant counts, unrolled: a prefetch each, without a loop's add and compare per line.
void CharacterInstance::prefetch() const {
  const char* self = reinterpret_cast<const char*>(this);
  // Everything before the local pose (the last member; what follows it is the tail padding).
  constexpr size_t kHot = sizeof(CharacterInstance) - sizeof(WarPose);
#pragma GCC unroll 64
  for (size_t at = 0; at < kHot; at += 64) __builtin_prefetch(self + at, 1);
  if (keep_local_pose) {
#pragma GCC unroll 16
    for (size_t at = kHot; at < sizeof(CharacterInstance); at += 64) __builtin_prefetch(self + at, 1);
  }
  for (int i = 0; i < count_; ++i) {
    const char* task = reinterpret_cast<const char*>(stack_[i].get());
#pragma GCC unroll 8
    for (int at = 0; at < 512; at += 64) __builtin_prefetch(task + at, 1);
  }
}

AnimTask* CharacterInstance::find_top(int type) const {
  for (int i = count_ - 1; i >= 0; --i) {
    if (stack_[i]->type() == type) return stack_[i].get();
  }
  return nullptr;
}

uint64_t CharacterInstance::held_by_others(const AnimTask* task) const {
  uint64_t h = 0;
  for (int i = 0; i < count_; ++i) {
    if (stack_[i].get() != task) h |= stack_[i]->held;
  }
  return h;
}

void CharacterInstance::defer(std::unique_ptr<AnimTask> task) {
  if (!task) return;
  // A fade whose new one is given back has nothing left to keep apart (and a later task made at
  // the same address must not be taken for it).
  retarget_fades(task.get(), nullptr);
  deferred_.push_back(std::move(task));
}

void CharacterInstance::retarget_fades(const AnimTask* from, const AnimTask* to) {
  for (int i = 0; i < count_; ++i) {
    AnimTask* t = stack_[i].get();
    if (t && t->type() == 9 && static_cast<FadeTask*>(t)->new_task() == from) {
      static_cast<FadeTask*>(t)->set_new_task(to);
    }
  }
}

// Removes stack entries [first, last] (they go to the deferred list), closing the gap.
void CharacterInstance::remove_range(int first, int last) {
  if (first > last) return;
  for (int i = first; i <= last; ++i) defer(std::move(stack_[i]));
  const int n = last - first + 1;
  for (int i = last + 1; i < count_; ++i) stack_[i - n] = std::move(stack_[i]);
  count_ -= n;
}

// The tasks are sampled bottom-up: each pushes one pose and a fade turns the two under it into
// one (warriors.txt, "The task stack"). The layer ending at `top` is the run of tasks that makes
// one pose there; -1 when the tasks below make none.
int CharacterInstance::layer_start(int top) const {
  int need = 1;
  for (int j = top; j >= 0; --j) {
    need -= stack_[j]->pose_delta(j == 0);
    if (need == 0) return j;
  }
  return -1;
}

// 0x00106cc8 (warriors.txt, "Fades"): "the fade gives back itself and every task below the new
// one" -- every task between its new one and itself; the new one and the tasks under it stay.
// Without a new one on the stack under it only the fade goes. Given back from the top down, the
// fade first (README Choices). Returns the first index removed.
int CharacterInstance::complete_fade(int i) {
  const AnimTask* keep = static_cast<const FadeTask*>(stack_[i].get())->new_task();
  int first = i;
  for (int j = i - 1; j >= 0; --j) {
    if (stack_[j].get() == keep) {
      first = j + 1;
      break;
    }
  }
  for (int j = i; j >= first; --j) defer(std::move(stack_[j]));
  const int n = i - first + 1;
  for (int j = i + 1; j < count_; ++j) stack_[j - n] = std::move(stack_[j]);
  count_ -= n;
  return first;
}

// A fade pushed by itself (not by a change) fades out the layer under it into the layer under
// that one (README Choices): its new one is that layer's top task; with a single layer, none.
const AnimTask* CharacterInstance::fade_target_on_top() const {
  if (count_ == 0) return nullptr;
  const int outgoing = layer_start(count_ - 1);
  if (outgoing <= 0 || layer_start(outgoing - 1) < 0) return nullptr;
  return stack_[outgoing - 1].get();
}

// 0x00177eb8 finds the newest fade; it is advanced by its remaining time, which completes it.
void CharacterInstance::finish_newest_fade_if_crowded() {
  if (count_ <= 6) return;
  for (int i = count_ - 1; i >= 0; --i) {
    if (stack_[i]->type() != 9) continue;
    static_cast<FadeTask*>(stack_[i].get())->finish();
    complete_fade(i);
    return;
  }
}

void CharacterInstance::insert_bottom(std::unique_ptr<AnimTask> task) {
  finish_newest_fade_if_crowded();
  if (count_ == kMaxStack) {  // no room: the task is given back (a choice, README)
    defer(std::move(task));
  } else {
    for (int i = count_; i > 0; --i) stack_[i] = std::move(stack_[i - 1]);
    stack_[0] = std::move(task);
    ++count_;
    stack_[0]->start();
  }
  refresh_playing_anim();
}

void CharacterInstance::push(std::unique_ptr<AnimTask> task) {
  finish_newest_fade_if_crowded();
  if (count_ == kMaxStack) {
    defer(std::move(task));
  } else {
    if (task->type() == 9) {
      auto* fade = static_cast<FadeTask*>(task.get());
      if (!fade->new_task()) fade->set_new_task(fade_target_on_top());
    }
    stack_[count_++] = std::move(task);
    stack_[count_ - 1]->start();
  }
  refresh_playing_anim();
}

void CharacterInstance::change(std::unique_ptr<AnimTask> task, float fade_time) {
  change(std::move(task), std::make_unique<FadeTask>(this, fade_time, human.speed_multiplier));
}

// The fade's new one is the task the change inserts (warriors.txt, "Fades": "every task below the
// new one"), wherever the stack's layers stand.
void CharacterInstance::change(std::unique_ptr<AnimTask> task, std::unique_ptr<FadeTask> fade) {
  const AnimTask* incoming = task.get();
  insert_bottom(std::move(task));
  if (count_ > 0 && stack_[0].get() == incoming) fade->set_new_task(incoming);
  push(std::move(fade));
}

bool CharacterInstance::queue(std::unique_ptr<AnimTask> task) {
  if (queue_.size() >= size_t(kMaxQueue)) return false;
  queue_.push_back(std::move(task));
  return true;
}

void CharacterInstance::run_queued_tasks() {
  for (auto& t : queue_) insert_bottom(std::move(t));
  queue_.clear();
}

void CharacterInstance::note_callback(const AnimTask& task, const std::string& name, bool wrap) {
  callbacks_.push_back({task.anim_id(), task.type(), name, wrap});
}

// warriors.txt "Held flags": events 0x2c (clear 0x1, set 0x2), 0x2d (clear 0x7, set 0x4) and
// 0x48 (all held bits replaced by 0x40000) act only on a task that holds the bits they change,
// and only the newest task's events fire (sink_for). They move the human's word and the task's
// held set together, so the release later clears what the task still holds.
void CharacterInstance::fire(const PlayClip& clip, const AnimEvent& e) {
  events_.push_back({clip.anim_id, &e});
  AnimTask* t = const_cast<AnimTask*>(firing_);
  if (!t) return;
  uint64_t clear = 0, set = 0;
  if (e.type == 0x2c) {
    clear = 0x1;
    set = 0x2;
  } else if (e.type == 0x2d) {
    clear = 0x7;
    set = 0x4;
  } else if (e.type == 0x48) {
    clear = t->held;
    set = 0x40000;
  } else {
    return;
  }
  if (!(t->held & (clear | set))) return;  // holds none of the bits the event changes
  human.state_flags = (human.state_flags & ~(t->held & clear)) | set;
  t->held = (t->held & ~clear) | set;
}

void CharacterInstance::advance(float dt) {
  firing_ = top();  // only the newest task's events fire
  for (int i = 0; i < count_; ++i) {
    AnimTask* t = stack_[i].get();
    const AdvanceResult r = t->advance(dt);
    if (r == AdvanceResult::kHandOver) {
      // The next task takes the clip's place, in the same update.
      std::unique_ptr<AnimTask> next = t->take_next();
      if (firing_ == t) firing_ = next.get();
      retarget_fades(t, next.get());  // a fade into the clip fades into what follows it
      defer(std::move(stack_[i]));
      stack_[i] = std::move(next);
      stack_[i]->start();
    } else if (r == AdvanceResult::kFinished) {
      remove_range(i, i);
      --i;
    } else if (r == AdvanceResult::kFadeDone) {
      i = complete_fade(i) - 1;
    }
  }
  firing_ = nullptr;
}

// flush_deferred's releases (in the order given back).
void CharacterInstance::release_deferred() {
  for (auto& t : deferred_) t->release();
  deferred_.clear();
}

namespace {
WarPose all_tagged(WarPose p) {
  p.root_velocity = tagged(p.root_velocity, true);
  p.root_translation = tagged(p.root_translation, true);
  for (Quat& q : p.rotations) q = tagged(q, true);
  return p;
}
}  // namespace

const WarPose& CharacterInstance::sample() {
  if (!own_work_) own_work_ = std::make_unique<SampleWorkspace>();
  return sample(*own_work_);
}

const WarPose& CharacterInstance::sample(SampleWorkspace& work) {
  work_ = &work;
  PoseStack& poses = work.poses;
  default_from_queue_ = false;
  const WarPose* defaults = sample_context.defaults;
  if (!queue_.empty() && human.queued_pose_test) {
    // The queued tasks as they would stand once inserted (each at the bottom: the last queued
    // lowest), sampled bottom-up over the reference pose.
    work.begin(defaults, defaults == &shared_default_pose());
    for (size_t i = queue_.size(); i-- > 0;) queue_[i]->sample(poses);
    if (poses.size() > 0) {
      work.queued_default = all_tagged(poses.top());  // values taken from a default are tagged
      sample_context.defaults = &work.queued_default;
      default_from_queue_ = true;
    }
  }
  // The shared default pose never changes, so the slots keep what they hold across characters
  // and updates (PoseStack); another default pose (the queued tasks') makes them start afresh.
  work.begin(sample_context.defaults, sample_context.defaults == &shared_default_pose());
  for (int i = 0; i < count_; ++i) stack_[i]->sample(poses);
  const WarPose& pose = poses.size() > 0 ? poses.top() : *sample_context.defaults;
  build_bone_matrices(pose, *offsets_, *offset_lanes_, bones_);
  if (keep_local_pose) pose_ = pose;
  sample_context.defaults = defaults;
  work_ = nullptr;
  return keep_local_pose ? pose_ : pose;
}

// warriors.txt "Root motion": the velocity turned by the human's heading into world axes and
// capped at 50 m/s; the turn a = 2 acos(w), its sign from z, applied as a x 30 x dt.
void CharacterInstance::apply_root_motion(float dt) {
  const Vec3 v = bones_[0].position;
  // cos and sin of the heading, computed again only when the heading has moved (its bits).
  if (std::bit_cast<uint32_t>(human.heading) != std::bit_cast<uint32_t>(heading_of_cos_sin_)) {
    heading_of_cos_sin_ = human.heading;
    heading_cos_ = std::cos(human.heading);
    heading_sin_ = std::sin(human.heading);
  }
  const float c = heading_cos_, s = heading_sin_;
  Vec3 w{c * v.x - s * v.y, s * v.x + c * v.y, v.z};
  const float len = length(w);
  if (len > 50.0f) w = w * (50.0f / len);
  human.velocity = w;
  human.position = human.position + w * dt;
  const Quat q = bones_[0].rotation;
  // acos(1) is +0 exactly (the turn of a pose without one), so the call is left out there.
  const float a = q.w == 1.0f ? 0.0f : 2.0f * std::acos(std::clamp(q.w, -1.0f, 1.0f));
  // An attached human (+0x280 not -1) takes the pose's quaternion once per update as it is.
  human.heading += (q.z < 0 ? -a : a) * (human.attachment != -1 ? 1.0f : 30.0f * dt);
}

}  // namespace animkit::warriors
