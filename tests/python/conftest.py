"""Fixtures for the animkit Python tests: the demo's synthetic files (written by the engines'
own demo writers, built in code from the specs), and the CLI built in the same tree, whose
--json output the module must reproduce."""

import json
import os
import shutil
import subprocess

import pytest

import animkit


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    animkit.demo(str(out))
    return out


def _cli_path():
    path = os.environ.get("ANIMKIT_CLI") or shutil.which("animkit")
    if not path or not os.path.exists(path):
        pytest.skip("the animkit CLI is not built (set ANIMKIT_CLI)")
    return path


@pytest.fixture(scope="session")
def cli():
    """cli(*args) -> the parsed --json output of the animkit CLI; cli.run(*args) -> the run."""
    path = _cli_path()

    class Cli:
        def run(self, *args):
            return subprocess.run([path, *map(str, args)], capture_output=True, text=True)

        def __call__(self, *args):
            r = self.run(*args)
            assert r.returncode in (0, 1), r.stderr
            return json.loads(r.stdout)

        def lines(self, *args):
            r = self.run(*args)
            assert r.returncode == 0, r.stderr
            return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]

    return Cli()
