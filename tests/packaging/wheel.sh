#!/usr/bin/env bash
# The Python package as its users get it (issue 33, item 4): builds the wheel with pip from the
# source tree, reusing the release build's extension (ANIMKIT_BUILD_DIR), installs it into a fresh
# venv on Debian's Python, then, from outside the tree, runs tests/python against the installed
# module and mypy --strict on an example that uses it (the stubs and py.typed).
# Usage: wheel.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$build/wheel
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
py=$work/venv/bin/python
ANIMKIT_BUILD_DIR=$build "$py" -m pip wheel --quiet --no-build-isolation --no-deps --no-index \
  -w "$work/dist" "$root"
wheel=$(ls "$work"/dist/animkit-*.whl)
echo "wheel: $(basename "$wheel")"
# The stubs and the marker travel in the wheel.
names=$("$py" -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel")
for f in animkit/py.typed animkit/_animkit.pyi animkit/warriors.pyi animkit/__init__.py \
         animkit/batch.py animkit/batch.pyi; do
  grep -qx "$f" <<<"$names" || { echo "$f is not in the wheel"; exit 1; }
done
grep -q '^animkit/_animkit\..*\.so$' <<<"$names" || { echo "the extension is not in the wheel"; exit 1; }
"$py" -m pip install --quiet --no-deps --no-index "$wheel"

cd "$work"  # nothing of the source tree on sys.path from here
"$py" -c 'import animkit, sys; p = animkit.__file__; assert "/site-packages/" in p, p; print("import animkit:", p)'
ANIMKIT_CLI=$build/tools/animkit/animkit PYTHONDONTWRITEBYTECODE=1 \
  "$py" -m pytest -q -p no:cacheprovider --basetemp="$work/pytest-tmp" --rootdir="$work" \
  -c /dev/null "$root/tests/python"
"$py" -m mypy --strict --cache-dir "$work/mypy-cache" "$root/tests/packaging/typed_example.py"
"$py" "$root/tests/packaging/typed_example.py" "$work/example"
