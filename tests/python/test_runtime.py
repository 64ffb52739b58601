"""animkit.RuntimeClip and animkit.blend (issue 34, item 7): the core's runtime clip and SIMD
jobs over NumPy arrays, a batch of times per call. The exact clip must give local_pose's bits;
the compact one local_pose's values within the core's bounds; blend the core's blending rule
(weighted mean, rotations summed on the first layer's hemisphere, normalised)."""

import numpy as np
import pytest

import animkit

TIMES = [0.0, 0.3, 0.1, 1.0, 0.99, -1.0, 5.0, 0.5, 0.25]  # forward, back, past both ends


@pytest.mark.parametrize("clip", ["wave", "bend"])  # slerp (fallbacks) and Hermite tracks
def test_exact_clip_is_local_pose(demo_dir, clip):
    a = animkit.open(demo_dir / "core.json").animated()
    rc = animkit.RuntimeClip(a, clip, exact=True)
    assert rc.exact and rc.name == clip and rc.num_joints == 5 and rc.size_bytes > 0
    got, want = rc.sample(np.array(TIMES, np.float32)), a.local_pose(clip, TIMES)
    assert got["clip"] == clip
    for key in ("translations", "rotations", "scales"):
        assert got[key].shape == want[key].shape
        np.testing.assert_array_equal(got[key], want[key])


def test_exact_clip_on_a_monster(demo_dir):
    a = animkit.open(demo_dir / "mh-model.pac").animated()
    times = np.random.default_rng(3).uniform(-0.2, 2.0, 64).astype(np.float32)
    for clip in range(len(a.clips)):
        got = animkit.RuntimeClip(a, clip, exact=True).sample(times)
        want = a.local_pose(clip, times.tolist())
        for key in ("translations", "rotations", "scales"):
            np.testing.assert_array_equal(got[key], want[key])


def test_compact_clip_within_the_bounds(demo_dir):
    a = animkit.open(demo_dir / "mh-model.pac").animated()
    rc = animkit.RuntimeClip(a, 1)
    assert not rc.exact
    times = np.linspace(0, rc.duration, 40, dtype=np.float32)
    got, want = rc.sample(times), a.local_pose(1, times.tolist())
    np.testing.assert_allclose(got["translations"], want["translations"], atol=1e-4)
    # Rotations up to sign (the compact clip flips keys onto one hemisphere).
    dots = np.abs(np.sum(got["rotations"] * want["rotations"], axis=-1))
    np.testing.assert_allclose(dots, 1, atol=1e-4)


def test_rest_pose(demo_dir):
    a = animkit.open(demo_dir / "core.json").animated()
    got = animkit.RuntimeClip(a).sample(0.5)
    np.testing.assert_array_equal(got["translations"][0], a.skeleton.rest_translations)
    np.testing.assert_array_equal(got["rotations"][0], a.skeleton.rest_rotations)


def _blend_reference(poses, weights):
    """The core's rule in NumPy: weighted sums, each rotation flipped onto the hemisphere of the
    sum so far, then divided by the total (translations, scales) or normalised (rotations)."""
    total = sum(weights)
    t = sum(w * p["translations"] for p, w in zip(poses, weights)) / total
    s = sum(w * p["scales"] for p, w in zip(poses, weights)) / total
    q = np.zeros_like(poses[0]["rotations"])
    for p, w in zip(poses, weights):
        sign = np.where(np.sum(q * p["rotations"], axis=-1, keepdims=True) < 0, -1.0, 1.0)
        q = q + p["rotations"] * (w * sign)
    return t, q / np.linalg.norm(q, axis=-1, keepdims=True), s


def test_blend_two_clips(demo_dir):
    a = animkit.open(demo_dir / "core.json").animated()
    wave, bend = (animkit.RuntimeClip(a, c, exact=True) for c in ("wave", "bend"))
    times = np.linspace(0, 1, 11, dtype=np.float32)
    got = animkit.blend([wave, bend], [0.25, 0.75], times)
    t, q, s = _blend_reference([a.local_pose(c, times.tolist()) for c in ("wave", "bend")],
                               [0.25, 0.75])
    np.testing.assert_allclose(got["translations"], t, atol=1e-6)
    np.testing.assert_allclose(got["rotations"], q, atol=1e-6)
    np.testing.assert_allclose(got["scales"], s, atol=1e-6)
    # Weights per time: (clips, times); the first time all wave, the rest all bend.
    w = np.zeros((2, len(times)), np.float32)
    w[0, 0], w[1, 1:] = 1, 1
    got = animkit.blend([wave, bend], w, times)
    np.testing.assert_allclose(got["translations"][0], wave.sample(0.0)["translations"][0], atol=1e-6)
    np.testing.assert_allclose(got["translations"][1:], bend.sample(times[1:])["translations"],
                               atol=1e-6)


def test_blend_in_model_space_is_pose(demo_dir):
    a = animkit.open(demo_dir / "mh-model.pac").animated()
    times = np.linspace(0, 1, 9, dtype=np.float32)
    got = animkit.blend([animkit.RuntimeClip(a, 2, exact=True)], [1.0], times, model_space=True)
    want = a.pose(2, times.tolist())
    scale = np.abs(want["positions"]).max()
    np.testing.assert_allclose(got["positions"], want["positions"], atol=1e-5 * scale)
    dots = np.abs(np.sum(got["rotations"] * want["rotations"], axis=-1))
    np.testing.assert_allclose(dots, 1, atol=1e-5)


def test_blend_refuses_bad_arguments(demo_dir):
    a = animkit.open(demo_dir / "core.json").animated()
    b = animkit.open(demo_dir / "core.json").animated()
    wave = animkit.RuntimeClip(a, "wave")
    with pytest.raises(ValueError):
        animkit.blend([], [], 0.0)
    with pytest.raises(ValueError):
        animkit.blend([wave], [0.5, 0.5], 0.0)
    with pytest.raises(ValueError):
        animkit.blend([wave, animkit.RuntimeClip(b, "wave")], [0.5, 0.5], 0.0)
    with pytest.raises(ValueError):
        wave.sample(np.zeros((2, 2), np.float32))
