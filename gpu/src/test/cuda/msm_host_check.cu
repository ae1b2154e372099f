// Runs the MSM kernels' per-thread code (kernels.cu's *_at functions) on the CPU, thread after thread, in the order
// Kernels.msm launches them, for G1 and for G2, and compares each result with a plain double-and-add sum of k_i·P_i
// (and, for G2, checks the Fp2 arithmetic itself: (r - 1)·G = -G, results on the twist): plans without a
// table and with precomputed copies, odd sizes, edge scalars (0, 1, r - 1), an identity base, a doubled point, and
// skewed scalars (all 1, 0/1), repeated and negated bases; each in every accumulation variant (the current XYZZ path,
// XYZZ with Fp::sqr_sym, batch-affine pair passes in several shapes; MSM_VARIANTS=current or affine runs those only), and
// Fp::sqr_sym against mul. No GPU needed:
//   nvcc -x cu -O2 -o /tmp/msm_host_check gpu/src/test/cuda/msm_host_check.cu && /tmp/msm_host_check [seed [slow]]
// (MSM_GROUPS=g1 or g2 runs one group only).
// It checks the kernels' logic (digits, table, sort, chunks, combining rounds, reduction), not the device's
// concurrency: KernelsGpuIT runs the same kernels on a GPU against the CPU prover.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <random>
#include <vector>
#include "../../main/cuda/kernels.cu"

static const uint32_t GX[12] = {0xfd530c16u, 0x5cb38790u, 0x9976fff5u, 0x7817fc67u, 0x143ba1c1u, 0x154f95c7u,
                                0xf3d0e747u, 0xf0ae6acdu, 0x21dbf440u, 0xedce6eccu, 0x9e0bfb75u, 0x12017741u};
static const uint32_t GY[12] = {0x0ce72271u, 0xbaac93d5u, 0x7918fd8eu, 0x8c22631au, 0x570725ceu, 0xdd595f13u,
                                0x50405194u, 0x51ac5829u, 0xad0059c0u, 0x0e1c8c3fu, 0x5008a26au, 0x0bbc3efcu};
static const uint32_t G2X0[12] = {0x02940a10u, 0xf5f28fa2u, 0x87b4961au, 0xb3f5fb26u, 0x3e2ae580u, 0xa1a893b5u,
                                  0x1a3caee9u, 0x9894999du, 0x1863366bu, 0x6f67b763u, 0x4350bcd7u, 0x05819192u};
static const uint32_t G2X1[12] = {0x9e23f606u, 0xa5a9c075u, 0xbccd60c3u, 0xaaa0c59du, 0xe2867806u, 0x3bb17e18u,
                                  0x8541b367u, 0x1b1ab6ccu, 0xf2158547u, 0xc2b6ed0eu, 0x7360edf3u, 0x11922a09u};
static const uint32_t G2Y0[12] = {0x60494c4au, 0x4c730af8u, 0x5e369c5au, 0x597cfa1fu, 0xaa0a635au, 0xe7e6856cu,
                                  0x6e0d495fu, 0xbbefb5e9u, 0xf0ef25a2u, 0x07d3a975u, 0x7e80dae5u, 0x0083fd8eu};
static const uint32_t G2Y1[12] = {0xdf64b05du, 0xadc0fc92u, 0x2b1461dcu, 0x18aa270au, 0x3be4eba0u, 0x86adac6au,
                                  0xc93da33au, 0x79495c4eu, 0xa43ccaedu, 0xe7175850u, 0x63de1bf2u, 0x0b2bc2a1u};
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

template <class P>
static typename P::Aff affine(const P& p) {
  typedef typename P::Field F;
  typename P::Aff r;
  if (p.is_identity()) {
    r.x = F::zero();
    r.y = F::zero();
    return r;
  }
  F zzi = F::inverse(p.ZZ), zzzi = F::inverse(p.ZZZ);
  r.x = F::reduce(F::mul(p.X, zzi));
  r.y = F::reduce(F::mul(p.Y, zzzi));
  return r;
}

template <class P>
static bool same(const P& a, const P& b) {
  typename P::Aff x = affine(a), y = affine(b);
  return memcmp(&x, &y, sizeof x) == 0;
}

/** The accumulation variants of MsmPlan.Accumulation; AFFINE with its pair passes' shape. */
struct Variant {
  enum Mode { XYZZ, XYZZ_SQR, AFFINE } mode;
  uint32_t levels, slice, batch;  // AFFINE only
};
static const Variant CURRENT = {Variant::XYZZ, 0, 0, 0};

/** Chunk length of msm_accumulate for at most `most` entries (MsmPlan.chunk). */
static uint32_t chunk_for(uint64_t most) {
  uint64_t ch = (most + (1u << 19) - 1) >> 19;
  return (uint32_t)(ch > 32 ? ch : 32);
}

/**
 * The batch-affine pair passes as Kernels.msm launches them (msm_pairs per slice and level, every warp's lanes run
 * forward, then lanes_inverse in place of the shuffles, then back), into R; roffs gets R's run offsets.
 */
template <class A>
static void emulate_pairs(const std::vector<A>& bases, uint32_t n, const std::vector<A>& table,
                          const std::vector<uint32_t>& entries, const std::vector<uint32_t>& offs, uint32_t keys,
                          uint64_t most, const Variant& v, std::vector<A>& R, std::vector<uint32_t>& roffs) {
  typedef decltype(A().x) F;
  A zero;
  zero.x = F::zero();
  zero.y = F::zero();
  R.assign((size_t)(most >> v.levels) + keys + 1, zero);
  std::vector<A> Ta((v.slice >> 1) + keys + 1), Tb((v.slice >> 2) + keys + 1);
  for (uint64_t e0 = 0; e0 < most; e0 += v.slice) {
    for (uint32_t level = 1; level <= v.levels; level++) {
      const A* src = level == 1 ? nullptr : ((level - 1) % 2 == 1 ? Ta.data() : Tb.data());
      A* dst = level == v.levels ? R.data() : (level % 2 == 1 ? Ta.data() : Tb.data());
      uint32_t positions = (v.slice >> level) + keys;
      uint32_t warps = (positions + 32 * v.batch - 1) / (32 * v.batch);
      PairPass q = pair_pass(offs.data(), keys, (uint32_t)e0, v.slice, level, v.levels);  // the same in every thread
      for (uint32_t w = 0; w < warps; w++) {
        if (pair_position(w, 0, 0, v.batch) >= positions) continue;
        if (!q.live || pair_position(w, 0, 0, v.batch) >= q.end) break;  // and in every later warp
        F run[32], inv[32];
        for (uint32_t l = 0; l < 32; l++)
          run[l] = msm_pairs_forward_at(w, l, bases.data(), n, table.data(), entries.data(), offs.data(), keys, q, level,
                                        src, dst, v.batch, positions);
        lanes_inverse(run, inv, 32);
        for (uint32_t l = 0; l < 32; l++)
          msm_pairs_back_at<A, true>(w, l, bases.data(), n, table.data(), entries.data(), offs.data(), keys, q, level,
                                     src, dst, v.batch, positions, inv[l]);
      }
    }
  }
  roffs.resize(keys + 1);
  for (uint32_t k = 0; k <= keys; k++) msm_affine_offsets_at(k, offs.data(), keys, v.levels, roffs.data());
}

/**
 * The MSM as the device computes it, every kernel's threads run one after another; the accumulation runs on
 * min(wave, the plan's chunk threads) threads (Kernels.accumulateThreads: one resident wave of the device); the
 * scatter runs in key ranges of span keys (MsmPlan.scatterKeys).
 */
template <class P>
static P emulated(const std::vector<typename P::Aff>& bases, const std::vector<Fr>& scalars, const Plan& p,
                  const Variant& v, uint32_t wave, uint32_t span) {
  uint32_t n = p.n;
  std::vector<typename P::Aff> table((size_t)(p.copies - 1) * n + 1);
  for (uint32_t i = 0; i < n; i++) msm_table_at<P>(i, bases.data(), n, p.c * p.sets, p.copies, table.data());
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
  for (uint32_t lo = 0; lo < p.keys; lo += span)
    for (uint32_t i = 0; i < n; i++)
      msm_scatter_at(i, scalars.data(), n, p.c, p.windows, p.sets, offs.data(), p.keys, lo, span, cursor.data(),
                     entries.data());
  std::vector<P> buckets(p.keys, P::identity());
  // what msm_accumulate adds up: the sorted entries, or (batch-affine) the pair passes' reduced points
  const typename P::Aff* acc_bases = bases.data();
  const typename P::Aff* acc_table = table.data();
  const uint32_t* acc_entries = entries.data();
  const uint32_t* acc_offs = offs.data();
  uint32_t acc_n = n, threads = p.threads;
  std::vector<typename P::Aff> R;
  std::vector<uint32_t> roffs;
  if (v.mode == Variant::AFFINE) {
    uint64_t most = (uint64_t)p.windows * n;
    emulate_pairs(bases, n, table, entries, offs, p.keys, most, v, R, roffs);
    acc_bases = R.data();
    acc_table = nullptr;
    acc_entries = nullptr;
    acc_offs = roffs.data();
    acc_n = 0x7fffffffu;
    uint64_t rmost = R.size();
    uint32_t chunk = chunk_for(rmost);
    threads = (uint32_t)((rmost + chunk - 1) / chunk);
  }
  if (wave < threads) threads = wave;
  const uint32_t min_chunk = 32;  // MsmPlan.MIN_CHUNK
  std::vector<uint32_t> keysA(2 * threads), keysB(2 * threads);
  std::vector<P> valsA(2 * threads), valsB(2 * threads);
  for (uint32_t t = 0; t < threads; t++) {
    if (v.mode == Variant::XYZZ)
      msm_accumulate_at<P>(t, acc_bases, acc_n, acc_table, acc_entries, acc_offs, p.keys, min_chunk, threads,
                           buckets.data(), keysA.data(), valsA.data());
    else
      msm_accumulate_at<P, true>(t, acc_bases, acc_n, acc_table, acc_entries, acc_offs, p.keys, min_chunk, threads,
                                 buckets.data(), keysA.data(), valsA.data());
  }
  uint32_t* ink = keysA.data();
  P* inv = valsA.data();
  uint32_t* outk = keysB.data();
  P* outv = valsB.data();
  uint32_t count = 2 * threads;
  const uint32_t combine = 8;  // MsmPlan.COMBINE
  while (count > combine) {
    uint32_t threads = (count + combine - 1) / combine;
    for (uint32_t t = 0; t < threads; t++)
      msm_combine_at<P>(t, ink, inv, count, combine, p.keys, threads, buckets.data(), outk, outv);
    count = 2 * threads;
    std::swap(ink, outk);
    std::swap(inv, outv);
  }
  msm_combine_at<P>(0, ink, inv, count, count, p.keys, 1, buckets.data(), nullptr, nullptr);
  uint32_t len = p.buckets / p.segments, bits = 0, group = 16;  // MsmPlan.segmentLength, bits, GROUP
  while ((1u << bits) < p.segments) bits++;
  uint32_t rows = bits + 2, m = (p.segments / 2 + group - 1) / group;
  std::vector<P> segs((size_t)p.sets * p.segments), sums((size_t)p.sets * rows * m);
  for (uint32_t t = 0; t < p.sets * p.segments; t++)
    msm_reduce_segments_at<P>(t, buckets.data(), p.buckets, p.segments, len, p.sets, segs.data());
  for (uint32_t t = 0; t < p.sets * rows * m; t++)
    msm_reduce_bits_at<P>(t, buckets.data(), p.buckets, len, segs.data(), p.segments, bits, group, p.sets, sums.data());
  while (m > 256) {
    uint32_t per = (m + group - 1) / group;
    std::vector<P> out((size_t)p.sets * rows * per);
    for (uint32_t t = 0; t < p.sets * rows * per; t++)
      msm_sum_groups_at<P>(t, sums.data(), m, group, p.sets * rows, out.data());
    sums.swap(out);
    m = per;
  }
  // msm_reduce_windows per row, then Kernels.msmResult: each set from its rows, then the sets by Horner's rule
  std::vector<P> row_sums((size_t)p.sets * rows, P::identity());
  for (uint32_t r = 0; r < p.sets * rows; r++)
    for (uint32_t k = 0; k < m; k++) row_sums[r].add(sums[(size_t)r * m + k]);
  P acc = P::identity();
  for (int s = (int)p.sets - 1; s >= 0; s--) {
    for (uint32_t k = 0; k < p.c; k++) acc.dbl();
    const P* row = &row_sums[(size_t)s * rows];
    P weighted = row[bits - 1];
    for (int r = (int)bits - 2; r >= 0; r--) weighted.dbl(), weighted.add(row[r]);
    for (uint32_t l = len; l > 1; l >>= 1) weighted.dbl();
    weighted.add(row[bits]);
    weighted.add(row[bits + 1]);
    acc.add(weighted);
  }
  return acc;
}

/** sum of k_i·P_i by double-and-add over the canonical scalars. */
template <class P>
static P reference(const std::vector<typename P::Aff>& bases, const std::vector<Fr>& scalars) {
  P total = P::identity();
  for (size_t i = 0; i < bases.size(); i++) {
    Fr k = Fr::from_mont(scalars[i]);
    P acc = P::identity();
    for (int bit = 254; bit >= 0; bit--) {
      acc.dbl();
      if ((k.v[bit >> 5] >> (bit & 31)) & 1) acc.add(bases[i]);
    }
    total.add(acc);
  }
  return total;
}

static std::mt19937_64 rng;
static int failures = 0;

/** The group's generator (affine, Montgomery). */
static G1Affine generator(G1Xyzz*) {
  G1Affine g;
  memcpy(g.x.v, GX, sizeof GX);
  memcpy(g.y.v, GY, sizeof GY);
  return g;
}

static G2Affine generator(G2Xyzz*) {
  G2Affine g;
  memcpy(g.x.c0.v, G2X0, sizeof G2X0);
  memcpy(g.x.c1.v, G2X1, sizeof G2X1);
  memcpy(g.y.c0.v, G2Y0, sizeof G2Y0);
  memcpy(g.y.c1.v, G2Y1, sizeof G2Y1);
  return g;
}

template <class P>
static std::vector<typename P::Aff> random_bases(uint32_t n) {
  typename P::Aff g = generator((P*)nullptr);
  std::vector<typename P::Aff> b(n);
  P step = P::of(g).times((uint32_t)rng() | 1u);
  P p = P::of(g).times((uint32_t)rng());
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


/** The variants each case runs: the current XYZZ path, XYZZ with sqr_sym, and batch-affine in several shapes. */
static std::vector<Variant> variants = {CURRENT};
static int cases = 0;

/**
 * Batch-affine shapes: the default (Kernels: 4 levels, slices of 2^23, 16 per lane), and small slices and batches so
 * that runs are cut by slice ends, warps hold many keys, and one to five levels run.
 */
static std::vector<Variant> all_variants() {
  return {CURRENT, {Variant::XYZZ_SQR, 0, 0, 0}, {Variant::AFFINE, 4, 1u << 23, 16}, {Variant::AFFINE, 1, 64, 1},
          {Variant::AFFINE, 2, 256, 3}, {Variant::AFFINE, 3, 96, 2}, {Variant::AFFINE, 5, 2048, 5}};
}

static const char* mode_name(const Variant& v) {
  return v.mode == Variant::XYZZ ? "xyzz" : v.mode == Variant::XYZZ_SQR ? "xyzz+sqr" : "affine";
}

template <class P>
static void check(const char* what, const std::vector<typename P::Aff>& bases, const std::vector<Fr>& scalars, uint32_t c,
                  uint32_t copies, const P& want) {
  Plan p((uint32_t)bases.size(), c, copies);
  for (const Variant& v : variants) {
    // every other case a wave of any size from 1 thread, so that chunks of every length and cut runs are covered
    uint32_t wave = cases % 2 == 0 ? UINT32_MAX : 1 + (uint32_t)(rng() % p.threads);
    // and every other pair of cases the scatter in key ranges (as Kernels launches it) of a random span of at least
    // 1 + keys/64 keys (1 key on plans of up to 63 keys), at most 64 launches; else every key at once
    uint32_t span = cases % 4 < 2 ? p.keys : 1 + p.keys / 64 + (uint32_t)(rng() % p.keys);
    bool ok = same(emulated<P>(bases, scalars, p, v, wave, span), want);
    failures += !ok;
    cases++;
    printf("%s %-28s n=%-6u c=%-2u windows=%-2u copies=%-2u sets=%-2u threads=%-6u keys/pass=%-7u %s", ok ? "ok " : "BAD",
           what, p.n, p.c, p.windows, p.copies, p.sets, wave < p.threads ? wave : p.threads, span, mode_name(v));
    if (v.mode == Variant::AFFINE) printf(" levels=%u slice=%u batch=%u", v.levels, v.slice, v.batch);
    printf("\n");
  }
}

/** Every check of one group: edge scalars, odd sizes, tables, wide windows, skewed scalars. */
template <class P>
static void run_group(const Fr& one, const Fr& rm1, bool slow) {
  typedef typename P::Field F;
  for (uint32_t n : {1u, 2u, 3u, 7u, 100u, 1000u}) {
    std::vector<typename P::Aff> bases = random_bases<P>(n);
    std::vector<Fr> scalars = random_scalars(n);
    for (uint32_t k = 0; k < (n < 12 ? n : 12); k++) {
      uint32_t i = (uint32_t)(rng() % n);
      if (k % 3 == 0) scalars[i] = Fr::zero();
      else if (k % 3 == 1) scalars[i] = one;
      else scalars[i] = rm1;
    }
    if (n > 5) bases[5].x = F::zero(), bases[5].y = F::zero();  // an identity base
    P want = reference<P>(bases, scalars);
    for (uint32_t c : {4u, 8u, 13u, 16u}) {
      check<P>("random, edge scalars", bases, scalars, c, 1, want);
      check<P>("random, table per window", bases, scalars, c, 64, want);
      check<P>("random, 4 copies", bases, scalars, c, 4, want);
    }
  }
  {  // wide windows and a larger size
    uint32_t n = 4097;
    std::vector<typename P::Aff> bases = random_bases<P>(n);
    std::vector<Fr> scalars = random_scalars(n);
    P want = reference<P>(bases, scalars);
    check<P>("random", bases, scalars, 16, 1, want);
    check<P>("random", bases, scalars, 18, 1, want);
    check<P>("random, table per window", bases, scalars, 18, 64, want);
    check<P>("random, 5 copies", bases, scalars, 18, 5, want);
    if (slow) {  // slow on a CPU: millions of buckets
      check<P>("random", bases, scalars, 20, 1, want);
      check<P>("random, table per window", bases, scalars, 22, 64, want);
    }
  }
  {  // skewed: every scalar 1 (one bucket holds every point), 0/1, the same point with the same digit
    uint32_t n = 3000;
    std::vector<typename P::Aff> bases = random_bases<P>(n);
    std::vector<Fr> ones(n, one), bits(n);
    for (auto& b : bits) b = (rng() & 1) ? one : Fr::zero();
    P want = reference<P>(bases, ones), want_bits = reference<P>(bases, bits);
    for (uint32_t copies : {1u, 64u}) {
      check<P>("all scalars 1", bases, ones, 13, copies, want);
      check<P>("0/1 scalars", bases, bits, 13, copies, want_bits);
    }
    std::vector<Fr> zeros(n, Fr::zero());
    check<P>("all scalars 0", bases, zeros, 13, 1, P::identity());
    std::vector<typename P::Aff> twice(3, bases[0]);
    std::vector<Fr> same_scalar(3, rm1);
    P want_twice = reference<P>(twice, same_scalar);
    check<P>("one point thrice", twice, same_scalar, 8, 1, want_twice);
    check<P>("one point thrice, table", twice, same_scalar, 8, 64, want_twice);
  }
}

/**
 * Repeated bases, as GpuBench repeats 2^16 distinct ones, some negated, with scalars from a small set: buckets full of
 * one point (doublings), of a point and its negation (identity sums) and of identity bases.
 */
template <class P>
static void run_repeated(const Fr& one, const Fr& rm1) {
  typedef typename P::Field F;
  uint32_t n = 2001;
  std::vector<typename P::Aff> distinct = random_bases<P>(5);
  distinct[4].x = F::zero(), distinct[4].y = F::zero();
  std::vector<typename P::Aff> bases(n);
  for (uint32_t i = 0; i < n; i++) {
    bases[i] = distinct[i % 5];
    if (i % 7 == 3) bases[i].y = F::reduce(F::neg(bases[i].y));
  }
  Fr two = Fr::add(one, one), some = random_scalars(1)[0];
  Fr pick[5] = {one, two, rm1, some, Fr::add(two, one)};
  std::vector<Fr> scalars(n);
  for (auto& k : scalars) k = pick[rng() % 5];
  P want = reference<P>(bases, scalars);
  check<P>("repeated bases, 5 scalars", bases, scalars, 8, 1, want);
  check<P>("repeated bases, 5 scalars, table", bases, scalars, 13, 64, want);
  std::vector<Fr> ones(n, one);
  check<P>("repeated bases, all 1", bases, ones, 8, 1, reference<P>(bases, ones));
}

/** Fp::sqr_sym against mul(a, a) on random values below 2p (Fp's lazy range) and the edges p - 1, p, p + 1, 2p - 1. */
static void check_sqr(uint32_t trials) {
  std::vector<Fp> xs;
  Fp p, p2;
  for (int i = 0; i < 12; i++) p.v[i] = FpParams::mod(i), p2.v[i] = FpParams::mod2(i);
  Fp one_int = Fp::zero();
  one_int.v[0] = 1;
  Fp pm1 = p, pp1 = p, p2m1 = p2;
  pm1.v[0] -= 1, pp1.v[0] += 1, p2m1.v[0] -= 1;  // no borrow or carry: the low limbs are not 0 or all ones
  xs = {Fp::zero(), one_int, Fp::one(), pm1, p, pp1, p2m1};
  for (uint32_t t = 0; t < trials; t++) {
    Fp x;
    for (int i = 0; i < 12; i++) x.v[i] = (uint32_t)rng();
    x.v[11] &= 0x1fffffffu;  // below 2^381 < 2p
    xs.push_back(x);
  }
  int bad = 0;
  for (const Fp& x : xs) {
    Fp got = Fp::sqr_sym(x), want = Fp::mul(x, x), d;
    Fp r1 = Fp::reduce(got), r2 = Fp::reduce(want);
    bool below = Fp::sub_bound(got.v, d.v) == 1;  // got < 2p
    bad += memcmp(&r1, &r2, sizeof r1) != 0 || !below;
  }
  failures += bad != 0;
  cases++;
  printf("%s Fp::sqr_sym = mul(a, a) below 2p: %zu values, %d wrong\n", bad ? "BAD" : "ok ", xs.size(), bad);
}

/** Fp2 and the G2 formulas on their own: (r - 1)·G = -G and (r - 1)·G + G = identity, random points on the twist. */
static void check_g2_arithmetic(const Fr& rm1) {
  G2Affine g = generator((G2Xyzz*)nullptr);
  std::vector<G2Affine> one_base(1, g);
  std::vector<Fr> k(1, rm1);
  G2Xyzz minus = reference<G2Xyzz>(one_base, k);
  G2Affine neg_g = g;
  neg_g.y = Fp2::reduce(Fp2::neg(g.y));
  bool ok = same(minus, G2Xyzz::of(neg_g));
  minus.add(g);
  ok = ok && minus.is_identity();
  // y^2 = x^3 + 4(1 + u) for points made by additions and doublings
  Fp four = Fp::add(Fp::dbl(Fp::one()), Fp::dbl(Fp::one()));
  Fp2 b = Fp2::of(four, four);
  for (const G2Affine& p : random_bases<G2Xyzz>(20)) {
    Fp2 lhs = Fp2::reduce(Fp2::sqr(p.y));
    Fp2 rhs = Fp2::reduce(Fp2::add(Fp2::mul(Fp2::sqr(p.x), p.x), b));
    ok = ok && memcmp(&lhs, &rhs, sizeof lhs) == 0;
  }
  failures += !ok;
  printf("%s G2 arithmetic: (r-1)G = -G, (r-1)G + G = 0, points on the twist\n", ok ? "ok " : "BAD");
}

int main(int argc, char** argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 10) : (uint64_t)time(nullptr);
  printf("msm_host_check seed %llu (rerun: msm_host_check %llu)\n", (unsigned long long)seed, (unsigned long long)seed);
  setvbuf(stdout, nullptr, _IONBF, 0);
  rng.seed(seed);
  Fr one, rm1;
  for (int i = 0; i < 8; i++) one.v[i] = FrParams::one(i), rm1.v[i] = R_MINUS_1[i];
  bool slow = argc > 2;  // wide windows on a CPU: millions of buckets
  const char* groups = getenv("MSM_GROUPS");  // "g1", "g2" or both (unset)
  // MSM_VARIANTS: "current" runs the current XYZZ path only, "affine" the batch-affine shapes only; unset: every variant
  const char* which = getenv("MSM_VARIANTS");
  if (which == nullptr || strcmp(which, "current") != 0) variants = all_variants();
  if (which != nullptr && strcmp(which, "affine") == 0) {
    variants.erase(std::remove_if(variants.begin(), variants.end(), [](const Variant& v) { return v.mode != Variant::AFFINE; }),
                   variants.end());
  }
  if (groups == nullptr || strstr(groups, "g1")) {
    printf("-- G1\n");
    check_sqr(100000);
    run_group<G1Xyzz>(one, rm1, slow);
    run_repeated<G1Xyzz>(one, rm1);
  }
  if (groups == nullptr || strstr(groups, "g2")) {
    printf("-- G2\n");
    check_g2_arithmetic(rm1);
    run_group<G2Xyzz>(one, rm1, slow);
    run_repeated<G2Xyzz>(one, rm1);
  }
  printf("%d of %d failed\n", failures, cases);
  return failures != 0;
}
