// Playing an animation tree as the game blends it (cod-xanim-format.md §2.2-§3, the player
// choices of §6): every started leaf advances its normalised time with clamp or wrap and a cycle
// counter (§2.4), fires its notes in the server's walk and the client's queue order (§3), gives
// the delta motion since the last update (§2.5), and the tree's weighted leaves are blended part
// by part in float32 (§2.2: sub-blends scaled to their weight, the top divided by the accumulated
// weight, signs never aligned). All buffers are sized when the player is built: an update
// allocates nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "animkit/call_of_duty/xanim_file.h"
#include "animkit/call_of_duty/xanim_sample.h"
#include "animkit/call_of_duty/xanim_tree.h"
#include "animkit/core/math.h"

namespace animkit::call_of_duty {

// The state of one node of the tree. Parents have a weight only (§6.10: no time of their own).
struct PlayNodeState {
  bool started = false;  // the script has called on it: it is traced, and a leaf advances
  float weight = 0;      // the weight in force this update
  float goal = 0;        // the weight it moves to
  float blend_left = 0;  // seconds left until it reaches the goal
  float rate = 1;
  // Leaves only.
  float time = 0;        // normalised t in [0, 1]
  uint32_t cycle = 0;    // the cycle counter (§2.4)
  float previous = 0;    // S: t before this update's step (after a restart)
  uint32_t wraps = 0;    // cycles added by this update's step
};

// §2.5: the relative delta of one leaf from S to C.
struct PlayDelta {
  int32_t node = 0;
  float rotation[2] = {0, 1};  // (z, w): the yaw from S to C
  Vec3 translation;            // in the frame of the yaw at C
};

// A note fired this update.
struct PlayNote {
  int32_t node = 0;
  uint16_t entry = 0;   // index in the leaf's notes (file order, `end` last)
  float fraction = 0;   // the client's (cycle delta + tau - S) / step
};

// One part of the blended pose: the lanes as §2.2 accumulates them, divided by the accumulated
// weight (not normalised); 0 weight when no weighted leaf has the part.
struct PlayPart {
  Quat lanes{0, 0, 0, 0};
  Vec3 translation;
  float weight = 0;
};

// A leaf's animation: the parsed file (nullptr for `void` / `void_loop`, which have no parts).
struct PlayLeafAnim {
  std::shared_ptr<const XAnimFile> file;
  bool looped = false;  // `void_loop` loops; otherwise the file's flag
};

class TreePlayer {
 public:
  // `anims` is indexed by node; leaves need an entry (parents' entries are ignored). Throws
  // animkit::Error when a leaf's xanim cannot be played (negative frameRate).
  TreePlayer(XAnim tree, std::vector<PlayLeafAnim> anims);

  const XAnim& tree() const { return tree_; }
  // The parts of the pose: every part name of the leaves, in node order then file order.
  const std::vector<std::string>& part_names() const { return part_names_; }

  // The script's calls, taking effect at the next update. A weight moves linearly from its
  // current value to `goal` over `blend_time` seconds (0: at once). Rate and restart on a
  // parent apply to every leaf below it. Throws animkit::Error on a bad node or value.
  void set_weight(int32_t node, float goal, float blend_time);
  void set_rate(int32_t node, float rate);
  void restart(int32_t node);

  // One update of `dt` seconds (§6.6): weights move, then every started leaf restarts if asked,
  // steps, clamps or wraps, fires its notes, computes its delta; then the pose is blended.
  void update(float dt);

  const std::vector<PlayNodeState>& nodes() const { return nodes_; }
  const std::vector<PlayNote>& server_notes() const { return server_notes_; }
  const std::vector<PlayNote>& client_notes() const { return client_notes_; }
  const std::vector<PlayDelta>& deltas() const { return deltas_; }
  const std::vector<PlayPart>& pose() const { return pose_; }
  // Blend nodes whose sub-blend summed to length 0 this update (§6.3).
  const std::vector<int32_t>& empty_sub_blends() const { return empty_sub_blends_; }
  // A leaf's notes (file order, then `end`).
  const std::vector<XAnimTimedNote>& notes(int32_t node) const;

 private:
  // A part's streams, flattened when the player is built so an update reads no vector headers.
  // Keys are 4 floats each (rotation x, y, z, w; translation x, y, z, 0), read one part at a
  // time (the parts that are not in a DenseRun).
  struct Stream {
    uint16_t key_count = 0;
    bool dense = false;   // K = T, no frame list: the leaf's shared dense span
    bool sorted = false;  // non-decreasing frame list: the cursor search applies
    uint32_t cursor = 0;  // the key found at the last update (a sparse search starts there)
    const float* keys = nullptr;
    const std::vector<uint16_t>* frames = nullptr;
  };
  struct PartPlan {
    int32_t slot = -1;  // pose slot
    bool two_component = false;
    Stream rotation, translation;
  };
  // Parts that are dense in both streams and take consecutive pose slots, by groups of 4: their
  // keys stored by lane across the parts, so that 4 parts are one vector per lane (every lane is
  // still §2.2's float32 arithmetic in §2.2's order: parts are independent sums).
  struct DenseRun {
    int32_t slot = 0;     // the first part's pose slot
    uint32_t count = 0;   // parts, a multiple of 4
    std::vector<float> keys;        // [key][lane 0-6: x y z w tx ty tz][part]
    std::vector<int32_t> two_mask;  // per part: -1 for a 2-component stream (x, y untouched)
  };
  struct Leaf {
    const XAnimFile* file = nullptr;
    bool looped = false;
    uint16_t n = 0;  // N
    float frequency = 0;
    std::vector<XAnimTimedNote> notes;
    std::vector<int32_t> slot;  // part i -> pose slot (-1: unbound, a lower duplicate name)
    std::vector<DenseRun> runs;  // the dense parts in groups of 4
    std::vector<PartPlan> plan;  // the other bound parts, one at a time
    // Every decoded rotation key as 4 floats (exact: int16 values), so that the lerp is float
    // arithmetic only: f32(b) - f32(a) equals the integer difference (< 2^24) exactly; every
    // translation key as (x, y, z, 0).
    std::vector<float> rotation_keys, translation_keys;
    // Per update: the frame of C (set when the leaf advances), and C's delta sample with its time,
    // which is the next update's S unless the leaf restarts.
    XAnimFrame at;
    XAnimDeltaSample delta_at;
    float delta_time = 0;
    bool delta_valid = false;
  };
  // Structure of arrays by pose slot: lane x, y, z, w, translation x, y, z and the weight, each
  // `stride` floats (the part count rounded up to 8: player_kernels).
  struct Accum {
    size_t stride = 0;
    std::vector<float> data;
    float* lane(int l) { return data.data() + l * stride; }
    const float* lane(int l) const { return data.data() + l * stride; }
    void clear();
  };
  static constexpr int kWeightLane = 7;

  void check_node(int32_t node) const;
  template <class F> void each_leaf_below(int32_t node, F&& f);
  void advance(int32_t node, float dt);
  void fire_notes(int32_t node);
  void compute_delta(int32_t node);
  void blend(int32_t node, float weight, size_t level, bool top);
  void add_leaf(int32_t node, float weight, Accum& into);
  static void build_runs(Leaf& leaf);
  void merge(const Accum& sub, float weight, Accum& into, int32_t node);

  XAnim tree_;
  std::vector<std::shared_ptr<const XAnimFile>> files_;
  std::vector<Leaf> leaves_;  // by node (parents: empty)
  std::vector<PlayNodeState> nodes_;
  std::vector<uint8_t> restart_;  // asked since the last update
  std::vector<std::string> part_names_;
  std::vector<Accum> levels_;  // one accumulation buffer per nesting level
  Accum divided_;              // the top's lanes divided by its weight
  // blend's lists of weighted children, one slice per node being blended (a node's children are
  // listed once: at most every node).
  std::vector<int32_t> weighted_;
  size_t weighted_top_ = 0;
  std::vector<PlayPart> pose_;
  std::vector<PlayNote> server_notes_, client_notes_;
  std::vector<PlayDelta> deltas_;
  std::vector<int32_t> empty_sub_blends_;
};

}  // namespace animkit::call_of_duty
