#!/usr/bin/env bash
# Runs `animkit demo`, exports its neutral sample as .glb and .gltf, and validates every glTF file
# written with the gltf-validator npm package (tools/validate_gltf.mjs).
set -euo pipefail
animkit=$1 source_dir=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
"$animkit" demo --out "$out/demo" >/dev/null
"$animkit" export "$out/demo/core.json" -o "$out/core-export.gltf" >/dev/null
"$animkit" export "$out/demo/core.json" -o "$out/core-export.glb" >/dev/null
mapfile -t files < <(find "$out" -name '*.glb' -o -name '*.gltf' | sort)
[ ${#files[@]} -ge 3 ] || { echo "expected at least 3 glTF files, found ${#files[@]}"; exit 1; }
cd "$source_dir"
node tools/validate_gltf.mjs "${files[@]}"
