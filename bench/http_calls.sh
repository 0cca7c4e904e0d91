#!/usr/bin/env bash
# 10,000 model calls against the mock server at concurrency 256: tabula's model
# layer against a minimal Node.js client (built-in fetch) and against a bare
# libcurl multi loop in C (bench/http_raw.c: the ceiling), same server, same run.
# Prints calls/s, CPU time per call and peak memory for each, and the ratios.
# R=3 rounds of raw and tabula, alternated; each keeps its fastest round.
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
N=${N:-10000}
C=${C:-256}
MOCK=build/rel/mock_server
[ -x "$MOCK" ] || { echo "build first (make)"; exit 0; }
command -v node >/dev/null || { echo "node not installed (make deps)"; exit 0; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (make deps)"; exit 0; }

$MOCK --port 0 > /tmp/tabula_bench_mock.out &
MOCK_PID=$!
trap 'kill $MOCK_PID 2>/dev/null' EXIT
for _ in $(seq 50); do grep -q listening /tmp/tabula_bench_mock.out 2>/dev/null && break; sleep 0.1; done
URL="http://127.0.0.1:$(awk '{print $3}' /tmp/tabula_bench_mock.out)"

measure() {   # label, command... -> prints the client's line and "label cpu_s rss_kb wall_s"
  local label=$1; shift
  /usr/bin/time -f "$label %U %S %M %e" -o /tmp/tabula_bench_time "$@"
  cat /tmp/tabula_bench_time
}
RAW=build/rel/http_raw
cc -O2 -o $RAW bench/http_raw.c -lcurl || { echo "cannot build bench/http_raw.c"; exit 0; }
# raw and tabula alternate R times (a busy machine slows both alike); each
# keeps its fastest run. node runs once (it is far slower than both).
R=${R:-3}
ALL=""
for _ in $(seq "$R"); do
  ALL="$ALL
$(measure raw $RAW "$URL" "$N" "$C" | tee /dev/stderr | tail -1)
$(measure tabula "$BIN" bench/http_client.lua "$URL" "$N" "$C" | tee /dev/stderr | tail -1)"
done
J=$(measure node node bench/http_client.mjs "$URL" "$N" "$C" | tee /dev/stderr | tail -1)
echo "$ALL
$J" | awk -v n="$N" -v r="$R" '
  NF == 5 {
    c = $2 + $3
    if (!($1 in wall) || $5 < wall[$1]) { wall[$1] = $5; cpu[$1] = c; rss[$1] = $4 }
  }
  END {
    printf "fastest of %d runs each (node: 1):\n", r
    for (k in cpu) printf "%-7s %8.0f calls/s  %6.1f us CPU/call  peak RSS %7d KiB\n", k, n / wall[k], cpu[k] / n * 1e6, rss[k]
    printf "throughput tabula/node %.2fx; memory tabula/node %.2fx; CPU per call tabula/node %.2fx\n",
      wall["node"] / wall["tabula"], rss["tabula"] / rss["node"], cpu["tabula"] / cpu["node"]
    printf "CPU per call tabula/raw libcurl %.2fx\n", cpu["tabula"] / cpu["raw"]
    printf "throughput tabula/raw libcurl %.2fx (target >= 0.50x)\n", wall["raw"] / wall["tabula"]
  }'
