#!/bin/sh
# tests/measure_guards.sh TABULA_ROOT — the figures of issue 24, items 1 and 3,
# for the tabula built in TABULA_ROOT (run it on two trees to compare before and
# after). Not part of `make test`: it prints numbers, it does not judge them.
#   budgets: calls the mock server saw and USD spent for --max-calls 50
#     --concurrency 64 (one process and --workers 2) and --max-cost 10 at
#     about 1.5 USD a call (then continued with --max-cost 400);
#   workers: after a SIGKILL of the parent mid-run, how long the workers lived
#     and how many requests the server saw after the kill, against spend.jsonl.
set -u
ROOT=$(cd "${1:-.}" && pwd)
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/tabula
MOCK=$HERE/build/rel/mock_server
W=$(mktemp -d)
trap 'kill $MPID 2>/dev/null; rm -rf "$W"' EXIT

start_mock() {   # start_mock DELAY_MS -> $PORT, $MPID
  "$MOCK" --port 0 --delay-ms "$1" >"$W/mock.out" 2>&1 &
  MPID=$!
  while ! grep -q listening "$W/mock.out"; do sleep 0.05; done
  PORT=$(sed -n 's/.*listening on \([0-9]*\).*/\1/p' "$W/mock.out")
}
requests() { curl -s "http://127.0.0.1:$PORT/_stats" | sed -n 's/.*"requests":\([0-9]*\).*/\1/p'; }
spend() {        # spend DIR -> "calls cost" summed over DIR/spend.jsonl (0 0 when absent)
  if [ -f "$1/spend.jsonl" ]; then
    awk -F'[,:}]' '{for(i=1;i<NF;i++){if($i~/"calls"/)c+=$(i+1); if($i~/"cost"/)u+=$(i+1)}} END{printf "%d calls %.2f USD", c, u}' "$1/spend.jsonl"
  else echo "no spend.jsonl"; fi
}

start_mock 20
# about 1.5 USD a call: the mock reports 23 input tokens for these requests
# (body bytes / 4 + 1) and 1 output token; 23 * 50000/1e6 + 1 * 300000/1e6 = 1.45
cat >"$W/models.lua" <<EOF
return { priced = { provider = "openai", model = "m", base_url = "http://127.0.0.1:$PORT/v1", optional_key = true,
  prices = { input = 50000, output = 300000 } } }
EOF
S=$HERE/tests/faulty_scenario.lua
for workers in 1 2; do
  b=$(requests)
  "$BIN" run "$S" --model "local:http://127.0.0.1:$PORT/v1:m" --trials 300 --concurrency 64 --max-calls 50 \
    --workers $workers --out "$W/calls$workers" --quiet >"$W/o" 2>&1
  echo "max-calls 50, concurrency 64, workers $workers: exit $?, server saw $(( $(requests) - b )) calls; $(grep -o 'budget of.*)' "$W/o" | head -1)"
done
b=$(requests)
"$BIN" run "$S" --model priced --models "$W/models.lua" --trials 300 --concurrency 64 --max-tokens 1 --max-cost 10 \
  --out "$W/cost" --quiet >"$W/o" 2>&1
echo "max-cost 10 at 1.45 USD a call: exit $?, server saw $(( $(requests) - b )) calls, spend.jsonl $(spend "$W/cost"); stop line: $(grep -o 'budget of.*)' "$W/o" | head -1)"
"$BIN" run "$S" --model priced --models "$W/models.lua" --trials 300 --concurrency 64 --max-tokens 1 --max-cost 400 \
  --out "$W/cost" --quiet >"$W/o" 2>&1
echo "  continued with max-cost 400: exit $?, server saw $(( $(requests) - b )) calls in all, spend.jsonl $(spend "$W/cost")"
kill $MPID

# workers: trials of 40 calls of 0.1 s each, 2 workers, killed with SIGKILL mid-run
start_mock 100
cat >"$W/long.lua" <<'EOF'
local S = { name = "long", summary = "40 calls a trial" }
function S.plan(opts) local ts = {} for i = 1, opts.trials do ts[i] = { id = "t" .. i } end return ts end
function S.play(trial, env)
  for i = 1, 40 do
    local reply, err = env.agent:reply({ { role = "user", content = trial.id .. " " .. i } }, { sample = i })
    if not reply then return nil, err end
  end
  return { trial_id = trial.id, status = "success", reason = "ok" }
end
return S
EOF
"$BIN" run "$W/long.lua" --model "local:http://127.0.0.1:$PORT/v1:m" --trials 8 --concurrency 8 --workers 2 \
  --out "$W/long" --quiet >"$W/o" 2>&1 &
P=$!
while [ "$(requests)" -lt 16 ]; do sleep 0.05; done
KIDS=$(ps -o pid= --ppid $P)
kill -9 $P
T0=$(date +%s.%N)
AT_KILL=$(requests)
for i in $(seq 1 1200); do
  alive=0
  for k in $KIDS; do [ -d /proc/$k ] && ! grep -q ') Z' /proc/$k/stat 2>/dev/null && alive=1; done
  [ $alive = 0 ] && break
  sleep 0.05
done
T1=$(date +%s.%N)
sleep 1
echo "parent SIGKILL: workers lived $(echo "$T1 - $T0" | bc) s after it; the server saw $(( $(requests) - AT_KILL )) requests after the kill and $(requests) in all; spend.jsonl $(spend "$W/long")"
