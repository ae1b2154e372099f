#!/usr/bin/env bash
# The GPU runs of issue 14 (gpu/NOTES.md run 30), from the repository root on a machine with a GPU and no toolkit:
# carry capture/target/native (libinterlock_capture.so, libcupti.so.13) and capture/testengine/target (bash
# capture/testengine/build.sh: testengine, smoke).
# Writes OUT/NAME.capture per run and prints exit statuses, record counts and the overhead rounds.
#   bash capture/gpu-runs.sh     (OUT must be set; the device tool sets it)
set -u
L=$PWD/capture/target/native/libinterlock_capture.so
T=capture/testengine/target/testengine
cap() { # cap OUTNAME PROGRAM ARGS...
  local name=$1; shift
  rm -f /tmp/$name.raw
  INTERLOCK_CAPTURE_OUT=/tmp/$name.raw LD_PRELOAD=$L CUDA_INJECTION64_PATH=$L NVTX_INJECTION64_PATH=$L "$@"
  local rc=$?
  tr -d '\000' < /tmp/$name.raw > $OUT/$name.capture
  echo "$name rc=$rc lines=$(wc -l < $OUT/$name.capture)"
}
ldd --version | head -1
cap smoke capture/testengine/target/smoke > $OUT/smoke.log 2>&1; tail -1 $OUT/smoke.log
INTERLOCK_CAPTURE_ALL_DRIVER=1 cap smoke-all capture/testengine/target/smoke > $OUT/smoke-all.log 2>&1; tail -1 $OUT/smoke-all.log
for i in 1 2 3 4 5 6 7 8 9 10; do cap two-lock-$i $T --mode two-lock --workers 3 --jobs 10 --budget 16GiB --jitter-us 2000 --seed $i > $OUT/two-lock-$i.log 2>&1; echo "$(tail -1 $OUT/two-lock-$i.log) failed=$(grep -c FAILED $OUT/two-lock-$i.log)"; done
for m in single-lock phase9-guarded reservation; do cap $m $T --mode $m --workers 3 --jobs 10 --budget 16GiB --jitter-us 2000 --seed 1 > $OUT/$m.log 2>&1; tail -1 $OUT/$m.log; done
cap bug $T --mode bug-every-N --bug-every 4 --workers 3 --jobs 10 --budget 16GiB --jitter-us 2000 --seed 1 > $OUT/bug.log 2>&1; tail -1 $OUT/bug.log
# overhead: single-lock without and with capture, interleaved, 5 rounds, no jitter
for r in 1 2 3 4 5; do
  s=$(date +%s%N); $T --mode single-lock --workers 3 --jobs 10 --budget 16GiB --jitter-us 0 --seed 1 >/dev/null 2>&1; e=$(date +%s%N)
  INTERLOCK_CAPTURE_OUT=/tmp/ov-$r.raw LD_PRELOAD=$L CUDA_INJECTION64_PATH=$L NVTX_INJECTION64_PATH=$L $T --mode single-lock --workers 3 --jobs 10 --budget 16GiB --jitter-us 0 --seed 1 >/dev/null 2>&1; f=$(date +%s%N)
  echo "overhead round $r plain_ms=$(( (e-s)/1000000 )) captured_ms=$(( (f-e)/1000000 ))"
done
