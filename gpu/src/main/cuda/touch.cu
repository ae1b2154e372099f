// The kernel behind a design's `kernel K uses B...` on the GPU: it reads every used buffer's first and
// last byte (volatile loads, nothing written, so the data a pipeline staged stays intact), so a kernel on
// a freed or foreign pointer faults the way a real NTT or MSM would, and the launch is real work on the
// worker's stream.
extern "C" __global__ void touch(const unsigned char* buf, unsigned long long bytes) {
  if (threadIdx.x == 0 && blockIdx.x == 0 && bytes > 0) {
    const volatile unsigned char* b = buf;
    (void)b[0];
    (void)b[bytes - 1];
  }
}
