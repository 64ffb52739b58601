"""Imports an animkit .glb in Blender (headless) and compares it with animkit (issue 8).

    blender --background --factory-startup --python tools/blender_check.py -- FILE.glb \
        [--animkit PATH --source FILE...] [--clip NAME] [--joint NAME] [--frame F] [--tolerance T]

Prints the bone count, the clip's frame range and one joint's rotation at a frame. With
--animkit and --source (the file(s) the .glb was exported from), it also runs
`animkit pose --json` at every frame of the clip and compares:
  - every joint's model-space position (Blender's pose bone head, brought back from Blender's
    Z-up to glTF's Y-up), and
  - every joint's rotation relative to its rest pose in model space (Blender's importer turns
    bones to point along their children, a fixed per-bone correction that cancels in
    pose * rest^-1),
and exits 1 when a difference exceeds the tolerance (default 1e-4). Frames are compared at the
clip's keys (scene rate = the clip's frame rate): Blender lerps quaternion keys component-wise
where three.js slerps, so between keys the two differ by design.
`make test-blender` runs it on the demo's arm; it is not part of `make test` (Blender is a large
install: `apt-get install blender`).
"""
import argparse
import json
import math
import subprocess
import sys

import bpy
from mathutils import Matrix, Quaternion, Vector

# glTF is Y-up, Blender Z-up: the importer maps glTF (x, y, z) to Blender (x, -z, y).
TO_BLENDER = Matrix(((1, 0, 0), (0, 0, -1), (0, 1, 0))).to_4x4()
TO_GLTF = TO_BLENDER.inverted()


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    p = argparse.ArgumentParser(prog="blender_check.py")
    p.add_argument("glb")
    p.add_argument("--animkit", help="the animkit program, to compare with `animkit pose`")
    p.add_argument("--source", nargs="+", default=[], help="what the .glb was exported from")
    p.add_argument("--clip", help="clip (glTF animation) name; default the first")
    p.add_argument("--joint", help="joint whose rotation is printed; default the last")
    p.add_argument("--frame", type=int, help="frame at which it is printed; default the middle")
    p.add_argument("--tolerance", type=float, default=1e-4)
    return p.parse_args(argv)


def glb_json(path):
    with open(path, "rb") as f:
        data = f.read()
    length = int.from_bytes(data[12:16], "little")
    return json.loads(data[20:20 + length])


def animkit_pose(args, clip, times=None, rest=False):
    cmd = [args.animkit, "pose", *args.source, "--json"]
    cmd += ["--rest"] if rest else ["--clip", clip] + sum((["--time", repr(t)] for t in times), [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["poses"]


def main():
    args = parse_args()
    doc = glb_json(args.glb)
    animations = doc.get("animations", [])
    anim = next((a for a in animations if a["name"] == args.clip), None) if args.clip else (
        animations[0] if animations else None)
    if anim is None:
        sys.exit(f"blender_check: no animation {args.clip!r} in {args.glb}")
    extras = anim.get("extras", {})
    rate = float(extras.get("frame_rate", 30))
    duration = float(extras.get("duration", 0))

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = int(round(rate))
    scene.render.fps_base = scene.render.fps / rate
    bpy.ops.import_scene.gltf(filepath=args.glb, import_shading="SMOOTH")
    armatures = [o for o in scene.objects if o.type == "ARMATURE"]
    if not armatures:
        sys.exit("blender_check: the import made no armature")
    arm = armatures[0]
    bones = arm.pose.bones
    print(f"bones: {len(bones)}")

    # The clip's action (the importer names it after the animation, maybe with a suffix).
    actions = [a for a in bpy.data.actions if a.name == anim["name"] or a.name.startswith(anim["name"] + "_")]
    if not actions:
        sys.exit(f"blender_check: no action for {anim['name']!r} among {[a.name for a in bpy.data.actions]}")
    action = actions[0]
    arm.animation_data_create()
    for track in arm.animation_data.nla_tracks:
        track.mute = True
    arm.animation_data.action = action
    start, end = (int(round(f)) for f in action.frame_range)
    print(f"clip {anim['name']!r}: frames {start}..{end} at {rate:g} fps ({duration:g} s)")

    names = [n.get("name", f"node {i}") for i, n in enumerate(doc["nodes"])]
    joint = args.joint or names[-1]
    frame = args.frame if args.frame is not None else (start + end) // 2
    if joint not in bones:
        sys.exit(f"blender_check: no bone {joint!r}")
    scene.frame_set(frame)
    pb = bones[joint]
    q = (arm.matrix_world @ pb.matrix).to_quaternion()
    print(f"{joint} at frame {frame}: rotation (w, x, y, z) = "
          f"({q.w:.6f}, {q.x:.6f}, {q.y:.6f}, {q.z:.6f}) in Blender's world (bone axes as its importer turns them); "
          f"head = {tuple(round(v, 6) for v in (arm.matrix_world @ pb.head))}")
    if not args.animkit:
        return

    # The comparison at every frame of the clip.
    frames = list(range(start, end + 1))
    times = [(f - start) / rate for f in frames]
    poses = animkit_pose(args, anim["name"], times)
    rest = {j["name"]: j for j in animkit_pose(args, None, rest=True)[0]["joints"]}
    scene.frame_set(start)
    rest_blender = {b.name: (arm.matrix_world @ b.bone.matrix_local).to_quaternion() for b in bones}
    worst_p = worst_q = 0.0
    compared = 0
    for f, pose in zip(frames, poses):
        scene.frame_set(f)
        for j in pose["joints"]:
            b = bones.get(j["name"])
            if b is None:
                sys.exit(f"blender_check: no bone for joint {j['name']!r}")
            head = TO_GLTF @ (arm.matrix_world @ b.head)
            dp = max(abs(head[i] - j["position"][i]) for i in range(3))
            # Rotation relative to rest, in glTF's model space, on both sides.
            qb = (arm.matrix_world @ b.matrix).to_quaternion()
            delta_b = (TO_GLTF.to_quaternion() @ (qb @ rest_blender[b.name].inverted())
                       @ TO_BLENDER.to_quaternion())
            x, y, z, w = j["rotation"]
            rx, ry, rz, rw = rest[j["name"]]["rotation"]
            delta_a = Quaternion((w, x, y, z)) @ Quaternion((rw, rx, ry, rz)).inverted()
            dq = min(max(abs(a - b) for a, b in zip(delta_a, delta_b)),
                     max(abs(a + b) for a, b in zip(delta_a, delta_b)))
            worst_p, worst_q = max(worst_p, dp), max(worst_q, dq)
            compared += 1
    ok = worst_p <= args.tolerance and worst_q <= args.tolerance
    print(f"compared {compared} joint poses ({len(pose['joints'])} joints x {len(frames)} frames) "
          f"with animkit: largest difference position {worst_p:.2e}, rotation {worst_q:.2e} "
          f"(tolerance {args.tolerance:g}): {'PASS' if ok else 'FAIL'}")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    try:
        main()
    except SystemExit as e:
        if e.code not in (None, 0):
            print(e.code if isinstance(e.code, str) else "FAIL", file=sys.stderr)
            sys.stdout.flush()
            import os
            os._exit(1 if not isinstance(e.code, int) else e.code)
        raise
