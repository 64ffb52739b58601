// glTF-read animation fitted to the template's skeleton before a format's writer sees it (issue
// 32, item 2): a file from another tool (Blender's own glTF exporter turns every bone to point at
// its child and adds an armature node) names the template's joints but rests them differently.
//
// - Each joint's keys are re-expressed against the template's rest through the file's own rest:
//   with S the file's model-space rest of a joint, T the template's and C = T^-1 S (the turn from
//   the template's joint frame to the file's bone frame), the local keys become
//   C(parent) * L' * C^-1, so the model pose the file evaluates to is the template's joint pose.
//   (The file's rest already folds its non-joint ancestors and its inverse bind matrices:
//   gltf::read.) World axes are taken as glTF's (+Y up): an exporter that converts, as Blender's
//   does by default, arrives on them.
// - A channel whose every key restates the template's rest is dropped (the format writes no
//   track for it); the skeleton's rest becomes the template's, so an empty track means it.
// - An animation that carries no animkit extras (no duration, no events: another tool wrote it)
//   takes its length, frame rate, looping flag and events from the template's clip of the same
//   name; the add-on's extras (an edited length or marker set) win.
//
// The source is left as it is when the skeletons do not match by name and parent: the format's
// own matching (match_joints) then reports what differs.
#pragma once

#include <string>
#include <vector>

#include "animkit/core/registry.h"

namespace animkit::gltf {

// `untimed`: the names of the source's animations that carried no animkit extras. Returns the
// notes to show (what was re-expressed, dropped or taken from the template).
std::vector<std::string> fit_to_template(Animated& source, const std::vector<std::string>& untimed,
                                         const Animated& templ);

// Opens request.template_path with the request's engine options (the file's own animation, as
// `animkit export` reads it) and fits request.source to it; no template, or a template that holds
// no skeleton, leaves the source as it is.
std::vector<std::string> fit_to_template(ImportRequest& request,
                                         const std::vector<std::string>& untimed,
                                         const Registry& registry);

}  // namespace animkit::gltf
