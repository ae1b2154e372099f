#!/usr/bin/env bash
# Times `check --random` with shrinking, one JVM per seed as a user runs it, and prints per seed the
# wall seconds, the verdict, the shrunk thread counts and length, then the median and the maximum.
# Usage: bash bench/shrink-random.sh [DESIGN] [FIRST_SEED] [LAST_SEED] [SCHEDULES] [-- extra check options]
# Default: designs/many-small.design, seeds 1..20, --random 100.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
design="${1:-designs/many-small.design}"
first="${2:-1}"
last="${3:-20}"
schedules="${4:-100}"
shift $(( $# < 4 ? $# : 4 ))
[ "${1:-}" = "--" ] && shift
./interlock check "$design" --random 1 --seed 1 --json >/dev/null || true # builds the jar once, outside the timings
times=()
printf '%-6s %-8s %-8s %-14s %-8s %-12s %-9s %-16s %s\n' seed seconds verdict threads length original search_s shrink_attempts shrink_s
for seed in $(seq "$first" "$last"); do
  start=$(date +%s.%N)
  json=$(./interlock check "$design" --random "$schedules" --seed "$seed" --json "$@" || true)
  end=$(date +%s.%N)
  secs=$(echo "$end - $start" | bc -l)
  times+=("$secs")
  field() { echo "$json" | grep -o "\"$1\":[^,]*" | head -1 | cut -d: -f2- | tr -d '"'; }
  threads=$(echo "$json" | grep -o '"threads":{[^}]*}' | head -1 | cut -d: -f2-)
  printf '%-6s %-8.2f %-8s %-14s %-8s %-12s %-9s %-16s %s\n' "$seed" "$secs" "$(field verdict)" "$threads" "$(field length)" \
    "$(field original_length)" "$(field seconds)" "$(field shrink_attempts)" "$(field shrink_seconds)"
done
sorted=$(printf '%s\n' "${times[@]}" | sort -g)
n=${#times[@]}
median=$(echo "$sorted" | awk -v n="$n" 'NR == int((n + 1) / 2) { a = $1 } NR == int(n / 2) + 1 { b = $1 } END { printf "%.2f", (a + b) / 2 }')
max=$(echo "$sorted" | tail -1)
printf 'seconds per seed: median %s, max %.2f (%d seeds)\n' "$median" "$max" "$n"
