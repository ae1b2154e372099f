#!/usr/bin/env bash
# The GPU runs of issue 34 (gpu/NOTES.md run 76), from the repository root on a machine with a GPU and no toolkit:
# carry gpu-bundle (gpu/bundle.sh), capture/target/native (bash capture/src/main/c/build.sh lib) and
# capture/testengine/target (bash capture/testengine/build.sh).
# 1. FallibleAllocGpuIT and ReplayGpuIT; replays on CudaDevice of a handled failure, ignored failures and two-lock's OOM;
#    a free run of designs/oom-ignore.design on the GPU.
# 2. Captures of every test engine mode (3 workers x 10 jobs, 16 GiB budget), each inferred, validated and checked.
# Writes OUT/runs.log and OUT/captures.tar.gz (the captures, the inferred designs, their outputs).
set -u
L=$PWD/capture/target/native/libinterlock_capture.so
T=capture/testengine/target/testengine
I=gpu-bundle/interlock
exec > >(tee "$OUT/runs.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
echo "== GPU tests"
GPU_TESTS='.*(FallibleAllocGpuIT|ReplayGpuIT)$' bash gpu-bundle/run-gpu-tests.sh 2>&1 | grep -E "tests (successful|failed|aborted|skipped)|✘|MethodSource|JUnit Jupiter|GpuIT" | head -60
for t in traces/oom-fallback.overlap.trace traces/oom-ignore.swallowed.trace traces/cuzk-phase9.swallowed.trace traces/two-lock.oom.trace; do
  echo "== replay $t --on gpu"; $I replay "$t" --on gpu; echo "rc=$?"
done
echo "== run designs/oom-ignore.design --device gpu"; $I run designs/oom-ignore.design --device gpu | tail -14; echo "rc=$?"
mkdir -p /tmp/caps && cd /tmp/caps && echo 'ignore thread main' > main.map
cap() { # cap NAME ARGS...
  local name=$1; shift
  INTERLOCK_CAPTURE_OUT=/tmp/caps/$name.raw LD_PRELOAD=$L CUDA_INJECTION64_PATH=$L NVTX_INJECTION64_PATH=$L "$OLDPWD/$T" "$@" > $name.log 2>&1
  echo "== capture $name: testengine rc=$? $(tail -1 $name.log)"
  tr -d '\000' < $name.raw > $name.capture && rm -f $name.raw
  (cd "$OLDPWD" && $I infer /tmp/caps/$name.capture --map /tmp/caps/main.map --vram 16GiB -o /tmp/caps/$name.design --force) > $name.infer 2>&1; echo "infer rc=$?"; cat $name.infer | head -8
  (cd "$OLDPWD" && $I validate /tmp/caps/$name.design /tmp/caps/$name.capture --map /tmp/caps/main.map) > $name.validate 2>&1; echo "validate rc=$?"; head -6 $name.validate
  (cd "$OLDPWD" && $I check /tmp/caps/$name.design) > $name.check 2>&1; echo "check rc=$?"; sed -n 3,5p $name.check
}
for m in two-lock single-lock phase9-guarded reservation prestage-fallback; do
  cap $m --mode $m --workers 3 --jobs 10 --budget 16GiB --jitter-us 2000 --seed 1
done
cap bug --mode bug-every-N --bug-every 4 --workers 3 --jobs 10 --budget 16GiB --jitter-us 2000 --seed 1
tar czf "$OUT/captures.tar.gz" *.capture *.design *.log *.infer *.validate *.check main.map
