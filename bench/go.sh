#!/usr/bin/env bash
# Go: light playouts/s on 9x9 and 19x19 (target 50,000 9x9 playouts/s on one
# core), the local solver on the suite, and GNU Go genmove on the same problems.
set -u
cd "$(dirname "$0")/.."
"${TABULA:-./tabula}" bench/go.lua "$@"
