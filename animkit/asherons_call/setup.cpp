#include "animkit/asherons_call/setup.h"

#include <fmt/format.h>

#include <climits>

#include "animkit/asherons_call/command_ids.h"
#include "animkit/asherons_call/json_helpers.h"
#include "animkit/asherons_call/vec3_io.h"
#include "animkit/core/error.h"
#include "animkit/core/limits.h"
#include "animkit/core/writer.h"

namespace animkit::asherons_call {

namespace {

// A count, checked against the bytes left for `size`-byte items (container page 5: "Guard each
// count by the bytes left, not a fixed cap").
uint32_t count(Reader& r, uint64_t size, const char* what) {
  const uint64_t at = r.offset();
  const uint32_t n = r.u32();
  if (!fits(n, size, r.remaining())) {
    throw Error(fmt::format("{}: {} x {} bytes, {} left", what, n, size, r.remaining()), at);
  }
  return n;
}

Sphere sphere(Reader& r) {
  Sphere s;
  s.origin = read_vec3(r);
  s.radius = r.f32();
  return s;
}
void put_sphere(Writer& w, const Sphere& s) {
  write_vec3(w, s.origin);
  w.f32(s.radius);
}

std::vector<LocationType> locations(Reader& r, const char* what) {
  std::vector<LocationType> out(count(r, 36, what));
  for (LocationType& l : out) {
    l.key = r.i32();
    l.part_index = r.i32();
    l.frame = read_frame(r);
  }
  return out;
}
void put_locations(Writer& w, const std::vector<LocationType>& ls) {
  w.u32(static_cast<uint32_t>(ls.size()));
  for (const LocationType& l : ls) {
    w.i32(l.key);
    w.i32(l.part_index);
    write_frame(w, l.frame);
  }
}

}  // namespace

const PlacementFrame* Setup::rest_placement() const {
  const PlacementFrame* fallback = nullptr;
  for (const PlacementFrame& p : placement_frames) {
    if (p.key == kPlacementResting) return &p;
    if (p.key == kPlacementDefault && !fallback) fallback = &p;
  }
  return fallback;
}

Setup read_setup(Bytes bytes) {
  Reader r(bytes);
  Setup s;
  s.id = r.u32();
  s.flags = r.u32();
  const uint32_t n = count(r, 4, "num_parts");
  s.parts.resize(n);
  for (uint32_t& p : s.parts) p = r.u32();
  if (s.flags & kSetupHasParent) {
    if (!fits(n, 4, r.remaining())) r.fail(fmt::format("parent_index: {} x 4 bytes", n));
    s.parent_index.resize(n);
    for (uint32_t& p : s.parent_index) p = r.u32();
  }
  if (s.flags & kSetupHasDefaultScale) {
    if (!fits(n, 12, r.remaining())) r.fail(fmt::format("default_scale: {} x 12 bytes", n));
    s.default_scale.resize(n);
    for (Vec3& v : s.default_scale) v = read_vec3(r);
  }
  s.holding_locations = locations(r, "holding_locations");
  s.connection_points = locations(r, "connection_points");
  // Each placement takes at least a key, N frames and a hook count.
  const uint64_t per_placement = 8 + uint64_t{n} * 28;
  s.placement_frames.resize(count(r, per_placement, "placement_frames"));
  for (PlacementFrame& p : s.placement_frames) {
    p.key = r.u32();
    p.frame = read_animation_frame(r, n);
  }
  s.cyl_spheres.resize(count(r, 20, "cyl_spheres"));
  for (CylSphere& c : s.cyl_spheres) {
    c.origin = read_vec3(r);
    c.radius = r.f32();
    c.height = r.f32();
  }
  s.spheres.resize(count(r, 16, "spheres"));
  for (Sphere& sp : s.spheres) sp = sphere(r);
  s.height = r.f32();
  s.radius = r.f32();
  s.step_up_height = r.f32();
  s.step_down_height = r.f32();
  s.sorting_sphere = sphere(r);
  s.selection_sphere = sphere(r);
  s.lights.resize(count(r, 48, "lights"));
  for (LightInfo& l : s.lights) {
    l.key = r.i32();
    l.frame = read_frame(r);
    l.color = r.u32();
    l.intensity = r.f32();
    l.falloff = r.f32();
    l.cone_angle = r.f32();
  }
  s.default_animation = r.u32();
  s.default_script = r.u32();
  s.default_motion_table = r.u32();
  s.default_sound_table = r.u32();
  s.default_script_table = r.u32();
  const Bytes rest = r.bytes(r.remaining());
  s.tail.assign(rest.begin(), rest.end());
  return s;
}

std::vector<uint8_t> write_setup(const Setup& s) {
  const size_t n = s.parts.size();
  auto need = [&](size_t have, bool gated, const char* what) {
    if (gated && have != n) {
      throw Error(fmt::format("setup: {} {} for {} parts", have, what, n));
    }
  };
  need(s.parent_index.size(), s.flags & kSetupHasParent, "parent indices");
  need(s.default_scale.size(), s.flags & kSetupHasDefaultScale, "default scales");
  Writer w;
  w.u32(s.id);
  w.u32(s.flags);
  w.u32(static_cast<uint32_t>(n));
  for (uint32_t p : s.parts) w.u32(p);
  if (s.flags & kSetupHasParent) {
    for (uint32_t p : s.parent_index) w.u32(p);
  }
  if (s.flags & kSetupHasDefaultScale) {
    for (Vec3 v : s.default_scale) write_vec3(w, v);
  }
  put_locations(w, s.holding_locations);
  put_locations(w, s.connection_points);
  w.u32(static_cast<uint32_t>(s.placement_frames.size()));
  for (const PlacementFrame& p : s.placement_frames) {
    if (p.frame.parts.size() != n) {
      throw Error(fmt::format("setup: placement {} has {} frames for {} parts", p.key,
                              p.frame.parts.size(), n));
    }
    w.u32(p.key);
    write_animation_frame(w, p.frame);
  }
  w.u32(static_cast<uint32_t>(s.cyl_spheres.size()));
  for (const CylSphere& c : s.cyl_spheres) {
    write_vec3(w, c.origin);
    w.f32(c.radius);
    w.f32(c.height);
  }
  w.u32(static_cast<uint32_t>(s.spheres.size()));
  for (const Sphere& sp : s.spheres) put_sphere(w, sp);
  w.f32(s.height);
  w.f32(s.radius);
  w.f32(s.step_up_height);
  w.f32(s.step_down_height);
  put_sphere(w, s.sorting_sphere);
  put_sphere(w, s.selection_sphere);
  w.u32(static_cast<uint32_t>(s.lights.size()));
  for (const LightInfo& l : s.lights) {
    w.i32(l.key);
    write_frame(w, l.frame);
    w.u32(l.color);
    w.f32(l.intensity);
    w.f32(l.falloff);
    w.f32(l.cone_angle);
  }
  w.u32(s.default_animation);
  w.u32(s.default_script);
  w.u32(s.default_motion_table);
  w.u32(s.default_sound_table);
  w.u32(s.default_script_table);
  for (uint8_t b : s.tail) w.u8(b);
  return w.take();
}

Json to_json(const Setup& s) {
  auto vec = [](Vec3 v) { return to_json(v); };
  auto sphere_json = [&](const Sphere& sp) {
    return Json{{"origin", vec(sp.origin)}, {"radius", json_float(sp.radius)}};
  };
  Json parts = Json::array();
  for (size_t i = 0; i < s.parts.size(); ++i) {
    Json p{{"gfx_object", hex32(s.parts[i])}};
    if (i < s.parent_index.size()) {
      p["parent"] = s.parent_index[i] == kNoParent ? Json(-1) : Json(s.parent_index[i]);
    }
    if (i < s.default_scale.size()) p["scale"] = vec(s.default_scale[i]);
    parts.push_back(std::move(p));
  }
  auto locs = [](const std::vector<LocationType>& ls) {
    Json a = Json::array();
    for (const LocationType& l : ls) {
      a.push_back(Json{{"key", l.key}, {"part_index", l.part_index}, {"frame", to_json(l.frame)}});
    }
    return a;
  };
  Json placements = Json::array();
  for (const PlacementFrame& p : s.placement_frames) {
    Json frames = Json::array();
    for (const AFrame& f : p.frame.parts) frames.push_back(to_json(f));
    Json hooks = Json::array();
    for (const AnimHook& h : p.frame.hooks) hooks.push_back(to_json(h));
    placements.push_back(Json{{"key", p.key}, {"frames", frames}, {"hooks", hooks}});
  }
  Json cyl = Json::array();
  for (const CylSphere& c : s.cyl_spheres) {
    cyl.push_back(Json{{"origin", vec(c.origin)},
                       {"radius", json_float(c.radius)},
                       {"height", json_float(c.height)}});
  }
  Json spheres = Json::array();
  for (const Sphere& sp : s.spheres) spheres.push_back(sphere_json(sp));
  Json lights = Json::array();
  for (const LightInfo& l : s.lights) {
    lights.push_back(Json{{"key", l.key},
                          {"frame", to_json(l.frame)},
                          {"color_bgra", hex32(l.color)},
                          {"intensity", json_float(l.intensity)},
                          {"falloff", json_float(l.falloff)},
                          {"cone_angle", json_float(l.cone_angle)}});
  }
  Json j{{"asherons_call", "setup"},
         {"id", hex32(s.id)},
         {"flags", s.flags},
         {"parts", parts},
         {"holding_locations", locs(s.holding_locations)},
         {"connection_points", locs(s.connection_points)},
         {"placement_frames", placements},
         {"cyl_spheres", cyl},
         {"spheres", spheres},
         {"height", json_float(s.height)},
         {"radius", json_float(s.radius)},
         {"step_up_height", json_float(s.step_up_height)},
         {"step_down_height", json_float(s.step_down_height)},
         {"sorting_sphere", sphere_json(s.sorting_sphere)},
         {"selection_sphere", sphere_json(s.selection_sphere)},
         {"lights", lights},
         {"default_animation", hex32(s.default_animation)},
         {"default_script", hex32(s.default_script)},
         {"default_motion_table", hex32(s.default_motion_table)},
         {"default_sound_table", hex32(s.default_sound_table)},
         {"default_script_table", hex32(s.default_script_table)}};
  if (!s.tail.empty()) j["tail"] = s.tail;
  return j;
}

// ---- the JSON form back (issue 28 item 2): exactly what to_json writes -------------------------

namespace {

// Every error names its JSON path ("placement_frames[1].frames[0].origin: ...").
template <class F>
auto at_path(const std::string& path, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    throw Error(path + ": " + e.message());
  }
}

const Json& array_member(const Json& j, const char* key) {
  const Json& a = member(j, key);
  if (!a.is_array()) throw Error(fmt::format("\"{}\": expected an array", key));
  return a;
}

Vec3 vec3_json(const Json& j) {
  if (!j.is_array() || j.size() != 3) throw Error("expected [x, y, z]");
  return Vec3{float_from_json(j[0], "x"), float_from_json(j[1], "y"), float_from_json(j[2], "z")};
}

Sphere sphere_json_in(const Json& j) {
  return Sphere{at_path("origin", [&] { return vec3_json(member(j, "origin")); }),
                float_from_json(member(j, "radius"), "radius")};
}

int32_t i32_json(const Json& j, const char* what) {
  return static_cast<int32_t>(int_from_json(j, what, INT32_MIN, INT32_MAX));
}

std::vector<LocationType> locations_json(const Json& j, const char* key) {
  std::vector<LocationType> out;
  const Json& a = array_member(j, key);
  for (size_t i = 0; i < a.size(); ++i) {
    at_path(fmt::format("{}[{}]", key, i), [&] {
      LocationType l;
      l.key = i32_json(member(a[i], "key"), "key");
      l.part_index = i32_json(member(a[i], "part_index"), "part_index");
      l.frame = at_path("frame", [&] { return frame_from_json(member(a[i], "frame")); });
      out.push_back(l);
      return 0;
    });
  }
  return out;
}

}  // namespace

Setup setup_from_json(const Json& j) {
  if (!j.is_object() || j.value("asherons_call", std::string()) != "setup")
    throw Error("expected {\"asherons_call\": \"setup\", ...}");
  Setup s;
  s.id = u32_from_json(member(j, "id"), "id");
  s.flags = u32_from_json(member(j, "flags"), "flags");
  const Json& parts = array_member(j, "parts");
  // Each part is at least {"gfx_object": "0x01000000"}: the text bounds the count.
  for (size_t i = 0; i < parts.size(); ++i) {
    at_path(fmt::format("parts[{}]", i), [&] {
      const Json& p = parts[i];
      s.parts.push_back(u32_from_json(member(p, "gfx_object"), "gfx_object"));
      if (s.flags & kSetupHasParent) {
        const Json& parent = member(p, "parent");
        s.parent_index.push_back(parent.is_number_integer() && parent.get<int64_t>() == -1
                                     ? kNoParent
                                     : u32_from_json(parent, "parent"));
      }
      if (s.flags & kSetupHasDefaultScale)
        s.default_scale.push_back(at_path("scale", [&] { return vec3_json(member(p, "scale")); }));
      return 0;
    });
  }
  s.holding_locations = locations_json(j, "holding_locations");
  s.connection_points = locations_json(j, "connection_points");
  const Json& placements = array_member(j, "placement_frames");
  for (size_t i = 0; i < placements.size(); ++i) {
    at_path(fmt::format("placement_frames[{}]", i), [&] {
      const Json& p = placements[i];
      PlacementFrame pf;
      pf.key = u32_from_json(member(p, "key"), "key");
      const Json& frames = array_member(p, "frames");
      if (frames.size() != s.parts.size())
        throw Error(fmt::format("{} frames for {} parts", frames.size(), s.parts.size()));
      for (size_t k = 0; k < frames.size(); ++k) {
        pf.frame.parts.push_back(
            at_path(fmt::format("frames[{}]", k), [&] { return frame_from_json(frames[k]); }));
      }
      const Json& hooks = array_member(p, "hooks");
      for (size_t k = 0; k < hooks.size(); ++k) {
        pf.frame.hooks.push_back(
            at_path(fmt::format("hooks[{}]", k), [&] { return hook_from_json(hooks[k]); }));
      }
      s.placement_frames.push_back(std::move(pf));
      return 0;
    });
  }
  const Json& cyl = array_member(j, "cyl_spheres");
  for (size_t i = 0; i < cyl.size(); ++i) {
    at_path(fmt::format("cyl_spheres[{}]", i), [&] {
      s.cyl_spheres.push_back(CylSphere{
          at_path("origin", [&] { return vec3_json(member(cyl[i], "origin")); }),
          float_from_json(member(cyl[i], "radius"), "radius"),
          float_from_json(member(cyl[i], "height"), "height")});
      return 0;
    });
  }
  const Json& spheres = array_member(j, "spheres");
  for (size_t i = 0; i < spheres.size(); ++i) {
    s.spheres.push_back(
        at_path(fmt::format("spheres[{}]", i), [&] { return sphere_json_in(spheres[i]); }));
  }
  s.height = float_from_json(member(j, "height"), "height");
  s.radius = float_from_json(member(j, "radius"), "radius");
  s.step_up_height = float_from_json(member(j, "step_up_height"), "step_up_height");
  s.step_down_height = float_from_json(member(j, "step_down_height"), "step_down_height");
  s.sorting_sphere = at_path("sorting_sphere", [&] { return sphere_json_in(member(j, "sorting_sphere")); });
  s.selection_sphere =
      at_path("selection_sphere", [&] { return sphere_json_in(member(j, "selection_sphere")); });
  const Json& lights = array_member(j, "lights");
  for (size_t i = 0; i < lights.size(); ++i) {
    at_path(fmt::format("lights[{}]", i), [&] {
      const Json& l = lights[i];
      LightInfo li;
      li.key = i32_json(member(l, "key"), "key");
      li.frame = at_path("frame", [&] { return frame_from_json(member(l, "frame")); });
      li.color = u32_from_json(member(l, "color_bgra"), "color_bgra");
      li.intensity = float_from_json(member(l, "intensity"), "intensity");
      li.falloff = float_from_json(member(l, "falloff"), "falloff");
      li.cone_angle = float_from_json(member(l, "cone_angle"), "cone_angle");
      s.lights.push_back(li);
      return 0;
    });
  }
  s.default_animation = u32_from_json(member(j, "default_animation"), "default_animation");
  s.default_script = u32_from_json(member(j, "default_script"), "default_script");
  s.default_motion_table = u32_from_json(member(j, "default_motion_table"), "default_motion_table");
  s.default_sound_table = u32_from_json(member(j, "default_sound_table"), "default_sound_table");
  s.default_script_table = u32_from_json(member(j, "default_script_table"), "default_script_table");
  if (auto it = j.find("tail"); it != j.end()) {
    if (!it->is_array()) throw Error("tail: expected an array of bytes");
    for (const Json& b : *it) s.tail.push_back(static_cast<uint8_t>(int_from_json(b, "tail", 0, 255)));
  }
  return s;
}

// Container page 4/5: id type 0x02, the four known flag bits, and the part list inside the bytes.
bool looks_like_setup(Bytes head) {
  if (head.size() < 12) return false;
  Reader r(head);
  const uint32_t id = r.u32(), flags = r.u32(), n = r.u32();
  if ((id >> 24) != 0x02 || (flags & ~0xFu) != 0) return false;
  // A Setup after its parts still holds at least 11 counts/ids and 2 spheres (about 100 bytes).
  return head.size() >= 65536 || fits(n, 4, head.size() - 12);
}

}  // namespace animkit::asherons_call
