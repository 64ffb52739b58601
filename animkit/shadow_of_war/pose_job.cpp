#include "animkit/shadow_of_war/pose_job.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/core/error.h"
#include "animkit/shadow_of_war/layer_blend.h"

namespace animkit::shadow_of_war {

const char* operation_name(uint8_t code) {
  switch (code) {
    case kOpSample:
      return "SAMPLE";
    case kOpBlend:
      return "BLEND";
    case kOpReferencePose:
      return "REFERENCE_POSE";
    case kOpOutput:
      return "OUTPUT";
  }
  return "?";
}

void OperationTable::register_operation(uint8_t code, OperationFn fn) {
  if (code >= kOperationSlots) throw Error(fmt::format("operation {} past the table of 16", code));
  slots_[code] = fn;
}

void OperationTable::dispatch(PoseJob& job, const Operation& op) const {
  if (!registered(op.code)) throw Error("Animation Operation not registered");
  slots_[op.code](job, op);
}

namespace {

const Skeleton& skeleton_of(const PoseJob& job) { return *job.skeleton; }

[[noreturn]] void unsamplable(const PoseJob& job, const BlendEntry& e) {
  throw Error(fmt::format("clip '{}' ({} joints) cannot be sampled on a skeleton of {} joints",
                          e.clip->name, e.clip->joints.size(), job.pose.size()));
}

// What SamplingJob::validate refuses for an entry's clip on the job's skeleton.
bool samplable(const PoseJob& job, const BlendEntry& e) {
  return !e.clip || (e.cursor && e.clip->joints.size() <= job.pose.size());
}

// Samples entry `e`'s clip (or the reference pose when it has none) into `out`: SamplingJob's
// floats, or with kFullLayer those of blend_layer at weight 1 without a set over any pose (the
// crowd's usual BLEND, one pass instead of a sample and a blend; issue 29, item 4).
void sample_entry(PoseJob& job, const BlendEntry& e, std::span<Transform> out,
                  SampleStore store = SampleStore::kRaw) {
  const std::vector<Transform>& rest = skeleton_of(job).rest;
  if (e.clip) {
    if (!samplable(job, e)) unsamplable(job, e);
    sample_pose(*e.clip, e.time, *e.cursor, rest, out, store,
                job.frame ? &job.layouts.find(*e.clip, job.frame, rest) : nullptr);
  } else if (store == SampleStore::kRaw) {
    std::copy(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(out.size()), out.begin());
  } else {
    blend_full_layer(out, rest);
  }
}

// pose = pose * (1 - a) + sample * a per joint, in place (layer_blend.h).
void blend_into_pose(PoseJob& job, float weight, std::span<const float> weight_set) {
  blend_layer(job.pose, job.sample, skeleton_of(job).rest, weight, weight_set);
}

// op 0 SAMPLE (0x264E8C -> 0x260740 -> 0x261360): the first contributing entry.
void op_sample(PoseJob& job, const Operation& op) {
  const BlendEntry& e = job.entries[op.entry];
  if (e.weight >= 1.f && e.weight_set.empty()) {
    sample_entry(job, e, job.pose);
    return;
  }
  // A first layer below full weight settles over the reference pose.
  const std::vector<Transform>& rest = skeleton_of(job).rest;
  std::copy(rest.begin(), rest.end(), job.pose.begin());
  sample_entry(job, e, job.sample);
  blend_into_pose(job, e.weight, e.weight_set);
}

// op 1 BLEND (0x182980): a later entry by its weight and weight set.
void op_blend(PoseJob& job, const Operation& op) {
  const BlendEntry& e = job.entries[op.entry];
  if (e.weight >= 1.f && e.weight_set.empty()) {
    sample_entry(job, e, job.pose, SampleStore::kFullLayer);
    return;
  }
  sample_entry(job, e, job.sample);
  blend_into_pose(job, e.weight, e.weight_set);
}

// op 2 REFERENCE POSE (0x11B517C): an entry without a clip stands for the reference pose. As the
// first contribution (or with no entry) it is the pose; later it is layered by its weight and
// weight set like a BLEND (README, Choices 11).
void op_reference_pose(PoseJob& job, const Operation& op) {
  const std::vector<Transform>& rest = skeleton_of(job).rest;
  const bool first = job.operations.empty() || &op == &job.operations.front();
  if (op.entry < 0 || first) {
    std::copy(rest.begin(), rest.end(), job.pose.begin());
    return;
  }
  const BlendEntry& e = job.entries[op.entry];
  std::copy(rest.begin(), rest.end(), job.sample.begin());
  blend_into_pose(job, e.weight, e.weight_set);
}

// op 3 OUTPUT (0x1B12A4).
void op_output(PoseJob& job, const Operation&) {
  if (job.packed) {
    job.packed->assign(job.pose);
    return;
  }
  std::copy(job.pose.begin(), job.pose.end(), job.output.begin());
}

}  // namespace

const OperationTable& default_operation_table() {
  static const OperationTable table = [] {
    OperationTable t;
    t.register_operation(kOpSample, op_sample);
    t.register_operation(kOpBlend, op_blend);
    t.register_operation(kOpReferencePose, op_reference_pose);
    t.register_operation(kOpOutput, op_output);
    return t;
  }();
  return table;
}

void PoseJob::prepare(size_t max_entries) {
  const size_t n = skeleton ? skeleton->num_joints() : 0;
  if (pose.size() != n || sample.size() != n) {  // a thread's first job, or another skeleton
    pose.resize(n);
    sample.resize(n);
  }
  if (operations.capacity() < max_entries + 2) operations.reserve(max_entries + 2);
}

// Spec, pose job: the first non-zero weight -> SAMPLE; each later one -> BLEND; no clip ->
// REFERENCE POSE; end -> OUTPUT. README, Choices: an entry without a clip is a REFERENCE POSE in
// the SAMPLE's or the BLEND's place (layered by its weight when later); no contributing entry at
// all gives one REFERENCE POSE.
void PoseJob::plan() {
  operations.clear();
  bool first = true;
  for (size_t i = 0; i < entries.size(); ++i) {
    const BlendEntry& e = entries[i];
    if (e.weight == 0.f) continue;
    const int16_t idx = static_cast<int16_t>(i);
    if (first) {
      operations.push_back({e.clip ? kOpSample : kOpReferencePose, idx, e.weight});
      first = false;
    } else {
      operations.push_back({e.clip ? kOpBlend : kOpReferencePose, idx, e.weight});
    }
  }
  if (first) operations.push_back({kOpReferencePose, -1, 0.f});
  operations.push_back({kOpOutput, -1, 0.f});
}

bool PoseJob::validate() const {
  if (!skeleton) return false;
  const size_t n = skeleton->num_joints();
  return (packed || output.size() >= n) && pose.size() == n && sample.size() == n &&
         skeleton->rest.size() == n;
}

// An operation covers the pose when its output does not read the pose before it:
// - SAMPLE at weight >= 1 without a weight set samples straight into the pose;
// - BLEND / a later REFERENCE POSE layers with a = clamp(weight · set[j], 0, 1): at weight >= 1
//   without a set a = 1 for every joint, so the pose's layer weight 1 - a = 0 and the blend
//   never reads it (a layer joint of weight 0 is skipped), and the result is the sample alone;
// - the first REFERENCE POSE (or the one of an empty plan) copies the rest pose.
// A NaN weight is not >= 1, so it never covers.
size_t PoseJob::first_live_operation(const OperationTable& table) const {
  if (&table != &default_operation_table()) return 0;  // other ops: no rule known
  for (size_t i = operations.size(); i-- > 0;) {
    const Operation& op = operations[i];
    if (op.code == kOpOutput) continue;
    if (op.code == kOpReferencePose && (op.entry < 0 || i == 0)) return i;
    const BlendEntry& e = entries[op.entry];
    if (e.weight >= 1.f && e.weight_set.empty()) return i;
  }
  return 0;
}

void PoseJob::run(const OperationTable& table) {
  if (!validate()) throw Error("pose job: not prepared for its skeleton");
  plan();
  const size_t live = first_live_operation(table);
  // A dead operation still raises the error it would have raised (a clip the skeleton cannot
  // take); its entry's cursor is left as it was (a cursor changes how fast a key is found, never
  // which key).
  for (size_t i = 0; i < live; ++i) {
    const Operation& op = operations[i];
    if (op.entry >= 0 && !samplable(*this, entries[op.entry]))
      unsamplable(*this, entries[op.entry]);
  }
  // The usual plan's live part, one SAMPLE or BLEND at weight >= 1 without a weight set and then
  // OUTPUT into a character's pose: the sample is written straight into the output (the floats
  // op_sample / op_blend and op_output give, without the pose between them).
  if (packed && &table == &default_operation_table() && live + 2 == operations.size()) {
    const Operation& op = operations[live];
    if (op.code == kOpSample || op.code == kOpBlend) {
      const BlendEntry& e = entries[op.entry];
      if (e.clip && e.weight >= 1.f && e.weight_set.empty()) {
        if (!samplable(*this, e)) unsamplable(*this, e);
        sample_pose(*e.clip, e.time, *e.cursor, skeleton->rest, *packed,
                    op.code == kOpSample ? SampleStore::kRaw : SampleStore::kFullLayer,
                    frame ? &layouts.find(*e.clip, frame, skeleton->rest) : nullptr);
        return;
      }
    }
  }
  for (size_t i = live; i < operations.size(); ++i) table.dispatch(*this, operations[i]);
}

}  // namespace animkit::shadow_of_war
