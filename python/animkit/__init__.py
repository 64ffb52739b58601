"""animkit: the character animation of five game engines, read, written and played exactly
as each engine does it (The Warriors, Monster Hunter FU / P3rd, Call of Duty UO animtrees,
Asheron's Call, Shadow of War).

    import animkit
    doc = animkit.open("walk.anm")            # format detected; engine options as keywords
    doc.format, doc.info(), doc.dump()        # dump(): the dict `animkit dump --json` prints
    doc.validate()                            # the engine's rules: a list of findings
    a = doc.animated()                        # skeleton + clips, keys as NumPy arrays
    a.clips[0].joints[3].rotation.values      # (keys, 4) float32, x y z w
    doc.export("walk.glb")                    # glTF 2.0
    rc = animkit.RuntimeClip(a, "walk")       # compiled once: the SIMD sampler
    rc.sample(times)["rotations"]             # (len(times), joints, 4) per call
    animkit.blend([rc, rc2], [0.7, 0.3], times, model_space=True)
    for update in animkit.warriors.play("warriors-scenario.json"):
        print(update)                         # one trace dict per update

Invalid input raises animkit.Error (file, offset, message). The C++ library does the work
(animkit._animkit); long calls release the GIL.
"""

from ._animkit import (  # noqa: F401
    Animated,
    Clip,
    Document,
    Error,
    JointTracks,
    QuatTrack,
    RuntimeClip,
    Skeleton,
    Vec3Track,
    blend,
    demo,
    engines,
    export,
    formats,
    import_gltf,
    merge,
    open,
    read_gltf,
)
from ._play import Trace, play  # noqa: F401
from . import (  # noqa: F401
    asherons_call,
    call_of_duty,
    monster_hunter,
    shadow_of_war,
    warriors,
)

__all__ = [
    "Animated", "Clip", "Document", "Error", "JointTracks", "QuatTrack", "RuntimeClip", "Skeleton",
    "Trace", "Vec3Track", "blend", "demo", "engines", "export", "formats", "import_gltf", "merge", "open",
    "play", "read_gltf",
    "asherons_call", "call_of_duty", "monster_hunter", "shadow_of_war", "warriors",
]
