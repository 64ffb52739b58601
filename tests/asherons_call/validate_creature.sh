#!/usr/bin/env bash
# Issue 13 item 2: the creature export (`animkit export DAT --setup ID`) passes the Khronos glTF
# validator (tools/validate_gltf.mjs), for both rigs, a picked animation and the .gltf form.
set -euo pipefail
animkit=$1 source_dir=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
"$animkit" demo --engine asherons_call --out "$out/demo" >/dev/null
dat="$out/demo/asherons_call/humanoid.dat"
"$animkit" export "$dat" --setup 0x02000001 -o "$out/human.glb" >/dev/null
"$animkit" export "$dat" --setup 0x02000001 -o "$out/human.gltf" >/dev/null
"$animkit" export "$dat" --setup 0x02000001 --rig flat -o "$out/human-flat.glb" >/dev/null
"$animkit" export "$dat" --setup 0x02000001 --id 0x03000111 -o "$out/human-link.glb" >/dev/null
"$animkit" export "$dat" --id 0x02000001 -o "$out/human-by-id.glb" >/dev/null
# Issue 28: the textured humanoid (every pixel format, solid, clip map, two-sided, scaled parts).
"$animkit" export "$out/demo/asherons_call/textured.dat" --setup 0x02000002 -o "$out/textured.glb" >/dev/null
"$animkit" export "$out/demo/asherons_call/textured.dat" --setup 0x02000002 -o "$out/textured.gltf" >/dev/null
# Issue 28 item 2: a GfxObj extracted alone exports as a static mesh on one joint.
"$animkit" ac extract "$out/demo/asherons_call/textured.dat" 0x01000004 -o "$out/gfx_obj.bin" >/dev/null
"$animkit" export "$out/gfx_obj.bin" -o "$out/gfx-obj.glb" | grep -q ", [1-9][0-9]* meshes"
cd "$source_dir"
node tools/validate_gltf.mjs "$out"/*.glb "$out"/*.gltf "$out/demo/asherons_call/creature.glb"
