#include "animkit/asherons_call/dat_objects.h"

#include <fmt/format.h>

#include <algorithm>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/core/error.h"

namespace animkit::asherons_call {

namespace {

template <class T, class Parse>
T object_from_dat(const DatFile& dat, uint32_t id, uint8_t type, Parse parse) {
  if ((id >> 24) != type) {
    throw Error(fmt::format("object {} is a {}, not a {}", hex32(id),
                            dat_type_name(static_cast<uint8_t>(id >> 24)), dat_type_name(type)));
  }
  const std::vector<uint8_t> bytes = dat.read_object(id);
  try {
    T value = parse(Bytes(bytes));
    // Container page 4: these objects start with their own id.
    if (value.id != id) {
      throw Error(fmt::format("starts with id {}, its directory key is {}", hex32(value.id),
                              hex32(id)),
                  0);
    }
    return value;
  } catch (const Error& e) {
    throw Error(fmt::format("object {}: {}", hex32(id), e.message()), e.offset());
  }
}

}  // namespace

MotionTable motion_table_from_dat(const DatFile& dat, uint32_t id) {
  return object_from_dat<MotionTable>(dat, id, kTypeMotionTable,
                                      [](Bytes b) { return read_motion_table(b); });
}

Animation animation_from_dat(const DatFile& dat, uint32_t id) {
  return object_from_dat<Animation>(dat, id, kTypeAnimation,
                                    [](Bytes b) { return read_animation(b); });
}

Setup setup_from_dat(const DatFile& dat, uint32_t id) {
  return object_from_dat<Setup>(dat, id, kTypeSetup, [](Bytes b) { return read_setup(b); });
}

std::vector<uint32_t> animation_ids(const MotionTable& t) {
  std::vector<uint32_t> ids;
  auto add = [&](const MotionData& md) {
    for (const AnimData& a : md.anims) ids.push_back(a.anim_id);
  };
  for (const KeyedMotion& k : t.cycles) add(k.data);
  for (const KeyedMotion& k : t.modifiers) add(k.data);
  for (const LinkSet& l : t.links) {
    for (const LinkTarget& lt : l.targets) add(lt.data);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

AnimationStore animations_for(const DatFile& dat, const MotionTable& table) {
  AnimationStore store;
  for (uint32_t id : animation_ids(table)) {
    if ((id >> 24) != kTypeAnimation || !dat.find(id)) continue;
    store.add(animation_from_dat(dat, id));
  }
  return store;
}

}  // namespace animkit::asherons_call
