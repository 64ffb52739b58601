"""animkit.open and Document: the same answers as the CLI's info / dump / validate --json, for
every engine's demo file (issue 18, item 1)."""

import pytest

import animkit

# Each engine's files as the demo writes them, with the format the registry must detect.
DEMO_FILES = [
    ("core.json", "neutral-json", "core"),
    ("warriors-walk.anm", "warriors-anm", "warriors"),
    ("warriors-character.res", "warriors-character", "warriors"),
    ("warriors-pack.pak", "warriors-pack", "warriors"),
    ("mh-skeleton.bin", "mh-skeleton", "monster_hunter"),
    ("mh-pack.bin", "mh-pack", "monster_hunter"),
    ("asherons_call/0x09000101.bin", None, "asherons_call"),
    ("asherons_call/table.json", None, "asherons_call"),
    ("shadow_of_war.anix", "sow-anix", "shadow_of_war"),
]


def test_formats_lists_every_registered_format(cli):
    names = [f["name"] for f in animkit.formats()]
    assert names == [f["name"] for f in cli("info", "--formats", "--json")]
    engines = {f["engine"] for f in animkit.formats()}
    assert engines == {"core", "warriors", "monster_hunter", "call_of_duty", "asherons_call",
                       "shadow_of_war"}
    for f in animkit.formats():
        assert set(f) == {"name", "engine", "description", "extensions"}


def test_engines_name_their_options_as_keywords():
    by_name = {e["name"]: e for e in animkit.engines()}
    assert by_name["warriors"]["player"] and by_name["call_of_duty"]["player"]  # issue 26
    keywords = {o["keyword"] for o in by_name["asherons_call"]["options"]}
    assert "motion_table" in keywords


@pytest.mark.parametrize("name,format,engine", DEMO_FILES)
def test_open_matches_info_and_dump(demo_dir, cli, name, format, engine):
    path = demo_dir / name
    doc = animkit.open(path)
    assert doc.engine == engine
    if format:
        assert doc.format == format
    assert doc.path == str(path)
    assert doc.info() == cli("info", "--json", path)
    assert doc.dump() == cli("dump", "--json", path)


@pytest.mark.parametrize("name,format,engine", DEMO_FILES)
def test_validate_matches_the_cli(demo_dir, cli, name, format, engine):
    path = demo_dir / name
    doc = animkit.open(path)
    expected = cli("validate", "--json", path)["findings"]
    got = doc.validate()
    for f in expected:
        f["file"] = str(path)
    assert got == expected
    assert isinstance(doc.validate_summary(), str)


def test_engine_options_reach_the_engine(demo_dir, cli):
    skeleton, pack = demo_dir / "mh-skeleton.bin", demo_dir / "mh-pack.bin"
    doc = animkit.open(pack, skeleton=skeleton, game="mhfu")
    assert doc.info() == cli("info", "--json", pack, "--skeleton", skeleton, "--game", "mhfu")
    # A set named by options alone (the CLI's open_set: `animkit info --skeleton S --pack P`).
    s = animkit.open(skeleton=skeleton, pack=pack)
    assert s.path is None and s.engine == "monster_hunter"
    assert s.info() == cli("info", "--json", "--skeleton", skeleton, "--pack", pack)
    # motion_table= reaches the option the engine names "motion-table".
    table = demo_dir / "asherons_call" / "0x09000101.bin"
    ac = animkit.open(motion_table=table, animations=demo_dir / "asherons_call" / "animations")
    assert ac.engine == "asherons_call"
    assert ac.animated() is not None


def test_forced_format(demo_dir):
    with pytest.raises(animkit.Error, match="unknown format 'nope'"):
        animkit.open(demo_dir / "warriors-walk.anm", format="nope")
    assert animkit.open(demo_dir / "warriors-walk.anm", format="warriors-anm").format == "warriors-anm"


def test_open_needs_a_file_or_a_set():
    with pytest.raises(ValueError):
        animkit.open()


def test_option_values_become_the_cli_text(cli, tmp_path):
    # A list is joined with commas, True is 1, a path goes through os.fspath.
    atr = tmp_path / "human.atr"
    atr.write_text("main\n{\n    idle\n    walk\n    legs\n    {\n        run\n    }\n}\n")
    doc = animkit.open(atr, cod_refs=["idle", "run"], cod_anim_check=False)
    assert doc.dump() == cli("dump", "--json", atr, "--cod-refs", "idle,run", "--cod-anim-check", "0")
    doc = animkit.open(str(atr), cod_anim_check=True)
    assert doc.dump() == cli("dump", "--json", atr, "--cod-anim-check", "1")
    assert doc.validate() == [dict(f, file=str(atr)) for f in
                              cli("validate", "--json", atr, "--cod-anim-check", "1")["findings"]]
