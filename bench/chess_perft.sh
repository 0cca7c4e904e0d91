#!/usr/bin/env bash
# Chess perft(6) from the start position (119,060,324 leaves): tabula's C move
# generator against Stockfish's `go perft` and the npm package chessops
# (perft over its API), same machine, same run. Prints nodes/second and ratios.
# chessops is installed into a temporary folder from the npm registry.
# Measured on the 2-core machine: tabula 0.43-0.53x Stockfish (it varies with load;
# at depth 5 Stockfish's start-up dominates, hence depth 6). What would close the
# gap: bitboards with magic attack tables instead of 0x88 ray walks, legal-move
# generation by pin and check masks (no make/unmake test at all), and bulk counting
# at the last two plies; Stockfish does all three.
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
DEPTH=${DEPTH:-6}
now() { date +%s.%N; }
s=$(now); tn=$("$BIN" perft chess startpos "$DEPTH" | awk '/^nodes/ {print $2}'); e=$(now)
tt=$(echo "$s $e" | awk '{print $2-$1}')
sn=0; st=0
if [ -x /usr/games/stockfish ]; then
  s=$(now)
  sn=$(printf 'position startpos\ngo perft %s\nquit\n' "$DEPTH" | /usr/games/stockfish | awk '/Nodes searched/ {print $3}')
  e=$(now); st=$(echo "$s $e" | awk '{print $2-$1}')
fi
cn=0; ct=0
if command -v npm >/dev/null && command -v node >/dev/null; then
  W=$(mktemp -d)
  (cd "$W" && npm init -y >/dev/null 2>&1 && npm install --silent chessops >/dev/null 2>&1)
  if [ -d "$W/node_modules/chessops" ]; then
    cat > "$W/perft.mjs" <<'JS'
import { Chess } from 'chessops/chess';
import { perft } from 'chessops/debug';
const depth = Number(process.argv[2]);
const pos = Chess.default();
const t0 = performance.now();
const n = perft(pos, depth, false);
console.log(n, (performance.now() - t0) / 1000);
JS
    read -r cn ct < <(cd "$W" && node perft.mjs "$DEPTH")
  fi
fi
awk -v tn="$tn" -v tt="$tt" -v sn="$sn" -v st="$st" -v cn="$cn" -v ct="$ct" -v d="$DEPTH" 'BEGIN {
  printf "chess perft(%d): tabula %d nodes in %.2fs = %.1f M nodes/s\n", d, tn, tt, tn/tt/1e6
  if (st > 0) printf "  stockfish %d nodes in %.2fs = %.1f M nodes/s; tabula/stockfish %.2fx\n", sn, st, sn/st/1e6, (tn/tt)/(sn/st)
  else print "  stockfish not installed (make deps)"
  if (ct > 0) printf "  chessops %d nodes in %.2fs = %.1f M nodes/s; tabula/chessops %.2fx\n", cn, ct, cn/ct/1e6, (tn/tt)/(cn/ct)
  else print "  chessops unavailable (needs node and the npm registry)"
}'
