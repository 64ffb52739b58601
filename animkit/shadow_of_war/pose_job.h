// The pose job (spec: "Per frame", pose job 0x1B0EE4): walks the blend entries copied from the
// trackers; the first non-zero weight -> op 0 SAMPLE, each later one -> op 1 BLEND by its weight
// and weight set, no clip -> op 2 REFERENCE POSE, end -> op 3 OUTPUT. Operations are dispatched
// through a table of 16 (0x2A86C60); a missing one is "Animation Operation not registered".
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "animkit/core/sampling_job.h"
#include "animkit/core/skeleton.h"

namespace animkit::shadow_of_war {

// A 20-byte blend entry of M+0xD8 (weight, weight set, time, clip), plus the tracker's cursor.
struct BlendEntry {
  float weight = 0;
  std::span<const float> weight_set;
  float time = 0;
  const Clip* clip = nullptr;
  SamplingCursor* cursor = nullptr;
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

// The job: inputs (skeleton, entries), scratch (kept between frames: no allocation per update
// once sized), output (local transforms).
struct PoseJob {
  const Skeleton* skeleton = nullptr;
  std::span<const BlendEntry> entries;
  std::span<Transform> output;

  // Scratch, sized by prepare().
  std::vector<Transform> pose, sample, blended;
  std::vector<float> keep_weights, take_weights;
  std::vector<Operation> operations;

  // Sizes the scratch for the skeleton and `max_entries` (allocates only when it grows).
  void prepare(size_t max_entries);
  // Walks the entries into `operations` (the spec's rule; README, Choices).
  void plan();
  bool validate() const;
  // plan() then dispatches each operation through `table`.
  void run(const OperationTable& table = default_operation_table());
};

}  // namespace animkit::shadow_of_war
