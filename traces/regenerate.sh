#!/usr/bin/env bash
# Regenerates the golden traces in traces/ with the commands that define them.
# GoldenTracesTest runs each `./interlock check` line below and fails if its output differs from
# the committed file. After a deliberate change: run this, then `git diff traces/` and read the diff.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
status=0
run() {  # exit 0 (SAFE) and 1 (violation) both produce a trace; 2 is an error
  "$@" >/dev/null
  rc=$?
  if [ "$rc" -gt 1 ]; then echo "failed ($rc): $*" >&2; status=2; else echo "ok: $*"; fi
}
run ./interlock check designs/two-lock.design --trace-out traces/two-lock.oom.trace --force
run ./interlock check designs/single-lock.design --overlap b_g2_msm ntt_msm --trace-out traces/single-lock.overlap.trace --force
run ./interlock check designs/reservation.design --vram 32GiB --permits vram_units=32 --overlap h2d ntt_msm --trace-out traces/reservation-32GiB.overlap.trace --force
run ./interlock check designs/cuzk/phase9.design --trace-out traces/cuzk-phase9.swallowed.trace --force
run ./interlock check designs/cuzk/phase10.design --trace-out traces/cuzk-phase10.oom.trace --force
run ./interlock check designs/cuzk/phase11.design --trace-out traces/cuzk-phase11.swallowed.trace --force
run ./interlock check designs/cuzk/phase12.design --trace-out traces/cuzk-phase12.swallowed.trace --force
run ./interlock check designs/cuzk/proposal9.design --trace-out traces/cuzk-proposal9.oom.trace --force
run ./interlock check designs/oom-fallback.design --overlap plan_tiles msm --trace-out traces/oom-fallback.overlap.trace --force
run ./interlock check designs/oom-ignore.design --trace-out traces/oom-ignore.swallowed.trace --force
exit $status
