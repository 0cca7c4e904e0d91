#!/usr/bin/env bash
# bench/test_time.sh — how long the test tiers take on this machine, against the
# targets of issue 47 (measured on the 2-core machine with nothing else running;
# a bench, never a test: it prints, it does not fail the build).
#
#   bench/test_time.sh            make check, make test, make test SANITIZE=1
#   bench/test_time.sh --ci       .ci/run's steps, each timed, on a clean clone of HEAD
#
# Targets: make check <= 60 s, make test <= 4 min, make test SANITIZE=1 <= 8 min,
# .ci/run <= 15 min. Each tier is built first (from a clean build/ when the
# tier is timed from scratch), so the times include compiling.
set -uo pipefail
cd "$(dirname "$0")/.."
ci=0
[ "${1:-}" = "--ci" ] && ci=1

declare -a rows
tier() {   # tier NAME TARGET_SECONDS COMMAND...
  local name=$1 target=$2; shift 2
  local log t0 t1 rc
  log=$(mktemp)
  t0=$(date +%s.%N)
  "$@" >"$log" 2>&1; rc=$?
  t1=$(date +%s.%N)
  local secs
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
  local last
  last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  local verdict="within"
  [ "$secs" -gt "$target" ] && verdict="OVER"
  [ $rc -ne 0 ] && verdict="$verdict (exit $rc: see $log)" || rm -f "$log"
  rows+=("$(printf '%-22s %6d s   target %5d s   %-8s %s' "$name" "$secs" "$target" "$verdict" "$last")")
  printf '%s\n' "${rows[-1]}"
}

echo "cores: $(nproc); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ $ci -eq 0 ]; then
  make -s >/dev/null
  tier "make check" 60 make check
  tier "make test" 240 make test
  tier "make test SANITIZE=1" 480 make test SANITIZE=1
else
  # .ci/run's steps, each timed, in a clean clone of HEAD beside this
  # checkout (so that its ../shared is ours, as on CI)
  dir="$(cd .. && pwd)/tabula-ci-$$"
  git clone -q . "$dir"
  start=$(date +%s)
  tier "ci: make deps" 900 make -C "$dir" deps
  tier "ci: make agent-programs" 300 make -C "$dir" agent-programs PROGRAMS=codex
  tier "ci: make test" 240 make -C "$dir" test
  tier "ci: make test SANITIZE=1" 480 make -C "$dir" test SANITIZE=1
  total=$(( $(date +%s) - start ))
  verdict="within"; [ $total -gt 900 ] && verdict="OVER"
  rows+=("$(printf '%-22s %6d s   target %5d s   %s' ".ci/run in all" "$total" 900 "$verdict")")
  printf '%s\n' "${rows[-1]}"
  rm -rf "$dir"
fi
echo
echo "summary:"
printf '  %s\n' "${rows[@]}"
