"""animkit.Error: invalid input is a Python exception carrying file, offset and message, the
same text the CLI prints after `error: `; never a crash of the interpreter (issue 18)."""

import os

import pytest

import animkit


def test_error_is_an_exception_class():
    assert issubclass(animkit.Error, Exception)
    assert animkit.Error.__module__ == "animkit"


def test_truncated_file_names_file_and_offset(demo_dir, cli, tmp_path):
    good = (demo_dir / "warriors-walk.anm").read_bytes()
    bad = tmp_path / "cut.anm"
    bad.write_bytes(good[: len(good) // 2])
    with pytest.raises(animkit.Error) as caught:
        animkit.open(bad)
    e = caught.value
    assert e.file == str(bad)
    assert isinstance(e.message, str) and e.message
    r = cli.run("info", bad)
    assert r.returncode == 1
    assert r.stderr.strip() == "error: " + str(e)
    if e.offset is not None:
        assert isinstance(e.offset, int)
        assert f"offset 0x{e.offset:x}" in str(e)


def test_missing_file(tmp_path):
    missing = tmp_path / "none.anm"
    with pytest.raises(animkit.Error) as caught:
        animkit.open(missing)
    assert caught.value.file == str(missing)
    assert caught.value.offset is None
    assert caught.value.message == "cannot open the file"


def test_unknown_format(tmp_path):
    junk = tmp_path / "junk.xyz"
    junk.write_bytes(b"\x00" * 16)
    with pytest.raises(animkit.Error, match="not a format animkit recognises"):
        animkit.open(junk)


@pytest.mark.parametrize("name", ["warriors-character.res", "mh-pack.bin", "shadow_of_war.anix",
                                  "asherons_call/0x09000101.bin"])
def test_every_prefix_is_an_error_or_a_document(demo_dir, tmp_path, name):
    # Cut the file at many lengths: each is either opened or an animkit.Error, never a crash.
    data = (demo_dir / name).read_bytes()
    path = tmp_path / ("cut" + (demo_dir / name).suffix)
    for n in sorted({0, 1, 4, 8, 15, 16, 31, 64, len(data) // 3, len(data) // 2, len(data) - 1}):
        path.write_bytes(data[:n])
        try:
            doc = animkit.open(path, format=animkit.open(demo_dir / name).format)
            doc.info()
            doc.dump()
            doc.validate()
            doc.animated()
        except animkit.Error as e:
            assert e.file == str(path)


def test_play_errors_name_the_scenario(tmp_path):
    s = tmp_path / "s.json"
    s.write_text('{"engine": "warriors", "updates": ')
    with pytest.raises(animkit.Error) as caught:
        animkit.play(s)
    assert caught.value.file == str(s)
    assert caught.value.offset is not None
    with pytest.raises(animkit.Error, match="no player for engine 'nope'"):
        animkit.play({"engine": "nope"})
    with pytest.raises(animkit.Error, match="not 'warriors'"):
        animkit.warriors.play({"engine": "monster_hunter"})


def test_a_path_that_is_not_utf8(demo_dir, tmp_path):
    # The file system's bytes go through os.fsencode and come back as os.fsdecode gives them.
    data = (demo_dir / "warriors-walk.anm").read_bytes()
    path = bytes(tmp_path) + b"/\xff-walk.anm"
    with open(path, "wb") as f:
        f.write(data[:40])
    with pytest.raises(animkit.Error) as caught:
        animkit.open(path)
    assert caught.value.file == os.fsdecode(path)
    with open(path, "wb") as f:
        f.write(data)
    assert animkit.open(path).path == os.fsdecode(path)


def test_deep_gltf_extras_are_an_error_not_a_crash(tmp_path):
    # Issue 32, item 5: 20,000 nested '[' in extras overflowed tinygltf's recursive copy and
    # killed the interpreter; the depth is now held before tinygltf parses.
    deep = "[" * 20000 + "]" * 20000
    path = tmp_path / "deep.gltf"
    path.write_text('{"asset": {"version": "2.0"}, "nodes": [{"name": "a", "extras": {"x": ' + deep + "}}]}")
    with pytest.raises(animkit.Error, match="nested deeper than 512 levels"):
        animkit.read_gltf(path)
    with pytest.raises(animkit.Error, match="nested deeper than 512 levels"):
        animkit.import_gltf(path, "neutral-json", tmp_path / "out.json")


def _spin_glb(keys, channels):
    """A GLB whose `channels` chained joints all take their rotations from one pair of accessors
    (times i / 30 s, `keys` rotations about +Z): glTF 2.0 "Binary glTF Layout"."""
    import json
    import math
    import struct

    data = b"".join(struct.pack("<f", i / 30) for i in range(keys))
    data += b"".join(struct.pack("<4f", 0, 0, math.sin(0.01 * i), math.cos(0.01 * i)) for i in range(keys))
    doc = {
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0]}],
        "nodes": [dict({"name": f"j{j}"}, **({"children": [j + 1]} if j + 1 < channels else {}))
                  for j in range(channels)],
        "buffers": [{"byteLength": len(data)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": keys * 4},
                        {"buffer": 0, "byteOffset": keys * 4, "byteLength": keys * 16}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": keys, "type": "SCALAR",
                       "min": [0], "max": [(keys - 1) / 30]},
                      {"bufferView": 1, "componentType": 5126, "count": keys, "type": "VEC4"}],
        "animations": [{"name": "spin", "samplers": [{"input": 0, "output": 1}],
                        "channels": [{"sampler": 0, "target": {"node": j, "path": "rotation"}}
                                     for j in range(channels)]}],
    }
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    total = 12 + 8 + len(text) + 8 + len(data)
    return (struct.pack("<III", 0x46546C67, 2, total) + struct.pack("<II", len(text), 0x4E4F534A) + text
            + struct.pack("<II", len(data), 0x004E4942) + data)


def test_gltf_keys_are_bounded_by_max_memory_before_decoding(tmp_path):
    # Issue 32, item 5 (animkit/gltf/import_budget.h): 1,000 keys are 1,000 x (4 + 16) bytes as a
    # neutral track and (1,000 + 4,000) x 4 bytes of decode buffers; the second channel sharing
    # the accessors brings 20,000 + 40,000 past 50,000.
    path = tmp_path / "spin.glb"
    path.write_bytes(_spin_glb(1000, 3))
    message = ("animation 'spin' channel 1 (accessors 0 and 1, 1000 keys): decoding needs 60000 bytes "
               "(20000 for the keys read before it), over the memory limit of 50000 bytes (--max-memory)")
    with pytest.raises(animkit.Error) as caught:
        animkit.read_gltf(path, max_memory=50000)
    assert caught.value.message == message
    with pytest.raises(animkit.Error) as caught:
        animkit.import_gltf(path, "neutral-json", tmp_path / "out.json", max_memory=50000)
    assert caught.value.message == message
    assert not (tmp_path / "out.json").exists()
    assert len(animkit.read_gltf(path, max_memory=100000).clips) == 1  # 3 x 20,000 + 40,000
    with pytest.raises(ValueError):
        animkit.read_gltf(path, max_memory=0)
