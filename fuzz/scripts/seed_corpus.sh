#!/usr/bin/env bash
# Seeds every fuzz target's corpus folder CORPUS/<target> (issue 19): the files `animkit demo`
# writes (made by the modules' own writers, as the tests' fixtures are) go to the parsers that
# read them, the scenario fuzzers write their own seeds (ANIMKIT_FUZZ_SEED), and small texts seed
# the Call of Duty parsers. Existing corpus files are kept.
#   seed_corpus.sh BUILD_DIR CORPUS
set -eu
build=$1 corpus=$2
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
"$build/tools/animkit/animkit" demo --out "$demo" >/dev/null
seed() {  # seed TARGET FILE...
  mkdir -p "$corpus/$1"
  local t=$1; shift
  for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$corpus/$t/demo-$(basename "$f")"; done
  return 0
}
seed fuzz_core_neutral_json "$demo/core.json"
for t in entry clip range_list; do
  seed fuzz_warriors_$t "$demo"/warriors-*.anm "$demo/warriors-character.res" "$demo/warriors-pack.pak"
done
seed fuzz_warriors_scenario "$demo/warriors-scenario.json"
seed fuzz_monster_hunter_skeleton "$demo/mh-skeleton.bin"
for t in pack clip_fu clip_p3rd; do seed fuzz_monster_hunter_$t "$demo/mh-pack.bin"; done
seed fuzz_asherons_call_motion_table "$demo/asherons_call/0x09000101.bin"
seed fuzz_asherons_call_animation "$demo"/asherons_call/animations/*.bin
seed fuzz_shadow_of_war_anix "$demo/shadow_of_war.anix"
mkdir -p "$corpus/fuzz_call_of_duty_atr" "$corpus/fuzz_call_of_duty_gsc"
# The first byte of an .atr input picks the loader's settings (fuzz_atr.cpp).
printf '\x0fmain\n{\n    idle : loopsync\n    {\n        idle_a\n        idle_b\n    }\n    fire : complete nonloopsync\n}\n' \
  >"$corpus/fuzz_call_of_duty_atr/seed-tree"
printf '#using_animtree("generic_human");\nmain()\n{\n    self setanim(%%idle, 1);\n    t = #animtree;\n}\n' \
  >"$corpus/fuzz_call_of_duty_gsc/seed-script"
# Fuzzers with their own seeds (LLVMFuzzerInitialize writes them and exits).
for f in $(find "$build/fuzz" -maxdepth 2 -type f -name 'fuzz_*' -perm -u+x); do
  n=$(basename "$f")
  mkdir -p "$corpus/$n"
  ANIMKIT_FUZZ_SEED="$corpus/$n" "$f" -runs=0 >/dev/null 2>&1 || true
done
