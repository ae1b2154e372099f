#!/usr/bin/env bash
# Builds capture/testengine/target/testengine for sm_90 (H200) with the static cudart (nvcc's default), so that the
# GPU machine needs only the driver. NVTX is header-only (NVTX3); -ldl for its injection loader.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda-13.0/bin/nvcc)}"
mkdir -p "$here/target"
"$NVCC" -O2 -std=c++17 -arch=sm_90 -lineinfo -Xcompiler -Wall,-Wextra,-pthread \
  -o "$here/target/testengine" "$here/testengine.cu" -ldl -lpthread
echo "built $here/target/testengine"
# the capture library's smoke program: one of each CUDA call it records (capture/gpu-runs.sh)
"$NVCC" -O2 -std=c++17 -arch=sm_90 -o "$here/target/smoke" "$here/smoke.cu" -ldl
echo "built $here/target/smoke"
