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

/**
 * atomicAdd of 1 per calling lane, returning each lane its own old value as the plain atomicAdd would, with a single
 * atomic when every calling lane of the warp names the same address: the lowest lane adds their count and each takes
 * the old value plus its rank. Skewed scalars (a witness of 0s and 1s) send a whole warp's digits to one counter,
 * which plain atomics serialize; any other warp takes plain atomics, so that uniform random digits pay only a shuffle
 * and a vote (__match_any_sync for every digit made the sort of random scalars 15% slower, gpu/NOTES.md run 53). On the
 * host (one thread) a plain add.
 */
HD uint32_t atomic_inc_warp(uint32_t* p) {
#ifdef __CUDA_ARCH__
  uint32_t active = __activemask();
  uint32_t leader = __ffs(active) - 1;
  uint32_t* first = (uint32_t*)__shfl_sync(active, (unsigned long long)p, leader);
  if (!__all_sync(active, p == first)) return atomicAdd(p, 1u);
  uint32_t lane = threadIdx.x & 31;
  uint32_t old = 0;
  if (lane == leader) old = atomicAdd(p, __popc(active));
  return __shfl_sync(active, old, leader) + __popc(active & ((1u << lane) - 1));
#else
  return atomic_add_u32(p, 1u);
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
  signed_digits(scalars, i, n, c, windows, sets, [&](uint32_t key, uint32_t) { atomic_inc_warp(&counts[key]); });
}

extern "C" __global__ void msm_count(const Fr* scalars, uint32_t n, uint32_t c, uint32_t windows, uint32_t sets,
                                     uint32_t* counts) {
  msm_count_at(blockIdx.x * blockDim.x + threadIdx.x, scalars, n, c, windows, sets, counts);
}

/**
 * Pass two: entries[cursor[key]++] = entry for the digits whose key lies in [lo, lo + span), so each bucket's entries
 * are contiguous. Launched over key ranges, each bucket's partly written 32-byte sector of entries stays in L2 until
 * its 8 entries are in, instead of going to memory part-written (2^21 keys in one launch leave 64 MiB of such
 * sectors, more than an H100's 50 MiB of L2).
 * A range the counts (offs, keys + 1 of them) say is empty returns at once: skewed scalars fill one or two ranges.
 */
HD void msm_scatter_at(uint32_t i, const Fr* scalars, uint32_t n, uint32_t c, uint32_t windows, uint32_t sets,
                       const uint32_t* offs, uint32_t keys, uint32_t lo, uint32_t span, uint32_t* cursor,
                       uint32_t* entries) {
  if (i >= n || offs[min_u32(lo + span, keys)] == offs[lo]) return;
  signed_digits(scalars, i, n, c, windows, sets, [&](uint32_t key, uint32_t entry) {
    if (key - lo < span) entries[atomic_inc_warp(&cursor[key])] = entry;
  });
}

extern "C" __global__ void msm_scatter(const Fr* scalars, uint32_t n, uint32_t c, uint32_t windows, uint32_t sets,
                                       const uint32_t* offs, uint32_t keys, uint32_t lo, uint32_t span,
                                       uint32_t* cursor, uint32_t* entries) {
  msm_scatter_at(blockIdx.x * blockDim.x + threadIdx.x, scalars, n, c, windows, sets, offs, keys, lo, span, cursor,
                 entries);
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

// The accumulation reads each entry's G1 point by 16-byte loads (6, not 24 of 4 bytes) where bases and table are
// 16-byte aligned; -DMSM_WIDE_LOADS=0 builds the plain loads, for timing one against the other. G2's 192-byte points
// keep the plain loads: 48 registers loaded at once more than doubled msm_accumulate_g2's spills (ptxas -v).
#ifndef MSM_WIDE_LOADS
#define MSM_WIDE_LOADS 1
#endif

/** Whether load_point may read p by 16-byte loads: the build allows it and p is 16-byte aligned (nullptr is). */
template <class A>
HD bool wide_loads(const A* p) {
  static_assert(sizeof(A) % 16 == 0, "an affine point is a whole number of 16-byte words");
  return MSM_WIDE_LOADS && sizeof(A) <= 96 && ((uintptr_t)p & 15) == 0;
}

/** *p, on the device by 16-byte read-only loads when wide (see wide_loads), else as the compiler reads a struct. */
template <class A>
HD A load_point(const A* p, bool wide) {
#ifdef __CUDA_ARCH__
  if (wide) {
    A r;
    uint32_t* out = reinterpret_cast<uint32_t*>(&r);
    const uint4* in = reinterpret_cast<const uint4*>(p);
#pragma unroll
    for (int i = 0; i < (int)(sizeof(A) / 16); i++) {
      uint4 w = __ldg(in + i);
      out[4 * i] = w.x;
      out[4 * i + 1] = w.y;
      out[4 * i + 2] = w.z;
      out[4 * i + 3] = w.w;
    }
    return r;
  }
#endif
  (void)wide;
  return *p;
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
 * is summed by many threads. The chunk length is ceil(total / threads) for the total entries the sort produced (zero
 * digits make fewer), but at least min_len, so that one wave of resident threads shares whatever entries there are.
 * Thread t takes sorted entries [t·len, (t+1)·len): each run of one bucket that lies
 * wholly in the chunk is that bucket's sum (written to buckets, which start as the identity); the runs cut by the
 * chunk's ends are partial and go, with their keys, to slots 2t (first run) and 2t+1 (last run), identity where the
 * run was whole. Slot keys are thus sorted; msm_combine adds the partial sums up. Threads past the last entry write
 * the key `keys` (past every bucket). Entry points below n are bases, the others table[index - n]. Without entries
 * (nullptr) entry e is point e of bases itself (the batch-affine path's reduced points, sorted by key, identity in the
 * gaps). SYM squares with Field::sqr_sym (msm_accumulate_sqr).
 */
template <class P, bool SYM = false>
HD void msm_accumulate_at(uint32_t t, const typename P::Aff* bases, uint32_t n, const typename P::Aff* table, const uint32_t* entries,
                          const uint32_t* offs, uint32_t keys, uint32_t min_len, uint32_t threads, P* buckets,
                          uint32_t* slot_keys, P* slot_vals) {
  if (t >= threads) return;
  uint32_t total = offs[keys];
  uint32_t len = (uint32_t)(((uint64_t)total + threads - 1) / threads);
  if (len < min_len) len = min_len;
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
  bool wide = wide_loads(bases) && wide_loads(table);
  for (uint32_t e = start; e < end; e++) {
    if (e == run_end) {
      flush_run(k, acc, offs[k] < start, false, t, buckets, slot_vals);
      acc = P::identity();
      do k++; while (offs[k + 1] <= e);  // skip empty buckets
      run_end = offs[k + 1];
    }
    uint32_t entry = entries != nullptr ? entries[e] : e;  // none: the points themselves, sorted (batch-affine)
    uint32_t index = entry & 0x7fffffffu;
    typename P::Aff p = load_point(index < n ? bases + index : table + (index - n), wide);
    if (entry >> 31) p.y = P::Field::neg(p.y);
#ifdef MSM_CALL_MADD
    acc.add(p);
#else
    acc.template add_inline<SYM>(p);  // inlined: 163 against 180 ms at 2^24 with a table (gpu/NOTES.md, run 35)
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
 * Bucket reduction, part one: a set's buckets b_k weigh k + 1, and with segments of len buckets, k = j·len + i,
 *   sum (k + 1)·b_k = sum over segments j of A_j + len · sum over j of j·S_j,
 * where A_j = sum (i + 1)·b_{j·len + i} and S_j = sum b_{j·len + i}. Segment j of set s (thread s·segments + j)
 * computes both by a running sum from the top (2·len additions, no multiplication by j·len: the second term is
 * msm_reduce_bits's), writes A_j to out and S_j in place of its own first bucket, which only it reads.
 */
template <class P>
HD void msm_reduce_segments_at(uint32_t t, P* buckets, uint32_t per_set, uint32_t segments, uint32_t len,
                               uint32_t sets, P* out) {
  if (t >= sets * segments) return;
  uint32_t w = t / segments;
  uint32_t lo = (t % segments) * len;
  P* b = buckets + (size_t)w * per_set;
  P running = P::identity();
  P acc = P::identity();
  for (uint32_t k = lo + len; k-- > lo;) {
    running.add(b[k]);
    acc.add(running);
  }
  out[t] = acc;
  b[lo] = running;
}

/**
 * Bucket reduction, part two: sum over j of j·S_j = sum over bits r of 2^r·M_r, M_r the sum of the S_j whose index
 * has bit r set, so the weights become doublings that the host does once per set (Kernels.msmResult). Each set has
 * rows = bits + 2 rows of half = segments / 2 terms: row r < bits the S_j with bit r set (the m-th such j is m with a
 * 1 inserted at bit r), rows bits and bits + 1 the A_j of the lower and upper half of the segments. Thread
 * (s·rows + row)·per + q, per = ceil(half / group), adds terms [q·group, (q + 1)·group) of its row into out, which
 * msm_sum_groups and msm_reduce_windows then sum as sets·rows sets.
 */
template <class P>
HD void msm_reduce_bits_at(uint32_t t, const P* buckets, uint32_t per_set, uint32_t len, const P* a, uint32_t segments,
                           uint32_t bits, uint32_t group, uint32_t sets, P* out) {
  uint32_t rows = bits + 2, half = segments / 2, per = (half + group - 1) / group;
  if (t >= sets * rows * per) return;
  uint32_t w = t / (rows * per);
  uint32_t row = t / per % rows;
  uint32_t from = t % per * group;
  uint32_t to = min_u32(from + group, half);
  P acc = P::identity();
  for (uint32_t m = from; m < to; m++) {
    if (row < bits) {
      uint32_t j = (m >> row << (row + 1)) | (1u << row) | (m & ((1u << row) - 1));
      acc.add(buckets[(size_t)w * per_set + (size_t)j * len]);
    } else {
      acc.add(a[(size_t)w * segments + (row - bits) * half + m]);
    }
  }
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

// ------------------------------------------------------------------------------------ batch-affine accumulation
//
// An alternative to msm_accumulate's XYZZ mixed additions (8M + 2S each) over the sorted entries: before it, `levels`
// pair passes halve every bucket's run with independent affine additions (pairs summed, an odd last point copied), so
// that msm_accumulate then adds up 2^levels times fewer points. An affine addition costs 3 products and a squaring
// beside its share of one inversion; the inversion is shared by Montgomery's trick over a warp: each lane runs `batch`
// additions, a warp's 32·batch denominators share one Fermat inversion (prefix and suffix products across the lanes
// by shuffles), so each addition costs about 6 products (1 forward prefix, 2 back, the slope, its square, y) plus
// ~450/(32·batch) for the inversion and ~12/batch for the shuffled scans.
//
// The sorted entries are processed in slices of `slice` entries (e0 = j·slice, a multiple of 2^levels), so that the
// temporaries stay bounded whatever the bucket sizes: a key's run is clipped to the slice ([a, b), c = b - a entries),
// and level p holds ceil(c / 2^p) points of it, at slot ((a - e0) >> p) + (k - kf) of the level's array (kf: the key
// holding entry e0). That layout needs no prefix sums: a run's slots end before the next key's begin (floor(x + y) >=
// floor(x) + floor(y), and the key term adds one per key), at the cost of one gap slot per key at most. Level p < levels
// lives in a temporary of (slice >> p) + keys points; the last level goes to one array R for all slices, at (a >>
// levels) + k: the pieces of a key cut by slice ends lie next to each other there (slice ends are multiples of
// 2^levels), and R's offsets are (offs[k] >> levels) + k (msm_affine_offsets), with identity points in the gaps
// (R starts zeroed), which msm_accumulate skips.

/** Slot of key k's run at `level` (level 0: its first entry), relative to the slice from e0 whose first key is kf. */
HD uint32_t pair_slot(const uint32_t* offs, uint32_t k, uint32_t e0, uint32_t kf, uint32_t level) {
  uint32_t a = offs[k] > e0 ? offs[k] : e0;
  return ((a - e0) >> level) + (k - kf);
}

/** Where one pass of one slice reads and writes, shared by every lane. */
struct PairPass {
  uint32_t e0, e1;   // the slice's entries [e0, e1)
  uint32_t kf;       // the key holding entry e0
  uint32_t obase;    // the first output slot: 0 in a temporary, (e0 >> levels) + kf in R
  uint32_t end;      // the slots this level of the slice uses: [0, end)
  bool live;         // false when the slice starts past the last entry
};

/** The last key whose entries begin at or before entry e (keys with none there included). */
HD uint32_t key_of_entry(const uint32_t* offs, uint32_t keys, uint32_t e) {
  uint32_t lo = 0, hi = keys;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (offs[mid] <= e) lo = mid; else hi = mid;
  }
  return lo;
}

HD PairPass pair_pass(const uint32_t* offs, uint32_t keys, uint32_t e0, uint32_t slice, uint32_t level,
                      uint32_t levels) {
  PairPass q;
  uint32_t total = offs[keys];
  q.e0 = e0;
  q.live = e0 < total;
  q.e1 = total - e0 < slice ? total : e0 + slice;
  q.kf = q.live ? key_of_entry(offs, keys, e0) : 0;
  q.obase = level == levels ? (e0 >> levels) + q.kf : 0;
  q.end = 0;
  if (q.live) {  // past the last slot of the key holding the slice's last entry
    uint32_t kl = key_of_entry(offs, keys, q.e1 - 1);
    uint32_t a = offs[kl] > e0 ? offs[kl] : e0;
    q.end = pair_slot(offs, kl, e0, q.kf, level) + ((q.e1 - a + (1u << level) - 1) >> level);
  }
  return q;
}

/** One output slot's work: nothing (a gap), a copy or a known result, or an affine addition with a denominator. */
enum PairKind { PAIR_NONE = 0, PAIR_WRITE = 1, PAIR_ADD = 2, PAIR_DBL = 3 };

/**
 * The two inputs of output slot r of key k (or one, when the run's count is odd and r is its last slot) and what their
 * sum takes. Pass 1 gathers entries (bases below n, table above, sign bit: negated y); later passes read src.
 */
template <class A>
struct PairJob {
  uint32_t kind;
  uint32_t out;  // output slot (absolute)
  A p1, p2;      // the inputs (PAIR_WRITE: p1 is the result)
};

template <class A>
HD A pair_load(const A* bases, uint32_t n, const A* table, const uint32_t* entries, const A* src, uint32_t at) {
  if (src != nullptr) return src[at];
  uint32_t entry = entries[at];
  uint32_t index = entry & 0x7fffffffu;
  A p = index < n ? bases[index] : table[index - n];
  if (entry >> 31) p.y = decltype(p.y)::neg(p.y);
  return p;
}

template <class A>
HD PairJob<A> pair_job(const A* bases, uint32_t n, const A* table, const uint32_t* entries, const A* src,
                       const uint32_t* offs, const PairPass& q, uint32_t k, uint32_t r, uint32_t level) {
  typedef decltype(A().x) F;
  PairJob<A> j;
  j.kind = PAIR_NONE;
  j.out = q.obase + r;
  uint32_t a = offs[k] > q.e0 ? offs[k] : q.e0;
  uint32_t b = offs[k + 1] < q.e1 ? offs[k + 1] : q.e1;
  uint32_t c = b > a ? b - a : 0;
  uint32_t slot = r - pair_slot(offs, k, q.e0, q.kf, level);
  uint32_t outs = (c + (1u << level) - 1) >> level;
  if (slot >= outs) return j;
  uint32_t ins = (c + (1u << (level - 1)) - 1) >> (level - 1);
  uint32_t at = (level == 1 ? a : pair_slot(offs, k, q.e0, q.kf, level - 1)) + 2 * slot;
  j.p1 = pair_load(bases, n, table, entries, src, at);
  j.kind = PAIR_WRITE;
  if (2 * slot + 1 >= ins) return j;  // the odd last point: copied
  j.p2 = pair_load(bases, n, table, entries, src, at + 1);
  if (j.p1.is_identity()) {
    j.p1 = j.p2;
  } else if (!j.p2.is_identity()) {
    if (!F::sub(j.p2.x, j.p1.x).is_zero()) {
      j.kind = PAIR_ADD;
    } else if (F::sub(j.p2.y, j.p1.y).is_zero() && !j.p1.y.is_zero()) {
      j.kind = PAIR_DBL;  // the same point twice: slope 3x^2 / 2y
    } else {
      j.p1.x = F::zero();  // P + (-P): the identity
      j.p1.y = F::zero();
    }
  }
  return j;
}

/** The denominator of an addition's slope: x2 - x1, or 2y for a doubling. */
template <class A>
HD auto pair_denominator(const PairJob<A>& j) -> decltype(A().x) {
  typedef decltype(A().x) F;
  return j.kind == PAIR_ADD ? F::sub(j.p2.x, j.p1.x) : F::dbl(j.p1.y);
}

/** Lane `lane` of warp w: its output slots are w·32·batch + i·32 + lane for i < batch (coalesced across the warp). */
HD uint32_t pair_position(uint32_t warp, uint32_t lane, uint32_t i, uint32_t batch) {
  return warp * 32 * batch + i * 32 + lane;
}

/** The key of relative slot r: the last key k >= from whose run starts at or before r at this level. */
HD uint32_t pair_key(const uint32_t* offs, uint32_t keys, const PairPass& q, uint32_t from, uint32_t r, uint32_t level) {
  uint32_t lo = from, hi = keys;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (pair_slot(offs, mid, q.e0, q.kf, level) <= r) lo = mid; else hi = mid;
  }
  return lo;
}

/**
 * Forward half of a lane's batch: writes the copies and known results, and for each addition stores the product of
 * the lane's earlier denominators in the output slot's x (its exclusive prefix); returns the product of all of them.
 */
template <class A>
HD auto msm_pairs_forward_at(uint32_t warp, uint32_t lane, const A* bases, uint32_t n, const A* table,
                             const uint32_t* entries, const uint32_t* offs, uint32_t keys, const PairPass& q,
                             uint32_t level, const A* src, A* dst, uint32_t batch, uint32_t positions)
    -> decltype(A().x) {
  typedef decltype(A().x) F;
  F run = F::one();
  positions = min_u32(positions, q.end);
  uint32_t r0 = pair_position(warp, lane, 0, batch);
  if (!q.live || r0 >= positions) return run;
  uint32_t k = pair_key(offs, keys, q, q.kf, r0, level);
  for (uint32_t i = 0; i < batch; i++) {
    uint32_t r = pair_position(warp, lane, i, batch);
    if (r >= positions) break;
    while (k + 1 < keys && pair_slot(offs, k + 1, q.e0, q.kf, level) <= r) k++;
    PairJob<A> j = pair_job(bases, n, table, entries, src, offs, q, k, r, level);
    if (j.kind == PAIR_WRITE) {
      dst[j.out] = j.p1;
    } else if (j.kind != PAIR_NONE) {
      dst[j.out].x = run;
      run = F::mul(run, pair_denominator(j));
    }
  }
  return run;
}

/**
 * Back half: given the inverse of the lane's product of denominators, walks its additions from the last, each taking
 * its own inverse (inv · its prefix) and leaving inv for the ones before (inv · its denominator), and writes the sums.
 */
template <class A, bool SYM>
HD void msm_pairs_back_at(uint32_t warp, uint32_t lane, const A* bases, uint32_t n, const A* table,
                          const uint32_t* entries, const uint32_t* offs, uint32_t keys, const PairPass& q,
                          uint32_t level, const A* src, A* dst, uint32_t batch, uint32_t positions,
                          decltype(A().x) inv) {
  typedef decltype(A().x) F;
  positions = min_u32(positions, q.end);
  uint32_t r0 = pair_position(warp, lane, 0, batch);
  if (!q.live || r0 >= positions) return;
  uint32_t last = batch;
  while (last > 0 && pair_position(warp, lane, last - 1, batch) >= positions) last--;
  uint32_t k = pair_key(offs, keys, q, q.kf, pair_position(warp, lane, last - 1, batch), level);
  for (uint32_t i = last; i-- > 0;) {
    uint32_t r = pair_position(warp, lane, i, batch);
    while (pair_slot(offs, k, q.e0, q.kf, level) > r) k--;  // walking down (slot(kf) = 0 <= r ends it)
    PairJob<A> j = pair_job(bases, n, table, entries, src, offs, q, k, r, level);
    if (j.kind != PAIR_ADD && j.kind != PAIR_DBL) continue;
    F d = pair_denominator(j);
    F d_inv = F::mul(inv, dst[j.out].x);
    inv = F::mul(inv, d);
    F num;
    if (j.kind == PAIR_ADD) {
      num = F::sub(j.p2.y, j.p1.y);
    } else {
      F xx = Xyzz<F>::template square<SYM>(j.p1.x);
      num = F::add(F::dbl(xx), xx);
    }
    F lambda = F::mul(num, d_inv);
    A s;
    s.x = F::sub(F::sub(Xyzz<F>::template square<SYM>(lambda), j.p1.x), j.p2.x);
    s.y = F::sub(F::mul(lambda, F::sub(j.p1.x, s.x)), j.p1.y);
    dst[j.out] = s;
  }
}

/**
 * The inverses of 32 lanes' products at once (Montgomery's trick across the lanes): each lane's inverse is
 * (product of all)^-1 · (product of the lanes before) · (product of the lanes after). The host version over an array;
 * the device version (msm_pairs) is the same with shuffles.
 */
template <class F>
HD void lanes_inverse(const F* run, F* inv, uint32_t lanes) {
  F before[32], after[32];
  F acc = F::one();
  for (uint32_t l = 0; l < lanes; l++) {
    before[l] = acc;
    acc = F::mul(acc, run[l]);
  }
  F total_inv = F::inverse(acc);
  acc = F::one();
  for (uint32_t l = lanes; l-- > 0;) {
    after[l] = acc;
    acc = F::mul(acc, run[l]);
  }
  for (uint32_t l = 0; l < lanes; l++) inv[l] = F::mul(total_inv, F::mul(before[l], after[l]));
}

/** R's run offsets: (offs[k] >> levels) + k for k <= keys (see the section's comment). */
HD void msm_affine_offsets_at(uint32_t k, const uint32_t* offs, uint32_t keys, uint32_t levels, uint32_t* out) {
  if (k <= keys) out[k] = (offs[k] >> levels) + k;
}

template <class F>
__device__ F shfl_field(const F& x, int lane_or_delta, int how) {
  F r;
#pragma unroll
  for (int i = 0; i < F::N; i++) {
    r.v[i] = how == 0 ? __shfl_up_sync(0xffffffffu, x.v[i], lane_or_delta)
           : how == 1 ? __shfl_down_sync(0xffffffffu, x.v[i], lane_or_delta)
                      : __shfl_sync(0xffffffffu, x.v[i], lane_or_delta);
  }
  return r;
}

/** lanes_inverse over the warp's 32 lanes by shuffles: inclusive prefix and suffix products in 5 steps each. */
template <class F>
__device__ F warp_inverse(const F& run, uint32_t lane) {
  F pre = run, suf = run;
#pragma unroll 1
  for (int d = 1; d < 32; d <<= 1) {
    F o = shfl_field(pre, d, 0);
    if (lane >= (uint32_t)d) pre = F::mul(o, pre);
    F u = shfl_field(suf, d, 1);
    if (lane + d < 32) suf = F::mul(suf, u);
  }
  F total_inv = F::inverse(shfl_field(pre, 31, 2));
  F before = shfl_field(pre, 1, 0);
  F after = shfl_field(suf, 1, 1);
  if (lane == 0) before = F::one();
  if (lane == 31) after = F::one();
  return F::mul(total_inv, F::mul(before, after));
}

/** One pair pass of one slice (see the section's comment); all 32 lanes of a warp take part in its inversion. */
template <class A, bool SYM>
__device__ void msm_pairs_block(const A* bases, uint32_t n, const A* table, const uint32_t* entries,
                                const uint32_t* offs, uint32_t keys, uint32_t e0, uint32_t slice, uint32_t level,
                                uint32_t levels, const A* src, A* dst, uint32_t batch, uint32_t positions) {
  typedef decltype(A().x) F;
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t warp = t / 32, lane = t % 32;
  if (pair_position(warp, 0, 0, batch) >= positions) return;  // the whole warp: past the level's slots
  PairPass q = pair_pass(offs, keys, e0, slice, level, levels);
  if (!q.live || pair_position(warp, 0, 0, batch) >= q.end) return;  // the whole warp: nothing of the slice there
  F run = msm_pairs_forward_at(warp, lane, bases, n, table, entries, offs, keys, q, level, src, dst, batch, positions);
  F inv = warp_inverse(run, lane);
  msm_pairs_back_at<A, SYM>(warp, lane, bases, n, table, entries, offs, keys, q, level, src, dst, batch, positions, inv);
}

// G1's accumulation runs one block of 384 threads per SM, at most 168 registers a thread: with products in the split
// form (field.cuh, FP_SPLIT) the mixed addition spills ~700 B at 128 registers and 8 B at 168. Its time is the multiply
// pipe's (gpu/src/test/cuda/mul_rate.cu: Fp products reach ~95% of the pipe's rate from 2 warps a scheduler), and one
// block of 384 ran them there where the same 12 warps an SM in 3 blocks of 128 reached 85% of that (which of the
// schedulers' or the SMs' load was uneven was not measured); the accumulation at 2^24 took 76.0 ms against 88.0
// (gpu/NOTES.md, runs 70-71). Kernels launches each accumulation kernel in blocks of its launch bounds' threads, so a
// benchmark may build other shapes (-DMSM_ACCUMULATE_THREADS=256 -DMSM_ACCUMULATE_BLOCKS=1: up to 255 registers).
// G2's addition holds twice the state: 2 blocks of 128 (up to 255 registers; it takes them all and spills a little).
#ifndef MSM_ACCUMULATE_THREADS
#define MSM_ACCUMULATE_THREADS 384
#endif
#ifndef MSM_ACCUMULATE_BLOCKS
#define MSM_ACCUMULATE_BLOCKS 1
#endif
#ifndef MSM_ACCUMULATE_BLOCKS_G2
#define MSM_ACCUMULATE_BLOCKS_G2 2
#endif

/**
 * The MSM kernels of one group, named with a suffix (none for G1, _g2 for G2): thin entry points over the per-thread
 * templates above, so that both groups run one implementation. Kernels.java documents their parameters.
 */
#define MSM_GROUP_KERNELS(SUFFIX, P, THREADS, BLOCKS)                                                                     \
  extern "C" __global__ void __launch_bounds__(THREADS, BLOCKS)                                                         \
      msm_accumulate##SUFFIX(const P::Aff* bases, uint32_t n, const P::Aff* table, const uint32_t* entries,             \
                             const uint32_t* offs, uint32_t keys, uint32_t min_len, uint32_t threads, P* buckets,       \
                             uint32_t* slot_keys, P* slot_vals) {                                                       \
    msm_accumulate_at<P>(blockIdx.x * blockDim.x + threadIdx.x, bases, n, table, entries, offs, keys, min_len, threads,  \
                         buckets, slot_keys, slot_vals);                                                                \
  }                                                                                                                     \
  extern "C" __global__ void msm_combine##SUFFIX(const uint32_t* in_keys, const P* in_vals, uint32_t count,             \
                                                 uint32_t len, uint32_t keys, uint32_t threads, P* buckets,            \
                                                 uint32_t* out_keys, P* out_vals) {                                    \
    msm_combine_at<P>(blockIdx.x * blockDim.x + threadIdx.x, in_keys, in_vals, count, len, keys, threads, buckets,      \
                      out_keys, out_vals);                                                                              \
  }                                                                                                                     \
  extern "C" __global__ void msm_reduce_segments##SUFFIX(P* buckets, uint32_t per_set, uint32_t segments, uint32_t len, \
                                                         uint32_t sets, P* out) {                                      \
    msm_reduce_segments_at<P>(blockIdx.x * blockDim.x + threadIdx.x, buckets, per_set, segments, len, sets, out);       \
  }                                                                                                                     \
  extern "C" __global__ void msm_reduce_bits##SUFFIX(const P* buckets, uint32_t per_set, uint32_t len, const P* a,      \
                                                     uint32_t segments, uint32_t bits, uint32_t group, uint32_t sets,  \
                                                     P* out) {                                                         \
    msm_reduce_bits_at<P>(blockIdx.x * blockDim.x + threadIdx.x, buckets, per_set, len, a, segments, bits, group, sets, \
                          out);                                                                                         \
  }                                                                                                                     \
  extern "C" __global__ void msm_sum_groups##SUFFIX(const P* in, uint32_t m, uint32_t group, uint32_t sets, P* out) {  \
    msm_sum_groups_at<P>(blockIdx.x * blockDim.x + threadIdx.x, in, m, group, sets, out);                              \
  }                                                                                                                     \
  extern "C" __global__ void msm_reduce_windows##SUFFIX(const P* segs, uint32_t m, P::Field* out) {                    \
    msm_reduce_windows_block<P>(segs, m, out);                                                                          \
  }

MSM_GROUP_KERNELS(, G1Xyzz, MSM_ACCUMULATE_THREADS, MSM_ACCUMULATE_BLOCKS)
MSM_GROUP_KERNELS(_g2, G2Xyzz, 128, MSM_ACCUMULATE_BLOCKS_G2)

/** G1's msm_accumulate with PP and R^2 squared by Fp::sqr_sym (the accumulation variant MsmPlan.Accumulation.XYZZ_SQR). */
extern "C" __global__ void __launch_bounds__(MSM_ACCUMULATE_THREADS, MSM_ACCUMULATE_BLOCKS)
    msm_accumulate_sqr(const G1Affine* bases, uint32_t n, const G1Affine* table, const uint32_t* entries,
                       const uint32_t* offs, uint32_t keys, uint32_t min_len, uint32_t threads, G1Xyzz* buckets,
                       uint32_t* slot_keys, G1Xyzz* slot_vals) {
  msm_accumulate_at<G1Xyzz, true>(blockIdx.x * blockDim.x + threadIdx.x, bases, n, table, entries, offs, keys, min_len,
                                  threads, buckets, slot_keys, slot_vals);
}

/** One G1 pair pass of the batch-affine accumulation (slopes squared by Fp::sqr_sym); blockDim a multiple of 32. */
extern "C" __global__ void __launch_bounds__(128)
    msm_pairs(const G1Affine* bases, uint32_t n, const G1Affine* table, const uint32_t* entries, const uint32_t* offs,
              uint32_t keys, uint32_t e0, uint32_t slice, uint32_t level, uint32_t levels, const G1Affine* src,
              G1Affine* dst, uint32_t batch, uint32_t positions) {
  msm_pairs_block<G1Affine, true>(bases, n, table, entries, offs, keys, e0, slice, level, levels, src, dst, batch,
                                  positions);
}

extern "C" __global__ void msm_affine_offsets(const uint32_t* offs, uint32_t keys, uint32_t levels, uint32_t* out) {
  msm_affine_offsets_at(blockIdx.x * blockDim.x + threadIdx.x, offs, keys, levels, out);
}

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

/** out = a·a elementwise by Fp::sqr_sym (its device carry chains, checked against fp_mul_vec by KernelsGpuIT). */
extern "C" __global__ void fp_sqr_vec(const Fp* a, Fp* out, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Fp::reduce(Fp::sqr_sym(a[i]));
}
