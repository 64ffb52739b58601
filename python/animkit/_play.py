"""The players as iterators of trace dicts (what `animkit play --json` prints, a dict a line)."""

import json
import os

from . import _animkit


class Trace:
    """The trace of one scenario run: iterate for one dict per update (or per trace line).

    The engine runs the whole scenario when the Trace is made (the library has no step API
    through its registry); the lines are parsed as they are iterated. `exit_code` is what
    `animkit play` would exit with (0: the scenario ran; 1: a check it makes failed), `lines`
    the JSON Lines text.
    """

    def __init__(self, exit_code, text):
        self.exit_code = exit_code
        self.text = text
        self._lines = iter(text.splitlines())

    def __iter__(self):
        return self

    def __next__(self):
        for line in self._lines:
            if line.strip():
                return json.loads(line)
        raise StopIteration

    @property
    def lines(self):
        return self.text.splitlines()

    def __repr__(self):
        return f"<animkit.Trace {len(self.lines)} lines, exit code {self.exit_code}>"


def play(scenario, base=None, threads=0, engine=""):
    """Runs a scenario with its engine's player and returns a Trace (an iterator of dicts).

    `scenario` is a path to a SCENARIO.json (its folder is where the files it names are
    found), or a dict (files it names are found under `base`, default the current folder).
    The dict's "engine" picks the player; `engine` supplies or checks it. `threads` is the
    worker count of engines that use them (0: the engine's default). Raises animkit.Error on
    an invalid scenario.
    """
    if isinstance(scenario, (str, bytes, os.PathLike)):
        path = os.fspath(scenario)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="surrogateescape")
        folder = os.path.dirname(path) if base is None else os.fspath(base)
        code, out = _animkit._play(text, folder, threads, path, engine)
    else:
        text = json.dumps(scenario)
        folder = os.getcwd() if base is None else os.fspath(base)
        code, out = _animkit._play(text, folder, threads, "", engine)
    return Trace(code, out)


def engine_player(name):
    """play() bound to one engine (animkit.warriors.play, ...)."""

    def engine_play(scenario, base=None, threads=0):
        return play(scenario, base=base, threads=threads, engine=name)

    engine_play.__name__ = "play"
    engine_play.__qualname__ = "play"
    engine_play.__doc__ = (
        f"Runs a {name} scenario (a path or a dict; see animkit.play) and returns a Trace, an\n"
        f"iterator of the trace dicts `animkit play --json` prints. A dict without \"engine\"\n"
        f"is taken as {name}'s; one naming another engine raises animkit.Error."
    )
    return engine_play
