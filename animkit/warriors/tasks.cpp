#include "animkit/warriors/tasks.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "animkit/warriors/clock.h"
#include "animkit/warriors/instance.h"

namespace animkit::warriors {

namespace {
// The loop's wrap (warriors.txt, "When a clip ends"): restart and advance by the overshoot, so
// a loop repeats every D - 1/60 of clip time. An overshoot of exactly 0.0 is "not ended".
bool loop_advance(AnimCursor& c, float s, EventSink* sink) {
  const float over = c.advance(s, sink);
  if (over == 0.0f) return false;
  c.restart();
  c.advance(over, sink);
  return true;
}

void blend_top_two(PoseStack& poses, float weight) {
  // lower = the pose pushed first, upper = the one above it; the result replaces both.
  poses.mask(1) = pose_blend_masked(poses.top(1), poses.mask(1), poses.top(0), poses.mask(0),
                                    weight, poses.top(1));
  poses.pop();
}
}  // namespace

// ---- AnimTask ----------------------------------------------------------------------------------

// warriors.txt "Coney's implementation", "Held flags (Tasks)": as it starts a task first clears
// the bits it holds from record +0x08, then sets its start bits (which it then holds too). Only
// its own bits: what other tasks hold stays on the word.
void AnimTask::start() {
  uint64_t& word = instance_->human.state_flags;
  word = (word & ~held) | start_bits;
  held |= start_bits;
  started_ = true;
}

uint64_t AnimTask::release_held() {
  const uint64_t had = held;
  if (started_) {  // a next task given back unstarted never set anything
    const uint64_t keep = instance_->held_by_others(this);
    instance_->human.state_flags &= ~(held & ~keep);
  }
  held = 0;
  return had;
}

// The release of a task that is not a clip task (a fade, 0x00106ee8, clears the human flags it
// was given; the blends likewise, a choice): the held flags, then the end callback.
void AnimTask::release() {
  release_held();
  if (!end_callback.empty()) instance_->note_callback(*this, end_callback, false);
}

// ---- ClipTask (types 1, 3, 4, 6, 7) -------------------------------------------------------------

ClipTask::ClipTask(int type, CharacterInstance* instance, const PlayClip* clip, float rate)
    : AnimTask(type, instance), clip_(clip) {
  rate_ = rate;
  cursor_.init(clip_, 0);
}

void ClipTask::set_flags(uint32_t flags) {
  flags_ = flags;
  cursor_.set_flags(cursor_flags(flags));
}

void ClipTask::set_next(std::unique_ptr<AnimTask> next, float blend_time) {
  next_ = std::move(next);
  blend_time_ = blend_time;
}

void ClipTask::sample(PoseStack& poses) {
  const bool over = bone_ >= 0 && poses.size() > 0;
  WarPose* p = poses.push();
  if (!p) return;
  poses.mask() = cursor_.sample_over(rate_, instance_->sample_context, *p, poses.mask());
  if (window_ && next_) {
    // 0x00105ba0: the next task's pose blended over the clip's by the share of b elapsed.
    const int before = poses.size();
    next_->sample(poses);
    if (poses.size() == before + 1) blend_top_two(poses, share_);
  }
  if (over) {
    // Over a subtree: the pose under it keeps every bone outside `bone_`'s subtree.
    poses.mask(1) = pose_blend_masked(poses.top(1), poses.mask(1), poses.top(0), poses.mask(0),
                                      subtree_weight_, poses.top(1), bone_);
    poses.pop();
  }
}

AdvanceResult ClipTask::advance(float dt) {
  const float s = step_size(dt);
  EventSink* sink = instance_->sink_for(this);
  if (type_ == 1) {
    if (loop_advance(cursor_, s, sink) && !wrap_callback.empty()) {
      instance_->note_callback(*this, wrap_callback, true);
    }
    return AdvanceResult::kContinue;
  }
  if (held_at_end_) return AdvanceResult::kContinue;
  const float over = cursor_.advance(s, sink);
  if (over != 0.0f) {  // ended (an overshoot of exactly 0.0 reads as "not ended")
    if (type_ == 4 || type_ == 7) {
      held_at_end_ = true;  // a choice (README): held on its last step
      return AdvanceResult::kContinue;
    }
    if (!next_) return AdvanceResult::kFinished;
    // With a blend time the next task is advanced by dt on the end update; without, it shows
    // its time 0 (warriors.txt, "When a clip ends").
    if (blend_time_ > 0) next_->advance(dt);
    return AdvanceResult::kHandOver;
  }
  if (next_ && blend_time_ > 0) {
    const float nd = next_->duration();
    const float b = nd > 0 ? std::min(blend_time_, nd) : blend_time_;
    const float window_start = cursor_.duration() - b;
    if (cursor_.time() > window_start) {
      window_ = true;
      next_->advance(dt);
      share_ = std::clamp((cursor_.time() - window_start) / b, 0.0f, 1.0f);
    }
  }
  return AdvanceResult::kContinue;
}

// The release (0x00105f78 for type 3, 0x00108f10 for type 6, and the clip tasks 1, 4, 7 as a
// choice): clears state flag 0x4000000000 and the held flags the task still holds (not those
// another task on the stack holds), sets bit 0x80000000 at +0x40 of the object the human reports
// when the held flags had 0x400000, and calls the end callback with the human.
void ClipTask::release() {
  const uint64_t had = release_held();
  if (started_) {
    Human& h = instance_->human;
    h.state_flags &= ~kStateReleaseCleared;
    if (had & kHeldReportsObject) h.reported_object_flags |= kReportedObjectBit;
  }
  if (!end_callback.empty()) instance_->note_callback(*this, end_callback, false);
  if (next_) {  // a task cut off before its end also gives its next task back
    next_->release();
    next_.reset();
  }
}

// ---- FadeTask (type 9)
// ---------------------------------------------------------------------------

FadeTask::FadeTask(CharacterInstance* instance, float duration, float rate)
    : AnimTask(9, instance), duration_(duration) {
  rate_ = rate;
}

// warriors.txt "Fades": w_old = (1 + cos(pi t / d)) / 2; d = 0 gives 0 at once.
float FadeTask::fade_weight(float t, float d) {
  if (!(d > 0)) return 0.0f;
  if (t >= d) return 0.0f;
  return (1.0f + std::cos(std::numbers::pi_v<float> * t / d)) * 0.5f;
}

void FadeTask::sample(PoseStack& poses) {
  // The two poses under it: the new task's (lower) and the outgoing one (upper, weight w_old).
  if (poses.size() >= 2) blend_top_two(poses, weight());
}

AdvanceResult FadeTask::advance(float dt) {
  elapsed_ += dt * rate_;
  if (elapsed_ > duration_ || instance_->size() > 12) return AdvanceResult::kFadeDone;
  return AdvanceResult::kContinue;
}

// ---- GaitTask (type 12)
// --------------------------------------------------------------------------

GaitTask::GaitTask(CharacterInstance* instance, const std::array<const PlayClip*, 5>& clips,
                   float value, float rate, float speed)
    : AnimTask(12, instance), speed_(speed), clips_(clips) {
  rate_ = rate;
  value_ = target_ = std::clamp(value, 0.0f, 4.0f);
  pair_ = pair_of(value_);
  lower_.init(clips_[pair_], 0);
  upper_.init(clips_[pair_ + 1], 0);
  const float frac = value_ - static_cast<float>(pair_);
  upper_leads_ = frac >= 0.995f;
  update_mutes();
}

int GaitTask::pair_of(float v) {
  if (v < 0.995f) return 0;
  if (v < 1.995f) return 1;
  if (v < 2.995f) return 2;
  return 3;
}

int GaitTask::anim_id() const {
  const AnimCursor& l = leader();
  return l.clip() ? l.clip()->anim_id : -1;
}

void GaitTask::set_flags(uint32_t flags) {
  flags_ = flags;
  update_mutes();
}

void GaitTask::update_mutes() {
  const uint16_t base = cursor_flags(flags_);
  lower_.set_flags(upper_leads_ ? (base | kCursorMuted) : base);
  upper_.set_flags(upper_leads_ ? base : (base | kCursorMuted));
}

// 0x0010a500: clamped to 0-4, rounded to the nearest integer unless flag 0x200.
void GaitTask::set_blend_target(float v) {
  v = std::clamp(v, 0.0f, 4.0f);
  target_ = (flags_ & kTaskContinuous) ? v : std::round(v);
}

// 0x0010a558: the value at once.
void GaitTask::set_blend_value(float v) {
  value_ = std::clamp(v, 0.0f, 4.0f);
  enter_pair(pair_of(value_));
}

// When the pair changes, the clip that comes in starts at the same normalised time as the one
// it joins (the leader's).
void GaitTask::sync_follower() const {
  if (!follower_stale_) return;
  follower_stale_ = false;
  const AnimCursor& lead = leader();
  AnimCursor& follow = upper_leads_ ? lower_ : upper_;
  follow.set_time(clock_rescale(lead.time(), lead.duration(), follow.duration()));
}

void GaitTask::enter_pair(int pair) {
  if (pair == pair_) return;
  sync_follower();  // the cursor that is kept (copied) is the follower as the rule has it
  const AnimCursor lead = leader();
  const auto join = [&lead](AnimCursor& c, const PlayClip* clip) {
    c.init(clip, 0);
    c.set_time(clock_rescale(lead.time(), lead.duration(), c.duration()));
  };
  if (pair == pair_ - 1) {
    upper_ = lower_;
    join(lower_, clips_[pair]);
  } else if (pair == pair_ + 1) {
    lower_ = upper_;
    join(upper_, clips_[pair + 1]);
  } else {
    join(lower_, clips_[pair]);
    join(upper_, clips_[pair + 1]);
  }
  pair_ = pair;
}

// 0x0010a5b8 (warriors.txt, "Gait blend").
AdvanceResult GaitTask::advance(float dt) {
  const float old_value = value_;
  const int old_pair = pair_;
  // v moves toward the target by at most rate x dt x speed.
  const float max_step = rate_ * dt * speed_;
  if (value_ < target_) {
    value_ = std::min(target_, value_ + max_step);
  } else if (value_ > target_) {
    value_ = std::max(target_, value_ - max_step);
  }
  enter_pair(pair_of(value_));
  const float frac = value_ - static_cast<float>(pair_);
  const float old_frac = old_value - static_cast<float>(old_pair);
  bool upper_leads = upper_leads_;
  if (frac < 0.01f) {
    upper_leads = false;  // the lower clip leads (and plays alone)
  } else if (frac >= 0.995f) {
    upper_leads = true;
  } else {
    upper_leads = value_ > target_ || old_frac > 0.875f;
  }
  if (upper_leads != upper_leads_) sync_follower();  // the follower about to lead, up to date
  upper_leads_ = upper_leads;
  update_mutes();
  AnimCursor& lead = upper_leads_ ? upper_ : lower_;
  if (loop_advance(lead, step_size(dt), instance_->sink_for(this)) &&
      !wrap_callback.empty()) {
    instance_->note_callback(*this, wrap_callback, true);
  }
  // The other cursor is set to the same normalised time (the feet stay in step) when it is read
  // (sync_follower).
  follower_stale_ = true;
  return AdvanceResult::kContinue;
}

void GaitTask::sample(PoseStack& poses) {
  WarPose* p = poses.push();
  if (!p) return;
  const float frac = value_ - static_cast<float>(pair_);
  const SampleContext& ctx = instance_->sample_context;
  // The follower is read unless the one clip sampled is the leader.
  if (!(frac < 0.01f && !upper_leads_) && !(frac > 0.995f && upper_leads_)) sync_follower();
  if (frac < 0.01f) {
    poses.mask() = lower_.sample_over(rate_, ctx, *p, poses.mask());
  } else if (frac > 0.995f) {
    poses.mask() = upper_.sample_over(rate_, ctx, *p, poses.mask());
  } else {
    // 0x001054a8, the fraction as the upper's weight; the lower pose is sampled in place and
    // the upper blended into it (the same floats as a blend into a third pose).
    WarPose& b = instance_->scratch(0);
    uint64_t& upper = instance_->scratch_mask(0);
    const uint64_t lower = lower_.sample_over(rate_, ctx, *p, poses.mask());
    upper = upper_.sample_over(rate_, ctx, b, upper);
    poses.mask() = pose_blend_masked(*p, lower, b, upper, frac, *p);
  }
}

// ---- MixTask (types 10, 11, 13)
// ------------------------------------------------------------------

MixTask::MixTask(int type, Kind kind, CharacterInstance* instance, const PlayClip* const* clips,
                 int count, float value, float rate)
    : AnimTask(type, instance), kind_(kind), count_(std::min(count, 8)), value_(value) {
  rate_ = rate;
  for (int i = 0; i < count_; ++i) {
    clips_[i] = clips[i];
    cursors_[i].init(clips_[i], 0);
  }
  choose();
}

int MixTask::audible_of(float v) {
  if (v < 0.51f) return 0;
  if (v < 1.51f) return 1;
  if (v < 2.51f) return 2;
  return 3;
}

void MixTask::choose() {
  if (kind_ == Kind::kTwo) {
    value_ = std::clamp(value_, 0.0f, 1.0f);
    lead_ = value_ < 0.5f ? 0 : 1;
    other_ = 1 - lead_;
    other_weight_ = value_;
  } else if (kind_ == Kind::kFour) {
    lead_ = other_ = audible_of(value_);
    other_weight_ = 0;
  } else {
    const float v = value_ - 8.0f * std::floor(value_ / 8.0f);
    const float r = std::round(v);
    const float f = v - r;
    lead_ = static_cast<int>(r) & 7;
    other_ = f >= 0 ? (lead_ + 1) & 7 : (lead_ + 7) & 7;
    other_weight_ = std::fabs(f);
  }
  set_flags(flags_);
}

int MixTask::anim_id() const { return clips_[lead_] ? clips_[lead_]->anim_id : -1; }

void MixTask::set_flags(uint32_t flags) {
  flags_ = flags;
  const uint16_t base = cursor_flags(flags);
  for (int i = 0; i < count_; ++i) {
    cursors_[i].set_flags(i == lead_ ? base : static_cast<uint16_t>(base | kCursorMuted));
  }
}

AdvanceResult MixTask::advance(float dt) {
  const float s = step_size(dt);
  AnimCursor& lead = cursors_[lead_];
  loop_advance(lead, s, instance_->sink_for(this));
  if (kind_ == Kind::kFour) {
    // All four play on (looping); only the audible one fires events.
    for (int i = 0; i < count_; ++i) {
      if (i != lead_) loop_advance(cursors_[i], s, nullptr);
    }
    return AdvanceResult::kContinue;
  }
  for (int i = 0; i < count_; ++i) {
    if (i == lead_) continue;
    const bool neighbour = kind_ == Kind::kTwo || i == ((lead_ + 1) & 7) || i == ((lead_ + 7) & 7);
    if (neighbour) {
      cursors_[i].set_time(clock_rescale(lead.time(), lead.duration(), cursors_[i].duration()));
    }
  }
  return AdvanceResult::kContinue;
}

void MixTask::sample(PoseStack& poses) {
  WarPose* p = poses.push();
  if (!p) return;
  const SampleContext& ctx = instance_->sample_context;
  if (kind_ == Kind::kFour || other_weight_ <= 0.0f) {
    poses.mask() = cursors_[lead_].sample_over(rate_, ctx, *p, poses.mask());
    return;
  }
  // The lower pose sampled in place, the upper blended into it.
  WarPose& b = instance_->scratch(0);
  uint64_t& upper_mask = instance_->scratch_mask(0);
  const AnimCursor& lower = kind_ == Kind::kTwo ? cursors_[0] : cursors_[lead_];
  const AnimCursor& upper = kind_ == Kind::kTwo ? cursors_[1] : cursors_[other_];
  const float weight = kind_ == Kind::kTwo ? value_ : other_weight_;
  const uint64_t lower_mask = lower.sample_over(rate_, ctx, *p, poses.mask());
  upper_mask = upper.sample_over(rate_, ctx, b, upper_mask);
  poses.mask() = pose_blend_masked(*p, lower_mask, b, upper_mask, weight, *p);
}

}  // namespace animkit::warriors
