#!/usr/bin/env bash
# Exhaustive checker at scale: single-lock, N workers x 2 jobs, N = 6, 8, ..., 16, with partial-order reduction on
# and off in the same run; prints per row the states, wall seconds, the state store's peak MiB and the verdict.
# One JVM per row (`interlock bench --from N --to N`). A row that runs past LIMIT_S seconds is printed as DNF.
# Usage: bash bench/checker-scale.sh [DESIGN] [-- extra bench options, e.g. --search-threads 1]
# Environment: SIZES (default "6 8 10 12 14 16"), NO_POR_UP_TO (largest N searched without POR, default 16),
#              LIMIT_S (default 300), MAX_STATES (default 20000000, as check's default).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
design="${1:-designs/single-lock.design}"
shift $(( $# < 1 ? $# : 1 ))
[ "${1:-}" = "--" ] && shift
sizes="${SIZES:-6 8 10 12 14 16}"
no_por_up_to="${NO_POR_UP_TO:-16}"
limit_s="${LIMIT_S:-300}"
max_states="${MAX_STATES:-20000000}"
./interlock bench "$design" --from 2 --to 2 >/dev/null # builds the jar once, outside the timings
echo "# $design, N workers x 2 jobs, symmetry reduction on; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
printf '%-4s %-7s %12s %14s %9s %10s  %s\n' N por states transitions seconds store_MiB verdict
for n in $sizes; do
  for por in on off; do
    if [ "$por" = off ] && [ "$n" -gt "$no_por_up_to" ]; then
      printf '%-4s %-7s %12s %14s %9s %10s  %s\n' "$n" "$por" - - - - "skipped (NO_POR_UP_TO=$no_por_up_to)"
      continue
    fi
    flags=(--from "$n" --to "$n" --max-states "$max_states")
    [ "$por" = off ] && flags+=(--no-por)
    if row=$(timeout "$limit_s" ./interlock bench "$design" "${flags[@]}" "$@" | grep -E '^[0-9]+ '); then
      read -r _ _ states transitions seconds _ mib verdict <<<"$row"
      printf '%-4s %-7s %12s %14s %9s %10s  %s\n' "$n" "$por" "$states" "$transitions" "$seconds" "$mib" "$verdict"
    else
      printf '%-4s %-7s %12s %14s %9s %10s  %s\n' "$n" "$por" - - ">$limit_s" - "DNF (did not finish in ${limit_s} s)"
    fi
  done
done
