// Matching glTF-read clips to an engine's own skeleton by joint name (issue 17: "joint matching
// by name with a clear error for a missing or extra joint, a different rest pose reported, not
// silently re-targeted"). Every importer calls this before it quantises.
#pragma once

#include <string>
#include <vector>

#include "animkit/core/registry.h"

namespace animkit {

struct JointMatch {
  std::vector<Clip> clips;          // the source clips, one JointTracks per target joint
  std::vector<std::string> notes;   // rest-pose differences (reported, not corrected)
};

// Throws animkit::Error naming every source joint the target lacks ("extra") and every target
// joint the source lacks ("missing"). A joint whose parent differs is an error too. A rest
// translation farther than `rest_tolerance`, or a rest rotation whose angle differs by more than
// `rest_tolerance` radians, is a note.
JointMatch match_joints(const Animated& source, const Skeleton& target, float rest_tolerance = 1e-3f);

}  // namespace animkit
