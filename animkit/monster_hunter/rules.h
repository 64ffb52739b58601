// The engine rules (monster-hunter.txt, "Engine rules (MHFU)"; notes 1,
// mhfu_port.constraints.RULES): what a pack and skeleton must keep for the game to load and play
// them, each finding with its level, message and fix text; and fix(), which applies the documented
// repairs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "animkit/core/registry.h"
#include "animkit/monster_hunter/pack.h"
#include "animkit/monster_hunter/pmo.h"
#include "animkit/monster_hunter/skeleton.h"

namespace animkit::monster_hunter {

struct Rule {
  const char* code;
  Finding::Level level;
  const char* fix;
  const char* holds;  // what holds when the rule passes (verify's check names)
};
// Every code of the RULES table, EMPTY_TRACK (the spec's "no empty track on an animated joint",
// which the public tool does not check) and LOC_BELOW_FORK (MHP3rd's fork rule).
const std::vector<Rule>& rules();
const Rule& rule(const std::string& code);

// Runs the rules on whatever is given (any may be null). MHFU packs get every rule; MHP3rd packs
// the encoding-neutral ones (DUPLICATE_CHANNEL, NEGATIVE_FRAME, FRAME_ORDER, EMPTY_CHANNEL).
// `species` is the template skeleton for TEMPLATE.
// MHP3rd packs with a skeleton and the species `em` also get LOC_BELOW_FORK (a warning): the fork
// rule of "MHP3rd: clip sets and records", every record with location channels at or above the
// body fork under the species' record map (records.for_monster).
std::vector<Finding> validate(const Skeleton* skeleton, const AnimPack* pack,
                              const Skeleton* species = nullptr, std::optional<int> em = {});

// Everything the rules can read; any part may be missing (a rule needing it is skipped).
struct RuleInputs {
  const Skeleton* skeleton = nullptr;
  const AnimPack* pack = nullptr;
  const Skeleton* species = nullptr;  // TEMPLATE
  const PmoModel* model = nullptr;    // PALETTE_JOINT, EMPTY_GROUP
  std::optional<int> em;              // LOC_BELOW_FORK (MHP3rd)
  bool strict = false;                // EMPTY_TRACK
};
// In the reference's order (mhfu_port.constraints.validate): skeleton rules, TEMPLATE, the clip
// rules, PARTITION, the model rules; then this module's LOC_BELOW_FORK.
std::vector<Finding> validate(const RuleInputs& inputs);

// notes 1: a result as the reference prints it, `<level> <CODE>: <message> (fix: <fix>)`, the
// level "error" or "warn".
std::string reference_line(const Finding& finding);

// `mh verify` (notes 1: "reuses the same rules (all but TEMPLATE; a warning counts as a pass)"):
// one check per rule in table order, named by what holds, failing on an error finding; its
// detail the findings' messages joined by "; ".
struct Check {
  std::string name;
  bool ok = true;
  std::string detail;
};
std::vector<Check> verify_checks(const std::vector<Finding>& findings);
// notes 1: "E errors, W warnings".
std::string summary(const std::vector<Finding>& findings);

// notes 1, the "fix" column, applied where a fix can be made mechanically: scale channels
// dropped, duplicate channels dropped (the first of each bit kept), empty channels removed, keys
// sorted by frame, a clip with negative frames shifted to start at 0, empty tracks (and clips
// without tracks, given the skeleton) filled with rest keys spanning the clip, an animated count
// past the bone count clamped. Returns one line per change.
std::vector<std::string> fix(AnimPack* pack, Skeleton* skeleton);

// A list of numbers as the rules print it: at most 8, space separated, then " (+N)".
std::string list_numbers(const std::vector<int>& numbers);

}  // namespace animkit::monster_hunter
