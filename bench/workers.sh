#!/usr/bin/env bash
# The README's first command (the default XiangqiBench run: the project's suite,
# built-in engine player against the built-in defender, 3 trials per case) with
# one worker process and with one per core, same machine, same run. Prints wall
# times and the speed-up (target: >= 1.8x with 2 workers on 2 cores), and checks
# that both runs recorded the same trials.
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
N=${WORKERS:-$(nproc)}
W=$(mktemp -d /tmp/tabula_workers.XXXXXX)
trap 'rm -rf "$W"' EXIT
now() { date +%s.%N; }
s=$(now); "$BIN" run scenarios/xiangqibench --workers 1 --quiet --no-transcripts --out "$W/one" > /dev/null; e=$(now)
t1=$(echo "$s $e" | awk '{print $2-$1}')
s=$(now); "$BIN" run scenarios/xiangqibench --workers "$N" --quiet --no-transcripts --out "$W/many" > /dev/null; e=$(now)
tn=$(echo "$s $e" | awk '{print $2-$1}')
same=$(python3 - "$W/one" "$W/many" <<'PY'
import json, sys
def load(d): return {r["trial_id"]: r for r in map(json.loads, open(d + "/trials.jsonl"))}
a, b = load(sys.argv[1]), load(sys.argv[2])
print("identical" if a == b else "DIFFERENT")
PY
)
awk -v a="$t1" -v b="$tn" -v n="$N" -v same="$same" 'BEGIN {
  printf "default XiangqiBench run: 1 worker %.1fs, %d workers %.1fs: %.2fx faster (target >= 1.8x on 2 cores); records %s\n", a, n, b, a / b, same }'
