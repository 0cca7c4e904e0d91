#!/usr/bin/env bash
# The default DECE run (Random, Heuristic, ISMCTS at 1024 simulations on the five games)
# with one worker process and with WORKERS (default: one per core), same machine: wall
# and CPU times, the speed-up (target: >= 1.8x with 2 workers on 2 cores), and whether
# both runs recorded the same matches (timing fields aside). GAMES=azul,splendor measures
# a subset; ARGS adds options (e.g. ARGS="--matches-per-game 6").
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
N=${WORKERS:-$(nproc)}
GAMES=${GAMES:-azul,splendor,century,7wonders,carcassonne}
W=$(mktemp -d /tmp/tabula_dece_workers.XXXXXX)
trap 'rm -rf "$W"' EXIT
run() {  # run DIR WORKERS -> "wall user sys" seconds
  /usr/bin/time -f "%e %U %S" -o "$W/$1.time" "$BIN" run scenarios/dece --games "$GAMES" ${ARGS:-} \
    --workers "$2" --quiet --out "$W/$1" > /dev/null
  cat "$W/$1.time"
}
read -r w1 u1 s1 < <(run one 1)
read -r wn un sn < <(run many "$N")
same=$(python3 - "$W/one" "$W/many" <<'PY'
import json, sys
def load(d):
    out = {}
    for line in open(d + "/matches.jsonl"):
        r = json.loads(line)
        r.pop("seconds", None); r.pop("wall_seconds", None)
        out[r["match_id"]] = r
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
print("identical (%d matches)" % len(a) if a == b else "DIFFERENT")
PY
)
awk -v a="$w1" -v b="$wn" -v ca="$u1 $s1" -v cb="$un $sn" -v n="$N" -v same="$same" -v g="$GAMES" 'BEGIN {
  split(ca, x, " "); split(cb, y, " ")
  printf "DECE default run (%s): 1 worker %.1fs wall (%.1fs CPU), %d workers %.1fs wall (%.1fs CPU): %.2fx faster (target >= 1.8x on 2 cores); records %s\n",
    g, a, x[1] + x[2], n, b, y[1] + y[2], a / b, same }'
