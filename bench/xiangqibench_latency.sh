#!/usr/bin/env bash
# XiangqiBench against a model that always answers after a fixed delay: all
# reference cases x 3 trials, Sighted, at concurrency 64, against the mock server
# (each trial: think, view_board, resign = 3 sequential calls). Prints the wall
# time against the floor set by the latency: trials are indivisible, so with T
# trials of k sequential calls each, C at a time, the run needs at least
# ceil(T / C) rounds of k x delay (357 trials at 64: 6 rounds of 6 s = 36.0 s,
# not the 33.5 s that dividing the calls evenly would suggest); and the host's
# CPU time as a share of the wall time.
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
CASES=${CASES:-../shared/data/xiangqibench/cases.jsonl}
DELAY_MS=${DELAY_MS:-2000}
C=${C:-64}
MOCK=build/rel/mock_server
[ -f "$CASES" ] || { echo "no cases at $CASES"; exit 0; }
[ -x "$MOCK" ] || { echo "build first (make)"; exit 0; }
DIR=$(mktemp -d)
cat > "$DIR/script.jsonl" <<'JSONL'
{"match": "The game begins", "reply": "```bash\nthink let me look\n```"}
{"match": "Noted.", "reply": "```bash\nview_board\n```"}
{"match": "Side to move", "reply": "```bash\nresign\n```"}
JSONL
$MOCK --port 0 --delay-ms "$DELAY_MS" --script "$DIR/script.jsonl" > "$DIR/mock.out" &
MOCK_PID=$!
trap 'kill $MOCK_PID 2>/dev/null' EXIT
for _ in $(seq 50); do grep -q listening "$DIR/mock.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(awk '{print $3}' "$DIR/mock.out")
cat > "$DIR/models.lua" <<LUA
return { mock = { provider = "openai", model = "mock", base_url = "http://127.0.0.1:$PORT/v1", optional_key = true, max_in_flight = 1000 } }
LUA
/usr/bin/time -f "%U %S %e" -o "$DIR/time" "$BIN" run scenarios/xiangqibench --model mock --models "$DIR/models.lua" \
  --cases "$CASES" --trials 3 --concurrency "$C" --setting sighted --out "$DIR/run" --quiet --no-cache > /dev/null
calls=$(grep -o '"calls":[0-9]*' "$DIR/run/trials.jsonl" | awk -F: '{s+=$2} END {print s}')
trials=$(wc -l < "$DIR/run/trials.jsonl")
read -r user sys wall < "$DIR/time"
awk -v c="$calls" -v n="$trials" -v conc="$C" -v d="$DELAY_MS" -v u="$user" -v s="$sys" -v w="$wall" 'BEGIN {
  k = c / n                                     # sequential calls per trial
  rounds = int((n + conc - 1) / conc)
  floor_s = rounds * k * d / 1000
  printf "%d trials, %d model calls (%.1f per trial), delay %.1fs, concurrency %d\n", n, c, k, d / 1000, conc
  printf "wall %.1fs vs the latency floor %.1fs (%d rounds of %.1f calls x %.1fs): %.1f%% over\n", w, floor_s, rounds, k, d / 1000, (w / floor_s - 1) * 100
  printf "host CPU %.2fs = %.2f%% of wall time\n", u + s, (u + s) / w * 100
}'
