#!/usr/bin/env bash
# Compiles the CUDA sources into the committed kernel images under gpu/src/main/resources/dev/interlock/gpu/cuda:
# touch.ptx and kernels.ptx.gz (PTX for sm_90, which the driver compiles at load on any newer GPU) and kernels.cubin.gz
# (sm_90 machine code, loaded as is on Hopper: no minute-long JIT at start). kernels.sources.sha256 records the hash
# of the sources they came from; KernelImagesTest fails when it no longer matches.
#   gpu/src/main/cuda/compile.sh             # compile now (needs nvcc)
#   gpu/src/main/cuda/compile.sh --if-stale  # what `mvn` runs: only when the sources changed, only where nvcc is
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../resources/dev/interlock/gpu/cuda"
sources=(touch.cu field.cuh curve.cuh g1.cuh g2.cuh kernels.cu)
hash=$(cd "$here" && cat "${sources[@]}" | sha256sum | cut -c1-64)
if [ "${1:-}" = "--if-stale" ]; then
  if [ "$(cat "$out/kernels.sources.sha256" 2>/dev/null)" = "$hash" ]; then
    echo "[interlock] CUDA kernel images are up to date"
    exit 0
  fi
  if ! command -v nvcc >/dev/null; then
    echo "[interlock] WARNING: the CUDA sources changed but there is no nvcc here: the committed kernel images are stale"
    exit 0
  fi
fi
cd "$here"
echo "[interlock] compiling CUDA kernels with $(nvcc --version | tail -1)"
nvcc -arch=sm_90 -ptx touch.cu -o "$out/touch.ptx"
# the two large images are committed gzipped (-n: no name or time, so the bytes depend on the image alone);
# Kernels.resource reads them uncompressed
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
nvcc -arch=sm_90 -ptx kernels.cu -o "$tmp/kernels.ptx"
nvcc -arch=sm_90 -cubin kernels.cu -o "$tmp/kernels.cubin"
for f in kernels.ptx kernels.cubin; do
  gzip -9 -n -c "$tmp/$f" > "$out/$f.gz"
  rm -f "$out/$f"
done
echo "$hash" > "$out/kernels.sources.sha256"
