#!/usr/bin/env bash
# Proofs per minute on the GPU: single-lock vs reservation (two reservations fit: --permits vram_units=32), 1-4
# workers, 10 partitions of 2^LOG constraints, VRAM budget BUDGET for both. Run where `interlock` works with a GPU:
#   bash gpu/bench-proving.sh [LOG] [BUDGET] [INTERLOCK]   (defaults: 18 512MiB ./interlock; on the device machine
#   pass gpu-bundle/interlock). Prints one summary line per run.
set -uo pipefail
log="${1:-18}"; budget="${2:-512MiB}"; cli="${3:-./interlock}"
for design in single-lock reservation; do
  extra=()
  [ "$design" = reservation ] && extra=(--permits vram_units=32 --vram 32GiB)
  for w in 1 2 3 4; do
    out=$("$cli" prove --design "designs/$design.design" "${extra[@]}" --workers "$w" --n "2^$log" --partitions 10 \
      --device gpu --gpu-budget "$budget" --no-timeline --seed 7 2>&1)
    echo "$design workers=$w | $(echo "$out" | grep -E '^wall' | cut -c11-) | $(echo "$out" | grep -E 'proofs verified') | $(echo "$out" | grep -E '^stages' | cut -c11-)"
  done
done
