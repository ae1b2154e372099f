#!/usr/bin/env bash
# Builds the capture library (and its test program) with gcc against the CUDA toolkit's headers and libcupti.
#   capture/src/main/c/build.sh lib   # target/native/libinterlock_capture.so, with libcupti.so.* copied beside it
#   capture/src/main/c/build.sh test  # target/native-test/capture_probe (and _stripped), libnvidia-probe.so and libruntime-probe.so
#                                     # (pthreads, NVTX; no GPU)
# Where no toolkit is found it says so and skips (exit 0), leaving target/native/SKIPPED with the reason; under
# CI=true it fails instead. The toolkit is looked for in CUDA_HOME, CUDA_PATH, the nvcc on PATH, /usr/local/cuda*.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
module="$(cd "$here/../../.." && pwd)"
native="$module/target/native"
what="${1:-lib}"

find_cuda() {
  local candidates=()
  [ -n "${CUDA_HOME:-}" ] && candidates+=("$CUDA_HOME")
  [ -n "${CUDA_PATH:-}" ] && candidates+=("$CUDA_PATH")
  if command -v nvcc >/dev/null; then candidates+=("$(dirname "$(dirname "$(command -v nvcc)")")"); fi
  candidates+=(/usr/local/cuda /usr/local/cuda-*)
  for c in "${candidates[@]}"; do
    for inc in "$c/include" "$c/targets/x86_64-linux/include"; do
      if [ -f "$inc/cuda.h" ] && [ -f "$inc/nvtx3/nvToolsExt.h" ]; then
        cuda="$c"; include="$inc"; return 0
      fi
    done
  done
  return 1
}

skip() {
  mkdir -p "$native"
  [ "$what" = lib ] && rm -f "$native/libinterlock_capture.so"  # no stale library from an earlier build
  echo "$1" > "$native/SKIPPED"
  if [ "${CI:-}" = "true" ]; then
    echo "[interlock] ERROR: $1 (CI=true: the capture library must build)" >&2
    exit 1
  fi
  echo "[interlock] WARNING: $1: libinterlock_capture.so is NOT built and its tests will skip"
  exit 0
}

find_cuda || skip "no CUDA toolkit headers (cuda.h, nvtx3/nvToolsExt.h) in CUDA_HOME, CUDA_PATH, nvcc's or /usr/local/cuda*"
cupti_inc=""
for d in "$include" "$cuda/extras/CUPTI/include"; do [ -f "$d/cupti.h" ] && cupti_inc="$d" && break; done
[ -n "$cupti_inc" ] || skip "no cupti.h under $cuda"
cupti_lib=""
for d in "$cuda/lib64" "$cuda/lib" "$cuda/targets/x86_64-linux/lib" "$cuda/extras/CUPTI/lib64"; do
  [ -e "$d/libcupti.so" ] && cupti_lib="$d" && break
done
[ -n "$cupti_lib" ] || skip "no libcupti.so under $cuda"
command -v gcc >/dev/null || skip "no gcc"

case "$what" in
  lib)
    rm -f "$native/SKIPPED"
    mkdir -p "$native"
    echo "[interlock] building libinterlock_capture.so against $cuda"
    gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -I"$include" -I"$cupti_inc" \
      "$here"/record.c "$here"/filter.c "$here"/posix.c "$here"/cuda.c "$here"/nvtx.c \
      -o "$native/libinterlock_capture.so" \
      -L"$cupti_lib" -lcupti -ldl -lpthread -Wl,--no-undefined -Wl,-rpath,'$ORIGIN'
    # the GPU machine has only the driver: libcupti travels beside the library (found through $ORIGIN)
    soname=$(objdump -p "$cupti_lib/libcupti.so" 2>/dev/null | awk '/SONAME/ { print $2 }')
    cp -L "$cupti_lib/libcupti.so" "$native/${soname:-libcupti.so}"
    ;;
  test)
    [ -f "$native/libinterlock_capture.so" ] || skip "the capture library was not built"
    tests="$module/target/native-test"
    mkdir -p "$tests"
    gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fPIC -shared -pthread "$module/src/test/c/libnvidia_probe.c" \
      -o "$tests/libnvidia-probe.so"
    gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fPIC -shared -pthread "$module/src/test/c/libruntime_probe.c" \
      -o "$tests/libruntime-probe.so"
    gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -pthread -I"$include" "$module/src/test/c/capture_probe.c" \
      -o "$tests/capture_probe" -ldl -Wl,-rpath,'$ORIGIN'
    # without its symbol table: static cudart's functions cannot be told from the application's
    strip --strip-all -o "$tests/capture_probe_stripped" "$tests/capture_probe"
    ;;
  *) echo "usage: build.sh lib|test" >&2; exit 2 ;;
esac
