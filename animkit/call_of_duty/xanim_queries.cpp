#include "animkit/call_of_duty/xanim_queries.h"

#include <fmt/format.h>

#include "animkit/core/error.h"

namespace animkit::call_of_duty {

namespace {

const XAnimEntry& entry(const XAnim& anims, int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= anims.entries.size()) {
    throw Error(fmt::format("anim index {} is outside tree '{}' ({} nodes)", index, anims.name,
                            anims.entries.size()));
  }
  return anims.entries[index];
}

}  // namespace

bool XAnimIsPrimitive(const XAnim& anims, int32_t index) { return entry(anims, index).leaf; }

bool XAnimHasTime(const XAnim& anims, int32_t index) {
  const XAnimEntry& e = entry(anims, index);
  return e.leaf || (e.flags & (kLoopSync | kNonLoopSync)) != 0;
}

bool XAnimIsLooped(const XAnim& anims, int32_t index) {
  const XAnimEntry& e = entry(anims, index);
  if (e.leaf) return e.has_asset && e.looping_known && e.looping;
  return (e.flags & kLoopSync) != 0;
}

std::string XAnimGetAnimName(const XAnim& anims, int32_t index) {
  const XAnimEntry& e = entry(anims, index);
  return e.leaf ? std::string(anims.node_name(index)) : "<non-leaf anim>";
}

float XAnimGetLength(const XAnim& anims, int32_t index) {
  const XAnimEntry& e = entry(anims, index);
  if (!e.leaf) {
    throw Error(fmt::format("XAnimGetLength: node {} ('{}') of '{}' is not a primitive animation",
                            index, anims.node_name(index), anims.name));
  }
  if (!e.has_asset || !e.length_known) {
    throw Error(fmt::format("XAnimGetLength: the length of xanim/{} is not known",
                            anims.node_name(index)));
  }
  return e.length;
}

int32_t XAnimGetNumChildren(const XAnim& anims, int32_t index) {
  return entry(anims, index).child_count;
}

}  // namespace animkit::call_of_duty
