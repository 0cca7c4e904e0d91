#!/usr/bin/env bash
# Jianghu108: the built-in engine player's accuracy next to a Fairy-Stockfish
# reference (each option searched to DEPTH, default 20), overall, by
# circumstance and on non-E problems. Never fails the build.
#   bench/jianghu108_reference.sh [DEPTH]      DATA=path/to/江湖残局.json to choose the file
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
DATA=${DATA:-../shared/data/jianghu108/江湖残局.json}
[ -f "$DATA" ] || { echo "no problems at $DATA"; exit 0; }
[ -x /usr/games/fairy-stockfish ] || { echo "fairy-stockfish not installed (make deps)"; exit 0; }
"$BIN" bench/jianghu108_reference.lua "$DATA" "${1:-20}" || true
