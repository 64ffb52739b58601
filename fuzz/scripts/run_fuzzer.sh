#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS (or, given as runs:N, for N runs from -seed=1: the same
# inputs every time, for the deterministic smoke run of `make test-fuzz`) on CORPUS (issue 19, "Campaign"): a crash, a time-out
# (-timeout=10: one input running over 10 s) or an RSS over 2 GB (-rss_limit_mb=2048) fails the
# run; the input is kept as ARTIFACTS/<target>-crash-..., -timeout-... or -oom-.... Prints one
# summary line: execs, coverage (cov, ft), corpus size, peak RSS.
#   run_fuzzer.sh TARGET SECONDS CORPUS ARTIFACTS [LOG]
set -u
target=$1 seconds=$2 corpus=$3 artifacts=$4
name=$(basename "$target")
log=${5:-$artifacts/$name.log}
mkdir -p "$corpus" "$artifacts"
if [[ $seconds == runs:* ]]; then
  length=(-seed=1 -runs="${seconds#runs:}")
else
  length=(-max_total_time="$seconds")
fi
"$target" "${length[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/$name-" "$corpus" >"$log" 2>&1
rc=$?
last=$(grep -E '^#[0-9]+' "$log" | tail -1)
stat() { grep -E "^stat::$1:" "$log" | awk '{print $2}'; }
printf '%-42s rc=%s execs=%s %s corpus=%s peak_rss_mb=%s\n' "$name" "$rc" \
  "$(stat number_of_executed_units)" "$(echo "$last" | grep -oE 'cov: [0-9]+ ft: [0-9]+' | tr -d ':')" \
  "$(echo "$last" | grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' | cut -d' ' -f2)" "$(stat peak_rss_mb)"
if [ "$rc" -ne 0 ]; then
  grep -E 'ERROR|Timeout|timeout|out-of-memory|SUMMARY|Test unit written' "$log" | head -8
  echo "$name failed: see $log"
fi
exit "$rc"
