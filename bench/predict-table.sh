#!/usr/bin/env bash
# Predicted beside measured throughput, per design and worker count: each cell of MEASURED ("DESIGN WORKERS
# JOBS_PER_MIN" lines, as gpu/predict-proving.sh writes them) simulated from the one durations file DURATIONS, with
# PER_WORKER (default 8) jobs per worker as measured, on a machine of CORES host cores (default 16) and a GPU that runs
# one kernel at a time.
# Extra arguments go to every simulate (e.g. --gpu-concurrent 2 --gpu-slowdown 1.3).
#   bash bench/predict-table.sh DURATIONS MEASURED [INTERLOCK] [SIMULATE OPTIONS...]
set -uo pipefail
durations="${1:?DURATIONS}"; measured="${2:?MEASURED}"; cli="${3:-./interlock}"
shift $(( $# < 3 ? $# : 3 ))
printf '%-26s %7s %12s %12s %8s\n' design workers measured predicted error
worst=0
while read -r design w rate; do
  extra=(); [ "$design" = reservation ] && extra=(--permits vram_units=32 --vram 32GiB)
  pred=$("$cli" simulate "designs/$design.design" "${extra[@]}" --workers "$w" --jobs "gpu_worker=${PER_WORKER:-8}" --runs 5 \
    --cores "${CORES:-16}" --durations "$durations" --json "$@" | grep -o '"jobs_per_minute":[0-9.]*' | head -1 | cut -d: -f2)
  err=$(awk -v p="$pred" -v m="$rate" 'BEGIN { if (m + 0 > 0 && p != "") printf "%+.1f%%", 100 * (p - m) / m; else print "-" }')
  printf '%-26s %7s %12s %12.1f %8s\n' "$design" "$w" "$rate" "${pred:-0}" "$err"
  worst=$(awk -v e="${err%\%}" -v w="$worst" 'BEGIN { e = e < 0 ? -e : e; print (e > w ? e : w) }')
done < "$measured"
echo "worst cell: ${worst}%"
