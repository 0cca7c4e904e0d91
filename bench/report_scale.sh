#!/usr/bin/env bash
# Reports and resumes on big runs: synthetic XiangqiBench runs of 1k, 10k and 100k
# real-shaped records (copies of a real run's records under new ids). For each size:
# `tabula report --no-html` (streamed: counters, never the records) against the
# previous way (every record read a line at a time, decoded whole and held; the
# pass table k by k), and what continuing a run reads before its first new trial
# (run.json, the lock, trial ids and states from the index) against the previous
# full decode. Prints wall and CPU time (user + sys: the machine may be shared),
# peak RSS and the ratios. Targets: report on 100k under 200 MB and >= 4x faster;
# continuing with 100k recorded trials within 2 s and 100 MB. Sizes: SIZES="1000 10000 100000".
set -u
cd "$(dirname "$0")/.."
BIN=${TABULA:-./tabula}
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (make deps)"; exit 0; }
W=$(mktemp -d /tmp/tabula_report_scale.XXXXXX)
trap 'rm -rf "$W"' EXIT
"$BIN" run scenarios/xiangqibench --limit 40 --trials 1 --quiet --out "$W/template" > /dev/null
measure() {   # label, command... -> "label wall_s rss_kb cpu_s"
  local label=$1; shift
  /usr/bin/time -f "$label %e %M %U %S" -o "$W/time" "$@" > /dev/null 2>&1
  awk '{ print $1, $2, $3, $4 + $5 }' "$W/time"
}
for n in ${SIZES:-1000 10000 100000}; do
  "$BIN" bench/report_scale.lua make "$W/template" "$W/run$n" "$n" > /dev/null
  size=$(du -m "$W/run$n/trials.jsonl" | cut -f1)
  { measure new "$BIN" report --no-html "$W/run$n"
    measure old "$BIN" bench/report_scale.lua old "$W/run$n"
    measure resume "$BIN" bench/report_scale.lua resume "$W/run$n"
    measure resume_old "$BIN" bench/report_scale.lua resume-old "$W/run$n"
  } | awk -v n="$n" -v mb="$size" '
    { wall[$1] = $2; rss[$1] = $3 / 1024; cpu[$1] = $4 }
    END {
      printf "%7d records (%d MB)\n", n, mb
      printf "  report:  %.2fs (cpu %.2fs) %.0f MB  vs before %.2fs (cpu %.2fs) %.0f MB:  %.1fx faster (cpu %.1fx), %.3fx the memory\n",
        wall["new"], cpu["new"], rss["new"], wall["old"], cpu["old"], rss["old"],
        wall["old"] / wall["new"], cpu["old"] / (cpu["new"] > 0 ? cpu["new"] : 0.01), rss["new"] / rss["old"]
      printf "  resume:  %.2fs (cpu %.2fs) %.0f MB  vs before %.2fs (cpu %.2fs) %.0f MB   [target: within 2 s and 100 MB]\n",
        wall["resume"], cpu["resume"], rss["resume"], wall["resume_old"], cpu["resume_old"], rss["resume_old"]
    }'
  rm -rf "$W/run$n"
done
