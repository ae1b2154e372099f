// The capture library's GPU smoke program (gpu/NOTES.md run 30): one of each CUDA call the capture records, then exit 3.
#include <cstdio>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
__global__ void touch_kernel(char *p, size_t n) { size_t i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 1; }
int main() {
  nvtxRangePushA("job");
  char *a = nullptr; cudaMalloc(&a, 1 << 20);
  touch_kernel<<<4096, 256>>>(a, 1 << 20);
  cudaDeviceSynchronize();
  cudaStream_t s; cudaStreamCreate(&s);
  char *b = nullptr; cudaMallocAsync(&b, 1 << 22, s);
  touch_kernel<<<1, 32, 0, s>>>(b, 32);
  cudaFreeAsync(b, s); cudaStreamSynchronize(s);
  size_t fr, tot; cudaMemGetInfo(&fr, &tot);
  char *huge = nullptr; cudaError_t e = cudaMalloc(&huge, (size_t)1 << 40);
  printf("huge alloc: %d\n", (int)e);
  cudaFree(a);
  nvtxRangePop();
  return 3;
}
