#!/usr/bin/env bash
# Go: light playouts/s on 9x9 and 19x19 (target 50,000 9x9 playouts/s on one
# core) against a plain flood-fill playout in C (bench/go_playout_peer.c, the
# named peer, same run), the local solver on the suite, and GNU Go genmove on
# the same problems. The load average is printed: measure on a quiet machine.
set -u
cd "$(dirname "$0")/.."
PEER=build/rel/go_playout_peer
if cc -O2 -o "$PEER" bench/go_playout_peer.c; then
  out=$("$PEER" "${1:-20000}")
  echo "$out"
  GO_PEER_RATE=$(sed -n 's/.*= \([0-9]*\) playouts\/s.*/\1/p' <<< "$out")
  export GO_PEER_RATE
else
  echo "cannot build bench/go_playout_peer.c: no peer ratio"
fi
"${TABULA:-./tabula}" bench/go.lua "$@"
