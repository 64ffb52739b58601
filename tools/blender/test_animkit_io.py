"""Headless test of the animkit_io add-on (issue 18, item 2; run by `make test-blender`):

    blender --background --factory-startup --python-exit-code 1 \
        --python tools/blender/test_animkit_io.py -- --module build/release/python --demo DIR

For each engine's demo file (written by `animkit.demo(DIR)`): File > Import > Game animation
(animkit) with the engine's options; the bone count is the skeleton's; each clip's Action spans
the clip's duration; at every key of every clip, every bone's armature-space matrix matches the
joint's model-space position and rotation that `animkit pose` computes (Animated.pose, the same
SamplingJob + LocalToModelJob); the events are the Action's pose markers. Then File > Export
writes neutral JSON, animkit reads it back, and its poses at the same keys match the original.
Exits 1 on the first difference above the tolerance.
"""

import os
import sys
import tempfile

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # blender_testing, animkit_io
from blender_testing import FAILURES, check, clear_scene, parse_args  # noqa: E402

ARGS = parse_args(
    "test_animkit_io.py", lambda p: p.add_argument("--tolerance", type=float, default=1e-4))
import animkit  # noqa: E402
import numpy as np  # noqa: E402

import animkit_io  # noqa: E402


def key_times(clip):
    times = set()
    for jt in clip.joints:
        for track in (jt.translation, jt.rotation, jt.scale):
            times.update(float(t) for t in track.times)
    return sorted(times) or [0.0]


def blender_pose(obj, names, frame):
    scene = bpy.context.scene
    whole = int(np.floor(frame))
    scene.frame_set(whole, subframe=frame - whole)
    positions, rotations = [], []
    for name in names:
        m = obj.pose.bones[name].matrix
        t = m.to_translation()
        q = m.to_quaternion()
        positions.append((t.x, t.y, t.z))
        rotations.append((q.x, q.y, q.z, q.w))
    return np.array(positions), np.array(rotations)


def compare(label, want_pos, want_rot, got_pos, got_rot, scale):
    dp = np.abs(want_pos - got_pos).max() if len(want_pos) else 0.0
    # q and -q are the same rotation: the component difference to the nearer of the two.
    same = np.abs(want_rot - got_rot).max(axis=1) if len(want_rot) else np.zeros(1)
    flipped = np.abs(want_rot + got_rot).max(axis=1) if len(want_rot) else np.zeros(1)
    dr = float(np.max(np.minimum(same, flipped)))
    check(dp <= ARGS.tolerance * scale, f"{label}: position differs by {dp:g}")
    check(dr <= ARGS.tolerance, f"{label}: rotation differs by {dr:g}")
    return dp, dr


def run_case(name, path, bake=False, **options):
    clear_scene()
    doc = animkit.open(path, **options)
    want = doc.animated()
    opts = {"opt_" + k: str(v) for k, v in options.items()}
    result = bpy.ops.import_scene.animkit(filepath=str(path), bake=bake, **opts)
    check(result == {"FINISHED"}, f"{name}: import returned {result}")
    obj = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    bones = sorted(obj.data.bones, key=lambda b: b["animkit_index"])
    names = [b.name for b in bones]
    sk = want.skeleton
    check(len(bones) == len(sk), f"{name}: {len(bones)} bones, skeleton {len(sk)}")
    size = float(np.abs(sk.rest_translations).max()) if len(sk) else 1.0
    size = max(size, 1.0)
    fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
    worst_p = worst_r = 0.0
    keys = 0
    for clip in want.clips:
        action = bpy.data.actions.get(clip.name)
        check(action is not None, f"{name}: no Action '{clip.name}'")
        if action is None:
            continue
        obj.animation_data.action = action
        start, end = action.frame_range
        check(abs(start) < 1e-6 and abs(end - max(clip.duration * fps, 1e-3)) < 1e-3,
              f"{name}/{clip.name}: frame range {tuple(action.frame_range)}, "
              f"duration {clip.duration} s at {fps} fps")
        markers = sorted((m.frame, m.name) for m in action.pose_markers)
        check(markers == sorted((int(round(e["time"] * fps)), e["name"]) for e in clip.events),
              f"{name}/{clip.name}: markers {markers}")
        times = key_times(clip)
        if bake:  # every frame too: exact between the engine's keys
            frames = int(round(clip.duration * fps))
            times = sorted(set(times) | {k / fps for k in range(frames + 1)})
        pose = want.pose(clip, times)
        for i, t in enumerate(times):
            got_p, got_r = blender_pose(obj, names, t * fps)
            dp, dr = compare(f"{name}/{clip.name} t={t:g}", pose["positions"][i],
                             pose["rotations"][i], got_p, got_r, size)
            worst_p, worst_r = max(worst_p, dp), max(worst_r, dr)
            keys += 1

    # Export back (neutral JSON) and read it with animkit.
    bpy.context.view_layer.objects.active = obj
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, name + ".json")
        result = bpy.ops.export_scene.animkit(filepath=out)
        check(result == {"FINISHED"}, f"{name}: export returned {result}")
        back = animkit.open(out).animated()
        check(len(back.skeleton) == len(sk), f"{name}: exported {len(back.skeleton)} joints")
        check(sorted(c.name for c in back.clips) == sorted(c.name for c in want.clips),
              f"{name}: exported clips {[c.name for c in back.clips]}")
        for clip in want.clips:
            times = key_times(clip)
            a, b = want.pose(clip, times), back.pose(clip.name, times)
            for i, t in enumerate(times):
                compare(f"{name}/{clip.name} exported t={t:g}", a["positions"][i],
                        a["rotations"][i], b["positions"][i], b["rotations"][i], size)
            check(abs(back.clip(clip.name).duration - clip.duration) < 1e-6,
                  f"{name}/{clip.name}: exported duration")
            check([e["name"] for e in back.clip(clip.name).events] ==
                  [e["name"] for e in clip.events], f"{name}/{clip.name}: exported events")
        glb = os.path.join(tmp, name + ".glb")
        check(bpy.ops.export_scene.animkit(filepath=glb) == {"FINISHED"} and
              os.path.getsize(glb) > 0, f"{name}: glb export")
    print(f"{name}: {len(bones)} bones, {len(want.clips)} clips, {keys} keys checked; "
          f"worst position {worst_p:.2e}, rotation component {worst_r:.2e}")


def run_model(name, path):
    """A model PAC's skinned meshes come in bound to the add-on's armature (issues 27, 32): every
    mesh object is parented to it with an Armature modifier on it, its vertex groups are bones,
    and posed at a clip's frame, a vertex weighted to one bone moves as that bone does (Blender's
    skinning through the add-on's rest and pose matrices)."""
    clear_scene()
    result = bpy.ops.import_scene.animkit(filepath=str(path))
    check(result == {"FINISHED"}, f"{name}: import returned {result}")
    obj = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    check(sum(o.type == "ARMATURE" for o in bpy.data.objects) == 1, f"{name}: one armature")
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    check(len(meshes) > 0, f"{name}: no mesh imported")
    bind = {}
    for m in meshes:
        check(m.parent == obj, f"{name}/{m.name}: not parented to the armature")
        check(any(mod.type == "ARMATURE" and mod.object == obj for mod in m.modifiers),
              f"{name}/{m.name}: no Armature modifier on the armature")
        groups = {g.index: g.name for g in m.vertex_groups}
        check(set(groups.values()) <= set(obj.data.bones.keys()),
              f"{name}/{m.name}: vertex groups that are not bones")
        for v in m.data.vertices:
            full = [g for g in v.groups if g.weight > 0.999]
            if full and len(bind) < 200:
                bind[(m.name, v.index)] = (groups[full[0].group], m.matrix_world @ v.co)
    check(len(bind) > 0, f"{name}: no vertex bound to one bone")
    clip = bpy.data.actions[0]
    obj.animation_data.action = clip
    bpy.context.scene.frame_set(int(clip.frame_range[1] // 2))
    depsgraph = bpy.context.evaluated_depsgraph_get()
    worst = 0.0
    for (mesh_name, index), (bone, rest_world) in bind.items():
        m = bpy.data.objects[mesh_name]
        evaluated = m.evaluated_get(depsgraph).to_mesh()
        got = m.matrix_world @ evaluated.vertices[index].co
        m.evaluated_get(depsgraph).to_mesh_clear()
        b = obj.pose.bones[bone]
        want = (obj.matrix_world @ b.matrix @ b.bone.matrix_local.inverted() @
                obj.matrix_world.inverted() @ rest_world)
        worst = max(worst, (got - want).length)
    size = max(1.0, max(v.length for _, v in bind.values()))
    check(worst <= 1e-4 * size, f"{name}: skinned vertices off by {worst:g}")
    print(f"{name}: {len(meshes)} mesh objects bound to {len(obj.data.bones)} bones; "
          f"{len(bind)} single-bone vertices follow their bone within {worst:.2e}")


def main():
    animkit_io.register()
    demo = os.path.abspath(ARGS.demo)
    animkit.demo(demo)
    ac = os.path.join(demo, "asherons_call")
    run_case("core", os.path.join(demo, "core.json"))
    run_case("core-baked", os.path.join(demo, "core.json"), bake=True)
    # A file without animation (a CoD tree) is refused with animkit's reason.
    atr = os.path.join(demo, "tree.atr")
    with open(atr, "w") as f:
        f.write("main\n{\n    idle\n}\n")
    try:
        result = bpy.ops.import_scene.animkit(filepath=atr)
    except RuntimeError as e:  # an operator's ERROR report, in background mode
        result = str(e)
    check("holds no skeleton or animation" in str(result), f"tree.atr: {result}")
    run_case("warriors", os.path.join(demo, "warriors-character.res"))
    run_case("monster_hunter", os.path.join(demo, "mh-pack.bin"),
             skeleton=os.path.join(demo, "mh-skeleton.bin"))
    run_case("asherons_call", os.path.join(ac, "0x09000101.bin"),
             animations=os.path.join(ac, "animations"), parts=os.path.join(ac, "parts.json"))
    run_case("shadow_of_war", os.path.join(demo, "shadow_of_war.anix"))
    run_model("monster_hunter_model", os.path.join(demo, "mh-model.pac"))
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        sys.exit(1)
    print("animkit_io: every engine imported, checked and exported")


main()
