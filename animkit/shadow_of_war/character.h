// A character's animation (spec: "Clip trackers", "Per frame", "The behaviour state of a
// character"): the model animation instance M (trackers, blend entries, the pose job), the
// behaviour state pointing into a shared graph, and the crowd that runs the frame: per character
// behaviour -> advance -> submit -> the pose job, each character on one of the crowd's threads.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "animkit/core/skeleton.h"
#include "animkit/shadow_of_war/behavior.h"
#include "animkit/shadow_of_war/clip_table.h"
#include "animkit/shadow_of_war/physics_ragdoll.h"
#include "animkit/shadow_of_war/pose_job.h"
#include "animkit/shadow_of_war/ragdoll.h"
#include "animkit/shadow_of_war/tracker.h"
#include "animkit/shadow_of_war/worker_pool.h"

namespace animkit::shadow_of_war {

// M = [[char+0x110]+0x1C0]: trackers (M+0x08), the pose-job descriptor (M+0xC8) and its blend
// entries (M+0xD8), job submitted (M+0x128) and needs evaluation (M+0x12A).
struct ModelAnimation {
  const Skeleton* skeleton = nullptr;
  std::vector<Tracker> trackers;  // tracker 0: the clip base
  std::vector<BlendEntry> blend_entries;
  std::vector<Operation> operations;  // the plan of the last evaluation (the trace shows it)
  OutputPose output;                  // the evaluated local pose
  bool job_submitted = false;
  bool needs_evaluation = false;

  void bind(const Skeleton& skeleton, const Clip* base_clip = nullptr);
  size_t add_tracker(const Tracker& tracker);
  void remove_tracker(size_t index);  // never tracker 0
  // Step 1 (0x1760F0): advance every tracker by dt.
  void advance(float dt);
  // Step 2 (0x175F04): copy weight, weight set, time and clip of each tracker into the entries.
  void submit();
  // The pose job (0x1B0EE4) on whichever thread takes it, in that thread's `job` (its scratch).
  void evaluate(PoseJob& job, const OperationTable& table = default_operation_table());
  // Ask for the arrays evaluate() reads and writes ahead of it (in a crowd each character's
  // arrays are elsewhere in memory; issue 15, item 7): entries, trackers, output, operations.
  void prefetch_arrays() const;
};

// A cross-fade in progress: the incoming state's tracker weight goes 0 -> 1 over the blend time;
// at the end the trackers of the states left are removed (README, Choices).
// The trackers a model holds at most, tracker 0 included: a cross-fade interrupted again and again
// adds a tracker each time, so entering a state past this drops the oldest state tracker (the one
// every later tracker is blended over). The spec states no number (README, Choices 13).
inline constexpr size_t kMaxTrackers = 32;
struct Transition {
  int32_t from = -1, to = -1;
  float elapsed = 0;
  float blend_time = 0;
};

class Character {
 public:
  Character(std::string name, std::shared_ptr<BlendGraph> graph, const ClipTable* table,
            const Skeleton& skeleton, const DeathSettings& global,
            const std::map<std::string, std::vector<float>>* weight_sets = nullptr);

  const std::string& name() const { return name_; }
  const BlendGraph& graph() const { return *graph_; }
  // The current state: a record of the shared graph (char+0x11A8).
  const BlendState* state() const { return state_; }
  int32_t state_index() const { return static_cast<int32_t>(state_ - graph_->states.data()); }
  const ModelAnimation& model() const { return model_; }
  ModelAnimation& model() { return model_; }
  const std::optional<Transition>& transition() const { return transition_; }
  float state_time() const { return state_time_; }
  // Copied from Character/Models/Global at creation (0xFCFB4): later edits reach only
  // characters created afterwards.
  const DeathSettings& death_settings() const { return death_; }
  // The arguments of the BEHAVIOR_HINT events of the clip the character is playing.
  std::vector<std::string> playing_clip_hints() const;
  const ClipTable* table() const { return table_; }
  // Spec, dead-body step 3: the character switches to RigidBody and plays `death_animation`
  // (Character/Models/Global.RagdollDeathAnimation) on its base; it leaves its locomotion graph
  // (no link is tried again) and only the base tracker remains. "" : the base pose.
  void die(const std::string& death_animation);
  bool dead() const { return dead_; }
  // Tracker 0, the clip base: the model's base pose as a clip (nullptr: the reference pose).
  void set_base_clip(const Clip* clip);

  void set_value(std::string_view name, float v);
  float value(std::string_view name) const;

  // Main-thread part of a frame: the first passing link changes the state, the transition
  // drives the tracker weights, the trackers advance and the entries are copied.
  void update(float dt);
  // Spec, "Clip keywords" (0x4CAB0C): does the clip the character is playing (its current
  // state's tracker) carry keyword `key` among its events.
  bool playing_clip_carries(uint32_t key) const;
  // Enters a state (the target of a link, or a state forced by code) with a cross-fade.
  void enter_state(int32_t state, float blend_time);
  // What went wrong since the last call (a state entered whose clip is not loaded).
  std::vector<std::string> take_errors();
  // The bytes of its own memory a frame reads and writes outside the model's arrays: the members
  // declared before the cold ones (issue 29: a hot / cold split, so a crowd frame streams one
  // part of the object), the values and the graph's side of the trackers.
  size_t frame_bytes() const;
  // Ask for what a frame of this character reads and writes ahead of it (Crowd::frame walks
  // thousands of characters, each elsewhere in memory): the object's hot part (the model inside
  // it), then, once that has come, the arrays it points to (update's and the pose job's).
  void prefetch_hot() const;
  void prefetch_frame_arrays() const;

 private:
  // The graph's side of a tracker: its state and the time the graph has run it (the tracker
  // itself has rate 0); tracker 0 has none.
  struct GraphTrack {
    int32_t state = -1;
    float start = 0;     // StartPct x duration (the float the tracker starts at; exact in double)
    double elapsed = 0;  // s x the state's Rate since it was entered
  };
  size_t state_tracker(int32_t state);
  void drop_tracker(size_t index);
  static void write_time(Tracker& tracker, const GraphTrack& g, bool looping);
  // Hot: what a frame reads and writes (update, submit, the pose job), first and together.
  ModelAnimation model_;
  std::shared_ptr<BlendGraph> graph_;
  const BlendState* state_ = nullptr;
  std::vector<float> values_;
  std::vector<GraphTrack> graph_tracks_;  // parallel to model_.trackers
  std::optional<Transition> transition_;
  float state_time_ = 0;
  bool dead_ = false;

 public:
  // Cold from here: read on a state change, a death, an error or by the trace.
  // Its model record (Character/Models, [char+0x2B30]) by name ("" : none) and whether it is
  // the player (whose resting body is relaxed, not cleaned up).
  std::string model_name;
  bool player = false;
  // The combat object's animation index [[char+0x26A8]+0x114]: -1 when it plays no combat clip.
  int32_t combat_anim = -1;
  // Hints the ragdoll brain's Include/ExcludeHints test, set on the character.
  std::vector<std::string> hints;
  // Every character model carries a physics ragdoll ([model+0x1C8]), unconfigured while alive.
  PhysicsRagdoll physics;

 private:
  std::string name_;
  const ClipTable* table_;
  DeathSettings death_;
  const std::map<std::string, std::vector<float>>* weight_sets_ = nullptr;
  std::vector<std::string> errors_;
};

// Runs frames over characters on the worker pool and the calling (main) thread: each character's
// whole frame (behaviour, advance, submit, then its pose job) on the thread that takes it.
// Results do not depend on the number of workers: a character's frame reads only its own state
// and the shared graph and clips, which no frame changes, and writes only its own state; the
// pose job's scratch is per thread (README, Choices 12h).
class Crowd {
 public:
  explicit Crowd(int workers = kDefaultWorkers)
      : pool_(workers), jobs_(static_cast<size_t>(pool_.workers()) + 1) {}
  std::vector<std::unique_ptr<Character>>& characters() { return characters_; }
  const std::vector<std::unique_ptr<Character>>& characters() const { return characters_; }
  const OperationTable* operations = &default_operation_table();
  void frame(float dt);
  int workers() const { return pool_.workers(); }

 private:
  AnimJobThreadSystem pool_;
  std::vector<PoseJob> jobs_;  // one per thread: [0] the main thread, [k] worker k
  uint64_t frame_ = 0;         // frames run (the pose jobs' PoseJob::frame)
  float dt_ = 0;               // this frame's step (read by the jobs)
  std::vector<std::unique_ptr<Character>> characters_;
};

}  // namespace animkit::shadow_of_war
