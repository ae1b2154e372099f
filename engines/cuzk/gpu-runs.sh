#!/usr/bin/env bash
# cuzk's real GPU code on the GPU, each run under `interlock capture` (gpu/NOTES.md has the runs). From the repository
# root on a machine with a GPU and only the driver; carry gpu-bundle (gpu/bundle.sh; without it the capture library is
# loaded as `interlock capture` would), capture/target/native
# (bash capture/src/main/c/build.sh lib) and the harnesses (engines/cuzk/build.sh). Most important first, each
# result written to $OUT as it comes:
#   1. phase 9 (599522de), 1 worker, 16 GiB: the pre-staged path, d_temp's cudaMallocAsync fails, the proof is wrong;
#   2. the same with 20 GiB: d_temp fits and the proof is right;
#   3. phase 9 with 2 workers x 1 proof each, 16 GiB;
#   4. phase 9, 1 worker x 2 proofs, 20 GiB: whether its B term differs from proof to proof (gpu/NOTES.md run 77);
#   5. phase 8 (2fac031f) and head (fd51df1a), 2 workers x 1 proof each, 16 GiB: every proof right;
#   6. phase 9 at 20 GiB with CUDA_LAUNCH_BLOCKING=1: B right when the GPU runs the batch additions in issue order.
# Each run spends 50-75 s on the SRS (written, read by the engine's loader, pinned) before its first proof.
# RUNS="p9-16g-1w ..." picks runs by name, in this file's order. LIMIT=S stops a run that would go past S seconds
# from the start (SIGKILL; the capture so far is kept: the library writes it through a shared mapping), so that a
# device call's own limit does not take the whole output. Writes OUT/runs.log and OUT/NAME.capture, OUT/NAME.log.
set -u
I=$PWD/gpu-bundle/interlock
L=$PWD/capture/target/native/libinterlock_capture.so
E=$PWD/engines/cuzk/target
exec > >(tee "$OUT/runs.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
echo "cpus $(nproc), memory $(free -g | awk '/Mem:/ {print $2}') GiB, /dev/shm $(df -BG --output=avail /dev/shm | tail -1)"
want() { [ -z "${RUNS:-}" ] || [[ " $RUNS " == *" $1 "* ]]; }
run() { # run NAME COMMIT HARNESS-ARGS...
  local name=$1 commit=$2; shift 2
  want "$name" || return 0
  echo "== $name: curio $commit, $*${RUN_ENV:+ ($RUN_ENV)}"
  local t0=$SECONDS
  local cut=()
  if [ -n "${LIMIT:-}" ]; then
    [ $((LIMIT - SECONDS)) -gt 10 ] || { echo "skipped: LIMIT=$LIMIT s reached"; return 0; }
    cut=(timeout --signal=KILL $((LIMIT - SECONDS)))
  fi
  if [ -x "$I" ]; then
    "${cut[@]}" env ${RUN_ENV:-} "$I" capture -o "$OUT/$name.capture" --lib "$L" -- "$E/$commit/cuzk-harness" "$@" > "$OUT/$name.log" 2>&1
  else  # without the bundle (64 MiB carry): what `interlock capture` sets, and its cut of the file's trailing NULs
    rm -f /tmp/$name.raw
    "${cut[@]}" env ${RUN_ENV:-} INTERLOCK_CAPTURE_OUT=/tmp/$name.raw LD_PRELOAD=$L CUDA_INJECTION64_PATH=$L \
      NVTX_INJECTION64_PATH=$L "$E/$commit/cuzk-harness" "$@" > "$OUT/$name.log" 2>&1
  fi
  local rc=$?
  [ -x "$I" ] || tr -d '\000' < /tmp/$name.raw > "$OUT/$name.capture"
  grep -E '^(proof|summary|device|srs read|inputs made|  note)|prestage|error|rror|records' "$OUT/$name.log" | grep -Ev 'CUZK_TIMING: (split|prep|async)'
  echo "rc=$rc ($((SECONDS - t0)) s)"
}
run p9-16g-1w 599522de --workers 1 --jobs 1 --budget 16GiB
run p9-20g-1w 599522de --workers 1 --jobs 1 --budget 20GiB
run p9-16g-2w 599522de --workers 2 --jobs 1 --budget 16GiB
run p9-20g-2j 599522de --workers 1 --jobs 2 --budget 20GiB
run p8-16g-2w 2fac031f --workers 2 --jobs 1 --budget 16GiB
run head-16g-2w fd51df1a --workers 2 --jobs 1 --budget 16GiB
# every launch and copy in issue order: execute_batch_addition's two streams then run as it assumes (gpu/NOTES.md run 78)
RUN_ENV=CUDA_LAUNCH_BLOCKING=1 run p9-20g-1w-blocking 599522de --workers 1 --jobs 1 --budget 20GiB
ls -la "$OUT"
