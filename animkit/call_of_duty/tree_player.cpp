#include "animkit/call_of_duty/tree_player.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "animkit/call_of_duty/player_kernels.h"
#include "animkit/core/error.h"

namespace animkit::call_of_duty {

namespace kernels = player_kernels;

namespace {

// §2.2: 1/32767 as the game writes it.
constexpr float kLaneScale = 3.0518509447574615e-05f;
// §6.8: "/ 32767²" as "· f32((1/32767) · (1/32767))".
const float kDeltaScale = static_cast<float>((1.0 / 32767.0) * (1.0 / 32767.0));
// §2.4 wraps by subtracting 1 repeatedly; past this many cycles in one step (a rate no stock
// script sets) the whole cycles are taken at once, so an update stays bounded (README Choices).
constexpr float kMaxWrapLoop = 1024.0f;

static_assert(sizeof(Quat) == 4 * sizeof(float));

// §2.1's sparse search from the key found at the last update: the i with idx[i] <= f < idx[i+1]
// (0 when f < idx[0]), what the search by halves finds on a non-decreasing list.
uint32_t cursor_search(const std::vector<uint16_t>& frames, uint32_t i, uint32_t f) {
  const uint32_t size = static_cast<uint32_t>(frames.size());
  if (i >= size) i = size - 1;
  if (frames[i] <= f) {
    while (i + 1 < size && frames[i + 1] <= f) ++i;
  } else {
    while (i > 0 && frames[i] > f) --i;
  }
  return i;
}

}  // namespace

void TreePlayer::Accum::clear() { std::fill(data.begin(), data.end(), 0.0f); }

TreePlayer::TreePlayer(XAnim tree, std::vector<PlayLeafAnim> anims) : tree_(std::move(tree)) {
  const size_t count = tree_.entries.size();
  if (count == 0) throw Error("the tree has no root");
  nodes_.resize(count);
  restart_.assign(count, 0);
  leaves_.resize(count);
  anims.resize(count);
  std::unordered_map<std::string, int32_t> slots;
  size_t note_capacity = 0;
  size_t depth_max = 0;
  std::vector<size_t> depth(count, 0);
  for (size_t i = 0; i < count; ++i) {
    const XAnimEntry& e = tree_.entries[i];
    if (e.parent >= 0 && static_cast<size_t>(e.parent) < i) depth[i] = depth[e.parent] + 1;
    depth_max = std::max(depth_max, depth[i]);
    if (!e.leaf) continue;
    Leaf& leaf = leaves_[i];
    files_.push_back(anims[i].file);
    leaf.file = anims[i].file.get();
    leaf.looped = anims[i].looped;
    if (leaf.file) {
      const XAnimHeader& h = leaf.file->header;
      if (h.frame_rate < 0) {
        throw Error(fmt::format("xanim '{}' (node {} '{}'): negative frameRate {}; time would "
                                "run backwards (§2.4)",
                                leaf.file->name, i, tree_.node_name(i), h.frame_rate));
      }
      leaf.n = leaf.file->frame_count_minus_one();
      leaf.at = xanim_frame(0.0f, leaf.n);  // t = 0 until the leaf advances
      leaf.frequency = h.frequency();
      leaf.notes = xanim_notes(*leaf.file);
      // §2.3 / §6.5: of several parts with one name, the highest-indexed binds.
      const auto& parts = leaf.file->parts;
      leaf.slot.assign(parts.size(), -1);
      for (size_t p = parts.size(); p-- > 0;) {
        bool later = false;
        for (size_t q = p + 1; q < parts.size() && !later; ++q) later = parts[q].name == parts[p].name;
        if (later) continue;
        auto [it, fresh] = slots.try_emplace(parts[p].name, static_cast<int32_t>(part_names_.size()));
        if (fresh) part_names_.push_back(parts[p].name);
        leaf.slot[p] = it->second;
      }
    } else {
      leaf.notes = {{"end", 1.0f, -1}};  // §1.5: the implicit `end` of every animation
    }
    note_capacity += 2 * leaf.notes.size();
  }
  // Part names were met in reverse file order inside each leaf; number them in node order, then
  // file order, for a stable listing.
  {
    std::vector<std::string> ordered;
    std::unordered_map<std::string, int32_t> renumber;
    for (size_t i = 0; i < count; ++i) {
      if (!leaves_[i].file) continue;
      for (const XAnimPart& p : leaves_[i].file->parts) {
        if (renumber.try_emplace(p.name, static_cast<int32_t>(ordered.size())).second) {
          ordered.push_back(p.name);
        }
      }
    }
    for (Leaf& leaf : leaves_) {
      for (size_t p = 0; p < leaf.slot.size(); ++p) {
        if (leaf.slot[p] >= 0) leaf.slot[p] = renumber[leaf.file->parts[p].name];
      }
    }
    part_names_ = std::move(ordered);
  }
  for (Leaf& leaf : leaves_) {
    if (!leaf.file) continue;
    const uint32_t total = leaf.file->total_frames();
    size_t keys = 0, translations = 0;
    for (const XAnimPart& part : leaf.file->parts) {
      keys += part.rotation.keys.size();
      translations += part.translation.values.size();
    }
    // Reserved whole: the plans point into them.
    leaf.rotation_keys.reserve(4 * keys);
    leaf.translation_keys.reserve(4 * translations);
    auto stream = [&](uint16_t key_count, const std::vector<uint16_t>& frames, const float* first) {
      Stream s;
      s.key_count = key_count;
      s.dense = frames.empty() && key_count == total;
      s.sorted = !frames.empty() && std::is_sorted(frames.begin(), frames.end());
      s.keys = first;
      s.frames = &frames;
      return s;
    };
    for (size_t p = 0; p < leaf.slot.size(); ++p) {
      if (leaf.slot[p] < 0) continue;
      const XAnimPart& part = leaf.file->parts[p];
      const float* rotation = leaf.rotation_keys.data() + leaf.rotation_keys.size();
      for (const XAnimQuatKey& k : part.rotation.keys) {
        for (int16_t lane : k) leaf.rotation_keys.push_back(static_cast<float>(lane));
      }
      const float* translation = leaf.translation_keys.data() + leaf.translation_keys.size();
      for (const Vec3& v : part.translation.values) {
        leaf.translation_keys.insert(leaf.translation_keys.end(), {v.x, v.y, v.z, 0.0f});
      }
      PartPlan plan;
      plan.slot = leaf.slot[p];
      plan.two_component = part.rotation.two_component;
      plan.rotation = stream(part.rotation.key_count, part.rotation.frames, rotation);
      plan.translation = stream(part.translation.key_count, part.translation.frames, translation);
      // The parser guarantees K values; a hand-built file short of them is read as no stream.
      if (part.rotation.keys.size() < part.rotation.key_count) plan.rotation.key_count = 0;
      if (part.translation.values.size() < part.translation.key_count) {
        plan.translation.key_count = 0;
      }
      leaf.plan.push_back(plan);
    }
    build_runs(leaf);
  }
  const size_t parts = part_names_.size();
  levels_.resize(depth_max + 2);
  for (Accum& a : levels_) {
    a.stride = (parts + kernels::kStrideMultiple - 1) / kernels::kStrideMultiple *
               kernels::kStrideMultiple;
    a.data.assign(kernels::kLanes * a.stride, 0.0f);
  }
  divided_.stride = levels_[0].stride;
  divided_.data.assign(kernels::kLanes * divided_.stride, 0.0f);
  pose_.resize(parts);
  weighted_.assign(count, 0);
  server_notes_.reserve(note_capacity);
  client_notes_.reserve(note_capacity);
  deltas_.reserve(count);
  empty_sub_blends_.reserve(count);
  // §6.2: the root's weight is 1.
  nodes_[0].weight = nodes_[0].goal = 1;
}

const std::vector<XAnimTimedNote>& TreePlayer::notes(int32_t node) const {
  check_node(node);
  return leaves_[node].notes;
}

void TreePlayer::check_node(int32_t node) const {
  if (node < 0 || static_cast<size_t>(node) >= nodes_.size()) {
    throw Error(fmt::format("no node {} in tree '{}' ({} nodes)", node, tree_.name, nodes_.size()));
  }
}

template <class F>
void TreePlayer::each_leaf_below(int32_t node, F&& f) {
  const XAnimEntry& e = tree_.entries[node];
  if (e.leaf) {
    f(node);
    return;
  }
  for (int32_t c = 0; c < e.child_count; ++c) each_leaf_below(e.first_child + c, f);
}

void TreePlayer::set_weight(int32_t node, float goal, float blend_time) {
  check_node(node);
  if (node == 0) throw Error("the root's weight is 1 (§6.2); set the weights of its children");
  if (!std::isfinite(goal) || goal < 0) {
    throw Error(fmt::format("weight {} of node {}: a finite number >= 0", goal, node));
  }
  if (!std::isfinite(blend_time) || blend_time < 0) {
    throw Error(fmt::format("blend time {} of node {}: a finite number of seconds >= 0",
                            blend_time, node));
  }
  PlayNodeState& s = nodes_[node];
  s.started = true;
  s.goal = goal;
  s.blend_left = blend_time;
}

void TreePlayer::set_rate(int32_t node, float rate) {
  check_node(node);
  if (!std::isfinite(rate) || rate < 0) {
    throw Error(fmt::format("rate {} of node {}: a finite number >= 0", rate, node));
  }
  nodes_[node].started = true;
  nodes_[node].rate = rate;
  each_leaf_below(node, [&](int32_t leaf) {
    nodes_[leaf].started = true;
    nodes_[leaf].rate = rate;
  });
}

void TreePlayer::restart(int32_t node) {
  check_node(node);
  nodes_[node].started = true;
  each_leaf_below(node, [&](int32_t leaf) {
    nodes_[leaf].started = true;
    restart_[leaf] = 1;
  });
}

void TreePlayer::update(float dt) {
  if (!std::isfinite(dt) || dt < 0) {
    throw Error(fmt::format("update of {} seconds: a finite number >= 0", dt));
  }
  server_notes_.clear();
  client_notes_.clear();
  deltas_.clear();
  empty_sub_blends_.clear();
  // Weights move linearly toward their goals (README Choices: the blend time).
  for (size_t i = 1; i < nodes_.size(); ++i) {
    PlayNodeState& s = nodes_[i];
    if (!s.started) continue;
    // A remainder within float rounding of the step ends the blend now, not an update later.
    if (s.blend_left > dt * 1.0001f) {
      s.weight = s.weight + (s.goal - s.weight) * (dt / s.blend_left);
      s.blend_left = s.blend_left - dt;
    } else {
      s.weight = s.goal;
      s.blend_left = 0;
    }
  }
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (!tree_.entries[i].leaf || !nodes_[i].started) continue;
    advance(static_cast<int32_t>(i), dt);
    fire_notes(static_cast<int32_t>(i));
    compute_delta(static_cast<int32_t>(i));
  }
  // The client's queue: every note of the update, stably by fraction (insertion sort: no
  // allocation, and the lists are short).
  for (size_t i = 1; i < client_notes_.size(); ++i) {
    const PlayNote n = client_notes_[i];
    size_t j = i;
    for (; j > 0 && client_notes_[j - 1].fraction > n.fraction; --j) {
      client_notes_[j] = client_notes_[j - 1];
    }
    client_notes_[j] = n;
  }
  // §2.2: blend from the root (weight 1), then divide the top by the accumulated weight.
  Accum& top = levels_[0];
  top.clear();
  weighted_top_ = 0;
  blend(0, 1.0f, 0, true);
  // §6.1: a division per lane and per component, not a multiply by the reciprocal.
  {
    const float* sums[kernels::kLanes];
    float* quotients[kernels::kLanes - 1];
    for (int l = 0; l < kernels::kLanes; ++l) sums[l] = top.lane(l);
    for (int l = 0; l < kernels::kLanes - 1; ++l) quotients[l] = divided_.lane(l);
    kernels::divide_by_weight(sums, quotients, top.stride);
  }
  for (size_t p = 0; p < pose_.size(); ++p) {
    PlayPart& out = pose_[p];
    out.weight = top.lane(kWeightLane)[p];
    if (!(out.weight > 0)) {
      out = PlayPart{};
      continue;
    }
    out.lanes = {divided_.lane(0)[p], divided_.lane(1)[p], divided_.lane(2)[p],
                 divided_.lane(3)[p]};
    out.translation = {divided_.lane(4)[p], divided_.lane(5)[p], divided_.lane(6)[p]};
  }
}

// §2.4 / §6.6: restart, step = f32(f32(frequency · rate) · dt), t = f32(t + step), then clamp
// (not looped) or wrap with the cycle counter (looped).
void TreePlayer::advance(int32_t node, float dt) {
  PlayNodeState& s = nodes_[node];
  Leaf& leaf = leaves_[node];
  if (restart_[node]) {
    s.time = 0;
    s.cycle = 0;
    restart_[node] = 0;
  }
  s.previous = s.time;
  s.wraps = 0;
  const float step = (leaf.frequency * s.rate) * dt;
  if (!std::isfinite(step)) {
    throw Error(fmt::format("node {} '{}': the step frequency x rate x dt overflows float32", node,
                            tree_.node_name(node)));
  }
  float t = s.time + step;
  if (t >= 1.0f) {
    if (!leaf.looped) {
      t = 1.0f;
    } else if (t < kMaxWrapLoop) {
      while (t >= 1.0f) {
        t = t - 1.0f;
        ++s.wraps;
      }
    } else {
      const float whole = std::floor(t);
      t = t - whole;
      s.wraps = whole >= 4294967295.0f ? UINT32_MAX : static_cast<uint32_t>(whole);
    }
  }
  s.cycle += s.wraps;
  s.time = t;
  leaf.at = xanim_frame(t, leaf.n);  // the frame the blend and the delta read (§2.1)
}

// §3 / §6.9: the server's walk from the next note after S, and the client's queue entries.
void TreePlayer::fire_notes(int32_t node) {
  const PlayNodeState& s = nodes_[node];
  const Leaf& leaf = leaves_[node];
  const std::vector<XAnimTimedNote>& notes = leaf.notes;
  const size_t n = notes.size();
  const float from = s.previous, to = s.time;
  // §6.9: step = cycles + C - S in float32; the fraction (cycle delta + tau - S) / step.
  const float step = (static_cast<float>(s.wraps) + to) - from;
  auto fraction = [&](size_t entry, uint32_t cycle_delta) {
    if (step == 0.0f) return 0.0f;  // a held leaf (README Choices)
    return ((static_cast<float>(cycle_delta) + notes[entry].time) - from) / step;
  };
  auto server = [&](size_t entry) {
    server_notes_.push_back({node, static_cast<uint16_t>(entry), fraction(entry, 0)});
  };
  auto client = [&](size_t entry, uint32_t cycle_delta) {
    client_notes_.push_back({node, static_cast<uint16_t>(entry), fraction(entry, cycle_delta)});
  };
  // "When S = 1.0, only `end` fires."
  if (from == 1.0f) {
    server(n - 1);
    client(n - 1, 0);
    return;
  }
  const size_t next = xanim_next_note(notes, from);
  auto walk = [&](size_t i, float limit, bool through_end) {
    for (; i < n && (through_end || notes[i].time < limit); ++i) {
      server(i);
      client(i, 0);
    }
  };
  const bool wrapped = leaf.looped && s.wraps > 0;
  if (to == 1.0f && !leaf.looped) {
    walk(next, 0, true);  // the non-looped end: every remaining entry through `end`
  } else if (!wrapped || to >= from) {
    walk(next, to, false);  // S <= tau < C in stored order from the next note
  } else if (notes[next].time < to) {
    walk(next, to, false);
  } else if (notes[next].time >= from) {
    walk(next, 0, true);  // through `end`, then from entry 0 while tau < C
    for (size_t i = 0; i < n && notes[i].time < to; ++i) server_notes_.push_back(
        {node, static_cast<uint16_t>(i), fraction(i, s.wraps)});
    // The client's restart loop after a wrap advances two entries per step (§3).
    for (size_t i = 0; i < n && notes[i].time < to; i += 2) client(i, s.wraps);
  }
}

// §2.5 / §6.8: the delta from S to C in the leaf's delta-motion streams.
void TreePlayer::compute_delta(int32_t node) {
  Leaf& leaf = leaves_[node];
  if (!leaf.file || !leaf.file->has_delta) return;
  const PlayNodeState& s = nodes_[node];
  // S is usually the last update's C: its sample is kept (same time, bit for bit: same sample).
  const XAnimDeltaSample a =
      leaf.delta_valid && std::memcmp(&leaf.delta_time, &s.previous, sizeof(float)) == 0
          ? leaf.delta_at
          : sample_delta(*leaf.file, xanim_frame(s.previous, leaf.n));
  const XAnimDeltaSample e = sample_delta(*leaf.file, leaf.at);
  leaf.delta_at = e;
  leaf.delta_time = s.time;
  leaf.delta_valid = true;
  PlayDelta d;
  d.node = node;
  // The yaw from S to C; XAnimCalcDelta's identity when either lane is 0.
  float z = e.z * a.w - e.w * a.z;
  float w = e.w * a.w + e.z * a.z;
  z = z * kDeltaScale;
  w = w * kDeltaScale;
  if (z == 0.0f || w == 0.0f) {
    z = 0;
    w = 1;
  }
  d.rotation[0] = z;
  d.rotation[1] = w;
  Vec3 end = e.translation;
  const XAnimTranslationStream& ts = leaf.file->delta_translation;
  if (leaf.looped && s.time < s.previous && ts.key_count > 0) {
    const Vec3& last = ts.values.back();
    end = {end.x + last.x, end.y + last.y, end.z + last.z};
  }
  Vec3 t{end.x - a.translation.x, end.y - a.translation.y, end.z - a.translation.z};
  // x, y by the inverse of the yaw at C, in the matrix form with 2 / |q|^2 (§6.8).
  const float len2 = e.z * e.z + e.w * e.w;
  if (len2 > 0) {
    const float scale = 2.0f / len2;
    const float zs = e.z * scale;
    const float wz = e.w * zs;  // sin of the yaw
    const float zz = e.z * zs;
    const float c = 1.0f - zz;  // cos of the yaw
    const float x = c * t.x + wz * t.y;
    const float y = c * t.y - wz * t.x;
    t.x = x;
    t.y = y;
  }
  d.translation = t;
  deltas_.push_back(d);
}

// §2.2 with §6.2-6.3: a node of weight `weight` adds into levels_[level]. A blend node with one
// weighted child is transparent; with two or more, at the top its children add straight into the
// top sum, below the top they add into a sub-blend merged at the node's weight.
void TreePlayer::blend(int32_t node, float weight, size_t level, bool top) {
  const XAnimEntry& e = tree_.entries[node];
  if (e.leaf) {
    add_leaf(node, weight, levels_[level]);
    return;
  }
  // The weighted children, listed once (a slice of weighted_ above the caller's).
  const size_t from = weighted_top_;
  for (int32_t c = e.first_child; c < e.first_child + e.child_count; ++c) {
    if (nodes_[c].weight > 0) weighted_[weighted_top_++] = c;
  }
  const size_t weighted = weighted_top_ - from;
  if (weighted == 0) return;
  if (weighted == 1) {
    weighted_top_ = from;
    blend(weighted_[from], weight, level, top);
    return;
  }
  const size_t into = top ? level : level + 1;
  if (!top) levels_[into].clear();
  for (size_t i = from; i < from + weighted; ++i) {
    const int32_t c = weighted_[i];
    blend(c, nodes_[c].weight, into, false);
  }
  weighted_top_ = from;
  if (!top) merge(levels_[into], weight, levels_[level], node);
}

// §2.2 / §6.1: lanes += f32(lerp · f32(weight · 1/32767)), translation += f32(lerp · weight),
// accumulated weight += weight; a 2-component stream writes z and w only; a compressed part
// with no key adds its weight to w; no translation key adds nothing (§6.4).
void TreePlayer::add_leaf(int32_t node, float weight, Accum& into) {
  Leaf& leaf = leaves_[node];
  if (!leaf.file) return;
  const XAnimFrame& at = leaf.at;
  // Every dense stream of the leaf (K = T) interpolates the same two keys.
  const XAnimKeySpan dense = xanim_span(at, static_cast<uint16_t>(leaf.n + 1u), {});
  // §2.1's span of one stream; sparse ones search from their cursor.
  auto span = [&](Stream& s) {
    if (s.dense) return dense;
    if (!s.sorted || s.key_count <= 1 || at.last) return xanim_span(at, s.key_count, *s.frames);
    const std::vector<uint16_t>& frames = *s.frames;
    const uint32_t i = s.cursor = cursor_search(frames, s.cursor, at.f);
    XAnimKeySpan out;
    if (i + 1u >= s.key_count) {
      out.first = out.second = s.key_count - 1u;
      return out;
    }
    out.first = i;
    out.second = i + 1;
    const float width = static_cast<float>(frames[i + 1]) - static_cast<float>(frames[i]);
    out.frac = width > 0 ? (at.ft - static_cast<float>(frames[i])) / width : 0.0f;
    return out;
  };
  const float scale = weight * kLaneScale;
  // The dense runs, 8 or 4 parts at a time (player_kernels).
  {
    kernels::DenseRunArgs args;
    for (int l = 0; l < kernels::kLanes; ++l) args.acc[l] = into.lane(l);
    args.frac = dense.frac;
    args.scale = scale;
    args.weight = weight;
    for (const DenseRun& run : leaf.runs) {
      args.count = run.count;
      args.ka = run.keys.data() + static_cast<size_t>(dense.first) * 7 * run.count;
      args.kb = run.keys.data() + static_cast<size_t>(dense.second) * 7 * run.count;
      args.two_mask = run.two_mask.data();
      args.base = static_cast<size_t>(run.slot);
      kernels::add_dense_run(args);
    }
  }
  float* lanes[4] = {into.lane(0), into.lane(1), into.lane(2), into.lane(3)};
  float* translations[3] = {into.lane(4), into.lane(5), into.lane(6)};
  float* weights = into.lane(kWeightLane);
  for (PartPlan& plan : leaf.plan) {
    const size_t slot = static_cast<size_t>(plan.slot);
    if (plan.rotation.key_count == 0) {
      // An uncompressed part with no key is undefined in the game: the same.
      lanes[3][slot] = lanes[3][slot] + weight;
    } else {
      const XAnimKeySpan s = span(plan.rotation);
      const float* a = plan.rotation.keys + 4 * s.first;
      const float* b = plan.rotation.keys + 4 * s.second;
      // A 2-component stream writes lanes z and w only (x, y keep their sums, -0 included).
      for (int l = plan.two_component ? 2 : 0; l < 4; ++l) {
        lanes[l][slot] = lanes[l][slot] + (a[l] + (b[l] - a[l]) * s.frac) * scale;
      }
    }
    if (plan.translation.key_count > 0) {
      const XAnimKeySpan s = span(plan.translation);
      const float* a = plan.translation.keys + 4 * s.first;
      const float* b = plan.translation.keys + 4 * s.second;
      for (int l = 0; l < 3; ++l) {
        translations[l][slot] = translations[l][slot] + (a[l] + (b[l] - a[l]) * s.frac) * weight;
      }
    }
    weights[slot] = weights[slot] + weight;
  }
}

// Groups the plans that are dense in both streams and take consecutive slots into runs of 4
// parts (the rest stay plans), their keys rearranged by lane.
void TreePlayer::build_runs(Leaf& leaf) {
  const uint32_t keys = leaf.n + 1u;
  std::vector<PartPlan> rest;
  size_t i = 0;
  while (i < leaf.plan.size()) {
    auto dense = [&](const PartPlan& p) {
      return p.rotation.dense && p.translation.dense && p.rotation.key_count == keys &&
             p.translation.key_count == keys;
    };
    size_t end = i;
    while (end < leaf.plan.size() && dense(leaf.plan[end]) &&
           leaf.plan[end].slot == leaf.plan[i].slot + static_cast<int32_t>(end - i)) {
      ++end;
    }
    const size_t grouped = (end - i) / 4 * 4;
    if (grouped > 0) {
      DenseRun run;
      run.slot = leaf.plan[i].slot;
      run.count = static_cast<uint32_t>(grouped);
      run.keys.resize(static_cast<size_t>(keys) * 7 * grouped);
      for (size_t j = 0; j < grouped; ++j) {
        const PartPlan& p = leaf.plan[i + j];
        run.two_mask.push_back(p.two_component ? -1 : 0);
        for (uint32_t k = 0; k < keys; ++k) {
          float* out = run.keys.data() + static_cast<size_t>(k) * 7 * grouped + j;
          for (int l = 0; l < 4; ++l) out[l * grouped] = p.rotation.keys[4 * k + l];
          for (int l = 0; l < 3; ++l) out[(4 + l) * grouped] = p.translation.keys[4 * k + l];
        }
      }
      leaf.runs.push_back(std::move(run));
    }
    for (size_t j = i + grouped; j < std::max(end, i + 1); ++j) rest.push_back(leaf.plan[j]);
    i = std::max(end, i + 1);
  }
  leaf.plan = std::move(rest);
}

// §6.3: a sub-blend scaled to length = its weight: lanes · f32(weight / |q|) (|q| from the float32
// sum of squares x, y, z, w), translation · f32(weight / accumulated weight); the parent's weight
// grows by the sub-blend's. A sum of length 0 adds its weight only (and is reported).
void TreePlayer::merge(const Accum& sub, float weight, Accum& into, int32_t node) {
  const float* q[kernels::kLanes];
  float* o[kernels::kLanes];
  for (int l = 0; l < kernels::kLanes; ++l) {
    q[l] = sub.lane(l);
    o[l] = into.lane(l);
  }
  if (kernels::merge_sub_blend(q, weight, o, sub.stride)) empty_sub_blends_.push_back(node);
}

}  // namespace animkit::call_of_duty
