#!/usr/bin/env bash
# Defender strength: the engine attacker (built-in search at a fixed, deliberately
# small budget, so that defence matters) plays the reference cases against the
# built-in defender and against Fairy-Stockfish at depth 18, same run. Prints both
# win rates (lower = harder to beat) and the mean plies to the win.
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
CASES=${CASES:-../shared/data/xiangqibench/cases.jsonl}
BUDGET=${BUDGET:-20000}
[ -f "$CASES" ] || { echo "no cases at $CASES"; exit 0; }
[ -x /usr/games/fairy-stockfish ] || { echo "fairy-stockfish not installed (make deps)"; exit 0; }
OUT=$(mktemp -d)
common=(--model engine --cases "$CASES" --trials 1 --concurrency 1 --quiet
        --engine-nodes "$BUDGET" --engine-search-nodes "$BUDGET")
s=$(date +%s.%N)
"$BIN" run scenarios/xiangqibench "${common[@]}" --defender builtin --out "$OUT/builtin" > /dev/null
m=$(date +%s.%N)
"$BIN" run scenarios/xiangqibench "${common[@]}" --defender fairy-stockfish --defender-depth 18 --out "$OUT/fsf" > /dev/null
e=$(date +%s.%N)
for d in builtin fsf; do
  "$BIN" report "$OUT/$d" > /dev/null
done
python3 - "$OUT" "$s" "$m" "$e" <<'PY' 2>/dev/null || awk 'BEGIN{print "python3 missing: see '"$OUT"'/*/report.md"}'
import json, sys
out, s, m, e = sys.argv[1], *map(float, sys.argv[2:])
rows = []
for d, secs in (("builtin", m - s), ("fsf", e - m)):
    recs = [json.loads(l) for l in open(f"{out}/{d}/trials.jsonl")]
    wins = [r for r in recs if r.get("success")]
    plies = sum(r["plies"] for r in wins) / max(1, len(wins))
    rows.append((d, len(wins), len(recs), plies, secs))
for d, w, n, p, secs in rows:
    print(f"defender {d:8s}: attacker wins {w}/{n} ({100*w/n:.1f}%), mean plies to the win {p:.1f}, {secs:.0f}s")
print(f"attacker win rate against builtin minus against fairy-stockfish d18: {100*(rows[0][1]/rows[0][2]-rows[1][1]/rows[1][2]):+.1f} points (negative: the built-in defender is harder to beat)")
PY
