#!/usr/bin/env bash
# Fuzzing at scale: the design parser, the trace reader, the capture reader and the mapping reader each on COUNT inputs
# mutated from the real files (designs/, traces/, observe/src/test/resources/h200), and COUNT/100 of them through
# check, replay and validate in process. Prints one line per reader: inputs tried, how many were read and how many got
# the positioned error, inputs/s; a failure (any other outcome) is shrunk and printed with its seed, and the script
# exits non-zero. `mvn verify` runs the same tests with COUNT = 1000.
# Usage: bash bench/fuzz.sh [COUNT]   (default 100000); SEED=S reproduces a run (-Dinterlock.seed).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count="${1:-100000}"
seed=()
[ -n "${SEED:-}" ] && seed=(-Dinterlock.seed="$SEED")
echo "# fuzz: $count inputs per reader; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
log="${TMPDIR:-/tmp}/interlock-fuzz.$$.log"
start=$(date +%s)
mvn -o -q -B test -pl properties,observe,cli -am -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtest='FuzzProperties,CaptureFuzzProperties,CliFuzzProperties' -Dinterlock.fuzz.count="$count" "${seed[@]}" \
  > "$log" 2>&1
status=$?
grep -E '^\[fuzz\]|FAILED|Reproduce with' "$log" | sed 's/^\x1b\[[0-9;]*m//g'
echo "# $(( $(date +%s) - start )) s in all (with the build); exit $status; full log in $log"
exit $status
