// The pose job (spec: "Per frame", pose job 0x1B0EE4): walks the blend entries copied from the
// trackers; the first non-zero weight -> op 0 SAMPLE, each later one -> op 1 BLEND by its weight
// and weight set, no clip -> op 2 REFERENCE POSE, end -> op 3 OUTPUT. Operations are dispatched
// through a table of 16 (0x2A86C60); a missing one is "Animation Operation not registered".
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "animkit/core/skeleton.h"
#include "animkit/shadow_of_war/key_sampler.h"
#include "animkit/shadow_of_war/output_pose.h"

namespace animkit::shadow_of_war {

// A 20-byte blend entry of M+0xD8 (weight, weight set, time, clip), plus the tracker's cursor
// (a key hint: key_sampler.h).
struct BlendEntry {
  float weight = 0;
  float time = 0;
  std::span<const float> weight_set;
  const Clip* clip = nullptr;
  KeyCursor* cursor = nullptr;
};

enum OperationCode : uint8_t {
  kOpSample = 0,
  kOpBlend = 1,
  kOpReferencePose = 2,
  kOpOutput = 3,
};
inline constexpr size_t kOperationSlots = 16;
const char* operation_name(uint8_t code);  // "SAMPLE", "BLEND", "REFERENCE_POSE", "OUTPUT"

struct Operation {
  uint8_t code = 0;
  int16_t entry = -1;  // the blend entry it reads (-1: none)
  float weight = 0;
  friend bool operator==(const Operation&, const Operation&) = default;
};

struct PoseJob;
using OperationFn = void (*)(PoseJob& job, const Operation& op);

// The 16-slot operation table (filled by 0x1188844; dispatched by 0x1B1230).
class OperationTable {
 public:
  void register_operation(uint8_t code, OperationFn fn);
  bool registered(uint8_t code) const { return code < kOperationSlots && slots_[code]; }
  // Throws animkit::Error("Animation Operation not registered") for an empty slot.
  void dispatch(PoseJob& job, const Operation& op) const;

 private:
  std::array<OperationFn, kOperationSlots> slots_{};
};
// Ops 0-3 registered.
const OperationTable& default_operation_table();

// The job: inputs (skeleton, entries), scratch, output (local transforms). One PoseJob serves
// every character a thread evaluates (Crowd keeps one per thread): its scratch is sized once and
// stays hot in that thread's cache, so no allocation per update and no per-character scratch.
struct PoseJob {
  const Skeleton* skeleton = nullptr;
  std::span<const BlendEntry> entries;
  std::span<Transform> output;
  OutputPose* packed = nullptr;  // when set, OUTPUT writes here instead of `output`

  // Scratch, sized by prepare().
  std::vector<Transform> pose, sample;
  std::vector<Operation> operations;
  // Set by the crowd for the frame its jobs run in (0: none): clips do not change during it, so
  // the layouts this thread reads of them hold until the next (key_sampler.h).
  uint64_t frame = 0;
  ClipLayouts layouts;

  // Sizes the scratch for the skeleton and `max_entries` (allocates only when it grows).
  void prepare(size_t max_entries);
  // Walks the entries into `operations` (the spec's rule; README, Choices).
  void plan();
  bool validate() const;
  // The first operation whose result the later ones depend on: with the default table, an
  // operation that sets every joint regardless of the pose before it (a SAMPLE or a BLEND /
  // REFERENCE POSE at weight >= 1 without a weight set, or a first REFERENCE POSE) makes the
  // operations before it dead. 0 with any other table.
  size_t first_live_operation(const OperationTable& table) const;
  // plan() then dispatches each live operation through `table` (the dead ones are only checked
  // for the errors they would raise), so the output equals running every operation.
  void run(const OperationTable& table = default_operation_table());
};

}  // namespace animkit::shadow_of_war
