"""A user's script against the installed animkit, checked by `mypy --strict` (the package's
stubs and py.typed) and then run: writes the demo's files, opens one of each kind, exports glTF
and plays a scenario. Usage: typed_example.py OUT_DIR"""

import pathlib
import sys

import numpy as np

import animkit
from animkit import batch


def main(out: pathlib.Path) -> int:
    animkit.demo(str(out))
    names: list[str] = [f["name"] for f in animkit.formats()]
    assert "warriors-anm" in names, names
    doc: animkit.Document = animkit.open(out / "warriors-walk.anm")
    findings = doc.validate()
    summary: str = doc.validate_summary()
    model = doc.animated()
    assert model is not None
    rotations = model.clips[0].joints[0].rotation.values
    assert rotations.dtype == np.float32 and rotations.shape[1] == 4
    pose = model.pose(model.clips[0].name, [0.0, 0.5])
    compiled = animkit.RuntimeClip(model, 0, exact=True)  # the core's SIMD sampler and blender
    times = np.linspace(0.0, compiled.duration, 8, dtype=np.float32)
    sampled = compiled.sample(times)
    assert sampled["rotations"].shape == (8, compiled.num_joints, 4)
    blended = animkit.blend([compiled, compiled], [0.5, 0.5], times, model_space=True)
    assert blended["positions"].shape == (8, compiled.num_joints, 3)
    doc.export(out / "walk.glb")
    pack = animkit.open(out / "mh-pack.bin", skeleton=str(out / "mh-skeleton.bin"))
    updates = sum(1 for _ in animkit.warriors.play(out / "warriors-scenario.json"))
    key: int = animkit.shadow_of_war.keyword_hash("ragdoll")
    corpus: list[str] = batch.files_of([str(out)])  # what animkit.batch.run would send a cluster
    assert str(out / "warriors-walk.anm") in corpus and "survey" in batch.VERBS
    try:
        animkit.open(out / "missing.anm")
    except animkit.Error as e:
        message: str = e.message
    print(f"{doc.format}: {len(findings)} findings ({summary}), {len(model.skeleton)} joints, "
          f"pose {pose['positions'].shape}; {pack.format}; {updates} updates; hash {key:#x}; "
          f"error: {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
