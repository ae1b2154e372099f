// Issue rate of the multiply pipe and of Fp products on this GPU, by independent chains per thread and resident warps:
// tells whether the MSM accumulation is bound by multiply-pipe throughput or by the latency of its carry chains
// (gpu/NOTES.md, "Left alone"). Each kernel runs K independent dependent chains per thread (a chain's next operation
// needs its previous result), one wave of B blocks of 128 threads per SM:
//   wide   K chains of IMAD.WIDE.U32 (a 64-bit product, the form of the carry chains' multiply-adds), each followed
//          by a LOP3 on the integer pipe that folds its halves into the next multiplicand
//   lo     K chains of IMAD (mad.lo.u32)
//   fpmul  K chains of Fp::mul (field.cuh's Montgomery product, split form)
// and prints, per kernel, K and B: the median time of 5 runs (device events), the rate (warp-operations per SM per
// cycle; for fpmul products per SM per 1000 cycles) at the device's maximum SM clock (or MUL_RATE_MHZ; check the clock
// under load with nvidia-smi), and the operations (for fpmul: products) per second of the whole GPU. Where B blocks do
// not all fit on an SM at once (fpmul's registers), the line says so: that launch runs in more than one wave. Rising
// with K at fixed B means latency bounds one chain; flat means the pipe is full. Last, fpmul at 3 warps a scheduler
// in other block shapes (fpmul/384: one block of 384 threads an SM; /64, /32: 6 and 12 blocks).
// On an H100 (gpu/NOTES.md, runs 69-70): IMAD.WIDE at most ~0.24 warp-instructions a cycle per scheduler, IMAD ~0.49;
// Fp::mul at ~95% of the pipe's rate (2.7e10 products/s) from 2 warps a scheduler, whatever K, except in 3 blocks of
// 128 an SM (2.35e10) where one block of 384 reached 2.76e10.
//   nvcc -arch=sm_90 -O3 -o mul_rate gpu/src/test/cuda/mul_rate.cu && ./mul_rate
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>
#include "../../main/cuda/field.cuh"

#define CHECK(x)                                                                  \
  do {                                                                            \
    cudaError_t e = (x);                                                          \
    if (e != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

/** One wide step: IMAD.WIDE.U32 (multiply pipe), then a LOP3 (integer pipe) folding its two halves. */
struct Wide {
  __device__ static uint32_t step(uint32_t a, uint32_t m) {
    uint64_t w;
    asm volatile("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(m));
    return (uint32_t)w ^ (uint32_t)(w >> 32);
  }
};

/** One IMAD (mad.lo.u32). */
struct Lo {
  __device__ static uint32_t step(uint32_t a, uint32_t m) {
    asm volatile("mad.lo.u32 %0, %0, %1, %0;" : "+r"(a) : "r"(m));
    return a;
  }
};

/** K chains a thread of 8·iters steps of Op each. */
template <class Op, int K>
__global__ void __launch_bounds__(128) chains(uint32_t* out, uint32_t m, int iters) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a[K];
#pragma unroll
  for (int k = 0; k < K; k++) a[k] = t * 2654435761u + k;
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int r = 0; r < 8; r++) {
#pragma unroll
      for (int k = 0; k < K; k++) a[k] = Op::step(a[k], m);
    }
  }
  uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < K; k++) s ^= a[k];
  out[t] = s;
}

template <int K>
__global__ void __launch_bounds__(384) fpmul(const Fp* in, Fp* out, int iters) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  Fp x[K];
#pragma unroll
  for (int k = 0; k < K; k++) x[k] = in[(t * K + k) & 1023];
  Fp y = in[(t + 511) & 1023];
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int k = 0; k < K; k++) x[k] = Fp::mul(x[k], y);
  }
  Fp s = x[0];
#pragma unroll
  for (int k = 1; k < K; k++) s = Fp::add(s, x[k]);
  out[t] = s;
}

static int sms;
static double mhz;

/** Median milliseconds of 5 runs of launch() (after one warm-up), by device events. */
template <class L>
static double median_ms(L launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int r = 0; r < 5; r++) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float f;
    CHECK(cudaEventElapsedTime(&f, a, b));
    ms.push_back(f);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[2];
}

/**
 * One line: kernel (and threads a block where not 128), K, B (the SM's warps in blocks of 128), whether the blocks of
 * kernel f all fit on an SM at once (else the launch runs in more than one wave and the warps a scheduler are fewer
 * than B), the time, and the rate: warp-operations per SM per cycle, or for fpmul products per SM per 1000 cycles.
 */
template <class F>
static void report(const char* name, F f, int threads, int k, int b, double ms, double ops_per_thread) {
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, f, threads, 0));
  int blocks = b * 128 / threads;
  double all = (double)sms * b * 128;
  double cycles = ms * 1e-3 * mhz * 1e6;
  bool fp = name[0] == 'f';
  double rate = fp ? all * ops_per_thread / sms / cycles * 1000 : all * ops_per_thread / 32 / sms / cycles;
  char fit[48];
  if (blocks <= resident) snprintf(fit, sizeof fit, "warps/scheduler=%d", b);
  else snprintf(fit, sizeof fit, "%d of %d blocks resident", resident, blocks);
  printf("%-9s K=%d B=%d %-25s %8.3f ms  %7.3f %-20s %9.3e ops/s\n", name, k, b, fit, ms, rate,
         fp ? "products/SM/kcycle" : "warp-ops/SM/cycle", all * ops_per_thread / (ms * 1e-3));
}

template <int K>
static void run_int(uint32_t* out, int b, int iters) {
  dim3 grid(sms * b);
  report("wide", chains<Wide, K>, 128, K, b,
         median_ms([&] { chains<Wide, K><<<grid, 128>>>(out, 0x9e3779b9u, iters); }), 8.0 * K * iters);
  report("lo", chains<Lo, K>, 128, K, b, median_ms([&] { chains<Lo, K><<<grid, 128>>>(out, 0x9e3779b9u, iters); }),
         8.0 * K * iters);
}

template <int K>
static void run_fp(const Fp* in, Fp* out, int b, int iters, int threads = 128) {
  dim3 grid(sms * b * 128 / threads);
  char name[32];
  snprintf(name, sizeof name, threads == 128 ? "fpmul" : "fpmul/%d", threads);
  report(name, fpmul<K>, threads, K, b, median_ms([&] { fpmul<K><<<grid, threads>>>(in, out, iters); }),
         (double)K * iters);
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  sms = prop.multiProcessorCount;
  int khz = 0;
  CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  mhz = getenv("MUL_RATE_MHZ") ? atof(getenv("MUL_RATE_MHZ")) : khz / 1000.0;
  printf("%s, %d SMs, rates at %.0f MHz (4 schedulers an SM; B blocks of 128 threads an SM = B warps a scheduler "
         "where they fit)\n", prop.name, sms, mhz);
  uint32_t* out;
  CHECK(cudaMalloc(&out, (size_t)sms * 16 * 128 * sizeof(Fp)));
  std::vector<Fp> host(1024);
  uint64_t x = 0x243f6a8885a308d3ull;  // values below 2^380 < p, so any Fp input is valid
  for (auto& f : host)
    for (int i = 0; i < 12; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      f.v[i] = (uint32_t)(x >> 32) & (i == 11 ? 0x0fffffffu : 0xffffffffu);
    }
  Fp* in;
  CHECK(cudaMalloc(&in, host.size() * sizeof(Fp)));
  CHECK(cudaMemcpy(in, host.data(), host.size() * sizeof(Fp), cudaMemcpyHostToDevice));
  for (int b : {1, 2, 3, 4, 8}) {
    run_int<1>(out, b, 4096);
    run_int<2>(out, b, 4096);
    run_int<4>(out, b, 2048);
    run_int<8>(out, b, 1024);
  }
  for (int b : {1, 2, 3, 4, 6, 8}) {
    run_fp<1>(in, (Fp*)out, b, 2048);
    run_fp<2>(in, (Fp*)out, b, 1024);
    run_fp<4>(in, (Fp*)out, b, 512);
  }
  // 3 warps a scheduler in other block shapes: 1 block of 384 threads, 6 of 64, 12 of 32 an SM
  for (int threads : {384, 64, 32}) run_fp<1>(in, (Fp*)out, 3, 2048, threads);
  return 0;
}
