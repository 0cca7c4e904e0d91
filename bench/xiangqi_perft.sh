#!/usr/bin/env bash
# Xiangqi perft(5) from the start position (133,312,995 leaves): tabula's C move
# generator against Fairy-Stockfish's `go perft 5`, single-threaded, same run.
# DEPTH=6 for the 5,392,831,844-node run.
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
DEPTH=${DEPTH:-5}
FSF=/usr/games/fairy-stockfish
[ -x "$FSF" ] || { echo "fairy-stockfish not installed (make deps)"; exit 0; }

now() { date +%s.%N; }
s=$(now)
tab_nodes=$("$BIN" perft xiangqi startpos "$DEPTH" | awk '/^nodes/ {print $2}')
e=$(now); tab_t=$(echo "$s $e" | awk '{print $2-$1}')

s=$(now)
fsf_nodes=$(printf 'setoption name UCI_Variant value xiangqi\nsetoption name Threads value 1\nposition startpos\ngo perft %s\nquit\n' "$DEPTH" \
  | "$FSF" | awk '/Nodes searched/ {print $3}')
e=$(now); fsf_t=$(echo "$s $e" | awk '{print $2-$1}')

awk -v tn="$tab_nodes" -v tt="$tab_t" -v fn="$fsf_nodes" -v ft="$fsf_t" -v d="$DEPTH" 'BEGIN {
  printf "xiangqi perft(%d) from the start: tabula %d nodes in %.2fs (%.1f M nodes/s); fairy-stockfish %d nodes in %.2fs (%.1f M nodes/s)\n", d, tn, tt, tn/tt/1e6, fn, ft, fn/ft/1e6
  printf "speed ratio tabula / fairy-stockfish: %.2fx%s\n", (tn/tt)/(fn/ft), tn == fn ? "" : "  (NODE COUNTS DIFFER)"
}'
