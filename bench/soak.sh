#!/usr/bin/env bash
# Soak: many jobs on the reference engine under injected faults (docs/faults.md), with retries; prints throughput,
# faults injected per kind, retries, completed, failed after retries, jobs lost, device contexts recreated and whether
# shutdown was clean (the `run` command's lines), and the most heap used after any GC (from -Xlog:gc, added to
# INTERLOCK_JAVA_OPTS, which both launchers pass to java; set -Xmx there too), then checks that no job was lost and
# shutdown was clean. `run` keeps no event and no job's result here (only their counts), so the heap does not grow
# with JOBS.
#   bash bench/soak.sh                                   # 10^5 jobs of single-lock, 3 threads, on the simulated device
#   bash bench/soak.sh gpu-bundle/interlock --device gpu # 10^3 jobs of bench/soak-gpu.design on CUDA device 0
# The first argument, when it is not an option, is the interlock launcher (default ./interlock); the rest go to `run`.
# JOBS=N sets the number of jobs (rounded up to a multiple of the 3 threads); FAULTS=SPEC, FAULT_SEED=S (default
# 20261204, printed: a run is reproducible) and RETRIES=N (default 5) the faults and retries.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
launcher="$root/interlock"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  launcher="$1"
  shift
fi
gpu=no
for a in "$@"; do
  [ "$a" = gpu ] && gpu=yes
done
if [ "$gpu" = yes ]; then
  design="$root/bench/soak-gpu.design"
  jobs="${JOBS:-1000}"
else
  design="$root/designs/single-lock.design"
  jobs="${JOBS:-100000}"
fi
threads=3
per=$(( (jobs + threads - 1) / threads ))
faults="${FAULTS:-alloc=0.05,kernel=0.01,stall=0.01,poison=0.001,interrupt=0.01,exception=0.01}"
seed="${FAULT_SEED:-20261204}"
echo "# soak: $(( per * threads )) jobs ($threads threads x $per) of $(basename "$design"), faults $faults, fault seed $seed, retries ${RETRIES:-5}; $(nproc) cores, $(date -u +%F)"
log="${TMPDIR:-/tmp}/interlock-soak.$$.log"
gclog="${TMPDIR:-/tmp}/interlock-soak.$$.gc.log"
export INTERLOCK_JAVA_OPTS="${INTERLOCK_JAVA_OPTS:-} -Xlog:gc:file=$gclog"
start=$(date +%s)
"$launcher" run "$design" --threads gpu_worker=$threads --jobs gpu_worker=$per --faults "$faults" --fault-seed "$seed" \
  --retries "${RETRIES:-5}" "$@" > "$log" 2>&1
status=$?
grep -E '^(design|faults|jobs|device|events|throughput|injected|retries|outcome|contexts|shutdown) ' "$log"
if [ -s "$gclog" ]; then
  grep -o '[0-9]*M->[0-9]*M([0-9]*M)' "$gclog" | awk -F'->' '{split($2, a, /[M(]/); if (a[1] + 0 > most) most = a[1] + 0; n++}
    END {printf "# heap: %d MiB most used after a GC, of %d GCs (-Xlog:gc: %s)\n", most, n, f}' f="$gclog"
fi
echo "# $(( $(date +%s) - start )) s in all (with the JVM's start); run exit $status; full log in $log"
if ! grep -q '^outcome ' "$log"; then
  tail -5 "$log" >&2
  echo "# SOAK FAILED: the run did not finish (above: the end of its log)" >&2
  exit 1
fi
if ! grep -q ', 0 lost$' "$log" || ! grep -q '^shutdown  clean' "$log"; then
  echo "# SOAK FAILED: a job was lost or shutdown was not clean" >&2
  exit 1
fi
exit 0
