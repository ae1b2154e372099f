#!/usr/bin/env bash
# The GPU runs of issue 34 (gpu/NOTES.md run 76), from the repository root on a machine with a GPU and no toolkit:
# carry gpu-bundle (gpu/bundle.sh), capture/target/native (bash capture/src/main/c/build.sh lib) and
# capture/testengine/target (bash capture/testengine/build.sh). Most important first, each result written as it comes:
# 1. replays on CudaDevice of a handled failure (oom-fallback), an ignored one (oom-ignore) and cuzk phase 9's
#    swallowed H-MSM allocation, each where the driver's own out-of-memory must come;
# 2. FallibleAllocGpuIT;
# 3. captures of the test engine's modes (3 workers x 10 jobs, 16 GiB budget), each inferred, validated and checked:
#    prestage-fallback and bug-every-N first;
# 4. two-lock's replay and a free run of oom-ignore on the GPU.
# Writes OUT/runs.log (with the inferred designs) and OUT/MODE.capture.
set -u
L=$PWD/capture/target/native/libinterlock_capture.so
T=$PWD/capture/testengine/target/testengine
I=$PWD/gpu-bundle/interlock
exec > >(tee "$OUT/runs.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
for t in traces/oom-fallback.overlap.trace traces/oom-ignore.swallowed.trace traces/cuzk-phase9.swallowed.trace; do
  echo "== replay $t --on gpu"; $I replay "$t" --on gpu; echo "rc=$?"
done
echo "== FallibleAllocGpuIT"
GPU_TESTS='.*FallibleAllocGpuIT$' bash gpu-bundle/run-gpu-tests.sh 2>&1 | grep -E "tests (successful|failed|aborted)|✘|✔" | head -20
mkdir -p /tmp/caps && echo 'ignore thread main' > /tmp/caps/main.map
cap() { # cap NAME ARGS...
  local name=$1; shift
  INTERLOCK_CAPTURE_OUT=/tmp/caps/$name.raw LD_PRELOAD=$L CUDA_INJECTION64_PATH=$L NVTX_INJECTION64_PATH=$L $T "$@" > /tmp/caps/$name.log 2>&1
  echo "== capture $name: testengine rc=$? $(tail -1 /tmp/caps/$name.log)"
  tr -d '\000' < /tmp/caps/$name.raw > "$OUT/$name.capture"
  $I infer "$OUT/$name.capture" --map /tmp/caps/main.map --vram 16GiB -o /tmp/caps/$name.design --force 2>&1 | grep -v "^warning" | head -3
  grep -v "^# warning" /tmp/caps/$name.design
  $I validate /tmp/caps/$name.design "$OUT/$name.capture" --map /tmp/caps/main.map 2>&1 | head -6; echo "validate rc=${PIPESTATUS[0]}"
  $I check /tmp/caps/$name.design 2>&1 | sed -n 3,5p
}
cap prestage-fallback --mode prestage-fallback --workers 3 --jobs 10 --budget 16GiB --jitter-us 2000 --seed 1
cap bug --mode bug-every-N --bug-every 4 --workers 3 --jobs 10 --budget 16GiB --jitter-us 2000 --seed 1
[ -n "${QUICK:-}" ] && exit 0  # QUICK=1: only the runs above (a short lease)
for m in two-lock single-lock phase9-guarded reservation; do
  cap $m --mode $m --workers 3 --jobs 10 --budget 16GiB --jitter-us 2000 --seed 1
done
echo "== replay traces/two-lock.oom.trace --on gpu"; $I replay traces/two-lock.oom.trace --on gpu; echo "rc=$?"
echo "== run designs/oom-ignore.design --device gpu"; $I run designs/oom-ignore.design --device gpu | tail -14
