"""Blender's own glTF path back into the games' formats (issue 32, item 2; a ctest test):

    blender -b --factory-startup --python-exit-code 1 \
        --python tools/blender/test_gltf_roundtrip.py -- --module build/release/python --demo DIR

For every engine with a writer, the demo's file (or, for CoD, an xanim written from the demo's
arm) is exported by animkit to .glb, imported with Blender's glTF importer (the scene at the
clip's frame rate first), exported with Blender's glTF exporter at its default settings, and
written back into the format with `animkit.import_gltf(..., template=the file)`. Blender turns
every bone, adds an armature node, keys every bone's three channels, ends the clip at its last
key and writes no extras: the result, decoded by animkit, must pose every joint as the original
does at every frame (model space, within the format's quantisation), with the original's clip
lengths and events. Exits 1 on the first difference.
"""

import os
import sys
import tempfile
import time

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # blender_testing, animkit_io
from blender_testing import FAILURES, check, parse_args, setup_file  # noqa: E402

ARGS = parse_args("test_gltf_roundtrip.py")
import animkit  # noqa: E402
import numpy as np  # noqa: E402


def blender_round_trip(glb, out, fps):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = max(1, int(round(fps)))
    scene.render.fps_base = scene.render.fps / fps
    bpy.ops.import_scene.gltf(filepath=glb)
    bpy.ops.export_scene.gltf(filepath=out)


def frame_times(clip):
    n = int(round(clip.duration * clip.frame_rate))
    return [k / clip.frame_rate for k in range(n + 1)]


def rotation_angle(a, b):
    d = np.abs(np.sum(a * b, axis=-1)).clip(0, 1)
    return 2 * np.arccos(d)


def run(name, template, fmt, tol_pos, tol_rot, decode=None, **options):
    t0 = time.time()
    want = animkit.open(template, **options).animated()
    with tempfile.TemporaryDirectory() as tmp:
        glb = os.path.join(tmp, "animkit.glb")
        blend = os.path.join(tmp, "blender.glb")
        back = os.path.join(tmp, "back.bin")
        want.export(glb)
        blender_round_trip(glb, blend, float(want.clips[0].frame_rate))
        report = animkit.import_gltf(blend, fmt, back, template=template, **options)
        got = animkit.open(back, **(decode if decode is not None else options)).animated()
    size = max(1.0, float(np.abs(want.skeleton.rest_translations).max()))
    worst_p = worst_r = 0.0
    for clip in want.clips:
        try:  # (an xanim's one clip is named after its file)
            other = got.clips[0] if len(want.clips) == 1 else got.clip(clip.name)
        except Exception as e:  # noqa: BLE001
            check(False, f"{name}/{clip.name}: not written back ({e})")
            continue
        check(abs(other.duration - clip.duration) < 1e-4,
              f"{name}/{clip.name}: length {other.duration} s, the original's {clip.duration} s")
        check([(round(e["time"], 4), e["name"]) for e in other.events] ==
              [(round(e["time"], 4), e["name"]) for e in clip.events],
              f"{name}/{clip.name}: events {other.events} != {clip.events}")
        times = frame_times(clip)
        a, b = want.pose(clip, times), got.pose(other, times)
        dp = float(np.abs(a["positions"] - b["positions"]).max()) / size
        dr = float(rotation_angle(np.asarray(a["rotations"]), np.asarray(b["rotations"])).max())
        worst_p, worst_r = max(worst_p, dp), max(worst_r, dr)
        check(dp <= tol_pos, f"{name}/{clip.name}: position off by {dp:g} x size")
        check(dr <= tol_rot, f"{name}/{clip.name}: rotation off by {dr:g} rad")
    print(f"{name}: {len(want.clips)} clips through Blender's glTF exporter and back as {fmt}; "
          f"worst position {worst_p:.2e} x size, rotation {worst_r:.2e} rad; "
          f"notes {report['notes'][:3]}; {time.time() - t0:.1f} s")


def main():
    demo = os.path.abspath(ARGS.demo)
    animkit.demo(demo)
    # A CoD xanim to start from: the demo's arm written as one (no template).
    xanim = os.path.join(demo, "arm_wave")
    arm = os.path.join(demo, "arm.glb")
    animkit.open(os.path.join(demo, "core.json")).animated().export(arm)
    animkit.import_gltf(arm, "cod-xanim", xanim, clip="wave")
    run("warriors", os.path.join(demo, "warriors-character.res"), "warriors-character", 2e-3, 5e-3)
    run("monster_hunter", os.path.join(demo, "mh-pack.bin"), "mh-pack", 2e-3, 5e-3,
        skeleton=os.path.join(demo, "mh-skeleton.bin"))
    run("call_of_duty", xanim, "cod-xanim", 2e-3, 5e-3)
    ac = os.path.join(demo, "asherons_call")
    dat = os.path.join(ac, "humanoid.dat")  # an animation with its Setup's parts as the skeleton
    run("asherons_call", dat, "ac-animation", 2e-3, 5e-3, decode={"setup": setup_file(dat, ARGS.module)},
        id="0x03000100", setup="0x02000001")
    run("shadow_of_war", os.path.join(demo, "shadow_of_war.anix"), "sow-anix", 2e-3, 5e-3)
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        sys.exit(1)
    print("every engine's clips came back through Blender's glTF exporter")


main()
