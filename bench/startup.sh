#!/usr/bin/env bash
# Start-up time and peak memory of `tabula version` against `lua5.4 -e ''`,
# measured on this machine in the same run: N runs of each, alternated (so a
# busy machine slows both alike), minimum and median wall time
# (bench/spawn_time.c), and the ratios. Target: within 2.5x of lua5.4.
# Needs GNU time (/usr/bin/time, package "time") and lua5.4 (installed by make deps).
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
N=${N:-500}
[ -x "$BIN" ] || { echo "build ./tabula first (make)"; exit 0; }
command -v lua5.4 >/dev/null || { echo "lua5.4 not installed (make deps)"; exit 0; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (make deps)"; exit 0; }
mkdir -p build/rel
SPAWN=build/rel/spawn_time
cc -O2 -o $SPAWN bench/spawn_time.c || { echo "cannot build bench/spawn_time.c"; exit 0; }

peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }

echo "startup, $N runs each, alternated:"
$SPAWN "$N" "$BIN" version -- lua5.4 -e '' | sed 's/^/  /'
m_tab=$(peak_kb "$BIN" version)
m_lua=$(peak_kb lua5.4 -e '')
awk -v mt="$m_tab" -v ml="$m_lua" 'BEGIN {
  printf "peak RSS: tabula version %d KiB, lua5.4 -e %d KiB, ratio %.2fx\n", mt, ml, mt/ml
}'
echo "target: tabula version within 2.5x of lua5.4 -e ''"
