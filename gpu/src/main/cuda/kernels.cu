// The proving kernels behind CudaDevice: BLS12-381 NTTs over Fr, G1 and G2 multi-scalar multiplication
// (Pippenger with signed digits and buckets sorted by counting sort) and a batch fixed-base
// multiplication for setup. Compiled to PTX for sm_90 (see gpu/pom.xml) and loaded by Kernels.java;
// every launch parameter and buffer layout is documented there.
#include "g1.cuh"
#include "g2.cuh"

// ------------------------------------------------------------------------------------------------ NTT

/** tw[i] = omega^i for i < count: the twiddle table of the largest transform, shared by all sizes. */
extern "C" __global__ void ntt_twiddles(Fr* tw, uint32_t count, Fr omega) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) tw[i] = Fr::pow(omega, i);
}

/**
 * v[i] := v[i]·c·g^i for i < n: the coset shift and the 1/n scaling of the inverse transforms. Thread t of `stride`
 * threads takes i = t, t + stride, ... (coalesced), with one pow for c·g^t and then one product by gs = g^stride per
 * element.
 */
extern "C" __global__ void fr_scale_powers(Fr* v, uint32_t n, Fr c, Fr g, Fr gs, uint32_t stride) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= stride || t >= n) return;
  Fr x = Fr::mul(c, Fr::pow(g, t));
  for (uint32_t i = t; i < n; i += stride) {
    v[i] = Fr::mul(v[i], x);
    x = Fr::mul(x, gs);
  }
}

/** h[i] = (a[i]·b[i] - c[i])·zinv: ntt_h's pointwise step on the coset, where Z is the constant 1/zinv. */
extern "C" __global__ void fr_quotient(const Fr* a, const Fr* b, const Fr* c, Fr* h, uint32_t n, Fr zinv) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) h[i] = Fr::mul(Fr::sub(Fr::mul(a[i], b[i]), c[i]), zinv);
}

/** The bit-reversal permutation of 2^logn elements. */
extern "C" __global__ void ntt_bitrev(Fr* v, uint32_t logn) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (1u << logn)) return;
  uint32_t j = __brev(i) >> (32 - logn);
  if (i < j) {
    Fr t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

/**
 * omega_max^k (or omega_max^-k when inverse) from the table of omega_max^i, i < half = 2^(logmax-1):
 * omega^-k = omega^(2·half - k) = -omega^(half - k).
 */
__device__ __forceinline__ Fr twiddle(const Fr* tw, uint32_t k, uint32_t half, int inverse) {
  if (!inverse) return tw[k];
  if (k == 0) return Fr::one();
  return Fr::neg(tw[half - k]);
}

__device__ __forceinline__ void butterfly(Fr& a, Fr& b, const Fr& w) {
  Fr x = Fr::mul(b, w);
  b = Fr::sub(a, x);
  a = Fr::add(a, x);
}

/**
 * The first `stages` decimation-in-time stages (after bit reversal) in shared memory: each block of
 * 2^stages consecutive elements is independent for those stages. blockDim = 2^(stages-1).
 */
extern "C" __global__ void ntt_block(Fr* v, const Fr* tw, uint32_t logmax, uint32_t stages, int inverse) {
  __shared__ Fr sh[1024];
  uint32_t t = threadIdx.x;
  uint32_t size = 1u << stages;
  Fr* base = v + (size_t)blockIdx.x * size;
  sh[t] = base[t];
  sh[t + size / 2] = base[t + size / 2];
  __syncthreads();
  uint32_t half = 1u << (logmax - 1);
  for (uint32_t s = 0; s < stages; s++) {
    uint32_t h = 1u << s;
    uint32_t j = t & (h - 1);
    uint32_t i = ((t >> s) << (s + 1)) + j;
    Fr w = twiddle(tw, j << (logmax - 1 - s), half, inverse);
    butterfly(sh[i], sh[i + h], w);
    __syncthreads();
  }
  base[t] = sh[t];
  base[t + size / 2] = sh[t + size / 2];
}

/** One decimation-in-time stage s (butterflies h = 2^s apart) over all n/2 butterflies. */
extern "C" __global__ void ntt_stage(Fr* v, const Fr* tw, uint32_t logn, uint32_t logmax, uint32_t s, int inverse) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (1u << (logn - 1))) return;
  uint32_t h = 1u << s;
  uint32_t j = t & (h - 1);
  uint32_t i = ((t >> s) << (s + 1)) + j;
  Fr w = twiddle(tw, j << (logmax - 1 - s), 1u << (logmax - 1), inverse);
  Fr a = v[i];
  Fr b = v[i + h];
  butterfly(a, b, w);
  v[i] = a;
  v[i + h] = b;
}

// ------------------------------------------------------------------------------------------------ MSM
//
// Pippenger with signed c-bit digits over `windows` windows, optionally with a precomputed table of shifted copies of
// the bases: copy j of base i is 2^(c·sets·j)·P_i, and window w = j·sets + k of scalar i adds copy j of P_i into bucket
// set k. Without a table (copies = 1) every window has its own bucket set (sets = windows); with a copy per window
// (copies = windows) all windows share one set. Entries name a point by index j·n + i: below n the bases, from n on
// the table, which holds copies 1 .. copies-1. Each kernel's per-thread work is a __host__ __device__ function of the
// thread index (name_at), so that gpu/src/test/cuda/msm_host_check.cu runs the same code on the CPU, thread by thread.

/** atomicAdd on the device; on the host (one thread at a time) a plain add. */
HD uint32_t atomic_add_u32(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
  return atomicAdd(p, v);
#else
  uint32_t old = *p;
  *p = old + v;
  return old;
#endif
}

HD uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/** The c bits of a canonical scalar from bit `off` (c <= 24; bits past 255 read as 0). */
HD uint32_t bits_at(const Fr& s, uint32_t off, uint32_t c) {
  uint32_t limb = off >> 5;
  uint32_t sh = off & 31;
  uint64_t x = 0;
  if (limb < 8) x = s.v[limb];
  if (limb + 1 < 8) x |= (uint64_t)s.v[limb + 1] << 32;
  return (uint32_t)(x >> sh) & ((1u << c) - 1);
}

/**
 * The signed digits of scalar i, window by window: digit d in [-2^(c-1), 2^(c-1)], d != 0 going to bucket key
 * set·2^(c-1) + |d| - 1 with the entry (copy·n + i) | sign (bit 31), where window w = copy·sets + set. With
 * windows·c >= 256 the last carry is always 0, since scalars are below r < 2^255. `emit(key, entry)` is called per digit.
 */
template <class Emit>
HD void signed_digits(const Fr* scalars, uint32_t i, uint32_t n, uint32_t c, uint32_t windows, uint32_t sets, Emit emit) {
  Fr s = Fr::from_mont(scalars[i]);
  uint32_t buckets = 1u << (c - 1);
  uint32_t carry = 0;
  uint32_t copy = 0, set = 0;
  for (uint32_t w = 0; w < windows; w++) {
    uint32_t d = bits_at(s, w * c, c) + carry;
    uint32_t neg = 0;
    carry = 0;
    if (d > buckets) {
      d = (1u << c) - d;
      neg = 1;
      carry = 1;
    }
    if (d != 0) emit(set * buckets + d - 1, (copy * n + i) | (neg << 31));
    if (++set == sets) {
      set = 0;
      copy++;
    }
  }
}

/** Pass one of the bucket sort: counts[key] = the number of digits that land in each bucket. */
HD void msm_count_at(uint32_t i, const Fr* scalars, uint32_t n, uint32_t c, uint32_t windows, uint32_t sets, uint32_t* counts) {
  if (i >= n) return;
  signed_digits(scalars, i, n, c, windows, sets, [&](uint32_t key, uint32_t) { atomic_add_u32(&counts[key], 1u); });
}

extern "C" __global__ void msm_count(const Fr* scalars, uint32_t n, uint32_t c, uint32_t windows, uint32_t sets,
                                     uint32_t* counts) {
  msm_count_at(blockIdx.x * blockDim.x + threadIdx.x, scalars, n, c, windows, sets, counts);
}

/** Pass two: entries[cursor[key]++] = entry, so each bucket's entries are contiguous. */
HD void msm_scatter_at(uint32_t i, const Fr* scalars, uint32_t n, uint32_t c, uint32_t windows, uint32_t sets,
                       uint32_t* cursor, uint32_t* entries) {
  if (i >= n) return;
  signed_digits(scalars, i, n, c, windows, sets,
                [&](uint32_t key, uint32_t entry) { entries[atomic_add_u32(&cursor[key], 1u)] = entry; });
}

extern "C" __global__ void msm_scatter(const Fr* scalars, uint32_t n, uint32_t c, uint32_t windows, uint32_t sets,
                                       uint32_t* cursor, uint32_t* entries) {
  msm_scatter_at(blockIdx.x * blockDim.x + threadIdx.x, scalars, n, c, windows, sets, cursor, entries);
}

/**
 * Exclusive prefix sum of each 1024-element block in place; the block's total goes to sums (if any). Longer arrays are
 * scanned level by level (Kernels.scan): the block totals are scanned the same way, then added back by scan_add.
 */
extern "C" __global__ void scan_block(uint32_t* data, uint32_t len, uint32_t* sums) {
  __shared__ uint32_t sh[1024];
  uint32_t t = threadIdx.x;
  uint32_t i = blockIdx.x * 1024 + t;
  uint32_t x = i < len ? data[i] : 0;
  sh[t] = x;
  __syncthreads();
  for (uint32_t off = 1; off < 1024; off <<= 1) {
    uint32_t y = t >= off ? sh[t - off] : 0;
    __syncthreads();
    sh[t] += y;
    __syncthreads();
  }
  if (i < len) data[i] = sh[t] - x;
  if (sums != nullptr && t == 1023) sums[blockIdx.x] = sh[1023];
}

/** Adds each block's scanned offset: completes the prefix sum of scan_block over several blocks. */
extern "C" __global__ void scan_add(uint32_t* data, uint32_t len, const uint32_t* sums) {
  uint32_t i = blockIdx.x * 1024 + threadIdx.x;
  if (i < len) data[i] += sums[blockIdx.x];
}

/** A bucket's run of chunk t: its whole sum into the bucket, or a partial sum into the chunk's first or last slot. */
template <class P>
HD void flush_run(uint32_t k, const P& acc, bool cut_before, bool cut_after, uint32_t t, P* buckets,
                  P* slot_vals) {
  if (!cut_before && !cut_after) {
    buckets[k] = acc;
  } else if (cut_before) {
    slot_vals[2 * t] = acc;
  } else {
    slot_vals[2 * t + 1] = acc;
  }
}

/**
 * Bucket accumulation in equal chunks, so that a bucket holding many points (skewed scalars: a witness full of 1s)
 * is summed by many threads. Thread t takes sorted entries [t·len, (t+1)·len): each run of one bucket that lies
 * wholly in the chunk is that bucket's sum (written to buckets, which start as the identity); the runs cut by the
 * chunk's ends are partial and go, with their keys, to slots 2t (first run) and 2t+1 (last run), identity where the
 * run was whole. Slot keys are thus sorted; msm_combine adds the partial sums up. Threads past the last entry write
 * the key `keys` (past every bucket). Entry points below n are bases, the others table[index - n].
 */
template <class P>
HD void msm_accumulate_at(uint32_t t, const typename P::Aff* bases, uint32_t n, const typename P::Aff* table, const uint32_t* entries,
                          const uint32_t* offs, uint32_t keys, uint32_t len, uint32_t threads, P* buckets,
                          uint32_t* slot_keys, P* slot_vals) {
  if (t >= threads) return;
  uint32_t total = offs[keys];
  uint32_t start = t * len;
  slot_vals[2 * t] = P::identity();
  slot_vals[2 * t + 1] = P::identity();
  if (start >= total) {
    slot_keys[2 * t] = keys;
    slot_keys[2 * t + 1] = keys;
    return;
  }
  uint32_t end = min_u32(start + len, total);
  uint32_t lo = 0, hi = keys;  // the last key whose entries begin at or before start
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (offs[mid] <= start) lo = mid; else hi = mid;
  }
  uint32_t k = lo;
  slot_keys[2 * t] = k;
  // one addition per entry in lockstep across the warp (all chunks are equally long); a run's end only flushes
  uint32_t run_end = offs[k + 1];
  P acc = P::identity();
  for (uint32_t e = start; e < end; e++) {
    if (e == run_end) {
      flush_run(k, acc, offs[k] < start, false, t, buckets, slot_vals);
      acc = P::identity();
      do k++; while (offs[k + 1] <= e);  // skip empty buckets
      run_end = offs[k + 1];
    }
    uint32_t entry = entries[e];
    uint32_t index = entry & 0x7fffffffu;
    typename P::Aff p = index < n ? bases[index] : table[index - n];
    if (entry >> 31) p.y = P::Field::neg(p.y);
#ifdef MSM_CALL_MADD
    acc.add(p);
#else
    acc.add_inline(p);  // inlined: 163 against 180 ms at 2^24 with a table (gpu/NOTES.md, run 35)
#endif
  }
  flush_run(k, acc, offs[k] < start, offs[k + 1] > end, t, buckets, slot_vals);
  slot_keys[2 * t + 1] = k;
}

/**
 * Adds partial bucket sums: slots (keys sorted, `keys` meaning none) in chunks of len, as msm_accumulate does with
 * entries: a key's run wholly inside the chunk (no neighbour slot outside it has the key) is added to its bucket;
 * runs cut by the chunk's ends go to out slots 2t and 2t+1. One launch with a single chunk finishes the job.
 */
template <class P>
HD void msm_combine_at(uint32_t t, const uint32_t* in_keys, const P* in_vals, uint32_t count, uint32_t len,
                       uint32_t keys, uint32_t threads, P* buckets, uint32_t* out_keys, P* out_vals) {
  if (t >= threads) return;
  uint32_t start = t * len;
  uint32_t end = min_u32(start + len, count);
  if (out_keys != nullptr) {
    out_vals[2 * t] = P::identity();
    out_vals[2 * t + 1] = P::identity();
    uint32_t first = start < count ? in_keys[start] : keys;
    out_keys[2 * t] = first;
    out_keys[2 * t + 1] = start < count ? in_keys[end - 1] : keys;
  }
  uint32_t e = start;
  while (e < end) {
    uint32_t k = in_keys[e];
    P acc = P::identity();
    uint32_t run_start = e;
    for (; e < end && in_keys[e] == k; e++) acc.add(in_vals[e]);
    if (k >= keys) continue;
    bool cut_before = run_start == start && start > 0 && in_keys[start - 1] == k;
    bool cut_after = e == end && end < count && in_keys[end] == k;
    if (!cut_before && !cut_after) {
      buckets[k].add(acc);
    } else if (cut_before) {
      out_vals[2 * t] = acc;
    } else {
      out_vals[2 * t + 1] = acc;
    }
  }
}

/**
 * Bucket reduction, part one: segment j of set s (thread s·segments + j) covers buckets [j·len, (j+1)·len) and
 * computes sum over its buckets of (b+1)·bucket[b]: a running sum from the top gives sum of (b - lo + 1)·bucket[b],
 * plus lo·(segment sum). Many short segments keep the serial chain short (len + ~2·log2(lo) additions).
 */
template <class P>
HD void msm_reduce_segments_at(uint32_t t, const P* buckets, uint32_t per_set, uint32_t segments, uint32_t len,
                               uint32_t sets, P* out) {
  if (t >= sets * segments) return;
  uint32_t w = t / segments;
  uint32_t lo = (t % segments) * len;
  const P* b = buckets + (size_t)w * per_set;
  P running = P::identity();
  P acc = P::identity();
  for (uint32_t k = lo + len; k-- > lo;) {
    running.add(b[k]);
    acc.add(running);
  }
  if (lo != 0) acc.add(running.times(lo));
  out[t] = acc;
}

/** Sums of groups: out[s·m' + q] = sum of in[s·m + q·group + i] for i < group (within m), m' = ceil(m / group). */
template <class P>
HD void msm_sum_groups_at(uint32_t t, const P* in, uint32_t m, uint32_t group, uint32_t sets, P* out) {
  uint32_t per = (m + group - 1) / group;
  if (t >= sets * per) return;
  uint32_t s = t / per;
  uint32_t from = (t % per) * group;
  uint32_t to = min_u32(from + group, m);
  P acc = P::identity();
  for (uint32_t i = from; i < to; i++) acc.add(in[(size_t)s * m + i]);
  out[t] = acc;
}

/** Bytes of shared memory msm_reduce_windows uses: one XYZZ point per thread (256 of G1, 128 of G2). */
#define MSM_WINDOW_SHARED 49152

/**
 * Bucket reduction, last part: one block per set (blockDim a power of two up to MSM_WINDOW_SHARED / sizeof(P)) adds the
 * set's m partial sums (thread j those at j, j + blockDim, ..., then a tree in shared memory) and writes the set's sum
 * as Jacobian x, y, z (blst_p1 or blst_p2 layout).
 */
template <class P>
__device__ void msm_reduce_windows_block(const P* segs, uint32_t m, typename P::Field* out) {
  __shared__ P sh[MSM_WINDOW_SHARED / sizeof(P)];
  uint32_t w = blockIdx.x;
  uint32_t j = threadIdx.x;
  const P* s = segs + (size_t)w * m;
  P acc = P::identity();
  for (uint32_t k = j; k < m; k += blockDim.x) acc.add(s[k]);
  sh[j] = acc;
  __syncthreads();
  for (uint32_t half = blockDim.x / 2; half > 0; half >>= 1) {
    if (j < half) sh[j].add(sh[j + half]);
    __syncthreads();
  }
  if (j == 0) sh[0].to_jacobian(out + 3 * w);
}

/** The most copies of a point an MSM table holds (MsmPlan.MAX_COPIES). */
#define MSM_MAX_COPIES 32
/** Copies msm_table converts to affine with one inversion: few, to keep its per-thread (local) memory small. */
#define MSM_TABLE_BATCH 4

/**
 * The precomputed table of an MSM: table[(j-1)·n + i] = 2^(shift·j)·P_i in affine form (identity as (0, 0)) for
 * 1 <= j < copies. Each thread doubles its point shift times per copy in XYZZ and converts its copies to affine
 * MSM_TABLE_BATCH at a time, with one inversion per batch (Montgomery's trick).
 */
template <class P>
HD void msm_table_at(uint32_t i, const typename P::Aff* bases, uint32_t n, uint32_t shift, uint32_t copies, typename P::Aff* table) {
  typedef typename P::Field F;
  if (i >= n) return;
  P acc = P::of(bases[i]);
  for (uint32_t first = 1; first < copies; first += MSM_TABLE_BATCH) {
    uint32_t count = min_u32(MSM_TABLE_BATCH, copies - first);
    P pts[MSM_TABLE_BATCH];
    F prefix[MSM_TABLE_BATCH];
    F run = F::one();
    for (uint32_t b = 0; b < count; b++) {
      for (uint32_t s = 0; s < shift; s++) acc.dbl();
      pts[b] = acc;
      if (!acc.is_identity()) run = F::mul(run, F::mul(acc.ZZ, acc.ZZZ));
      prefix[b] = run;
    }
    F inv = F::inverse(run);  // 1 / (product of the batch's ZZ·ZZZ up to b)
    for (uint32_t b = count; b-- > 0;) {
      const P& p = pts[b];
      typename P::Aff r;
      if (p.is_identity()) {
        r.x = F::zero();
        r.y = F::zero();
      } else {
        F d_inv = b > 0 ? F::mul(inv, prefix[b - 1]) : inv;  // 1 / (ZZ·ZZZ) of this copy
        inv = F::mul(inv, F::mul(p.ZZ, p.ZZZ));
        r.x = F::reduce(F::mul(p.X, F::mul(d_inv, p.ZZZ)));
        r.y = F::reduce(F::mul(p.Y, F::mul(d_inv, p.ZZ)));
      }
      table[(size_t)(first + b - 1) * n + i] = r;
    }
  }
}


// at most 128 registers for G1 (4 blocks of 128 per SM): 166 otherwise, and fewer warps in flight cost 5% (gpu/NOTES.md,
// run 7); MSM_ACCUMULATE_BLOCKS lets a benchmark build other caps (-DMSM_ACCUMULATE_BLOCKS=3: 168 registers; 5: 102).
// G2's addition holds twice the state: 2 blocks (up to 255 registers; it takes them all and spills a little).
#ifndef MSM_ACCUMULATE_BLOCKS
#define MSM_ACCUMULATE_BLOCKS 4
#endif
#ifndef MSM_ACCUMULATE_BLOCKS_G2
#define MSM_ACCUMULATE_BLOCKS_G2 2
#endif

/**
 * The MSM kernels of one group, named with a suffix (none for G1, _g2 for G2): thin entry points over the per-thread
 * templates above, so that both groups run one implementation. Kernels.java documents their parameters.
 */
#define MSM_GROUP_KERNELS(SUFFIX, P, BLOCKS)                                                                              \
  extern "C" __global__ void __launch_bounds__(128, BLOCKS)                                                             \
      msm_accumulate##SUFFIX(const P::Aff* bases, uint32_t n, const P::Aff* table, const uint32_t* entries,             \
                             const uint32_t* offs, uint32_t keys, uint32_t len, uint32_t threads, P* buckets,           \
                             uint32_t* slot_keys, P* slot_vals) {                                                       \
    msm_accumulate_at<P>(blockIdx.x * blockDim.x + threadIdx.x, bases, n, table, entries, offs, keys, len, threads,      \
                         buckets, slot_keys, slot_vals);                                                                \
  }                                                                                                                     \
  extern "C" __global__ void msm_combine##SUFFIX(const uint32_t* in_keys, const P* in_vals, uint32_t count,             \
                                                 uint32_t len, uint32_t keys, uint32_t threads, P* buckets,            \
                                                 uint32_t* out_keys, P* out_vals) {                                    \
    msm_combine_at<P>(blockIdx.x * blockDim.x + threadIdx.x, in_keys, in_vals, count, len, keys, threads, buckets,      \
                      out_keys, out_vals);                                                                              \
  }                                                                                                                     \
  extern "C" __global__ void msm_reduce_segments##SUFFIX(const P* buckets, uint32_t per_set, uint32_t segments,         \
                                                         uint32_t len, uint32_t sets, P* out) {                        \
    msm_reduce_segments_at<P>(blockIdx.x * blockDim.x + threadIdx.x, buckets, per_set, segments, len, sets, out);       \
  }                                                                                                                     \
  extern "C" __global__ void msm_sum_groups##SUFFIX(const P* in, uint32_t m, uint32_t group, uint32_t sets, P* out) {  \
    msm_sum_groups_at<P>(blockIdx.x * blockDim.x + threadIdx.x, in, m, group, sets, out);                              \
  }                                                                                                                     \
  extern "C" __global__ void msm_reduce_windows##SUFFIX(const P* segs, uint32_t m, P::Field* out) {                    \
    msm_reduce_windows_block<P>(segs, m, out);                                                                          \
  }

MSM_GROUP_KERNELS(, G1Xyzz, MSM_ACCUMULATE_BLOCKS)
MSM_GROUP_KERNELS(_g2, G2Xyzz, MSM_ACCUMULATE_BLOCKS_G2)

extern "C" __global__ void msm_table(const G1Affine* bases, uint32_t n, uint32_t shift, uint32_t copies, G1Affine* table) {
  msm_table_at<G1Xyzz>(blockIdx.x * blockDim.x + threadIdx.x, bases, n, shift, copies, table);
}

// ------------------------------------------------------------------------------------------------ setup

/**
 * out[i] = scalar[i]·P in affine form (identity as (0, 0)) from a table of P's multiples:
 * table[w·(2^c - 1) + d - 1] = d·2^(c·w)·P for d in [1, 2^c), w < windows = ceil(255/c).
 */
extern "C" __global__ void g1_fixed_base(const G1Affine* table, uint32_t c, uint32_t windows, const Fr* scalars,
                                         uint32_t n, G1Affine* out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Fr s = Fr::from_mont(scalars[i]);
  G1Xyzz acc = G1Xyzz::identity();
  uint32_t per = (1u << c) - 1;
  for (uint32_t w = 0; w < windows; w++) {
    uint32_t d = bits_at(s, w * c, c);
    if (d != 0) acc.add(table[w * per + d - 1]);
  }
  G1Affine r;
  if (acc.is_identity()) {
    r.x = Fp::zero();
    r.y = Fp::zero();
  } else {
    Fp inv = Fp::inverse(Fp::mul(acc.ZZ, acc.ZZZ));
    r.x = Fp::reduce(Fp::mul(acc.X, Fp::mul(inv, acc.ZZZ)));
    r.y = Fp::reduce(Fp::mul(acc.Y, Fp::mul(inv, acc.ZZ)));
  }
  out[i] = r;
}

// ------------------------------------------------------------------------------------------------ tests

/** Elementwise Fr and Fp products for the randomized kernel tests: out = a·b (Montgomery). */
extern "C" __global__ void fr_mul_vec(const Fr* a, const Fr* b, Fr* out, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Fr::mul(a[i], b[i]);
}

extern "C" __global__ void fp_mul_vec(const Fp* a, const Fp* b, Fp* out, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Fp::reduce(Fp::mul(a[i], b[i]));
}
