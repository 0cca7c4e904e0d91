#!/usr/bin/env bash
# Start-up time and peak memory of `tabula version` against `lua5.4 -e ''`,
# measured on this machine in the same run. Prints both and the ratios.
# Needs GNU time (/usr/bin/time, package "time") and lua5.4 (installed by make deps).
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
N=${N:-200}
[ -x "$BIN" ] || { echo "build ./tabula first (make)"; exit 0; }
command -v lua5.4 >/dev/null || { echo "lua5.4 not installed (make deps)"; exit 0; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (make deps)"; exit 0; }

run_many() {   # seconds for N runs of "$@"
  local start end
  start=$(date +%s.%N)
  for _ in $(seq "$N"); do "$@" >/dev/null 2>&1; done
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.6f", $2 - $1}'
}
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }

t_tab=$(run_many "$BIN" version)
t_lua=$(run_many lua5.4 -e '')
m_tab=$(peak_kb "$BIN" version)
m_lua=$(peak_kb lua5.4 -e '')
awk -v n="$N" -v tt="$t_tab" -v tl="$t_lua" -v mt="$m_tab" -v ml="$m_lua" 'BEGIN {
  printf "startup (mean of %d runs): tabula version %.2f ms, lua5.4 -e %.2f ms, ratio %.2fx\n", n, tt*1000/n, tl*1000/n, tt/tl
  printf "peak RSS: tabula version %d KiB, lua5.4 -e %d KiB, ratio %.2fx\n", mt, ml, mt/ml
}'
