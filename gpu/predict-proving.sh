#!/usr/bin/env bash
# Predicted against measured full proofs on the GPU (issue 37). One worker of single-lock proves MEASURE partitions
# (default 16) with --durations-out; then single-lock, single-lock-late-release and reservation (--permits
# vram_units=32 --vram 32GiB, two reservations fit) prove PER_WORKER (default 8) partitions per worker at 1-4
# workers, each cell with its own durations file; then bench/predict-table.sh predicts every cell from the one-worker file alone and prints predicted
# beside measured. Full proofs at 2^LOG constraints (default 20), Filecoin's witness, the G2 MSM inline at the design's
# `cpu b_g2_msm` step (--b-g2 inline: nothing runs beside the design's steps), budget BUDGET (default 2GiB).
#   bash gpu/predict-proving.sh OUTDIR [LOG] [BUDGET] [INTERLOCK]     # on the device: INTERLOCK=gpu-bundle/interlock
# OUTDIR gets durations-1w.txt (the measurement), measured.txt (design workers proofs/min per cell), one durations file
# and prove's output per cell.
set -uo pipefail
out="${1:?OUTDIR}"; log="${2:-20}"; budget="${3:-2GiB}"; cli="${4:-./interlock}"
mkdir -p "$out"
# each run makes its keys in a new directory: on a GPU, setup's fixed-base kernel makes them faster than a cache loads them
keys() { local k; k=$(mktemp -d); echo "$k"; }
dev=(--device gpu --gpu-budget "$budget"); [ "${DEVICE:-gpu}" = simulated ] && dev=(--device simulated)  # a dry run here
common=(--n "2^$log" "${dev[@]}" --witness filecoin --b-g2 inline --no-timeline --seed 7)
"$cli" prove --design designs/single-lock.design --workers 1 --partitions "${MEASURE:-16}" "${common[@]}" --keys "$(keys)" \
  --durations-out "$out/durations-1w.txt" > "$out/prove-measure.txt" 2>&1 || { echo "measurement FAILED"; tail -5 "$out/prove-measure.txt"; exit 1; }
grep -E '^(gpu|wall|stages|[0-9]+/[0-9]+ proofs)' "$out/prove-measure.txt"
: > "$out/measured.txt"
status=0
for design in ${DESIGNS:-single-lock single-lock-late-release reservation}; do
  extra=(); [ "$design" = reservation ] && extra=(--permits vram_units=32 --vram 32GiB)
  for w in ${WORKERS:-1 2 3 4}; do
    f="$out/$design-$w"
    "$cli" prove --design "designs/$design.design" "${extra[@]}" --workers "$w" --partitions $((${PER_WORKER:-8} * w)) "${common[@]}" --keys "$(keys)" \
      --durations-out "$f.durations.txt" > "$f.txt" 2>&1 || status=1
    rate=$(grep -E '^wall' "$f.txt" | sed -E 's/.* s, ([0-9.]+) proofs per minute.*/\1/')
    echo "$design $w ${rate:-FAILED}" | tee -a "$out/measured.txt"
    grep -E 'proofs verified' "$f.txt"
  done
done
bash bench/predict-table.sh "$out/durations-1w.txt" "$out/measured.txt" "$cli" || status=1
exit "$status"
