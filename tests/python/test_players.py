"""The players as iterators of trace dicts: the same lines as `animkit play --json`, per engine
(issue 18, item 1), and the engines' own functions."""

import json

import numpy as np
import pytest

import animkit


@pytest.mark.parametrize("scenario,player", [
    ("warriors-scenario.json", animkit.warriors.play),
    ("mh-scenario.json", animkit.monster_hunter.play),
])
def test_demo_scenarios_match_the_cli(demo_dir, cli, scenario, player):
    path = demo_dir / scenario
    trace = player(path)
    assert trace.exit_code == 0
    updates = list(trace)
    assert updates == cli.lines("play", path, "--json")
    assert all(isinstance(u, dict) for u in updates)
    # The generic player picks the engine from the scenario.
    assert list(animkit.play(path)) == updates


def test_warriors_scenario_length(demo_dir):
    # warriors-scenario.json: "updates": 90, one trace line an update.
    s = json.loads((demo_dir / "warriors-scenario.json").read_text())
    assert len(list(animkit.warriors.play(demo_dir / "warriors-scenario.json"))) == s["updates"]


def test_scenario_as_a_dict(demo_dir):
    path = demo_dir / "warriors-scenario.json"
    s = json.loads(path.read_text())
    by_path = list(animkit.warriors.play(path))
    del s["engine"]  # animkit.warriors.play supplies it
    assert list(animkit.warriors.play(s, base=demo_dir)) == by_path


def test_asherons_call_scenario(demo_dir, cli, tmp_path):
    scenario = {
        "engine": "asherons_call",
        "motion_table": str(demo_dir / "asherons_call" / "0x09000101.bin"),
        "animations": str(demo_dir / "asherons_call" / "animations"),
        "ticks": [{"dt": 1 / 30, "do": [{"motion": "WalkForward"}]}, {"dt": 1 / 30, "repeat": 8},
                  {"dt": 1 / 30, "do": [{"stop": "WalkForward"}]}, {"dt": 1 / 30, "repeat": 4}],
    }
    path = tmp_path / "ac.json"
    path.write_text(json.dumps(scenario))
    got = list(animkit.asherons_call.play(scenario))
    assert got == cli.lines("play", path, "--json")
    assert [u["tick"] for u in got] == list(range(len(got)))


def test_shadow_of_war_scenario(cli, tmp_path):
    scenario = {
        "engine": "shadow_of_war", "joints": 4, "frames": 12,
        "files": [{"path": "orc/loco.anix",
                   "clips": [{"name": "idle", "duration": 2}, {"name": "run", "duration": 0.8}]}],
        "graph": {"start": "Idle",
                  "states": [{"name": "Idle", "clip": "idle", "Links": ["go"]},
                             {"name": "Run", "clip": "run"}],
                  "transitions": [{"name": "go", "target": "Run",
                                   "predicate": {"value": "speed", "op": ">", "than": 0.5}}]},
        "characters": [{"name": "orc", "values": {"speed": 0}}],
        "script": [{"frame": 5, "character": "orc", "values": {"speed": 3}}],
    }
    path = tmp_path / "sow.json"
    path.write_text(json.dumps(scenario))
    got = list(animkit.shadow_of_war.play(scenario, threads=1))
    assert got == cli.lines("play", path, "--json", "--threads", 1)
    assert len(got) == 12
    assert got[0]["characters"][0]["state"] == "Idle"
    assert got[-1]["characters"][0]["state"] == "Run"


def test_keyword_hash():
    h = animkit.shadow_of_war.keyword_hash
    # shadow-of-war.txt, "Clip keywords": seed the upper-cased first byte, then h * 31 + c.
    assert h("") == 0
    assert h("a") == ord("A")
    assert h("ab") == ord("A") * 31 + ord("B")
    assert h("ragdoll") == h("RAGDOLL")
    expect = 0
    for i, c in enumerate("RAGDOLL"):
        expect = ord(c) if i == 0 else (expect * 31 + ord(c)) & 0xFFFFFFFF
    assert h("Ragdoll") == expect
    tables = animkit.shadow_of_war.keywords()
    assert len(tables["ragdoll"]) == 14 and len(tables["sync_action"]) == 7
    assert tables["ragdoll"]["RAGDOLL"] == expect


def test_cod_load_tree(cli, tmp_path):
    atr = tmp_path / "demo_human.atr"
    atr.write_text("main\n{\n    stand_idle\n    aim : complete nonloopsync\n    {\n"
                   "        aim_left\n        aim_right\n    }\n    legs\n    {\n"
                   "        walk_loop\n    }\n}\n")
    got = animkit.call_of_duty.load_tree(atr, refs=["%stand_idle", "walk_loop"])
    assert got == cli("cod", "tree", atr, "--refs", "stand_idle,walk_loop", "--json")
    with_dot = animkit.call_of_duty.load_tree(atr, dot=True)
    assert with_dot["dot"].startswith("digraph")
    broken = tmp_path / "broken.atr"
    broken.write_text("main\n{\n    a\n")
    failed = animkit.call_of_duty.load_tree(broken)
    assert failed == cli("cod", "tree", broken, "--json")


def test_mh_sample(demo_dir, cli):
    skel, pack = demo_dir / "mh-skeleton.bin", demo_dir / "mh-pack.bin"
    got = animkit.monster_hunter.sample(skel, pack, frame=3.5, entry=1)
    want = cli("mh", "sample", "--skeleton", skel, "--pack", pack, "--entry", 1, "--frame", 3.5,
               "--json")
    for key in ("game", "entry", "plays", "entries", "parts", "frame"):
        assert got[key] == want[key], key
    for key in ("euler", "quaternion", "translation", "position", "rotation"):
        np.testing.assert_array_equal(got[key],
                                      np.array([j[key] for j in want["joints"]], np.float32))
    np.testing.assert_array_equal(got["parent"], [j["parent"] for j in want["joints"]])
    with pytest.raises(animkit.Error, match="name the entry"):
        animkit.monster_hunter.sample(skel, pack)


def test_demo_of_one_engine(tmp_path):
    report = animkit.demo(str(tmp_path), engine="warriors")
    assert report.startswith("warriors:")
    assert (tmp_path / "warriors-walk.anm").exists()
    with pytest.raises(animkit.Error):
        animkit.demo(str(tmp_path), engine="nope")
