#!/usr/bin/env bash
# Issue 27 items 1 and 5: the demo's model PAC (the notes' Tigrex layout, roots [0, 45], a skinned
# PMO and a TMH bank) exported by `export` (skeleton and clips) and `mh export` (with the skinned,
# textured mesh), .glb and .gltf, `view`'s served .glb, and the bare skeleton
# with its pack: the Khronos validator (tools/validate_gltf.mjs) finds 0 errors and 0 warnings.
set -euo pipefail
animkit=$1 source_dir=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
"$animkit" demo --engine monster_hunter --out "$out/demo" >/dev/null
pac="$out/demo/mh-model.pac"
"$animkit" export "$pac" -o "$out/model.glb" >/dev/null
"$animkit" export "$pac" -o "$out/model.gltf" >/dev/null
"$animkit" mh export "$pac" -o "$out/mh-model.glb" >/dev/null
"$animkit" mh export "$pac" -o "$out/mh-model.gltf" >/dev/null
"$animkit" export --skeleton "$out/demo/mh-skeleton.bin" --pack "$out/demo/mh-pack.bin" \
  -o "$out/bare.glb" >/dev/null
# `view` converts through the same shared export: the file it serves carries the mesh too. Its
# first line (--json) names the temporary folder, removed when it stops (SIGINT).
"$animkit" view "$pac" --port 0 --json --root "$source_dir" >"$out/view.json" &
viewer=$!
for _ in $(seq 100); do [ -s "$out/view.json" ] && break; sleep 0.1; done
folder=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).folder)' "$out/view.json")
served=$(ls "$folder"/*.glb)
cp "$served" "$out/view.glb"
kill -INT "$viewer"
wait "$viewer"
node -e '
const b = require("fs").readFileSync(process.argv[1]);
const j = JSON.parse(b.subarray(20, 20 + b.readUInt32LE(12)).toString());
if (!j.meshes || !j.skins || !j.images) { console.log("view: no skinned, textured mesh"); process.exit(1); }' "$out/view.glb"
node -e '
const i = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
if (!(i.files[0].meshes > 0)) { console.log("view: the index does not count the meshes"); process.exit(1); }' "$out/view.json"
cd "$source_dir"
report=$(node tools/validate_gltf.mjs "$out"/*.glb "$out"/*.gltf)
echo "$report"
files=$(echo "$report" | grep -c ': 0 errors, 0 warnings,' || true)
[ "$files" -eq 6 ] || { echo "expected 6 files with 0 errors and 0 warnings, got $files"; exit 1; }
