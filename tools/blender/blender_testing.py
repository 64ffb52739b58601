"""What the headless Blender tests share (each a ctest test, see python/CMakeLists.txt): their
arguments after Blender's `--` with the animkit package put on the path, failures collected and
counted at the end rather than raised at the first, a scene emptied between engines, and the demo
dat's Setup as a file."""

import argparse
import os
import subprocess
import sys

import bpy

FAILURES = []


def parse_args(prog, add_options=None):
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    p = argparse.ArgumentParser(prog=prog)
    p.add_argument("--module", required=True, help="the folder holding the animkit package")
    p.add_argument("--demo", required=True, help="a folder to write the demo files into")
    if add_options:
        add_options(p)
    args = p.parse_args(argv)
    sys.path.insert(0, os.path.abspath(args.module))
    return args


def check(ok, what):
    if not ok:
        FAILURES.append(what)
        print("FAIL:", what)


def clear_scene():
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    for a in list(bpy.data.actions):
        bpy.data.actions.remove(a)
    for a in list(bpy.data.armatures):
        bpy.data.armatures.remove(a)
    for m in list(bpy.context.scene.timeline_markers):
        bpy.context.scene.timeline_markers.remove(m)


def setup_file(dat, module):
    """The demo dat's Setup 0x02000001 as a file (`animkit ac extract`), to decode an animation
    with its parts as the skeleton."""
    cli = os.environ.get("ANIMKIT_CLI") or os.path.join(
        os.path.dirname(os.path.abspath(module)), "tools", "animkit", "animkit")
    out = os.path.join(os.path.dirname(dat), "setup-0x02000001.bin")
    subprocess.run([cli, "ac", "extract", dat, "0x02000001", "-o", out], check=True,
                   stdout=subprocess.DEVNULL)
    return out
