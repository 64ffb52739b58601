"""animkit.batch: survey, validate, lint or export a corpus on a Dask distributed cluster
(issue 33, item 6).

    python3 -m animkit.batch survey CORPUS/ --local 4 > lines.jsonl
    python3 -m animkit.batch validate a.anm b.pak --scheduler tcp://head:8786
    python3 -m animkit.batch export CORPUS/ -o glb/ --local 2

    from animkit import batch
    for line in batch.run(["CORPUS/"], "survey", client=client):
        print(line)

The files are cut into chunks; each chunk is one task, and a task runs the animkit program on its
worker (the program must be installed there: ANIMKIT_CLI or `animkit` on the PATH), so a line is
exactly what that program prints. Lines stream out as chunks finish, in no set order:

- survey: the lines of `animkit survey --json --each`: {"file", "format"} and "error" when the
  file failed to open ("format" is "" for a file no format recognises).
- validate, lint, export: {"file", "verb", "exit", "result"} and "error": "result" is the JSON
  the verb printed (null when none), "error" its `error:` line. lint takes mod folders
  (`animkit cod lint`); export writes OUT/NNNNNN-<safe name>.glb (the file's index, and its base
  name by the core's safe_file_name rule) and "result" is {"output": path}; it never writes
  through a symlink or onto anything but a plain file.

A task whose worker dies or whose program is killed by a signal is retried (Dask's retries, on
another worker when there is one); a chunk that still fails is run again file by file, and a file
that still fails gets an "error" line of its own, so every file has exactly one line. A progress
bar goes to stderr when it is a terminal (or with progress=True).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Iterable, Iterator, Sequence

VERBS = ("survey", "validate", "lint", "export")


class WorkerFailure(RuntimeError):
    """The animkit program on a worker ended by a signal or could not start: retry the task."""


def files_of(paths: Iterable[str], verb: str = "survey") -> list[str]:
    """The items of a run in path order: each folder walked as `animkit survey` walks it (regular
    files and symlinks to files; symlinks to folders not followed), each file as given. lint's
    items are the mod folders themselves."""
    if verb == "lint":
        return sorted(str(p) for p in paths)
    out: list[str] = []
    for p in paths:
        p = str(p)
        if os.path.isdir(p) and not os.path.islink(p):
            for root, dirs, names in os.walk(p):
                for d in list(dirs):
                    if os.path.islink(os.path.join(root, d)):
                        dirs.remove(d)  # survey does not follow symlinks to folders
                for n in names:
                    full = os.path.join(root, n)
                    if os.path.isfile(full) or not os.path.exists(full):
                        out.append(full)  # a dangling link: survey reports it as a failure
        else:
            out.append(p)
    out.sort(key=os.fsencode)
    return out


def _safe_name(path: str) -> str:
    # The glb's name from the input's base name by the core's one rule (safe_path.h: no
    # separators, control bytes or leading dots, 200 bytes at most); the caller prefixes the
    # file's index, so two inputs of one name never collide.
    from ._animkit import safe_file_name

    return os.fsdecode(safe_file_name(os.fsencode(os.path.basename(path))))


def _run(cli: str, args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    try:
        r = subprocess.run([cli, *args], capture_output=True, text=True, errors="surrogateescape")
    except OSError as e:
        raise WorkerFailure(f"{cli}: {e}") from e
    if r.returncode < 0:
        raise WorkerFailure(f"{cli} {args[0]} ended by signal {-r.returncode}")
    return r


def run_chunk(verb: str, items: Sequence[tuple[int, str]], cli: str, out_dir: str | None = None,
              extra: Sequence[str] = ()) -> list[str]:
    """One task: the lines of `items` ((index, path) pairs). Runs on a worker."""
    if verb == "survey":
        r = _run(cli, ["survey", "--json", "--each", *extra, "--", *(p for _, p in items)])
        lines = [ln for ln in r.stdout.splitlines() if ln]
        if r.returncode not in (0, 1) or len(lines) != len(items):
            raise WorkerFailure(f"survey of {len(items)} files printed {len(lines)} lines: "
                                f"{r.stderr.strip()}")
        return lines
    out: list[str] = []
    for index, path in items:
        if verb == "validate":
            args = ["validate", "--json", *extra, path]
        elif verb == "lint":
            args = ["cod", "lint", "--json", *extra, path]
        else:
            assert out_dir is not None
            target = os.path.join(out_dir, f"{index:06d}-{_safe_name(path)}.glb")
            if os.path.islink(target) or (os.path.lexists(target) and not os.path.isfile(target)):
                out.append(json.dumps({"file": path, "verb": verb, "exit": 1, "result": None,
                                       "error": f"{target}: exists and is not a plain file "
                                                "(a symlink?): not written through"},
                                      ensure_ascii=False))
                continue
            args = ["export", *extra, path, "-o", target]
        r = _run(cli, args)
        line: dict[str, Any] = {"file": path, "verb": verb, "exit": r.returncode}
        try:
            line["result"] = json.loads(r.stdout) if r.stdout.strip() else None
        except ValueError:
            line["result"] = None
        if verb == "export" and r.returncode == 0:
            line["result"] = {"output": target}
        err = r.stderr.strip().splitlines()
        if err:
            line["error"] = err[-1].removeprefix("error: ")
        out.append(json.dumps(line, ensure_ascii=False))
    return out


def _failure_line(verb: str, path: str, why: str) -> str:
    if verb == "survey":
        return json.dumps({"file": path, "format": "", "error": why}, ensure_ascii=False)
    return json.dumps({"file": path, "verb": verb, "exit": 1, "result": None, "error": why},
                      ensure_ascii=False)


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total if total else width
    sys.stderr.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()


def run(paths: Iterable[str], verb: str = "survey", client: Any = None, *,
        chunk_size: int = 50, retries: int = 2, out_dir: str | None = None,
        cli: str | None = None, extra: Sequence[str] = (),
        progress: bool | None = None) -> Iterator[str]:
    """Streams one JSON line per file (see the module's text) as the cluster finishes them.
    `client` is a distributed.Client (None: a LocalCluster of this machine's cores, for the run)."""
    if verb not in VERBS:
        raise ValueError(f"verb {verb!r}: one of {', '.join(VERBS)}")
    if chunk_size < 1 or retries < 0:
        raise ValueError("chunk_size must be at least 1 and retries at least 0")
    from distributed import Client, as_completed  # a cluster is needed only here

    cli = cli or os.environ.get("ANIMKIT_CLI") or shutil.which("animkit")
    if not cli:
        raise FileNotFoundError("the animkit program: set ANIMKIT_CLI or put animkit on the PATH")
    if verb == "export":
        if not out_dir:
            raise ValueError("export needs out_dir (-o)")
        os.makedirs(out_dir, exist_ok=True)
    items = list(enumerate(files_of(paths, verb)))
    own = client is None
    if own:  # threads suffice: the work runs in the animkit programs the tasks start
        client = Client(processes=False, dashboard_address=None)
    show = sys.stderr.isatty() if progress is None else progress
    try:
        chunks = [items[i:i + chunk_size] for i in range(0, len(items), chunk_size)]
        futures = {client.submit(run_chunk, verb, c, cli, out_dir, tuple(extra), retries=retries,
                                 pure=False): c for c in chunks}
        done = 0
        pending = as_completed(list(futures))
        for fut in pending:
            c = futures.pop(fut)
            try:
                lines = fut.result()
            except Exception as e:  # the retries are spent: file by file, then a line each
                if len(c) > 1:
                    for one in c:
                        f = client.submit(run_chunk, verb, [one], cli, out_dir, tuple(extra),
                                          retries=retries, pure=False)
                        futures[f] = [one]
                        pending.add(f)
                    continue
                lines = [_failure_line(verb, c[0][1], f"worker failed: {e}")]
            for line in lines:
                yield line
            done += len(c)
            if show:
                _progress(done, len(items))
        if show:
            sys.stderr.write("\n")
    finally:
        if own:
            client.close()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m animkit.batch", description=__doc__.split("\n")[0])
    p.add_argument("verb", choices=VERBS)
    p.add_argument("paths", nargs="+", help="files or folders (lint: mod folders)")
    p.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:8786)")
    p.add_argument("--local", type=int, metavar="N",
                   help="a LocalCluster of N workers on this machine (default: one per core)")
    p.add_argument("-o", "--out", help="export: the folder the .glb files go to")
    p.add_argument("--chunk", type=int, default=50, help="files a task (default 50)")
    p.add_argument("--retries", type=int, default=2, help="retries of a failed task (default 2)")
    p.add_argument("--animkit", help="the animkit program on the workers (default: ANIMKIT_CLI "
                   "or animkit on the PATH)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="the progress bar on stderr (default: when stderr is a terminal)")
    p.epilog = "Options after a lone -- go to the verb (e.g. -- --game mhfu)."
    args = list(sys.argv[1:] if argv is None else argv)
    extra = args[args.index("--") + 1:] if "--" in args else []
    a = p.parse_args(args[:len(args) - len(extra) - (1 if "--" in args else 0)])
    if a.scheduler and a.local:
        p.error("--scheduler or --local, not both")
    if a.verb == "export" and not a.out:
        p.error("export needs -o")
    if a.chunk < 1 or a.retries < 0 or (a.local is not None and a.local < 1):
        p.error("--chunk and --local at least 1, --retries at least 0")
    from distributed import Client, LocalCluster

    if a.scheduler:
        client = Client(a.scheduler)
    else:
        # Threads, not processes: the work runs in the animkit programs the tasks start.
        client = Client(LocalCluster(n_workers=a.local or os.cpu_count() or 1, threads_per_worker=1,
                                     processes=False, dashboard_address=None))
    failed = False
    try:
        for line in run(a.paths, a.verb, client, chunk_size=a.chunk, retries=a.retries,
                        out_dir=a.out, cli=a.animkit, extra=extra,
                        progress=a.progress):
            failed = failed or "error" in json.loads(line)
            sys.stdout.write(line + "\n")
    finally:
        client.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
