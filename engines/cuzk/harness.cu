// Interlock's harness for cuzk's real GPU code: what cuzk's Rust side does around supraseal-c2's C entry points.
//
// The engine is compiled into this translation unit unchanged (groth16_cuda.cu from the curio commit that
// engines/cuzk/build.sh extracted). The harness creates the engine's per-GPU mutex (create_gpu_mutex) and the
// worker threads, and calls generate_groth16_proofs_c (or, from phase 12 on, the split API with a finalizer thread
// per proof, as cuzk's engine does) with generated inputs at the real partition size of a 32 GiB PoRep C2:
//
//   - an SRS file of the real shape (h: 2^27-1 G1 points, l: 130,169,893, a: 129,753,620, b_g1 and b_g2:
//     33,112,282), every point the group's generator, read by the engine's own SRS loader;
//   - a, b, c of 130,278,869 elements (b zero), the aux assignment of 130,169,893 scalars with the densities of
//     cuzk-project.md's Phase 5 table, and the tail MSMs' popcounts of designs/cuzk (2^24 for L and A; B the most
//     that still splits, 16,556,141);
//   - r = s = 0, so that A = alpha + A', B = beta + B', C = H + L, each term a known multiple of the generator.
//
// Each proof is checked on the host, term by term: which of H, the L batch addition, the L tail MSM, A's and B's
// parts are in it. A missing term (the point at infinity where the engine lost a result) is named. Every bases'
// point is the generator, so each MSM is (sum of its scalars) * G; H's sum needs one pass over c (see h_scalar).
//
// The harness adds what a capture needs and the engine cannot give: NVTX names for the gpu mutex and the worker
// threads, a `job` range around each proof's GPU call, and a VRAM budget made by a ballast, as capture/testengine.

#include "groth16_cuda.cu"

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtSync.h>

#include <sys/mman.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#ifndef __CUDA_ARCH__  // all of the harness is host code; nvcc's device pass sees the engine's device types only

// blst, for the generators and their serialization into the SRS file (blst.h itself would clash with the engine's
// own declarations of blst_p1_deserialize, which take sppark's types)
extern "C" {
const void* blst_p1_affine_generator();
const void* blst_p2_affine_generator();
void blst_p1_affine_serialize(unsigned char out[96], const void* in);
void blst_p2_affine_serialize(unsigned char out[192], const void* in);
}

// cuzk defines this in Rust (cuzk-pce, phase 11 on): synthesis threads read the flag. No synthesis runs here.
static std::atomic<int> membw_throttle{0};
extern "C" void set_membw_throttle(int value) { membw_throttle.store(value); }

// bf804060 on: the entry points take the GPU's index (the per-GPU mutex's GPU); one GPU here
#ifdef CUZK_GPU_INDEX
# define CUZK_GPU_ARG , 0
#else
# define CUZK_GPU_ARG
#endif

namespace harness {

constexpr uint64_t MIB = 1ull << 20, GIB = 1ull << 30;
constexpr int EXIT_OK = 0, EXIT_BAD_ARGS = 2, EXIT_WRONG = 3, EXIT_ENGINE_ERROR = 4;

/** The partition's shape; defaults are cuzk-project.md's Phase 5 table (32 GiB PoRep C2). */
struct Shape {
  uint64_t h_points = (1ull << 27) - 1;  // the H query: domain size - 1
  uint64_t abc = 130278869;              // constraints: the length of a, b, c before padding to 2^27
  uint64_t inputs = 328;
  uint64_t aux = 130169893;
  uint64_t a_aux_pop = 129753292;
  uint64_t b_aux_pop = 33112281;         // b_inp popcount is 1 (input 0)
  uint64_t l_tail = 1ull << 24;          // non-0/1 aux scalars (all with a density)
  uint64_t b_tail = 16556140;            // of them, those with b density: B's popcount 16,556,141 still splits
};

struct Options {
  int workers = 1;
  int jobs = 1;
  uint64_t budget = 16 * GIB;  // 0: the whole device
  std::string srs_dir;  // empty: an anonymous memory file (memfd), read by the engine through /proc/self/fd
  uint64_t seed = 1;
  bool split_api = false;
  bool inputs_only = false;  // make and sum the inputs on the host, no GPU: a check of the harness itself
  bool host_b_tail = false;  // with inputs_only: run B's tail MSM (b_g2_msm's) on the host over the real scalars
  Shape shape;
};

[[noreturn]] void bad(const std::string& why) {
  std::fprintf(stderr, "cuzk-harness: %s\n", why.c_str());
  std::exit(EXIT_BAD_ARGS);
}

uint64_t parse_size(const std::string& opt, const std::string& v) {
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  std::string unit = end ? end : "";
  uint64_t m = unit == "" ? 1 : unit == "KiB" ? 1024 : unit == "MiB" ? MIB : unit == "GiB" ? GIB : 0;
  if (end == v.c_str() || m == 0 || x < 0) bad(opt + ": not a size: " + v + " (bytes, or a number with KiB, MiB, GiB)");
  return static_cast<uint64_t>(x * m);
}

uint64_t parse_count(const std::string& opt, const std::string& v) {
  char* end = nullptr;
  unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end) bad(opt + ": not a number: " + v);
  return x;
}

void usage() {
  std::fprintf(stderr,
      "usage: cuzk-harness [--workers W] [--jobs J] [--budget SIZE] [--seed S] [--srs-dir DIR] [--api sync|split]\n"
      "  --workers W    GPU workers sharing the engine's gpu mutex (default 1)\n"
      "  --jobs J       proofs per worker (default 1)\n"
      "  --budget SIZE  VRAM left to the run: a ballast of (free - SIZE) at start; 0: none (default 16GiB)\n"
      "  --seed S       the inputs' seed (default 1)\n"
      "  --srs-dir DIR  where the generated SRS file (45 GiB) is written and removed once read (default: in memory)\n"
      "  --api sync|split  generate_groth16_proofs_c, or start + finalize on a thread per proof (phase 12 on;\n"
      "                 the default where the engine has it)\n"
      "  --aux N, --abc N, --l-tail N, --b-tail N  the partition's shape (defaults: the real 32 GiB PoRep C2)\n"
      "  --inputs-only  make the inputs and their expected terms on the host, print them, no GPU\n"
      "exit: 0 every proof right; 3 a proof wrong; 4 the engine returned an error; 2 bad arguments or setup.\n");
}

Options parse(int argc, char** argv) {
  Options o;
#ifdef CUZK_SPLIT_API
  o.split_api = true;
#endif
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") { usage(); std::exit(EXIT_OK); }
    if (a == "--inputs-only") { o.inputs_only = true; continue; }
    if (a == "--host-b-tail") { o.host_b_tail = true; continue; }
    if (i + 1 >= argc) bad(a + ": needs a value (or unknown option; --help)");
    std::string v = argv[++i];
    if (a == "--workers") o.workers = static_cast<int>(parse_count(a, v));
    else if (a == "--jobs") o.jobs = static_cast<int>(parse_count(a, v));
    else if (a == "--budget") o.budget = parse_size(a, v);
    else if (a == "--seed") o.seed = parse_count(a, v);
    else if (a == "--srs-dir") o.srs_dir = v;
    else if (a == "--api") {
      if (v == "sync") o.split_api = false;
      else if (v == "split") o.split_api = true;
      else bad("--api: sync or split, not " + v);
    } else if (a == "--aux") o.shape.aux = parse_count(a, v);
    else if (a == "--abc") o.shape.abc = parse_count(a, v);
    else if (a == "--l-tail") o.shape.l_tail = parse_count(a, v);
    else if (a == "--b-tail") o.shape.b_tail = parse_count(a, v);
    else { usage(); bad("unknown option " + a); }
  }
#ifndef CUZK_SPLIT_API
  if (o.split_api) bad("--api split: this engine (" CUZK_COMMIT ") has no generate_groth16_proofs_start_c");
#endif
  const Shape& s = o.shape;
  if (o.workers < 1 || o.jobs < 1) bad("--workers and --jobs must be at least 1");
  if (s.abc > s.h_points + 1 || s.abc == 0) bad("--abc must be in 1.." + std::to_string(s.h_points + 1));
  if (s.a_aux_pop > s.aux) o.shape.a_aux_pop = s.aux - s.aux / 300;  // a smaller shape keeps the densities' ratios
  if (o.shape.b_aux_pop > s.aux) o.shape.b_aux_pop = s.aux / 4;
  if (s.b_tail > o.shape.b_aux_pop || s.l_tail < s.b_tail || s.l_tail - s.b_tail > o.shape.a_aux_pop - o.shape.b_aux_pop)
    bad("--l-tail/--b-tail do not fit the densities");
  return o;
}

uint32_t os_tid() { return static_cast<uint32_t>(::syscall(SYS_gettid)); }
double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/** Runs fn(begin, end, thread) over [0, n) on every core. */
template <class Fn>
void par(uint64_t n, Fn fn) {
  unsigned t = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> ts;
  for (unsigned i = 0; i < t; i++) {
    uint64_t b = n * i / t, e = n * (i + 1) / t;
    ts.emplace_back([=, &fn] { fn(b, e, i); });
  }
  for (auto& x : ts) x.join();
}

uint64_t mix(uint64_t x) {  // splitmix64's finalizer: the inputs are a function of (seed, index)
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/** A pseudo-random field element: 254 random bits are below r, so any such value is a valid representation. */
fr_t random_fr(uint64_t seed, uint64_t i) {
  fr_t x;
  uint64_t* v = reinterpret_cast<uint64_t*>(&x);
  for (int k = 0; k < 4; k++) v[k] = mix(seed * 0x100000001b3ull + i * 4 + k);
  v[3] &= (1ull << 62) - 1;
  return x;
}

fr_t power(const fr_t& a, uint64_t k) {  // a^k (blst's operator^ takes k >= 2 only)
  fr_t r = fr_t::one(), sq = a;
  for (; k; k >>= 1, sq = sq * sq)
    if (k & 1) r = r * sq;
  return r;
}

fr_t fr_of(uint64_t n) {  // n * 1 in the field
  fr_t r, add = fr_t::one();
  r.zero();
  for (; n; n >>= 1, add = add + add)
    if (n & 1) r = r + add;
  return r;
}

// ---------------------------------------------------------------- the SRS file

/**
 * Writes an SRS file of the shape in the engine's layout (groth16_srs.cuh), every point the generator. Returns its
 * path and the descriptor that keeps it (an anonymous memory file: no tmpfs of 45 GiB is needed).
 */
std::pair<std::string, int> write_srs(const Options& o) {
  const Shape& s = o.shape;
  std::string path;
  int fd;
  if (o.srs_dir.empty()) {
    fd = memfd_create("cuzk-harness-srs", 0);
    if (fd < 0) bad(std::string("memfd_create: ") + std::strerror(errno));
    path = "/proc/self/fd/" + std::to_string(fd);
  } else {
    path = o.srs_dir + "/cuzk-harness-" + std::to_string(getpid()) + ".srs";
    fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  }
  unsigned char g1[96], g2[192];
  blst_p1_affine_serialize(g1, blst_p1_affine_generator());
  blst_p2_affine_serialize(g2, blst_p2_affine_generator());
  struct Section { uint64_t count; bool g2; };
  uint64_t a_points = s.inputs + s.a_aux_pop, b_points = 1 + s.b_aux_pop;
  std::vector<Section> sections = {{s.inputs + 1, false}, {s.h_points, false}, {s.aux, false}, {a_points, false},
                                   {b_points, false}, {b_points, true}};
  uint64_t size = 3 * 96 + 3 * 192;
  for (auto& sec : sections) size += 4 + sec.count * (sec.g2 ? 192 : 96);
  if (fd < 0) bad("cannot create " + path + ": " + std::strerror(errno));
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) bad("cannot size " + path + ": " + std::strerror(errno));
  auto* p = static_cast<unsigned char*>(mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
  if (p == MAP_FAILED) bad("cannot map " + path + ": " + std::strerror(errno));
  uint64_t at = 0;
  auto put = [&](const unsigned char* b, size_t n) { std::memcpy(p + at, b, n); at += n; };
  put(g1, 96); put(g1, 96); put(g2, 192); put(g2, 192); put(g1, 96); put(g2, 192);  // alpha beta beta gamma delta delta
  for (auto& sec : sections) {
    unsigned char be[4] = {uint8_t(sec.count >> 24), uint8_t(sec.count >> 16), uint8_t(sec.count >> 8), uint8_t(sec.count)};
    put(be, 4);
    size_t n = sec.g2 ? 192 : 96;
    const unsigned char* pt = sec.g2 ? g2 : g1;
    unsigned char* base = p + at;
    par(sec.count, [&](uint64_t b, uint64_t e, unsigned) {
      for (uint64_t i = b; i < e; i++) std::memcpy(base + i * n, pt, n);
    });
    at += sec.count * n;
  }
  munmap(p, size);
  std::printf("srs file %s: %.1f GiB\n", path.c_str(), double(size) / GIB);
  return {path, fd};
}

// ---------------------------------------------------------------- the inputs and what each term must be

/** execute_batch_addition's batches: NUM_BATCHES of split_vectors' batch_size points (groth16_split_msm.cu). */
constexpr int kBatches = NUM_BATCHES;
using BatchOnes = std::array<uint64_t, kBatches>;
uint64_t batch_points(uint64_t points) {
  split_vectors sv{0, points};  // the engine's own arithmetic; no circuit, so nothing is allocated
  return sv.batch_size;
}

uint64_t total(const BatchOnes& ones) {
  uint64_t t = 0;
  for (uint64_t x : ones) t += x;
  return t;
}

/** The inputs all workers share (read only) and the sums of their scalars per term. */
struct Witness {
  std::vector<uint64_t> a_density, b_inp_density, b_density;
  std::vector<fr_t> inp, aux;
  fr_t l_batch, l_tail, a_batch, a_tail, b_batch, b_tail;  // sum of the scalars of each part
  // the ones in each of execute_batch_addition's batches of points (their total is the batch term), to name a lost batch
  BatchOnes l_batch_ones{}, a_batch_ones{}, b_batch_ones{};
};

/** A worker's a, b, c (each its own, since phase 9 registers them with cudaHostRegister) and its H scalar. */
struct Polys {
  std::vector<fr_t> a, b, c;
  fr_t h;                      // H = h * G
  fr_t h_other_convention;     // the same with the inverse root, only to tell a harness error from an engine one
};

Witness make_witness(const Options& o) {
  const Shape& s = o.shape;
  Witness w;
  uint64_t words = (s.aux + 63) / 64;
  w.a_density.assign(words, 0);
  w.b_density.assign(words, 0);
  w.b_inp_density.assign((s.inputs + 63) / 64, 0);
  w.b_inp_density[0] = 1;  // input 0 (the constant one) has b density; 1 of 328, as cuzk's table
  w.inp.resize(s.inputs);
  for (uint64_t j = 0; j < s.inputs; j++) w.inp[j] = j == 0 ? fr_t::one() : random_fr(o.seed + 7, j);
  w.aux.resize(s.aux);
  // positions: a density on all but the last (aux - a_aux_pop); b density on the first b_aux_pop; non-0/1 scalars
  // on the first b_tail positions and on (l_tail - b_tail) positions just after the b-density ones
  uint64_t a_end = s.a_aux_pop, extra_begin = s.b_aux_pop, extra_end = s.b_aux_pop + (s.l_tail - s.b_tail);
  for (uint64_t i = 0; i < s.aux; i++) {
    if (i < a_end) w.a_density[i / 64] |= 1ull << (i % 64);
    if (i < s.b_aux_pop) w.b_density[i / 64] |= 1ull << (i % 64);
  }
  unsigned t = std::max(1u, std::thread::hardware_concurrency());
  struct Part {
    fr_t lt, at, bt;
    BatchOnes lk{}, ak{}, bk{};
  };
  // a point's batch: L's points are the aux, A's the inputs then the a-density aux, B's input 0 then the b-density aux
  uint64_t l_size = batch_points(s.aux), a_size = batch_points(s.inputs + s.a_aux_pop),
           b_size = batch_points(1 + s.b_aux_pop);
  std::vector<Part> parts(t);
  for (auto& pa : parts) { pa.lt.zero(); pa.at.zero(); pa.bt.zero(); }
  par(s.aux, [&](uint64_t b, uint64_t e, unsigned th) {
    Part& pa = parts[th];
    for (uint64_t i = b; i < e; i++) {
      bool big = i < s.b_tail || (i >= extra_begin && i < extra_end);
      bool in_a = i < a_end, in_b = i < s.b_aux_pop;
      fr_t x;
      if (big) {
        x = random_fr(o.seed, i);
        if (x.is_one() || x.is_zero()) x = fr_of(2);
        pa.lt = pa.lt + x;
        if (in_a) pa.at = pa.at + x;
        if (in_b) pa.bt = pa.bt + x;
      } else if (mix(o.seed ^ (i * 0x9e37ull)) & 1) {
        x = fr_t::one();
        pa.lk[i / l_size]++;
        if (in_a) pa.ak[(s.inputs + i) / a_size]++;
        if (in_b) pa.bk[(1 + i) / b_size]++;
      } else {
        x.zero();
      }
      w.aux[i] = x;
    }
  });
  fr_t lt, at, bt;
  lt.zero(); at.zero(); bt.zero();
  for (auto& pa : parts) {
    lt = lt + pa.lt; at = at + pa.at; bt = bt + pa.bt;
    for (int k = 0; k < kBatches; k++) {
      w.l_batch_ones[k] += pa.lk[k];
      w.a_batch_ones[k] += pa.ak[k];
      w.b_batch_ones[k] += pa.bk[k];
    }
  }
  for (uint64_t j = 0; j < s.inputs; j++) at = at + w.inp[j];  // every input is in A's tail MSM
  bt = bt + w.inp[0];                                           // the one input with b density, in B's
  w.l_tail = lt; w.a_tail = at; w.b_tail = bt;
  w.l_batch = fr_of(total(w.l_batch_ones));
  w.a_batch = fr_of(total(w.a_batch_ones));
  w.b_batch = fr_of(total(w.b_batch_ones));
  return w;
}

void print_inputs_made(double ms, const Witness& w) {
  std::printf("inputs made (%.0f ms since start): batch additions of %" PRIu64 " (L), %" PRIu64 " (A), %" PRIu64
              " (B) ones\n", ms, total(w.l_batch_ones), total(w.a_batch_ones), total(w.b_batch_ones));
}

/**
 * H's scalar for b = 0. The engine computes h = coset_iNTT((coset_NTT(iNTT a) * coset_NTT(iNTT b) - coset_NTT(iNTT c))
 * / Z), and with b = 0 that is h = -z_inv * iNTT(c): the coefficients of the polynomial through c, scaled. H is the
 * MSM of the first h_points = N-1 coefficients over bases that are all G, so H = -z_inv * (sum_{j<N-1} h'_j) * G with
 * h' = iNTT(c). The sum of all N coefficients is c_0, and h'_{N-1} = (1/N) sum_k c_k w^k (w the N-th root that the
 * forward NTT uses), so the sum needs one pass over c.
 */
void h_scalar(const Options& o, Polys& p) {
  const unsigned lg = 27;
  uint64_t n = p.c.size();
  unsigned t = std::max(1u, std::thread::hardware_concurrency());
  std::vector<fr_t> fwd(t), inv(t);
  par(n, [&](uint64_t b, uint64_t e, unsigned th) {
    fr_t w = forward_roots_of_unity[lg], wi = inverse_roots_of_unity[lg];
    fr_t x = power(w, b), xi = power(wi, b), acc, acci;
    acc.zero(); acci.zero();
    for (uint64_t k = b; k < e; k++) {
      acc = acc + p.c[k] * x;
      acci = acci + p.c[k] * xi;
      x = x * w;
      xi = xi * wi;
    }
    fwd[th] = acc;
    inv[th] = acci;
  });
  fr_t sf, si;
  sf.zero(); si.zero();
  for (unsigned i = 0; i < t; i++) { sf = sf + fwd[i]; si = si + inv[i]; }
  // z_inv as the engine's calculate_z_inv: (g^N - 1)^-1, g the coset's generator
  fr_t gen = group_gen;
  for (unsigned i = 0; i < lg; i++) gen = gen * gen;
  fr_t z_inv = (gen - fr_t::one()).reciprocal();
  fr_t n_inv = domain_size_inverse[lg];
  uint64_t dropped = (1ull << lg) - o.shape.h_points;  // coefficients past the H query (1 at the real shape)
  if (dropped != 1) bad("the H check assumes h_points = 2^27 - 1");
  p.h = -z_inv * (p.c[0] - n_inv * sf);
  p.h_other_convention = -z_inv * (p.c[0] - n_inv * si);
}

/**
 * The identity h_scalar rests on, checked on a domain of 2^lg with a plain inverse DFT: the sum of the first N-1
 * coefficients of the polynomial through c is c_0 - (1/N) sum_k c_k w^k. Returns whether it holds.
 */
bool h_identity_holds(unsigned lg, uint64_t seed) {
  uint64_t n = 1ull << lg;
  std::vector<fr_t> c(n);
  for (uint64_t k = 0; k < n; k++) c[k] = random_fr(seed, k);
  fr_t w = forward_roots_of_unity[lg], wi = inverse_roots_of_unity[lg], n_inv = domain_size_inverse[lg];
  if (!(power(w, n) == fr_t::one()) || power(w, n / 2) == fr_t::one() || !(w * wi == fr_t::one())) return false;
  fr_t sum, direct;
  sum.zero();
  direct.zero();
  for (uint64_t j = 0; j + 1 < n; j++) {  // h'_j = (1/N) sum_k c_k w^-jk
    fr_t hj;
    hj.zero();
    for (uint64_t k = 0; k < n; k++) hj = hj + c[k] * power(wi, j * k % n);
    direct = direct + n_inv * hj;
  }
  for (uint64_t k = 0; k < n; k++) sum = sum + c[k] * power(w, k);
  return direct == c[0] - n_inv * sum;
}

Polys make_polys(const Options& o, int worker) {
  Polys p;
  uint64_t n = o.shape.abc;
  p.a.resize(n);
  p.b.resize(n);
  p.c.resize(n);
  uint64_t seed = o.seed * 1000003 + static_cast<uint64_t>(worker) + 11;
  par(n, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t i = b; i < e; i++) {
      p.a[i] = random_fr(seed, i);
      p.b[i].zero();
      p.c[i] = random_fr(seed + 5, i);
    }
  });
  h_scalar(o, p);
  return p;
}

// ---------------------------------------------------------------- checking a proof

template <class Point, class Affine>
Affine times(const Affine& g, const fr_t& k) {
  Point r;
  mult(r, g, k);
  return Affine(r);
}

template <class Affine>
bool same(const Affine& x, const Affine& y) { return std::memcmp(&x, &y, sizeof x) == 0; }


/**
 * Small discrete logarithms base g: k with d = k*g and |k| < 2^28, by baby steps and giant steps (2^14 of each side),
 * what a wrong count in a batch addition of ones leaves. The baby steps are made once, for every d asked.
 */
template <class Point, class Affine>
class SmallLog {
 public:
  static constexpr int64_t m = 1 << 14;

  explicit SmallLog(const Affine& g) : g_(g) {
    Point p;
    p.inf();
    for (int64_t j = 0; j < m; j++) {
      baby_.emplace(key(Affine(p)), j);
      p.add(g);
    }
  }

  /** Whether d = k*g for some |k| < m^2, and that k. */
  bool of(const Affine& d, int64_t& k) const {
    fr_t zero;
    zero.zero();
    Affine back = times<Point>(g_, zero - fr_of(m));  // -m*g
    Point cur;
    cur = d;
    cur.add(times<Point>(g_, fr_of(m * m)));  // d + m^2 g: i = -m below
    for (int64_t i = -m; i < m; i++) {        // cur = d - i*m*g
      auto hit = baby_.find(key(Affine(cur)));
      if (hit != baby_.end()) {
        k = i * m + hit->second;
        return true;
      }
      cur.add(back);
    }
    return false;
  }

 private:
  static std::string key(const Affine& a) { return std::string(reinterpret_cast<const char*>(&a), sizeof a); }
  Affine g_;
  std::unordered_map<std::string, int64_t> baby_;  // the bytes of j*g, for 0 <= j < m
};

/** Which subset of the named terms sums to the point: "H+L_batch+L_tail", "L_batch" ..., or "none of them". */
template <class Point, class Affine>
std::string explain(const Affine& got, const Affine& g, const std::vector<std::pair<std::string, fr_t>>& terms,
                    const fr_t& base, std::string& missing, int64_t* offset = nullptr, size_t* offset_mask = nullptr) {
  size_t n = terms.size();
  // the subset of terms in mask: its scalar (with base), its name and the names of the terms left out
  auto subset = [&](size_t mask, fr_t& k, std::string& name, std::string& miss) {
    k = base;
    for (size_t i = 0; i < n; i++) {
      if (mask >> i & 1) { k = k + terms[i].second; name += (name.empty() ? "" : "+") + terms[i].first; }
      else miss += (miss.empty() ? "" : ",") + terms[i].first;
    }
  };
  for (size_t mask = (1u << n) - 1;; mask--) {
    fr_t k;
    std::string name, miss;
    subset(mask, k, name, miss);
    if (same(got, times<Point>(g, k))) {
      missing = miss;
      return name.empty() ? "nothing" : name;
    }
    if (mask == 0) break;
  }
  missing = "?";
  // no subset: whether the point is off one of the subsets' sums by a small multiple k of the generator, as when a
  // batch addition counts the wrong number of ones (an MSM gone wrong leaves no small k)
  SmallLog<Point, Affine> log(g);
  fr_t zero;
  zero.zero();
  for (size_t mask = (1u << n) - 1;; mask--) {
    fr_t k;
    std::string name, miss;
    subset(mask, k, name, miss);
    Point d;
    d = got;
    d.add(times<Point>(g, zero - k));
    int64_t off = 0;
    if (log.of(Affine(d), off)) {
      if (offset) *offset = off;
      if (offset_mask) *offset_mask = mask;
      missing = (off < 0 ? "-" : "+") + std::to_string(off < 0 ? -off : off) + "*G";
      return (name.empty() ? std::string("0") : name) + missing;
    }
    if (mask == 0) break;
  }
  return "none of the terms' sums, nor any of them off by k*G with |k| < 2^28";
}

using G1Affine = decltype(groth16_proof::a);
using G2Affine = decltype(groth16_proof::b);
static_assert(sizeof(G1Affine) == 96, "G1 affine points as blst's");
static_assert(sizeof(G2Affine) == 192, "G2 affine points as blst's");

/** The groups' generators in the engine's host types (copied from blst's, whose layout they share). */
G1Affine g1_generator() {
  G1Affine g;
  std::memcpy(&g, blst_p1_affine_generator(), sizeof g);
  return g;
}

G2Affine g2_generator() {
  G2Affine g;
  std::memcpy(&g, blst_p2_affine_generator(), sizeof g);
  return g;
}

/** Names the batches of a batch addition whose ones add up to what it is short of (or over by): `note: ... lost`. */
void lost_batches(int worker, int job, const char* term, int64_t off, bool with_batch,
                  const BatchOnes& ones) {
  if (off == 0 || !with_batch) return;
  uint64_t want = off < 0 ? uint64_t(-off) : uint64_t(off);
  std::string found;
  unsigned some = 0;  // the batches with ones: losing one without is not seen
  for (int k = 0; k < kBatches; k++) some |= (ones[k] != 0) << k;
  for (unsigned m = 1; m < (1u << kBatches); m++) {
    if (m & ~some) continue;
    uint64_t sum = 0;
    std::string names;
    for (int k = 0; k < kBatches; k++)
      if (m >> k & 1) { sum += ones[k]; names += (names.empty() ? "" : ",") + std::to_string(k); }
    if (sum == want) found += (found.empty() ? "" : " or ") + names;
  }
  std::printf("  note: worker=%d job=%d %s's batch addition is %s by %" PRIu64 " ones: %s\n", worker, job, term,
      off < 0 ? "short" : "over", want,
      found.empty() ? "no set of its batches holds that many"
                    : ("the ones of batch(es) " + found + " of " + std::to_string(kBatches) +
                       (off < 0 ? ", lost" : ", counted twice")).c_str());
}

struct Tally {
  std::atomic<int> right{0}, wrong{0}, errors{0};
};

void check(const Witness& w, const Polys& p, int worker, int job, int rc, const std::string& msg,
           const groth16_proof& proof, double ms, Tally& tally) {
  if (rc != 0) {
    std::printf("proof worker=%d job=%d rc=%d error=\"%s\" ms=%.0f verdict=ERROR\n", worker, job, rc, msg.c_str(), ms);
    tally.errors++;
    return;
  }
  G1Affine g1 = g1_generator();
  G2Affine g2 = g2_generator();
  fr_t one = fr_t::one(), zero;
  zero.zero();
  std::string mc, ma, mb;
  int64_t oc = 0, oa = 0, ob = 0;
  size_t kc = 0, ka = 0, kb = 0;
  std::string c = explain<point_t>(proof.c, g1, {{"H", p.h}, {"L_batch", w.l_batch}, {"L_tail", w.l_tail}}, zero, mc,
                                   &oc, &kc);
  std::string a = explain<point_t>(proof.a, g1, {{"A_batch", w.a_batch}, {"A_tail", w.a_tail}}, one, ma, &oa, &ka);
  std::string b = explain<point_fp2_t>(proof.b, g2, {{"B_batch", w.b_batch}, {"B_tail", w.b_tail}}, one, mb, &ob,
                                       &kb);
  std::string missing;
  for (auto* m : {&mc, &ma, &mb})
    if (!m->empty()) missing += (missing.empty() ? "" : ",") + *m;
  bool right = missing.empty();
  std::printf("proof worker=%d job=%d rc=0 ms=%.0f C=%s A=alpha+%s B=beta+%s verdict=%s%s%s\n", worker, job, ms,
      c.c_str(), a.c_str(), b.c_str(), right ? "RIGHT" : "WRONG", right ? "" : " missing=", missing.c_str());
  if (!right && mc.find('?') != std::string::npos) {
    // a C that no subset explains: tell whether the harness's root convention is what is off
    std::string other;
    std::string why = explain<point_t>(proof.c, g1,
        {{"H", p.h_other_convention}, {"L_batch", w.l_batch}, {"L_tail", w.l_tail}}, zero, other);
    if (other.empty()) std::printf("  note: C matches with the inverse root in the H check: a harness error\n");
  }
  // a batch addition off by k ones: which of its batches hold exactly that many (the batch term is bit 1 of C's mask,
  // bit 0 of A's and B's)
  lost_batches(worker, job, "L", oc, (kc & 2) != 0, w.l_batch_ones);
  lost_batches(worker, job, "A", oa, (ka & 1) != 0, w.a_batch_ones);
  lost_batches(worker, job, "B", ob, (kb & 1) != 0, w.b_batch_ones);
  (right ? tally.right : tally.wrong)++;
  std::fflush(stdout);
}

// ---------------------------------------------------------------- GPU setup

nvtxDomainHandle_t domain() {
  static nvtxDomainHandle_t d = nvtxDomainCreateA("cuzk-harness");
  return d;
}

void name_mutex(std::mutex* m, const char* name) {
  nvtxResourceAttributes_t attribs;
  std::memset(&attribs, 0, sizeof attribs);
  attribs.version = NVTX_VERSION;
  attribs.size = NVTX_RESOURCE_ATTRIB_STRUCT_SIZE;
  attribs.identifierType = NVTX_RESOURCE_TYPE_SYNC_PTHREAD_MUTEX;
  attribs.identifier.pValue = static_cast<const void*>(m->native_handle());
  attribs.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attribs.message.ascii = name;
  nvtxDomainResourceCreate(domain(), &attribs);
}

[[noreturn]] void setup_failed(const std::string& what, cudaError_t err) {
  std::fprintf(stderr, "cuzk-harness: %s: %s (%s)\n", what.c_str(), cudaGetErrorName(err), cudaGetErrorString(err));
  std::exit(EXIT_BAD_ARGS);
}

/** Leaves budget plus at most 64 MiB free: 1 GiB blocks, then one smaller block (as capture/testengine). */
std::vector<void*> ballast(uint64_t budget) {
  nvtxRangePushA("ballast");
  std::vector<void*> made;
  size_t free = 0, total = 0;
  auto refresh = [&] {
    cudaError_t err = cudaMemGetInfo(&free, &total);
    if (err != cudaSuccess) setup_failed("cudaMemGetInfo", err);
  };
  auto take = [&](uint64_t bytes) {
    void* p = nullptr;
    cudaError_t err = cudaMalloc(&p, bytes);
    if (err != cudaSuccess) setup_failed("ballast cudaMalloc", err);
    made.push_back(p);
  };
  refresh();
  if (free < budget) bad("the device has " + std::to_string(free >> 20) + " MiB free, less than the budget");
  while (refresh(), free >= budget + GIB) take(GIB);
  if (free > budget + 64 * MIB) take(free - budget - 32 * MIB);
  refresh();
  if (free < budget || free > budget + 64 * MIB) bad("the ballast left " + std::to_string(free >> 20) + " MiB free");
  nvtxRangePop();
  return made;
}

}  // namespace harness

int main(int argc, char** argv) {
  using namespace harness;
  setvbuf(stdout, nullptr, _IOLBF, 0);
  Options o = parse(argc, argv);
  // every kernel is loaded when the context is made, before the ballast: a lazily loaded module would take device
  // memory in the middle of a job, which no design step stands for
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  nvtxNameOsThreadA(os_tid(), "main");
  auto t0 = std::chrono::steady_clock::now();
  std::printf("cuzk-harness: engine curio %s, %s API, workers=%d jobs=%d budget=%s seed=%" PRIu64 "\n", CUZK_COMMIT,
      o.split_api ? "split (start + finalize)" : "sync", o.workers, o.jobs,
      o.budget ? (std::to_string(o.budget >> 20) + "MiB").c_str() : "none", o.seed);

  if (o.inputs_only) {
    for (unsigned lg : {3u, 5u})
      if (!h_identity_holds(lg, o.seed)) { std::printf("the H check's identity fails on 2^%u\n", lg); return EXIT_WRONG; }
    std::printf("the H check's identity holds on domains of 2^3 and 2^5\n");
    Witness w = make_witness(o);
    print_inputs_made(ms_since(t0), w);
    Polys p = make_polys(o, 0);
    std::printf("expected terms made (%.0f ms since start): H %s\n", ms_since(t0), p.h.is_zero() ? "zero" : "nonzero");
    // the check itself, on two made-up proofs: the right one, and one whose H is the point at infinity
    G1Affine g1 = g1_generator();
    G2Affine g2 = g2_generator();
    // and a third whose B batch addition lost batch 6: the check must name the offset and the batch
    groth16_proof right, no_h, b_short;
    right.a = no_h.a = b_short.a = times<point_t>(g1, fr_t::one() + w.a_batch + w.a_tail);
    right.b = no_h.b = times<point_fp2_t>(g2, fr_t::one() + w.b_batch + w.b_tail);
    b_short.b = times<point_fp2_t>(g2, fr_t::one() + fr_of(total(w.b_batch_ones) - w.b_batch_ones[6]) + w.b_tail);
    right.c = times<point_t>(g1, p.h + w.l_batch + w.l_tail);
    no_h.c = times<point_t>(g1, w.l_batch + w.l_tail);
    b_short.c = right.c;
    // the engine's host MSM (b_g2_msm's) over bases that are all the generator, against the sum of the scalars
    for (size_t n : {1000u, 70000u}) {
      std::vector<G2Affine> bases(n, g2);
      std::vector<fr_t> sc(n);
      fr_t sum;
      sum.zero();
      for (size_t i = 0; i < n; i++) { sc[i] = random_fr(o.seed + 99, i); sum = sum + sc[i]; }
      point_fp2_t got;
      mult_pippenger<bucket_fp2_t>(got, bases.data(), n, sc.data(), true, &get_groth16_pool());
      bool ok = same(G2Affine(got), times<point_fp2_t>(g2, sum));
      std::printf("host G2 MSM of %zu equal bases: %s\n", n, ok ? "the sum of the scalars" : "NOT the sum of the scalars");
    }
    if (o.host_b_tail) {  // b_g2_msm's MSM as the engine runs it: input 0, then the b-density aux that are not 0/1
      size_t n = 1 + o.shape.b_tail;
      std::vector<G2Affine> bases(n, g2);
      std::vector<fr_t> sc(n);
      sc[0] = w.inp[0];
      for (size_t i = 1; i < n; i++) sc[i] = w.aux[i - 1];
      point_fp2_t got;
      auto t = std::chrono::steady_clock::now();
      mult_pippenger<bucket_fp2_t>(got, bases.data(), n, sc.data(), true, &get_groth16_pool());
      bool ok = same(G2Affine(got), times<point_fp2_t>(g2, w.b_tail));
      std::printf("host B tail MSM of %zu scalars (%.0f ms): %s\n", n, ms_since(t), ok ? "B_tail" : "NOT B_tail");
    }
    Tally tally;
    check(w, p, 0, 1, 0, "", right, 0, tally);
    check(w, p, 0, 2, 0, "", no_h, 0, tally);
    check(w, p, 0, 3, 0, "", b_short, 0, tally);
    return tally.right == 1 && tally.wrong == 2 ? EXIT_OK : EXIT_WRONG;
  }
  int devices = 0;
  cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) setup_failed("no CUDA device", err);
  if ((err = cudaSetDevice(0)) != cudaSuccess || (err = cudaFree(nullptr)) != cudaSuccess) setup_failed("cudaSetDevice", err);

  // the SRS: written in the engine's file format, read by the engine's loader into pinned memory, then removed
  auto [path, srs_fd] = write_srs(o);
  SRS srs(path.c_str());
  (void)srs.get_h_slice();  // waits for the loader's thread
  if (!o.srs_dir.empty()) unlink(path.c_str());
  close(srs_fd);
  std::printf("srs read by the engine: h=%zu l=%zu a=%zu b_g1=%zu b_g2=%zu (%.0f ms since start)\n",
      srs.get_h_slice().size(), srs.get_l_slice().size(), srs.get_a_slice().size(), srs.get_b_g1_slice().size(),
      srs.get_b_g2_slice().size(), ms_since(t0));

  Witness w = make_witness(o);
  std::vector<Polys> polys;
  for (int i = 0; i < o.workers; i++) polys.push_back(make_polys(o, i));
  std::vector<Assignment<fr_t>> assignments(o.workers);
  for (int i = 0; i < o.workers; i++) {
    auto& as = assignments[i];
    as.a_aux_density = w.a_density.data();
    as.a_aux_bit_len = o.shape.aux;
    as.a_aux_popcount = o.shape.a_aux_pop;
    as.b_inp_density = w.b_inp_density.data();
    as.b_inp_bit_len = o.shape.inputs;
    as.b_inp_popcount = 1;
    as.b_aux_density = w.b_density.data();
    as.b_aux_bit_len = o.shape.aux;
    as.b_aux_popcount = o.shape.b_aux_pop;
    as.a = polys[i].a.data();
    as.b = polys[i].b.data();
    as.c = polys[i].c.data();
    as.abc_size = o.shape.abc;
    as.inp_assignment_data = w.inp.data();
    as.inp_assignment_size = o.shape.inputs;
    as.aux_assignment_data = w.aux.data();
    as.aux_assignment_size = o.shape.aux;
  }
  print_inputs_made(ms_since(t0), w);

  // the engine's one-time device state before the ballast: the GPU object, its streams, the NTT's twiddles
  (void)select_gpu(0);
  (void)NTTParameters::all(false);
  (void)NTTParameters::all(true);
  if ((err = cudaDeviceSynchronize()) != cudaSuccess) setup_failed("warm-up", err);
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaMemPoolTrimTo(pool, 0);
  std::vector<void*> held;
  if (o.budget) held = ballast(o.budget);
  size_t free = 0, total = 0;
  cudaMemGetInfo(&free, &total);
  std::printf("device: %zu MiB free of %zu MiB after the ballast\n", free >> 20, total >> 20);

  auto* gpu_mtx = static_cast<std::mutex*>(create_gpu_mutex());
  name_mutex(gpu_mtx, "gpu_mtx");
  Tally tally;
  fr_t zero;
  zero.zero();
  std::vector<std::thread> workers;
  auto t_run = std::chrono::steady_clock::now();
  for (int wk = 0; wk < o.workers; wk++) {
    workers.emplace_back([&, wk] {
      std::string name = "gpu_worker#" + std::to_string(wk);
      nvtxNameOsThreadA(os_tid(), name.c_str());
      cudaSetDevice(0);
      std::vector<std::thread> finalizers;
      for (int job = 1; job <= o.jobs; job++) {
        auto t = std::chrono::steady_clock::now();
        fr_t r = zero, s = zero;
        if (!o.split_api) {
          groth16_proof proof;
          nvtxRangePushA("job");
          RustError::by_value e = generate_groth16_proofs_c(&assignments[wk], 1, &r, &s, &proof, srs, gpu_mtx CUZK_GPU_ARG);
          nvtxRangePop();
          check(w, polys[wk], wk, job, e.code, e.message ? e.message : "", proof, ms_since(t), tally);
        }
#ifdef CUZK_SPLIT_API
        else {
          void* pending = nullptr;
          nvtxRangePushA("job");
          RustError::by_value e = generate_groth16_proofs_start_c(&assignments[wk], 1, &r, &s, srs, gpu_mtx CUZK_GPU_ARG, &pending);
          nvtxRangePop();
          if (e.code != 0) {
            groth16_proof none{};
            check(w, polys[wk], wk, job, e.code, e.message ? e.message : "", none, ms_since(t), tally);
            continue;
          }
          finalizers.emplace_back([&, wk, job, pending, t] {
            nvtxNameOsThreadA(os_tid(), "finalizer");
            groth16_proof proof;
            // finalize deletes the pending proof (as cuzk's Rust marks its handle consumed): no destroy after it
            RustError::by_value f = finalize_groth16_proof_c(pending, &proof);
            check(w, polys[wk], wk, job, f.code, f.message ? f.message : "", proof, ms_since(t), tally);
          });
        }
#endif
      }
      for (auto& f : finalizers) f.join();
    });
  }
  for (auto& t : workers) t.join();
  double run_ms = ms_since(t_run);
  int n = o.workers * o.jobs;
  std::printf("summary proofs=%d right=%d wrong=%d errors=%d run_ms=%.0f s_per_proof=%.2f\n", n, tally.right.load(),
      tally.wrong.load(), tally.errors.load(), run_ms, run_ms / 1000.0 / n);
  for (void* p : held) cudaFree(p);
  destroy_gpu_mutex(gpu_mtx);
  return tally.errors ? EXIT_ENGINE_ERROR : tally.wrong ? EXIT_WRONG : EXIT_OK;
}

#endif  // __CUDA_ARCH__
