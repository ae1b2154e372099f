#!/usr/bin/env bash
# spin-compare.sh: Interlock's exhaustive check and Spin side by side on the same designs and worker counts.
#
# Usage: bench/spin-compare.sh [MAX_N] [LIMIT_S]     (defaults: 16 and 120; DESIGNS="two-lock" for fewer designs,
#        DESIGNS="cuzk/head cuzk/phase8" for the corpus; SIZES="2 3 4" for other worker counts than 4, 6, ..., MAX_N)
#
# For the shipped designs single-lock, reservation and two-lock at N = 4, 6, ..., MAX_N workers x 2 jobs, it
# exports the design (`interlock export --promela`) and runs, each under a wall-clock limit of LIMIT_S seconds:
#   interlock  `interlock check --no-minimize`: the exhaustive search at exactly N workers, as Spin searches; without
#              --no-minimize an OOM would also search smaller counts for the fewest threads, which Spin does not do;
#   spin-por   pan compiled with -DSAFETY -DCOLLAPSE (state compression), partial-order reduction on (Spin's default);
#   spin-nopor the same with -DNOREDUCE.
# pan runs with -m10000000 (search depth) and -w26; it stops at its first error, as the checker does. Compiling pan
# (spin -a, gcc -O2) is not counted in its time. A run past the limit is a did-not-finish row (DNF), not an error.
# It prints one table: design, N, tool, verdict, states (stored), wall seconds, peak RSS (/usr/bin/time -v), and
# whether the tool's verdict agrees with the checker's (for a violation: the same kind).
# Installs Spin from Debian (apt-get install -y spin) when it is missing. Needs gcc and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_N=${1:-16}
LIMIT=${2:-120}
if ! command -v spin >/dev/null; then
  echo "installing spin (apt-get install -y spin)" >&2
  apt-get install -y spin >/dev/null
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
./interlock check designs/single-lock.design --json >/dev/null 2>&1 || true   # builds the CLI jar once, outside any timing

# runs "$@" under the limit with GNU time; sets OUT, SECS, RSS_MB, RC
timed() {
  local log="$WORK/time.txt"
  set +e
  OUT=$(timeout "$LIMIT" /usr/bin/time -v -o "$log" "$@" 2>&1)
  RC=$?
  set -e
  SECS=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$log" 2>/dev/null || true)
  RSS_MB=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$log" 2>/dev/null || true)
}

printf '%-12s %3s %-11s %-15s %12s %9s %9s %s\n' design N tool verdict states wall_s rss_mb agrees
echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F); $(spin -V | head -1)"
for design in ${DESIGNS:-single-lock reservation two-lock}; do
  for n in ${SIZES:-$(seq 4 2 "$MAX_N")}; do
    opts=(--threads gpu_worker="$n" --jobs gpu_worker=2)
    timed ./interlock check "designs/$design.design" "${opts[@]}" --no-minimize --max-states 2000000000 --json
    if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
      ref=DNF; states=-; SECS=">$LIMIT"
    else
      ref=$(printf '%s' "$OUT" | grep -o '"verdict":"[A-Z_]*"' | head -1 | cut -d'"' -f4)
      states=$(printf '%s' "$OUT" | grep -o '"searched_states":[0-9]*' | head -1 | cut -d: -f2)
      [ -n "$ref" ] || ref="ERROR"
    fi
    printf '%-12s %3s %-11s %-15s %12s %9s %9s %s\n' "$design" "$n" interlock "$ref" "$states" "$SECS" "$RSS_MB" -
    dir="$WORK/$design-$n"
    mkdir -p "$dir"
    ./interlock export "designs/$design.design" "${opts[@]}" --promela "$dir/model.pml" >/dev/null
    (cd "$dir" && spin -a model.pml >/dev/null)
    for tool in spin-por spin-nopor; do
      flags=(-O2 -DSAFETY -DCOLLAPSE -DVECTORSZ=4096)
      [ "$tool" = spin-nopor ] && flags+=(-DNOREDUCE)
      (cd "$dir" && gcc "${flags[@]}" -o "pan-$tool" pan.c)
      pushd "$dir" >/dev/null   # pan writes its trail file where it runs
      timed "./pan-$tool" -m10000000 -w26
      popd >/dev/null
      if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
        v=DNF; st=-; SECS=">$LIMIT"
      else
        st=$(printf '%s' "$OUT" | grep -o '[0-9]* states, stored' | head -1 | cut -d' ' -f1)
        if v=$(printf '%s' "$OUT" | grep -o 'assertion violated [A-Z_]*' | head -1 | cut -d' ' -f3) && [ -n "$v" ]; then :
        elif printf '%s' "$OUT" | grep -q 'pan:[0-9]*: invalid end state'; then v=DEADLOCK
        elif printf '%s' "$OUT" | grep -q 'errors: 0'; then v=SAFE
        else v=ERROR; fi
        if printf '%s' "$OUT" | grep -q 'max search depth too small\|out of memory'; then v="$v(incomplete)"; fi
      fi
      if [ "$v" = DNF ] || [ "$ref" = DNF ]; then agree=-; elif [ "$v" = "$ref" ]; then agree=yes; else agree=NO; fi
      printf '%-12s %3s %-11s %-15s %12s %9s %9s %s\n' "$design" "$n" "$tool" "$v" "$st" "$SECS" "$RSS_MB" "$agree"
    done
  done
done
