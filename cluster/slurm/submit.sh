#!/usr/bin/env bash
# cluster/slurm/submit.sh — split a tabula run into N Slurm array tasks and join
# them when all have finished:
#   cluster/slurm/submit.sh RUN N SCENARIO [tabula run options...]
# Prints the two job ids (array, merge). The merged run is RUN/merged.
set -euo pipefail
run=${1:?give the run directory}; n=${2:?give the number of shards}; shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$run"
array=$(sbatch --parsable --array="1-$n" --chdir="$PWD" --output="$run/slurm-%A_%a.out" "$here/shard.sbatch" "$run" "$@")
merge=$(sbatch --parsable --dependency="afterok:$array" --chdir="$PWD" --output="$run/slurm-merge-%j.out" "$here/merge.sbatch" "$run" "$n")
echo "$array $merge"
