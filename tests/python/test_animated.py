"""Document.animated(): the skeleton and clips with keys as NumPy arrays viewing the library's
storage (no copies), their poses against `animkit pose`, and export against `animkit export`
(issue 18, item 1)."""

import gc
import json

import numpy as np
import pytest

import animkit


def test_core_arm_as_numpy(demo_dir):
    a = animkit.open(demo_dir / "core.json").animated()
    sk = a.skeleton
    # core/synthetic.h: root, shoulder, elbow, wrist, tip; two 1 s clips at 30 keys a second.
    assert sk.names == ["root", "shoulder", "elbow", "wrist", "tip"]
    assert len(sk) == 5
    assert sk.parents.dtype == np.int16 and sk.parents[0] == -1
    assert all(sk.parents[j] < j for j in range(1, 5))
    assert sk.rest_translations.shape == (5, 3) and sk.rest_rotations.shape == (5, 4)
    assert sk.rest_scales.shape == (5, 3)
    assert [c.name for c in a.clips] == ["wave", "bend"]
    wave = a.clip("wave")
    assert wave.duration == pytest.approx(1.0) and len(wave.joints) == 5
    assert [e["name"] for e in wave.events] and wave.events[0]["time"] == pytest.approx(0.5)
    rot = next(j.rotation for j in wave.joints if len(j.rotation))
    assert rot.interpolation == "slerp"
    assert rot.times.dtype == np.float32 and rot.values.shape == (len(rot), 4)
    assert np.all(np.diff(rot.times) > 0)
    np.testing.assert_allclose(np.linalg.norm(rot.values, axis=1), 1, atol=1e-5)
    bend = a.clip("bend")
    hermite = [j.translation for j in bend.joints if j.translation.interpolation == "hermite"
               and len(j.translation)]
    assert hermite and hermite[0].in_slopes.shape == hermite[0].values.shape


def test_keys_are_views_of_the_document(demo_dir):
    a = animkit.open(demo_dir / "core.json").animated()
    track = next(j.rotation for j in a.clips[0].joints if len(j.rotation))
    v1, v2 = track.values, track.values
    assert not v1.flags.owndata and np.shares_memory(v1, v2)
    assert np.shares_memory(a.skeleton.rest_translations, a.skeleton.rest_rotations) is False
    # Writing through the view changes the model (then its pose).
    v1[0] = [0, 0, 0, 1]
    np.testing.assert_array_equal(track.values[0], [0, 0, 0, 1])


def test_arrays_outlive_their_document(demo_dir):
    doc = animkit.open(demo_dir / "warriors-character.res")
    times = doc.animated().clips[0].joints[0].rotation.times
    rest = doc.animated().skeleton.rest_translations
    expect_times, expect_rest = times.copy(), rest.copy()
    del doc
    gc.collect()
    np.testing.assert_array_equal(times, expect_times)
    np.testing.assert_array_equal(rest, expect_rest)


def test_warriors_character_clips(demo_dir, cli):
    doc = animkit.open(demo_dir / "warriors-character.res")
    a = doc.animated()
    info = cli("info", "--json", demo_dir / "warriors-character.res")
    # The Warriors' 34-bone pose (warriors.txt); the clips the character resource holds.
    assert len(a.skeleton) == 34
    assert [c.name for c in a.clips] == [c["name"] for c in info["clip_list"]]
    for c, i in zip(a.clips, info["clip_list"]):
        assert c.duration == pytest.approx(i["duration"])
    assert a.notes == doc.animated().notes


def test_no_animation_is_none(tmp_path):
    atr = tmp_path / "t.atr"
    atr.write_text("main\n{\n    idle\n    walk\n}\n")
    doc = animkit.open(atr)
    assert doc.engine == "call_of_duty"
    assert doc.animated() is None
    with pytest.raises(animkit.Error, match="no skeleton or animation"):
        doc.export(tmp_path / "t.glb")


@pytest.mark.parametrize("clip", ["wave", "bend"])
def test_pose_matches_animkit_pose(demo_dir, cli, clip):
    path = demo_dir / "core.json"
    a = animkit.open(path).animated()
    times = [0, 0.25, 0.5, 0.99, 1.0]
    got = a.pose(clip, times)
    args = ["pose", path, "--clip", clip, "--json"]
    for t in times:
        args += ["-t", t]
    want = cli(*args)
    assert got["clip"] == want["clip"] == clip
    assert got["positions"].shape == (len(times), 5, 3)
    for i, p in enumerate(want["poses"]):
        np.testing.assert_array_equal(got["positions"][i],
                                      np.array([j["position"] for j in p["joints"]], np.float32))
        np.testing.assert_array_equal(got["rotations"][i],
                                      np.array([j["rotation"] for j in p["joints"]], np.float32))


def test_rest_pose_and_local_pose(demo_dir):
    a = animkit.open(demo_dir / "core.json").animated()
    local = a.local_pose(None, 0.0)
    np.testing.assert_array_equal(local["translations"][0], a.skeleton.rest_translations)
    np.testing.assert_array_equal(local["rotations"][0], a.skeleton.rest_rotations)
    with pytest.raises(KeyError):
        a.pose("no such clip")
    with pytest.raises(IndexError):
        a.pose(7)
    assert a.pose(-1)["clip"] == "bend"
    assert a.pose(a.clips[0])["clip"] == "wave"


def test_json_round_trip(demo_dir):
    model = json.loads((demo_dir / "core.json").read_text())
    a = animkit.Animated.from_json(model)
    assert a.to_json() == model
    with pytest.raises(animkit.Error):
        animkit.Animated.from_json({"animkit": "neutral", "skeleton": 3})


@pytest.mark.parametrize("name", ["core.json", "warriors-character.res", "shadow_of_war.anix"])
def test_export_matches_animkit_export(demo_dir, cli, tmp_path, name):
    ours, theirs = tmp_path / "ours.glb", tmp_path / "theirs.glb"
    animkit.open(demo_dir / name).export(ours)
    r = cli.run("export", demo_dir / name, "-o", theirs)
    assert r.returncode == 0, r.stderr
    assert ours.read_bytes() == theirs.read_bytes()


def test_export_of_several_files(demo_dir, cli, tmp_path):
    files = [demo_dir / "warriors-character.res", demo_dir / "warriors-idle.anm"]
    report = animkit.export(files, tmp_path / "ours.gltf")
    want = cli("export", *files, "-o", tmp_path / "theirs.gltf", "--json")
    want["output"] = str(tmp_path / "ours.gltf")
    assert report == want
    assert (tmp_path / "ours.gltf").read_bytes() == (tmp_path / "theirs.gltf").read_bytes()
    merged = animkit.merge(files)
    assert len(merged.clips) == report["clips"]


def test_gltf_back_into_a_format(demo_dir, cli, tmp_path):
    # `animkit import` (issue 17): glTF -> the neutral model -> a format's writer.
    glb = tmp_path / "arm.glb"
    animkit.open(demo_dir / "core.json").export(glb)
    back = animkit.read_gltf(glb)
    assert [c.name for c in back.clips] == ["wave", "bend"]
    assert back.skeleton.names == ["root", "shoulder", "elbow", "wrist", "tip"]
    assert [c.name for c in animkit.read_gltf(glb, clip="bend").clips] == ["bend"]
    ours, theirs = tmp_path / "ours.json", tmp_path / "theirs.json"
    report = animkit.import_gltf(glb, "neutral-json", ours)
    want = cli("import", glb, "--as", "neutral-json", "-o", theirs, "--json")
    want["output"] = str(ours)
    want["input"] = str(glb)
    assert report == want
    assert ours.read_bytes() == theirs.read_bytes()
    # An Animated goes straight to the writer, without a glTF file.
    direct = animkit.import_gltf(back, "neutral-json", tmp_path / "direct.json")
    assert direct["input"] is None and (tmp_path / "direct.json").read_bytes() == ours.read_bytes()
    with pytest.raises(ValueError, match="unknown format"):
        animkit.import_gltf(glb, "no-such-format", tmp_path / "x")
    with pytest.raises(animkit.Error):
        animkit.read_gltf(demo_dir / "core.json")


def test_export_of_a_model_carries_its_mesh(demo_dir, cli, tmp_path):
    """The Monster Hunter model PAC: the skinned, textured mesh rides along, as in the CLI's
    export (issue 27); the report says how many meshes."""
    pac = demo_dir / "mh-model.pac"
    report = animkit.export([pac], tmp_path / "ours.gltf")
    want = cli("export", pac, "-o", tmp_path / "theirs.gltf", "--json")
    want["output"] = str(tmp_path / "ours.gltf")
    assert report == want and report["meshes"] > 0
    assert (tmp_path / "ours.gltf").read_bytes() == (tmp_path / "theirs.gltf").read_bytes()
    animkit.open(pac).export(tmp_path / "doc.glb")
    assert cli.run("export", pac, "-o", tmp_path / "cli.glb").returncode == 0
    assert (tmp_path / "doc.glb").read_bytes() == (tmp_path / "cli.glb").read_bytes()
