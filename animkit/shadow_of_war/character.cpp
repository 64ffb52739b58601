#include "animkit/shadow_of_war/character.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/keyword.h"

namespace animkit::shadow_of_war {

void ModelAnimation::bind(const Skeleton& sk, const Clip* base_clip) {
  skeleton = &sk;
  trackers.clear();
  Tracker base;
  base.clip = base_clip;
  base.weight = 1;
  add_tracker(base);
  output.assign(sk.rest);
  operations.reserve(8);
}

size_t ModelAnimation::add_tracker(const Tracker& t) {
  trackers.push_back(t);
  trackers.back().cursor = {};
  if (blend_entries.capacity() < trackers.size()) blend_entries.reserve(trackers.size() + 4);
  if (operations.capacity() < trackers.size() + 2) operations.reserve(trackers.size() + 6);
  return trackers.size() - 1;
}

void ModelAnimation::remove_tracker(size_t i) {
  if (i == 0 || i >= trackers.size()) return;
  trackers.erase(trackers.begin() + static_cast<std::ptrdiff_t>(i));
}

void ModelAnimation::advance(float dt) {
  for (Tracker& t : trackers) shadow_of_war::advance(t, dt);
}

void ModelAnimation::submit() {
  blend_entries.resize(trackers.size());
  for (size_t i = 0; i < trackers.size(); ++i) {
    Tracker& t = trackers[i];
    blend_entries[i] = {t.weight, t.time, t.weight_set, t.clip, &t.cursor};
  }
  job_submitted = true;
  needs_evaluation = true;
}

void ModelAnimation::evaluate(PoseJob& job, const OperationTable& table) {
  job.skeleton = skeleton;
  // Sized for the most trackers a model holds, so a thread that meets its first cross-fade late
  // does not allocate then.
  job.prepare(std::max(blend_entries.size(), kMaxTrackers));
  job.entries = blend_entries;
  job.output = {};
  job.packed = &output;
  job.run(table);
  operations.assign(job.operations.begin(), job.operations.end());  // within its capacity
  needs_evaluation = false;
  job_submitted = false;
}

namespace {
void prefetch_bytes(const void* p, size_t bytes, bool write = false) {
  const char* c = static_cast<const char*>(p);
  for (size_t at = 0; at < bytes; at += 64) {
    if (write)
      __builtin_prefetch(c + at, 1);
    else
      __builtin_prefetch(c + at);
  }
}
}  // namespace

void ModelAnimation::prefetch_arrays() const {
  prefetch_bytes(blend_entries.data(), blend_entries.size() * sizeof(BlendEntry), true);
  prefetch_bytes(trackers.data(), trackers.size() * sizeof(Tracker), true);
  output.prefetch();
  prefetch_bytes(operations.data(), operations.capacity() * sizeof(Operation), true);
}

Character::Character(std::string name, std::shared_ptr<BlendGraph> graph, const ClipTable* table,
                     const Skeleton& skeleton, const DeathSettings& global,
                     const std::map<std::string, std::vector<float>>* weight_sets)
    : graph_(std::move(graph)),
      name_(std::move(name)),
      table_(table),
      death_(global),
      weight_sets_(weight_sets) {
  model_.bind(skeleton);
  graph_tracks_.push_back({});  // tracker 0: the clip base, not the graph's
  values_.assign(graph_->value_names.size(), 0.f);
  state_ = &graph_->states[graph_->start];
  const size_t t = state_tracker(graph_->start);
  model_.trackers[t].weight = 1;
  if (!errors_.empty()) throw Error(errors_.front());
}

size_t Character::frame_bytes() const {
  const auto* self = reinterpret_cast<const char*>(this);
  const auto hot = static_cast<size_t>(reinterpret_cast<const char*>(&model_name) - self);
  return hot + values_.size() * sizeof(float) + graph_tracks_.size() * sizeof(GraphTrack);
}

void Character::prefetch_hot() const {
  const auto* self = reinterpret_cast<const char*>(this);
  prefetch_bytes(self, static_cast<size_t>(reinterpret_cast<const char*>(&model_name) - self));
}

void Character::prefetch_frame_arrays() const {
  prefetch_bytes(values_.data(), values_.size() * sizeof(float));
  prefetch_bytes(graph_tracks_.data(), graph_tracks_.size() * sizeof(GraphTrack), true);
  model_.prefetch_arrays();
}

std::vector<std::string> Character::take_errors() { return std::exchange(errors_, {}); }

void Character::set_value(std::string_view n, float v) { values_[graph_->value_index(n)] = v; }
float Character::value(std::string_view n) const { return values_[graph_->value_index(n)]; }

size_t Character::state_tracker(int32_t s) {
  while (model_.trackers.size() >= kMaxTrackers) drop_tracker(1);
  const BlendState& st = graph_->states[s];
  Tracker t;
  t.clip = table_ && !st.clip.empty() ? table_->find(st.clip) : nullptr;
  if (!st.clip.empty() && !t.clip) {
    // Entering such a state in play is an error the trace shows (the state is entered and its
    // tracker has no clip); the constructor refuses it (README, Choices).
    errors_.push_back(fmt::format("character '{}': state '{}' plays clip '{}', which its "
                                  "family's clip table does not hold",
                                  name_, st.name, st.clip));
  }
  // Spec, "Clip trackers": most trackers have rate 0 and are not engine-advanced; the graph
  // writes their time (graph_tracks_).
  t.rate = 0;
  t.flags = st.Looping ? kTrackerLoop : 0u;
  t.time = t.clip ? st.StartPct * t.clip->duration : 0.f;
  graph_tracks_.push_back({s, t.time, 0.0});
  t.weight = 0;
  if (!st.weight_set.empty()) {
    if (!weight_sets_ || !weight_sets_->count(st.weight_set))
      throw Error(fmt::format("state '{}': no weight set '{}'", st.name, st.weight_set));
    t.weight_set = weight_sets_->at(st.weight_set);
  }
  return model_.add_tracker(t);
}

void Character::enter_state(int32_t s, float blend_time) {
  const int32_t from = state_index();
  state_ = &graph_->states[s];
  state_time_ = 0;
  const size_t t = state_tracker(s);
  if (blend_time > 0.f) {
    transition_ = Transition{from, s, 0.f, blend_time};
  } else {
    model_.trackers[t].weight = 1;
    while (model_.trackers.size() > 2) drop_tracker(1);
    transition_.reset();
  }
}

void Character::die(const std::string& death_animation) {
  dead_ = true;
  transition_.reset();
  ModelAnimation& m = model_;
  while (m.trackers.size() > 1) drop_tracker(m.trackers.size() - 1);
  Tracker& base = m.trackers[0];
  if (!death_animation.empty()) {
    base.clip = table_ ? table_->find(death_animation) : nullptr;
    if (!base.clip)
      errors_.push_back(fmt::format("character '{}': RagdollDeathAnimation '{}' is not in its "
                                    "family's clip table",
                                    name_, death_animation));
  }
  // Played from its start, advanced by the world clock; 0x17674C "wraps a looping clip or holds
  // the last key" (spec, Per frame 1), so a looping death clip wraps (README, Choices 17).
  base.time = 0;
  base.rate = 1;
  base.weight = 1;
  base.weight_set = {};
  base.flags = kTrackerAdvance | (base.clip && base.clip->looping ? kTrackerLoop : 0u);
}

void Character::update(float dt) {
  ModelAnimation& m = model_;
  if (dead_) {
    // Out of the locomotion graph: only the base clip plays on.
    m.advance(dt);
    state_time_ += dt;
    m.submit();
    return;
  }
  // The implicit values the predicates can read.
  values_[kValueStateTime] = state_time_;
  const Tracker& cur = m.trackers.back();
  values_[kValueStatePct] =
      cur.clip && cur.clip->duration > 0.f ? state_time_ * state_->Rate / cur.clip->duration : 0.f;
  // The first passing link changes the state.
  const int32_t link = graph_->first_passing_link(state_index(), values_);
  if (link >= 0) {
    const StateTransition& tr = graph_->transitions[link];
    const float blend =
        tr.BlendTime >= 0.f ? tr.BlendTime : graph_->states[tr.target].DefaultBlendTime;
    enter_state(tr.target, blend);
  }
  // The transition drives the tracker weights.
  if (transition_) {
    transition_->elapsed += dt;
    const float w = std::min(1.f, transition_->elapsed / transition_->blend_time);
    m.trackers.back().weight = w;
    if (w >= 1.f) {
      while (m.trackers.size() > 2) drop_tracker(1);
      transition_.reset();
    }
  }
  // The graph writes the time of its trackers. Each state's Rate and Looping are read from its
  // record every frame, so a record change reaches every character on the graph.
  for (size_t i = 1; i < m.trackers.size(); ++i) {
    GraphTrack& g = graph_tracks_[i];
    const BlendState& st = graph_->states[g.state];
    g.elapsed += static_cast<double>(dt) * st.Rate;
    write_time(m.trackers[i], g, st.Looping);
  }
  m.advance(dt);  // the engine-advanced ones (flag bit 0 and a rate): none on a living graph
  state_time_ += dt;
  m.submit();
}

void Character::write_time(Tracker& t, const GraphTrack& g, bool looping) {
  t.flags = (t.flags & ~kTrackerLoop) | (looping ? kTrackerLoop : 0u);
  const double d = t.clip ? t.clip->duration : 0.0;
  double time = static_cast<double>(g.start) + g.elapsed;
  if (!(d > 0.0)) {
    time = 0;
  } else if (looping) {
    // fmod(x, d) is x itself for x in [0, d): the usual case, without the call.
    if (!(time >= 0.0 && time < d)) time = std::fmod(time, d);
    if (time < 0) time += d;
  } else {
    time = std::clamp(time, 0.0, d);
  }
  t.time = static_cast<float>(time);
}

void Character::drop_tracker(size_t i) {
  if (i == 0 || i >= model_.trackers.size()) return;
  model_.remove_tracker(i);
  graph_tracks_.erase(graph_tracks_.begin() + static_cast<std::ptrdiff_t>(i));
}

void Character::set_base_clip(const Clip* clip) { model_.trackers[0].clip = clip; }

bool Character::playing_clip_carries(uint32_t key) const {
  const Tracker& t = model_.trackers.back();
  if (!t.clip || !table_) return false;
  const AnimObject* o = table_->object_of(keyword_hash(t.clip->name));
  const ClipEvents* ce = o ? o->events_of(*t.clip) : nullptr;
  return ce && o->events->carries_keyword(*ce, key);
}

std::vector<std::string> Character::playing_clip_hints() const {
  std::vector<std::string> out;
  const Tracker& t = model_.trackers.back();
  if (!t.clip || !table_) return out;
  const AnimObject* o = table_->object_of(keyword_hash(t.clip->name));
  const ClipEvents* ce = o ? o->events_of(*t.clip) : nullptr;
  if (!ce) return out;
  static constexpr uint32_t kHint = keyword_hash("BEHAVIOR_HINT");
  for (uint32_t w : ce->events) {
    const std::string_view text = o->events->text(w);
    if (keyword_hash(event_keyword(text)) == kHint) out.emplace_back(event_argument(text));
  }
  return out;
}

void Crowd::frame(float dt) {
  // Clips change between frames, not during one: the jobs' clip layouts hold for this frame.
  ++frame_;
  for (PoseJob& j : jobs_) j.frame = frame_;
  dt_ = dt;
  // Spec, "Per frame": per model, advance and submit (0x1760A8), then the pose job (0x1B0EE4).
  // A character's frame reads and writes only its own state and the shared, unchanging graph and
  // clips, so the whole of it runs on whichever thread takes the character (README, Choices
  // 12h): its memory is fetched once and never crosses to the other core, and the result is the
  // spec's order, bit for bit, for any number of threads. One pointer: within std::function's
  // inline buffer, so no allocation per frame.
  const AnimJobThreadSystem::Job job = [this](size_t i, size_t thread) {
    Character& c = *characters_[i];
    c.update(dt_);
    c.model().evaluate(jobs_[thread], *operations);
  };
  // Before character i: the arrays of the one this thread runs next and the object of the one
  // after, found through what the call before asked for, so a character's misses overlap the
  // work of the one before (each character's arrays are elsewhere on the heap).
  const AnimJobThreadSystem::Ahead ahead = [this](size_t, size_t after, size_t later, size_t) {
    if (later != AnimJobThreadSystem::kNone) characters_[later]->prefetch_hot();
    if (after != AnimJobThreadSystem::kNone) characters_[after]->prefetch_frame_arrays();
  };
  pool_.run(characters_.size(), job, &ahead);
  // Every thread's scratch as large as the largest: a worker the OS has not run during a frame
  // yet (the main thread took every job) must not allocate when it first does (no allocation
  // per frame; the main thread drains from the back, so on a busy machine this happens).
  size_t joints = 0, ops = 0, rows = 0;
  for (const PoseJob& j : jobs_) {
    joints = std::max(joints, j.pose.capacity());
    ops = std::max(ops, j.operations.capacity());
    rows = std::max(rows, j.layouts.row_capacity());
  }
  for (PoseJob& j : jobs_) {
    j.pose.reserve(joints);
    j.sample.reserve(joints);
    j.operations.reserve(ops);
    j.layouts.reserve_rows(rows);
  }
}

}  // namespace animkit::shadow_of_war
