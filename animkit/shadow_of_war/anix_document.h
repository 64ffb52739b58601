// The .anix file as a registry Document: info, dump (every structure by the spec's names),
// validate (the spec's stated checks) and to_neutral (the root summary of each clip).
#pragma once

#include <memory>
#include <vector>

#include "animkit/core/registry.h"
#include "animkit/shadow_of_war/anix.h"
#include "animkit/shadow_of_war/anix_json.h"

namespace animkit::shadow_of_war {

// The spec's stated checks (see README, "Checks"): one Finding each.
std::vector<Finding> check(const AnixFile& file, size_t actual_size);
// One clip per record: the root joint moving from the start to the end of the root summary over
// the clip's duration, and its events from the event dictionary. The key codecs' layouts are
// unknown, so the tracks are not decoded (said in Animated::notes).
Animated to_neutral(const AnixFile& file);

class AnixDocument : public Document {
 public:
  AnixDocument(AnixFile file, size_t size) : file_(std::move(file)), size_(size) {}
  Json info() const override;
  Json dump() const override { return to_json(file_); }
  bool print_dump(std::ostream& out, bool json) const override;  // streamed (issue 29)
  std::vector<Finding> validate() const override { return check(file_, size_); }
  std::optional<Animated> to_neutral() const override;
  const AnixFile& file() const { return file_; }

 private:
  AnixFile file_;
  size_t size_;
};

}  // namespace animkit::shadow_of_war
