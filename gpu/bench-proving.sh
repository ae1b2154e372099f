#!/usr/bin/env bash
# Proofs per minute on the GPU: single-lock, single-lock-late-release and reservation (two reservations fit:
# --permits vram_units=32), 1-4 workers, PARTITIONS (default 10) partitions of 2^LOG constraints, VRAM budget BUDGET
# for all. DESIGNS and WORKERS (space-separated) choose other designs and worker counts. Run where `interlock` works
# with a GPU:
#   bash gpu/bench-proving.sh [LOG] [BUDGET] [INTERLOCK] [PROVE OPTIONS...]
# (defaults: 18 512MiB ./interlock; on the device machine pass gpu-bundle/interlock). Further arguments go to every
# `prove`, e.g. --witness filecoin (cuzk's proportions: the GPU section several times b_g2_msm's CPU time), or
# --reuse-host-work (with PARTITIONS=40) for the GPU-bound regime. With FRESH_KEYS=1 each run makes its keys in a new
# temporary directory (on a GPU, setup's fixed-base kernel makes them faster than the cache loads them).
# A design named *-g2-split runs with --b-g2 split and one named *-g2-gpu with --b-g2 gpu, unless the options give
# --b-g2; one named *-msm-tables with --msm-tables ${TABLE_COPIES:-13}, unless they give --msm-tables (its tables take
# ~5 GiB at 2^20: give a budget of 6GiB). E.g. cuzk's proportions for five designs at 2^20 in one call:
#   DESIGNS='single-lock single-lock-late-release reservation single-lock-g2-split reservation-msm-tables' \
#     bash gpu/bench-proving.sh 20 6GiB gpu-bundle/interlock --witness filecoin
# Prints one summary line per run, ending with prove's gpu_section_over_host_b_g2 value (the GPU section's stage medians
# over the host b_g2_msm median; "-" when b_g2_msm is not host work). The seed is 7 unless the options give --seed.
set -uo pipefail
log="${1:-18}"; budget="${2:-512MiB}"; cli="${3:-./interlock}"
shift $(( $# < 3 ? $# : 3 ))
seed=(--seed 7); bg2_given=0; tables_given=0
for a in "$@"; do
  [ "$a" = --seed ] && seed=(); [ "$a" = --b-g2 ] && bg2_given=1; [ "$a" = --msm-tables ] && tables_given=1
done
status=0
for design in ${DESIGNS:-single-lock single-lock-late-release reservation}; do
  extra=()
  [ "$design" = reservation ] && extra=(--permits vram_units=32 --vram 32GiB)
  if [ "$bg2_given" = 0 ]; then
    case "$design" in *-g2-split) extra+=(--b-g2 split) ;; *-g2-gpu) extra+=(--b-g2 gpu) ;; esac
  fi
  if [ "$tables_given" = 0 ]; then
    case "$design" in *-msm-tables) extra+=(--msm-tables "${TABLE_COPIES:-13}") ;; esac
  fi
  for w in ${WORKERS:-1 2 3 4}; do
    keys=(); [ "${FRESH_KEYS:-0}" = 1 ] && keys=(--keys "$(mktemp -d)")
    out=$("$cli" prove --design "designs/$design.design" "${extra[@]}" --workers "$w" --n "2^$log" --partitions "${PARTITIONS:-10}" \
      --device gpu --gpu-budget "$budget" --no-timeline "${seed[@]}" "${keys[@]}" "$@" 2>&1) || { status=1; echo "$design workers=$w FAILED: $(echo "$out" | tail -1)"; }
    echo "$design workers=$w | $(echo "$out" | grep -E '^wall' | cut -c11-) | $(echo "$out" | grep -E 'proofs verified') | $(echo "$out" | grep -E '^gpu busy' | cut -c11-) | $(echo "$out" | grep -E '^stages' | cut -c11-) | $(echo "$out" | grep -E '^locks' | cut -c11-) | gpu_section_over_host_b_g2 $(echo "$out" | grep -E '^gpu_section_over_host_b_g2 ' | cut -d' ' -f2 | grep . || echo -)$(echo "$out" | grep -E '^tables' | sed 's/^tables */ | /')"
    if [ "${#keys[@]}" -gt 0 ]; then rm -rf "${keys[1]}"; fi
  done
done
exit "$status"
