"""The animkit_io add-on writing the games' formats (issue 32, item 3; a ctest test):

    blender -b --factory-startup --python-exit-code 1 \
        --python tools/blender/test_export_formats.py -- --module build/release/python --demo DIR

For every engine with a writer: File > Import > Game animation (animkit) of the demo's file, then
File > Export > Game animation (animkit) in the game's format with that file as the template.
Unchanged, the written file is the original's bytes and decodes (animkit) to its poses at every
frame, lengths and events (so a CoD stream stays as sparse as it was). Then edits made with Blender's Python API: a pose marker moved 3 frames, one added, one
deleted; the Action's frame range lengthened by 6 frames; a bone's keys turned. They must all be
in the written file: its events are the markers, its length the frame range, and its pose at every
frame is Blender's own (the pose bones' armature-space matrices), within the format's
quantisation. Shadow of War's import writes events only (its key codecs are raw) and a Monster
Hunter clip carries no events: those parts are checked where the format holds them. Exits 1 on
the first difference.
"""

import os
import sys
import time

import bpy
from mathutils import Quaternion

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # blender_testing, animkit_io
from blender_testing import FAILURES, check, clear_scene, parse_args, setup_file  # noqa: E402

ARGS = parse_args("test_export_formats.py")
import animkit  # noqa: E402
import numpy as np  # noqa: E402

import animkit_io  # noqa: E402


def rotation_angle(a, b):
    return 2 * np.arccos(np.abs(np.sum(a * b, axis=-1)).clip(0, 1))


def blender_pose(obj, names, frames):
    """Model-space (armature-space) positions and rotations of every bone at each frame."""
    pos, rot = [], []
    for f in frames:
        # A hair after the frame: a key at t x fps lands a float ulp off the whole frame, and a
        # step (CONSTANT) key must be in force, as the decoded file's is at f / fps.
        bpy.context.scene.frame_set(int(f), subframe=1e-3)
        ps, rs = [], []
        for name in names:
            m = obj.pose.bones[name].matrix
            t, q = m.to_translation(), m.to_quaternion()
            ps.append((t.x, t.y, t.z))
            rs.append((q.x, q.y, q.z, q.w))
        pos.append(ps)
        rot.append(rs)
    return np.array(pos), np.array(rot)


def export(fmt, out, template, clip="", **options):
    opts = {"opt_" + k: str(v) for k, v in options.items()}
    return bpy.ops.export_scene.animkit(filepath=out, format=fmt, template=template, clip=clip,
                                        **opts)


def run(name, path, fmt, options, edit_events=True, edit_length=True, edit_keys=True,
        tol_pos=2e-3, tol_rot=5e-3, decode=None, implicit_end=False, original=None):
    decode = options if decode is None else decode
    t0 = time.time()
    clear_scene()
    want = animkit.open(path, **options).animated()
    opts = {"opt_" + k: str(v) for k, v in options.items()}
    check(bpy.ops.import_scene.animkit(filepath=path, **opts) == {"FINISHED"}, f"{name}: import")
    obj = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    bones = sorted(obj.data.bones, key=lambda b: b["animkit_index"])
    names = [b.name for b in bones]
    size = max(1.0, float(np.abs(want.skeleton.rest_translations).max()))
    fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
    out_dir = os.path.join(os.path.abspath(ARGS.demo), "blender-out")
    os.makedirs(out_dir, exist_ok=True)
    # The clip to edit: the first with events where the format carries them.
    clip = next((c for c in want.clips if c.events), want.clips[0])
    action = bpy.data.actions[clip.name]
    obj.animation_data.action = action

    # 1. Unchanged: the original's poses, lengths and events.
    out = os.path.join(out_dir, name + "-same.bin")
    check(export(fmt, out, path, **options) == {"FINISHED"}, f"{name}: export")
    with open(out, "rb") as a, open(original or path, "rb") as b:
        check(a.read() == b.read(), f"{name}: the unchanged export is not the original's bytes")
    got = animkit.open(out, **decode).animated()
    for c in want.clips if fmt not in ("warriors-anm", "cod-xanim", "ac-animation") else [clip]:
        other = got.clips[0] if len(got.clips) == 1 else got.clip(c.name)
        n = int(round(c.duration * c.frame_rate))
        times = [k / c.frame_rate for k in range(n + 1)]
        a, b = want.pose(c, times), got.pose(other, times)
        dp = float(np.abs(a["positions"] - b["positions"]).max()) / size
        dr = float(rotation_angle(np.asarray(a["rotations"]), np.asarray(b["rotations"])).max())
        check(dp <= tol_pos and dr <= tol_rot, f"{name}/{c.name}: unchanged export off by "
                                               f"{dp:g} x size, {dr:g} rad")
        check(abs(other.duration - c.duration) < 1e-4, f"{name}/{c.name}: length {other.duration}")
        check([(round(e["time"], 4), e["name"]) for e in other.events] ==
              [(round(e["time"], 4), e["name"]) for e in c.events],
              f"{name}/{c.name}: events {other.events}")

    # 2. Edits in Blender win over the stored values.
    markers = sorted(action.pose_markers, key=lambda m: m.frame)
    if edit_events and markers:
        markers[0].frame += 3
        added = action.pose_markers.new(markers[0].name)
        added.frame = 2
        if len(markers) > 1:
            action.pose_markers.remove(markers[-1])
    start, end = action.frame_range
    if edit_length:
        action.frame_end = end + 6
    if edit_keys:  # turn the keys of the (non-root) bone with the most rotation keys, 0.2 rad
        fcs = [fc for fc in action.fcurves if fc.data_path.endswith("rotation_quaternion")
               and obj.data.bones[fc.data_path.split('"')[1]].parent is not None]
        bone = max(fcs, key=lambda fc: len(fc.keyframe_points)).data_path.split('"')[1]
        quat = [fc for fc in fcs if fc.data_path.split('"')[1] == bone]
        quat.sort(key=lambda fc: fc.array_index)
        turn = Quaternion((1, 0, 0), 0.2)
        for k in range(len(quat[0].keyframe_points)):
            q = Quaternion([quat[i].keyframe_points[k].co.y for i in range(4)])
            q = turn @ q
            for i in range(4):
                quat[i].keyframe_points[k].co.y = q[i]
        for fc in quat:
            fc.update()
    out = os.path.join(out_dir, name + "-edited.bin")
    check(export(fmt, out, path, clip=clip.name, **options) == {"FINISHED"}, f"{name}: export")
    got = animkit.open(out, **decode).animated()
    other = got.clips[0] if len(got.clips) == 1 else got.clip(clip.name)
    if edit_events:
        want_events = sorted((round(m.frame / fps, 3), m.name) for m in action.pose_markers)
        got_events = sorted((round(e["time"], 3), e["name"]) for e in other.events
                            if not (implicit_end and e["name"] == "end"
                                    and abs(e["time"] - other.duration) < 0.5 / fps))
        check(got_events == want_events, f"{name}/{clip.name}: events {got_events}, "
                                         f"markers {want_events}")
    length = (action.frame_range[1] - action.frame_range[0]) / fps
    if edit_length:
        check(abs(other.duration - length) < 0.5 / fps,
              f"{name}/{clip.name}: length {other.duration} s, the Action's {length} s")
    frames = [f for f in range(int(action.frame_range[0]), int(round(end)) + 1)]
    bp, br = blender_pose(obj, names, frames)
    # Blender's armature space is animkit's model space (the add-on's import); the decoded
    # file's joints are in the skeleton's order, the bones sorted the same way.
    pose = got.pose(other, [(f + 1e-3) / fps for f in frames])  # (the same hair after)
    dp = float(np.abs(pose["positions"] - bp).max()) / size
    dr = float(rotation_angle(np.asarray(pose["rotations"]), br).max())
    if os.environ.get("ANIMKIT_DEBUG"):
        per = rotation_angle(np.asarray(pose["rotations"]), br)
        print("per frame", per.max(axis=1).round(4).tolist(), per.max(axis=0).round(4).tolist())
    if edit_keys:
        check(dp <= tol_pos and dr <= tol_rot,
              f"{name}/{clip.name}: edited keys off by {dp:g} x size, {dr:g} rad")
    print(f"{name}: {fmt} written from Blender, unchanged and edited; edited pose within "
          f"{dp:.2e} x size, {dr:.2e} rad; {os.path.getsize(out)} bytes; {time.time() - t0:.1f} s")
    return out


def main():
    animkit_io.register()
    demo = os.path.abspath(ARGS.demo)
    animkit.demo(demo)
    xanim = os.path.join(demo, "arm_wave")
    arm = os.path.join(demo, "arm.glb")
    animkit.open(os.path.join(demo, "core.json")).animated().export(arm)
    animkit.import_gltf(arm, "cod-xanim", xanim, clip="wave")
    run("warriors", os.path.join(demo, "warriors-character.res"), "warriors-character", {})
    run("monster_hunter", os.path.join(demo, "mh-pack.bin"), "mh-pack",
        {"skeleton": os.path.join(demo, "mh-skeleton.bin")}, edit_events=False,
        edit_length=False)
    # (an xanim ends on its implicit "end" notetrack, cod-xanim-format.md)
    run("call_of_duty", xanim, "cod-xanim", {}, implicit_end=True)
    dat = os.path.join(demo, "asherons_call", "humanoid.dat")
    run("asherons_call", dat, "ac-animation", {"id": "0x03000100", "setup": "0x02000001"},
        decode={"setup": setup_file(dat, ARGS.module)},
        original=os.path.join(demo, "asherons_call", "animations", "0x03000100.bin"))
    run("shadow_of_war", os.path.join(demo, "shadow_of_war.anix"), "sow-anix", {},
        edit_length=False, edit_keys=False)
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        sys.exit(1)
    print("animkit_io: every engine's format written from Blender, edits kept")


main()
