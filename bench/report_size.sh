#!/usr/bin/env bash
# The size of DECE's report.html, which keeps each match's frames compact
# (tabula.view.frames: token dictionaries per game, frames as deltas, each seat's own
# view beside the public one, all of it deflated) and draws them in the browser. A 30-match run of the ten
# Eurogames (random, heuristic and a small ISMCTS, three matches per game, one
# block), then its report.html's size against the 3 MB target; with PAPER=1 also
# the paper-sized run (480 matches: 48 per game) against 30 MB (a long run: minutes
# of matches, then the report). Prints the sizes, the time `tabula report` took and,
# with Chromium, how long the page takes to become interactive, to open its longest
# match and to draw a seat's own view there (bench/report_size.lua).
#   bench/report_size.sh            PAPER=1 bench/report_size.sh      KEEP=DIR keeps the runs
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
W=${KEEP:-$(mktemp -d /tmp/tabula_report_size.XXXXXX)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
mkdir -p "$W"
GAMES=azul,splendor,century,7wonders,carcassonne,arknova,brass,burgundy,harmonies,wingspan
cat > "$W/parts.json" <<'JSON'
{ "participants": [
  { "name": "random", "player": "random" },
  { "name": "heuristic", "player": "heuristic", "epsilon": 0.1 },
  { "name": "ismcts", "player": "ismcts", "simulations": 16, "steps": 8 } ] }
JSON
size() {   # name, matches per game, target MB
  local out="$W/$1"
  [ -f "$out/matches.jsonl" ] || "$BIN" run scenarios/dece --participants "$W/parts.json" --games "$GAMES" \
    --matches-per-game "$2" --draws 200 --report-every 0 --quiet --out "$out" > /dev/null || { echo "$1: the run failed"; return; }
  local t0 t1 bytes frames
  t0=$(date +%s.%N)
  "$BIN" report "$out" > /dev/null || { echo "$1: the report failed"; return; }
  t1=$(date +%s.%N)
  bytes=$(stat -c %s "$out/report.html")
  frames=$(cat "$out"/matches/*.jsonl | grep -o '"seat":' | wc -l)
  awk -v n="$1" -v m="$(wc -l < "$out/matches.jsonl")" -v b="$bytes" -v tgt="$3" -v f="$frames" -v s="$(echo "$t1 - $t0" | bc)" 'BEGIN {
    printf "%s: %d matches, %d decisions: report.html %.2f MB (target <= %d MB: %s), %.0f bytes a decision; tabula report %.1f s\n",
      n, m, f, b / 1048576, tgt, b <= tgt * 1048576 ? "met" : "NOT met", b / (f > 0 ? f : 1), s }'
  # the longest match: the page's heaviest view
  local longest
  longest=$(grep -o '"match_id":"[^"]*"\|"steps":[0-9]*' "$out/matches.jsonl" | paste - - 2>/dev/null | sort -t: -k3 -n | tail -1 | sed 's/.*"match_id":"\([^"]*\)".*/\1/')
  [ -x /usr/bin/chromium ] && [ -n "$longest" ] && "$BIN" bench/report_size.lua "$out/report.html" "$longest"
}
size thirty 3 3
[ "${PAPER:-0}" = 1 ] && size paper 48 30
exit 0
