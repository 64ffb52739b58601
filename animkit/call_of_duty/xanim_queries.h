// The runtime queries over a compact tree (cod-animtrees.txt, "Runtime representation").
// An index outside the tree, or XAnimGetLength on a parent, is an animkit::Error, not a crash.
#pragma once

#include <cstdint>
#include <string>

#include "animkit/call_of_duty/xanim_tree.h"

namespace animkit::call_of_duty {

// True for a leaf, false for a parent.
bool XAnimIsPrimitive(const XAnim& anims, int32_t index);
// True for a leaf or for a parent with a sync property.
bool XAnimHasTime(const XAnim& anims, int32_t index);
// True for a looping leaf asset or a looping (loopsync) sync parent.
bool XAnimIsLooped(const XAnim& anims, int32_t index);
// The leaf asset name, or `<non-leaf anim>`.
std::string XAnimGetAnimName(const XAnim& anims, int32_t index);
// The leaf asset length in seconds. Only for a primitive node: the stock function reads leafAsset
// unconditionally, so a parent (or a leaf whose length no manifest gives) is an error here.
float XAnimGetLength(const XAnim& anims, int32_t index);
// The child count of a parent (0 for a leaf).
int32_t XAnimGetNumChildren(const XAnim& anims, int32_t index);

}  // namespace animkit::call_of_duty
