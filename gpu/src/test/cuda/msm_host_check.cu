// Runs the MSM kernels' per-thread code (kernels.cu's *_at functions) on the CPU, thread after thread, in the order
// Kernels.msm launches them, and compares each result with a plain double-and-add sum of k_i·P_i: plans without a
// table and with precomputed copies, odd sizes, edge scalars (0, 1, r - 1), an identity base, a doubled point, and
// skewed scalars (all 1, 0/1). No GPU needed:
//   nvcc -x cu -O2 -o /tmp/msm_host_check gpu/src/test/cuda/msm_host_check.cu && /tmp/msm_host_check [seed]
// It checks the kernels' logic (digits, table, sort, chunks, combining rounds, reduction), not the device's
// concurrency: KernelsGpuIT runs the same kernels on a GPU against the CPU prover.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <random>
#include <vector>
#include "../../main/cuda/kernels.cu"

static const uint32_t GX[12] = {0xfd530c16u, 0x5cb38790u, 0x9976fff5u, 0x7817fc67u, 0x143ba1c1u, 0x154f95c7u,
                                0xf3d0e747u, 0xf0ae6acdu, 0x21dbf440u, 0xedce6eccu, 0x9e0bfb75u, 0x12017741u};
static const uint32_t GY[12] = {0x0ce72271u, 0xbaac93d5u, 0x7918fd8eu, 0x8c22631au, 0x570725ceu, 0xdd595f13u,
                                0x50405194u, 0x51ac5829u, 0xad0059c0u, 0x0e1c8c3fu, 0x5008a26au, 0x0bbc3efcu};
static const uint32_t R_MINUS_1[8] = {0x00000003u, 0xfffffffdu, 0xfffb13fcu, 0xfb38ec08u,
                                      0x1ce5880fu, 0x99ad8818u, 0x7cd877d8u, 0x5bc8f5f9u};  // Montgomery form

/** The launch parameters Kernels.msm derives from MsmPlan (mirrored here: MsmPlanTest checks the Java side). */
struct Plan {
  uint32_t n, c, windows, copies, sets, buckets, keys, chunk, threads, segments;
  Plan(uint32_t n_, uint32_t c_, uint32_t copies_wanted) : n(n_), c(c_) {
    windows = (256 + c - 1) / c;
    uint32_t want = copies_wanted < windows ? copies_wanted : windows;
    if (want > MSM_MAX_COPIES) want = MSM_MAX_COPIES;
    sets = (windows + want - 1) / want;
    copies = (windows + sets - 1) / sets;
    buckets = 1u << (c - 1);
    keys = sets * buckets;
    uint64_t most = (uint64_t)windows * n;
    uint64_t ch = (most + (1u << 19) - 1) >> 19;
    chunk = (uint32_t)(ch > 32 ? ch : 32);
    threads = (uint32_t)((most + chunk - 1) / chunk);
    uint32_t s = buckets / 32 > 1024 ? buckets / 32 : 1024;
    segments = s < buckets ? s : buckets;
  }
};

static G1Affine affine(const G1Xyzz& p) {
  G1Affine r;
  if (p.is_identity()) {
    r.x = Fp::zero();
    r.y = Fp::zero();
    return r;
  }
  Fp zzi = Fp::inverse(p.ZZ), zzzi = Fp::inverse(p.ZZZ);
  r.x = Fp::reduce(Fp::mul(p.X, zzi));
  r.y = Fp::reduce(Fp::mul(p.Y, zzzi));
  return r;
}

static bool same(const G1Xyzz& a, const G1Xyzz& b) {
  G1Affine x = affine(a), y = affine(b);
  return memcmp(&x, &y, sizeof x) == 0;
}

/** The MSM as the device computes it, every kernel's threads run one after another. */
static G1Xyzz emulated(const std::vector<G1Affine>& bases, const std::vector<Fr>& scalars, const Plan& p) {
  uint32_t n = p.n;
  std::vector<G1Affine> table((size_t)(p.copies - 1) * n + 1);
  for (uint32_t i = 0; i < n; i++) msm_table_at(i, bases.data(), n, p.c * p.sets, p.copies, table.data());
  std::vector<uint32_t> offs(p.keys + 1, 0);
  for (uint32_t i = 0; i < n; i++) msm_count_at(i, scalars.data(), n, p.c, p.windows, p.sets, offs.data());
  uint32_t sum = 0;
  for (auto& x : offs) {
    uint32_t v = x;
    x = sum;
    sum += v;
  }
  std::vector<uint32_t> cursor = offs;
  std::vector<uint32_t> entries((size_t)p.windows * n + 1);
  for (uint32_t i = 0; i < n; i++)
    msm_scatter_at(i, scalars.data(), n, p.c, p.windows, p.sets, cursor.data(), entries.data());
  std::vector<G1Xyzz> buckets(p.keys, G1Xyzz::identity());
  std::vector<uint32_t> keysA(2 * p.threads), keysB(2 * p.threads);
  std::vector<G1Xyzz> valsA(2 * p.threads), valsB(2 * p.threads);
  for (uint32_t t = 0; t < p.threads; t++)
    msm_accumulate_at(t, bases.data(), n, table.data(), entries.data(), offs.data(), p.keys, p.chunk, p.threads,
                      buckets.data(), keysA.data(), valsA.data());
  uint32_t* ink = keysA.data();
  G1Xyzz* inv = valsA.data();
  uint32_t* outk = keysB.data();
  G1Xyzz* outv = valsB.data();
  uint32_t count = 2 * p.threads;
  const uint32_t combine = 8;  // MsmPlan.COMBINE
  while (count > combine) {
    uint32_t threads = (count + combine - 1) / combine;
    for (uint32_t t = 0; t < threads; t++)
      msm_combine_at(t, ink, inv, count, combine, p.keys, threads, buckets.data(), outk, outv);
    count = 2 * threads;
    std::swap(ink, outk);
    std::swap(inv, outv);
  }
  msm_combine_at(0, ink, inv, count, count, p.keys, 1, buckets.data(), nullptr, nullptr);
  std::vector<G1Xyzz> segs((size_t)p.sets * p.segments);
  for (uint32_t t = 0; t < p.sets * p.segments; t++)
    msm_reduce_segments_at(t, buckets.data(), p.buckets, p.segments, p.buckets / p.segments, p.sets, segs.data());
  uint32_t m = p.segments;
  while (m > 256) {
    uint32_t per = (m + 15) / 16;
    std::vector<G1Xyzz> out((size_t)p.sets * per);
    for (uint32_t t = 0; t < p.sets * per; t++) msm_sum_groups_at(t, segs.data(), m, 16, p.sets, out.data());
    segs.swap(out);
    m = per;
  }
  G1Xyzz acc = G1Xyzz::identity();
  for (int s = (int)p.sets - 1; s >= 0; s--) {  // msm_reduce_windows per set, then Kernels.msmResult
    for (uint32_t k = 0; k < p.c; k++) acc.dbl();
    for (uint32_t k = 0; k < m; k++) acc.add(segs[(size_t)s * m + k]);
  }
  return acc;
}

/** sum of k_i·P_i by double-and-add over the canonical scalars. */
static G1Xyzz reference(const std::vector<G1Affine>& bases, const std::vector<Fr>& scalars) {
  G1Xyzz total = G1Xyzz::identity();
  for (size_t i = 0; i < bases.size(); i++) {
    Fr k = Fr::from_mont(scalars[i]);
    G1Xyzz acc = G1Xyzz::identity();
    for (int bit = 254; bit >= 0; bit--) {
      acc.dbl();
      if ((k.v[bit >> 5] >> (bit & 31)) & 1) acc.add(bases[i]);
    }
    total.add(acc);
  }
  return total;
}

static std::mt19937_64 rng;

static std::vector<G1Affine> random_bases(uint32_t n) {
  G1Affine g;
  memcpy(g.x.v, GX, sizeof GX);
  memcpy(g.y.v, GY, sizeof GY);
  std::vector<G1Affine> b(n);
  G1Xyzz step = G1Xyzz::of(g).times((uint32_t)rng() | 1u);
  G1Xyzz p = G1Xyzz::of(g).times((uint32_t)rng());
  for (uint32_t i = 0; i < n; i++) {  // an arithmetic progression: distinct points, one addition each
    b[i] = affine(p);
    p.add(step);
  }
  return b;
}

static std::vector<Fr> random_scalars(uint32_t n) {
  std::vector<Fr> s(n);
  for (auto& x : s) {
    for (int i = 0; i < 8; i++) x.v[i] = (uint32_t)rng();
    x.v[7] &= 0x3fffffffu;  // below r
  }
  return s;
}

static int failures = 0;

static void check(const char* what, const std::vector<G1Affine>& bases, const std::vector<Fr>& scalars, uint32_t c,
                  uint32_t copies, const G1Xyzz& want) {
  Plan p((uint32_t)bases.size(), c, copies);
  bool ok = same(emulated(bases, scalars, p), want);
  failures += !ok;
  printf("%s %-28s n=%-6u c=%-2u windows=%-2u copies=%-2u sets=%-2u chunk=%u\n", ok ? "ok " : "BAD", what, p.n, p.c,
         p.windows, p.copies, p.sets, p.chunk);
}

int main(int argc, char** argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 10) : (uint64_t)time(nullptr);
  printf("msm_host_check seed %llu (rerun: msm_host_check %llu)\n", (unsigned long long)seed, (unsigned long long)seed);
  setvbuf(stdout, nullptr, _IONBF, 0);
  rng.seed(seed);
  Fr one, rm1;
  for (int i = 0; i < 8; i++) one.v[i] = FrParams::one(i), rm1.v[i] = R_MINUS_1[i];
  for (uint32_t n : {1u, 2u, 3u, 7u, 100u, 1000u}) {
    std::vector<G1Affine> bases = random_bases(n);
    std::vector<Fr> scalars = random_scalars(n);
    for (uint32_t k = 0; k < (n < 12 ? n : 12); k++) {
      uint32_t i = (uint32_t)(rng() % n);
      if (k % 3 == 0) scalars[i] = Fr::zero();
      else if (k % 3 == 1) scalars[i] = one;
      else scalars[i] = rm1;
    }
    if (n > 5) bases[5].x = Fp::zero(), bases[5].y = Fp::zero();  // an identity base
    G1Xyzz want = reference(bases, scalars);
    for (uint32_t c : {4u, 8u, 13u, 16u}) {
      check("random, edge scalars", bases, scalars, c, 1, want);
      check("random, table per window", bases, scalars, c, 64, want);
      check("random, 4 copies", bases, scalars, c, 4, want);
    }
  }
  {  // wide windows and a larger size
    uint32_t n = 4097;
    std::vector<G1Affine> bases = random_bases(n);
    std::vector<Fr> scalars = random_scalars(n);
    G1Xyzz want = reference(bases, scalars);
    check("random", bases, scalars, 16, 1, want);
    check("random", bases, scalars, 18, 1, want);
    check("random, table per window", bases, scalars, 18, 64, want);
    check("random, 5 copies", bases, scalars, 18, 5, want);
    if (argc > 2) {  // slow on a CPU: millions of buckets
      check("random", bases, scalars, 20, 1, want);
      check("random, table per window", bases, scalars, 22, 64, want);
    }
  }
  {  // skewed: every scalar 1 (one bucket holds every point), 0/1, the same point with the same digit
    uint32_t n = 3000;
    std::vector<G1Affine> bases = random_bases(n);
    std::vector<Fr> ones(n, one), bits(n);
    for (auto& b : bits) b = (rng() & 1) ? one : Fr::zero();
    G1Xyzz want = reference(bases, ones), want_bits = reference(bases, bits);
    for (uint32_t copies : {1u, 64u}) {
      check("all scalars 1", bases, ones, 13, copies, want);
      check("0/1 scalars", bases, bits, 13, copies, want_bits);
    }
    std::vector<G1Affine> twice(3, bases[0]);
    std::vector<Fr> same_scalar(3, rm1);
    G1Xyzz want_twice = reference(twice, same_scalar);
    check("one point thrice", twice, same_scalar, 8, 1, want_twice);
    check("one point thrice, table", twice, same_scalar, 8, 64, want_twice);
  }
  printf("%d failed\n", failures);
  return failures != 0;
}
