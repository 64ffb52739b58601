"""animkit's neutral model <-> a Blender armature with one Action per clip.

The rule that makes the import exact: Blender poses a bone as
    pose[j] = pose[parent] @ (rest[parent]^-1 @ rest[j]) @ basis[j]
(rest = bone.matrix_local, basis = the keyed location / rotation / scale). Keying
    basis[j] = (rest[parent]^-1 @ rest[j])^-1 @ local[j](t)
with local[j](t) the joint's sampled local transform (animkit's SamplingJob) gives
pose[j] = pose[parent] @ local[j](t): the armature-space bone matrix is animkit's model matrix,
whatever the edit bones' rounding. The armature object turns glTF's Y-up to Blender's Z-up.
"""

import bisect
import json
import math

import bpy
from mathutils import Matrix, Quaternion, Vector

# glTF / animkit are Y-up, Blender Z-up: (x, y, z) -> (x, -z, y), as Blender's glTF importer.
Y_UP_TO_Z_UP = Matrix(((1, 0, 0), (0, 0, -1), (0, 1, 0))).to_4x4()

CONSTANT, LINEAR = 0, 1  # FCurve keyframe interpolation enum values


def quat(xyzw):
    return Quaternion((float(xyzw[3]), float(xyzw[0]), float(xyzw[1]), float(xyzw[2])))


def trs_matrix(t, q, s):
    return Matrix.LocRotScale(Vector(t), q, Vector(s))


def _bone_lengths(sk, model):
    n = len(sk)
    heads = [m.to_translation() for m in model]
    size = max((h.length for h in heads), default=1.0) or 1.0
    lengths = [0.0] * n
    for j in range(n):
        p = int(sk.parents[j])
        if p >= 0:
            d = (heads[j] - heads[p]).length
            if lengths[p] == 0.0 and d > 1e-6:
                lengths[p] = d
    for j in range(n):
        if lengths[j] <= 1e-6:
            p = int(sk.parents[j])
            lengths[j] = lengths[p] * 0.5 if p >= 0 else size * 0.1
        lengths[j] = max(lengths[j], size * 1e-3, 1e-4)
    return lengths


def build_armature(context, animated, name, bake=False):
    """An armature object for `animated` (an animkit.Animated), one Action per clip."""
    sk = animated.skeleton
    n = len(sk)
    parents = [int(p) for p in sk.parents]
    rest_t, rest_r, rest_s = sk.rest_translations, sk.rest_rotations, sk.rest_scales
    local_rest = [trs_matrix(rest_t[j], quat(rest_r[j]), rest_s[j]) for j in range(n)]
    model = []
    for j in range(n):
        model.append(local_rest[j] if parents[j] < 0 else model[parents[j]] @ local_rest[j])

    arm = bpy.data.armatures.new(name)
    obj = bpy.data.objects.new(name, arm)
    context.collection.objects.link(obj)
    obj.matrix_world = Y_UP_TO_Z_UP
    arm["animkit_rest"] = [float(v) for j in range(n)
                           for v in (*rest_t[j], *rest_r[j], *rest_s[j])]
    arm["animkit_parents"] = parents
    context.view_layer.objects.active = obj
    for o in context.selected_objects:
        o.select_set(False)
    obj.select_set(True)

    bpy.ops.object.mode_set(mode="EDIT")
    lengths = _bone_lengths(sk, model)
    edit = []
    for j in range(n):
        eb = arm.edit_bones.new(sk.names[j] or f"joint_{j}")
        eb.head = (0, 0, 0)
        eb.tail = (0, lengths[j], 0)
        loc, rot, _ = model[j].decompose()  # edit bones carry no scale
        eb.matrix = Matrix.LocRotScale(loc, rot, None)
        if parents[j] >= 0:
            eb.parent = edit[parents[j]]
        edit.append(eb)
    names = [eb.name for eb in edit]  # Blender may rename a duplicate or a long name
    bpy.ops.object.mode_set(mode="OBJECT")
    for j, bone_name in enumerate(names):
        arm.bones[bone_name]["animkit_index"] = j

    # basis = offset[j]^-1 @ local: offset[j] = rest[parent]^-1 @ rest[j] as Blender stores it.
    rest = [arm.bones[b].matrix_local.copy() for b in names]
    inverse_offset = []
    for j in range(n):
        offset = rest[j] if parents[j] < 0 else rest[parents[j]].inverted() @ rest[j]
        inverse_offset.append(offset.inverted())

    scene = context.scene
    fps = float(animated.clips[0].frame_rate) if animated.clips else 30.0
    scene.render.fps = max(1, int(round(fps)))
    scene.render.fps_base = scene.render.fps / fps
    obj.animation_data_create()
    for ci, clip in enumerate(animated.clips):
        action = _clip_action(clip, names, inverse_offset, animated, fps, bake)
        action.name = clip.name or f"clip_{ci}"
        action.use_fake_user = True
        if ci == 0:
            obj.animation_data.action = action
            scene.frame_start = 0
            scene.frame_end = max(1, int(math.ceil(clip.duration * fps - 1e-6)))
            for e in clip.events:
                scene.timeline_markers.new(e["name"], frame=int(round(e["time"] * fps)))
    return obj


def _clip_action(clip, names, inverse_offset, animated, fps, bake):
    # Every joint is keyed at every key time of the clip: Blender interpolates its keys
    # linearly, so a joint keyed only at its own keys would differ from the engine's curve
    # (Hermite, slerp) at another joint's key.
    n = len(names)
    all_times = set()
    frames = int(round(clip.duration * fps))
    for jt in clip.joints:
        for track in (jt.translation, jt.rotation, jt.scale):
            all_times.update(float(t) for t in track.times)
    if bake:
        all_times.update(k / fps for k in range(frames + 1))
    if not all_times:
        all_times = {0.0}  # the rest pose, keyed: Blender's rest is not exactly the engine's
    ordered = sorted(all_times)
    index = {t: i for i, t in enumerate(ordered)}
    local = animated.local_pose(clip, ordered)
    lt, lr, ls = local["translations"], local["rotations"], local["scales"]

    action = bpy.data.actions.new(clip.name or "clip")
    action["animkit_fps"] = fps
    action["animkit_frame_rate"] = float(clip.frame_rate)
    action["animkit_duration"] = float(clip.duration)
    action["animkit_looping"] = bool(clip.looping)
    action["animkit_events"] = json.dumps(clip.events)
    # The exact key times: a frame (float32 in Blender) does not give a step key's time back.
    action["animkit_times"] = ordered
    action.use_frame_range = True
    action.frame_start = 0
    action.frame_end = max(clip.duration * fps, 1e-3)
    action.use_cyclic = bool(clip.looping)
    for e in clip.events:
        marker = action.pose_markers.new(e["name"])
        marker.frame = int(round(e["time"] * fps))

    for j in range(n):
        jt = clip.joints[j]
        times = ordered
        locs, rots, scales = [], [], []
        previous = None
        for t in times:
            k = index[t]
            basis = inverse_offset[j] @ trs_matrix(lt[k, j], quat(lr[k, j]), ls[k, j])
            loc, rot, scale = basis.decompose()
            if previous is not None and previous.dot(rot) < 0:
                rot.negate()  # same hemisphere as the previous key: Blender lerps components
            previous = rot
            locs.append(loc)
            rots.append(rot)
            scales.append(scale)
        path = f'pose.bones["{names[j]}"].'
        group = names[j]
        frames_at = [t * fps for t in times]
        _curves(action, path + "location", group, frames_at, locs, 3, jt.translation)
        _curves(action, path + "rotation_quaternion", group, frames_at, rots, 4, jt.rotation)
        _curves(action, path + "scale", group, frames_at, scales, 3, jt.scale)
    return action


def _curves(action, data_path, group, frames, values, width, track):
    interpolation = CONSTANT if track.interpolation == "step" else LINEAR
    for i in range(width):
        fc = action.fcurves.new(data_path, index=i, action_group=group)
        fc.keyframe_points.add(len(frames))
        co = []
        for f, v in zip(frames, values):
            co += (f, v[i])
        fc.keyframe_points.foreach_set("co", co)
        fc.keyframe_points.foreach_set("interpolation", [interpolation] * len(frames))
        fc.update()


# ---- export ---------------------------------------------------------------------------------

def _ordered_bones(arm):
    """The armature's bones, parents first (by animkit_index when the import made them)."""
    bones = list(arm.bones)
    if all("animkit_index" in b for b in bones):
        return sorted(bones, key=lambda b: b["animkit_index"])
    out, seen = [], set()

    def visit(b):
        if b.name in seen:
            return
        if b.parent:
            visit(b.parent)
        seen.add(b.name)
        out.append(b)

    for b in bones:
        visit(b)
    return out


def _actions_of(obj, names):
    wanted = set(names)
    out = []
    for action in bpy.data.actions:
        for fc in action.fcurves:
            if fc.data_path.startswith('pose.bones["'):
                bone = fc.data_path.split('"')[1]
                if bone in wanted:
                    out.append(action)
                    break
    current = obj.animation_data.action if obj.animation_data else None
    if current in out:  # the active Action first
        out.remove(current)
        out.insert(0, current)
    return out


def _key_time(frame, fps, exact):
    """The key time of a frame: the imported key time it stands for, else frame / fps."""
    t = frame / fps
    i = bisect.bisect_left(exact, t)
    for k in (i - 1, i):
        if 0 <= k < len(exact) and abs(exact[k] - t) * fps < 1e-3:
            return exact[k]
    return t


def _events(action, fps):
    """The Action's pose markers as events: the markers always win (moved, added, deleted); a
    marker on its imported event's frame keeps that event's exact time and payload, a new or
    moved one takes the payload of the stored event of the same name nearest in time (a game's
    event is its name and payload: a copied sound stays a sound)."""
    stored = json.loads(action.get("animkit_events", "[]"))
    unused = list(range(len(stored)))
    out = []
    for m in sorted(action.pose_markers, key=lambda m: (m.frame, m.name)):
        same = [i for i in unused if stored[i]["name"] == m.name]
        exact = [i for i in same if int(round(stored[i]["time"] * fps)) == m.frame]
        if exact:
            i = exact[0]
            unused.remove(i)
            out.append(dict(stored[i]))
            continue
        near = min(same or [i for i, e in enumerate(stored) if e["name"] == m.name],
                   key=lambda i: abs(stored[i]["time"] * fps - m.frame), default=None)
        payload = stored[near].get("payload", {}) if near is not None else {}
        out.append({"time": m.frame / fps, "name": m.name, "payload": payload})
    out.sort(key=lambda e: e["time"])
    return out


def _duration(action, fps):
    """The Action's frame range wins; the imported exact length while the range is unchanged."""
    start, end = action.frame_range
    length = (end - start) / fps
    stored = action.get("animkit_duration")
    if stored is not None and abs(float(stored) * fps - (end - start)) < 1e-3:
        return float(stored)
    return length


def armature_to_neutral(obj):
    """The armature and its Actions as animkit's neutral JSON model (a dict)."""
    arm = obj.data
    bones = _ordered_bones(arm)
    names = [b.name for b in bones]
    position = {name: i for i, name in enumerate(names)}
    stored = arm.get("animkit_rest")
    exact_rest = (stored is not None and len(stored) == 10 * len(bones)
                  and all("animkit_index" in b for b in bones))
    joints, offsets = [], []
    for i, b in enumerate(bones):
        parent = position[b.parent.name] if b.parent else -1
        offset = b.matrix_local if not b.parent else b.parent.matrix_local.inverted() @ b.matrix_local
        offsets.append(offset.copy())
        if exact_rest:
            v = [float(x) for x in stored[10 * i:10 * i + 10]]
            t, r, s = v[0:3], v[3:7], v[7:10]
        else:
            loc, rot, scale = offset.decompose()
            t, r, s = list(loc), [rot.x, rot.y, rot.z, rot.w], list(scale)
        joints.append({"name": b.name, "parent": parent, "translation": t, "rotation": r,
                       "scale": s})

    scene = bpy.context.scene
    scene_fps = scene.render.fps / scene.render.fps_base
    clips = []
    for action in _actions_of(obj, names):
        fps = float(action.get("animkit_fps", scene_fps))
        exact = [float(t) for t in action.get("animkit_times", [])]
        curves = {}
        for fc in action.fcurves:
            if not fc.data_path.startswith('pose.bones["'):
                continue
            bone, _, prop = fc.data_path[len('pose.bones["'):].partition('"].')
            curves.setdefault(bone, {})[(prop, fc.array_index)] = fc
        tracks = []
        for i, name in enumerate(names):
            fcs = curves.get(name)
            if not fcs:
                continue
            frames = sorted({kp.co.x for fc in fcs.values() for kp in fc.keyframe_points})

            def value(prop, index, frame, default):
                fc = fcs.get((prop, index))
                return fc.evaluate(frame) if fc else default

            def step(prop):
                return any(kp.interpolation == "CONSTANT" for (p, _), fc in fcs.items() if p == prop
                           for kp in fc.keyframe_points)

            ts, rs, ss = [], [], []
            for f in frames:
                loc = Vector([value("location", k, f, 0.0) for k in range(3)])
                rot = Quaternion([value("rotation_quaternion", k, f, 1.0 if k == 0 else 0.0)
                                  for k in range(4)]).normalized()
                scale = Vector([value("scale", k, f, 1.0) for k in range(3)])
                t, r, s = (offsets[i] @ Matrix.LocRotScale(loc, rot, scale)).decompose()
                ts.append(list(t))
                rs.append([r.x, r.y, r.z, r.w])
                ss.append(list(s))
            times = [_key_time(f, fps, exact) for f in frames]
            for channel, values, prop in (("translation", ts, "location"),
                                          ("rotation", rs, "rotation_quaternion"),
                                          ("scale", ss, "scale")):
                if not any(p == prop for (p, _) in fcs):
                    continue  # an unkeyed channel holds the rest (no track: a format may have none)
                tracks.append({"joint": name, "channel": channel,
                               "interpolation": "step" if step(prop) else "linear",
                               "times": times, "values": values})
        events = _events(action, fps)
        duration = _duration(action, fps)
        clips.append({"name": action.name, "duration": duration,
                      "frame_rate": float(action.get("animkit_frame_rate", fps)),
                      "looping": bool(action.get("animkit_looping", action.use_cyclic)),
                      "tracks": tracks, "events": events})
    return {"animkit": "neutral", "skeleton": {"joints": joints}, "clips": clips}


# ---- meshes (a model's skinned meshes, issues 27 and 32) ---------------------------------------

def _glb_has_meshes(path):
    import struct

    with open(path, "rb") as f:
        head = f.read(20)
        if len(head) < 20 or head[:4] != b"glTF":
            return False
        (length,) = struct.unpack("<I", head[12:16])
        return bool(json.loads(f.read(length)).get("meshes"))


def import_meshes(context, doc, obj, tmp_dir):
    """The document's skinned meshes (a Monster Hunter model PAC), bound to `obj`.

    animkit writes them into a .glb (Document.export, as `animkit export`), Blender's glTF
    importer reads that, and each mesh object is moved onto the add-on's armature: parented
    with its world placement kept, its Armature modifier pointed at `obj`; its vertex groups are
    the joints' names, which are the bones' names. The importer's own armature and Actions are
    deleted. Skinning needs only the rest and pose matrices in armature space, so the add-on's
    bone orientation (the joints' model frames) deforms the mesh as the engine does.
    Returns the mesh objects."""
    import os

    glb = os.path.join(tmp_dir, "model.glb")
    doc.export(glb)
    if not _glb_has_meshes(glb):
        return []
    scene = context.scene
    kept = (scene.render.fps, scene.render.fps_base, scene.frame_start, scene.frame_end)
    objects, actions = set(bpy.data.objects), set(bpy.data.actions)
    # Blender 3.4's glTF importer smooths polygons with `numpy.bool`, which NumPy 1.24 (Debian
    # 12's) no longer has: lend it the builtin for the call.
    import numpy

    lent = "bool" not in numpy.__dict__
    if lent:
        numpy.bool = bool
    try:
        bpy.ops.import_scene.gltf(filepath=glb)
    finally:
        if lent:
            del numpy.bool
    scene.render.fps, scene.render.fps_base, scene.frame_start, scene.frame_end = kept
    new = [o for o in bpy.data.objects if o not in objects]
    meshes = [o for o in new if o.type == "MESH"]
    for m in meshes:
        world = m.matrix_world.copy()
        m.parent = obj
        m.matrix_world = world
        for mod in m.modifiers:
            if mod.type == "ARMATURE":
                mod.object = obj
        if not any(mod.type == "ARMATURE" for mod in m.modifiers):
            m.modifiers.new("Armature", "ARMATURE").object = obj
    for o in new:
        if o.type != "MESH":
            data = o.data
            bpy.data.objects.remove(o)
            if data is not None and data.users == 0 and isinstance(data, bpy.types.Armature):
                bpy.data.armatures.remove(data)
    for a in list(bpy.data.actions):
        if a not in actions:
            bpy.data.actions.remove(a)
    context.view_layer.objects.active = obj
    return meshes
