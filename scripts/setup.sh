#!/usr/bin/env bash
# Installs what animkit needs on Debian 12, only what is missing (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ clang libclang-rt-14-dev clang-format ccache
          libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev
          libfmt-dev libtbb-dev libhwy-dev libsimdjson-dev libtinygltf-dev libpng-dev zlib1g-dev graphviz chromium libzip-dev pkg-config
          pybind11-dev python3-dev python3-numpy python3-pytest
          python3-setuptools python3-wheel python3-venv mypy lintian  # packaging (issue 33)
          python3-distributed  # animkit.batch on a Dask cluster (issue 33, item 6)
          blender)  # the add-on's and the glTF round trip's headless tests (issue 32)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js with npm: the machine may already carry its own build; only install Debian's when absent.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Front-end packages pinned in package-lock.json (three, playwright-core, gltf-validator).
if [ ! -f node_modules/.animkit-installed ] || [ package-lock.json -nt node_modules/.animkit-installed ]; then
  npm ci --no-audit --no-fund --loglevel=error
  touch node_modules/.animkit-installed
fi
