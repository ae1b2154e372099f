// testengine: a small proving-engine skeleton that stands in for cuzk, written the way cuzk is (C++17 + CUDA,
// std::thread workers, std::mutex locks, real cudaMalloc and kernels, NVTX annotations), so that Interlock's capture,
// validate and infer can be tried on a native engine whose protocol is known. See README.md for modes and options.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtSync.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr uint64_t KIB = 1024ull, MIB = KIB * 1024, GIB = MIB * 1024;
constexpr int EXIT_BAD_ARGS = 2;
/** The most free memory beyond the budget that the ballast leaves, as gpu/.../CudaDevice's FREE_TOLERANCE. */
constexpr uint64_t BALLAST_SLACK = 64 * MIB;

enum class Mode { TwoLock, SingleLock, Phase9Guarded, Reservation, BugEveryN, PrestageFallback };

struct Options {
  Mode mode = Mode::SingleLock;
  bool mode_given = false;
  int workers = 3;
  int jobs = 10;  // per worker
  uint64_t budget = 0;  // 0: no ballast, the whole device
  uint64_t staged = 12 * GIB;
  uint64_t scratch = 2 * GIB;
  uint64_t synth_us = 3000;
  uint64_t cpu_us = 1000;  // b_g2_msm and epilogue
  uint64_t jitter_us = 2000;
  uint64_t seed = 0;
  bool seed_given = false;
  int bug_every = 0;
  uint64_t unit = GIB;  // reservation: bytes per permit
  long permits = 0;  // reservation: 0 means free memory after the ballast / unit
  uint64_t guard_reserve = 512 * MIB;  // phase9-guarded: usable = free - reserve
  int kernel_passes = 1;
  bool stop_on_error = false;
};

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::TwoLock: return "two-lock";
    case Mode::SingleLock: return "single-lock";
    case Mode::Phase9Guarded: return "phase9-guarded";
    case Mode::Reservation: return "reservation";
    case Mode::BugEveryN: return "bug-every-N";
    case Mode::PrestageFallback: return "prestage-fallback";
  }
  return "?";
}

void usage(FILE* out) {
  std::fprintf(out,
      "usage: testengine --mode MODE [options]\n"
      "  --mode M            two-lock | single-lock | phase9-guarded | reservation | bug-every-N | prestage-fallback\n"
      "  --workers W         GPU worker threads (default 3)\n"
      "  --jobs J            jobs PER WORKER; the queue holds W*J jobs and each worker takes J of them (default 10)\n"
      "  --budget SIZE       VRAM left to the run: a ballast of (free - SIZE) is allocated at start (default: none)\n"
      "  --staged-bytes SIZE the staged buffer (default 12GiB)\n"
      "  --scratch-bytes SIZE the scratch buffer allocated under compute_mtx (default 2GiB)\n"
      "  --synth-us U        synthesize CPU time (default 3000)\n"
      "  --cpu-us U          b_g2_msm and epilogue CPU time each (default 1000)\n"
      "  --jitter-us U       uniform random extra time in [0,U] added to every CPU stage (default 2000)\n"
      "  --seed S            seed of the jitter (default: from the clock; always printed)\n"
      "  --bug-every N       bug-every-N mode: every N-th job (job ids N, 2N, ...) allocates staged before compute_mtx\n"
      "  --unit-bytes SIZE   reservation: bytes per permit of vram_units (default 1GiB)\n"
      "  --permits P         reservation: permits of vram_units (default: free bytes after the ballast / unit)\n"
      "  --guard-reserve SIZE phase9-guarded: the pre-staged path needs free - SIZE >= staged + scratch (default 512MiB)\n"
      "  --kernel-passes K   passes of ntt_msm over its buffers (default 1)\n"
      "  --stop-on-error     after the first failed job, workers take no more jobs (default: they go on)\n"
      "  --help              this text\n"
      "SIZE: bytes, or a number with B, KiB, MiB, GiB (KB, MB, GB: the same binary units).\n"
      "Exit status: 0 every job completed, 1 a job failed (a CUDA error, printed with job, thread and stage),\n"
      "2 bad arguments, no CUDA device, or a budget the device cannot give.\n");
}

[[noreturn]] void bad(const std::string& msg) {
  std::fprintf(stderr, "testengine: %s (try --help)\n", msg.c_str());
  std::exit(EXIT_BAD_ARGS);
}

uint64_t parse_u64(const std::string& opt, const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 19) {
    bad(opt + ": not a non-negative integer: '" + s + "'");
  }
  return std::stoull(s);
}

uint64_t parse_size(const std::string& opt, const std::string& s) {
  size_t digits = 0;
  while (digits < s.size() && (std::isdigit(static_cast<unsigned char>(s[digits])) || s[digits] == '.')) digits++;
  std::string num = s.substr(0, digits), unit = s.substr(digits);
  if (num.empty() || std::count(num.begin(), num.end(), '.') > 1 || num.front() == '.' || num.back() == '.') {
    bad(opt + ": not a size: '" + s + "'");
  }
  uint64_t mul;
  if (unit.empty() || unit == "B") mul = 1;
  else if (unit == "KiB" || unit == "KB") mul = KIB;
  else if (unit == "MiB" || unit == "MB") mul = MIB;
  else if (unit == "GiB" || unit == "GB") mul = GIB;
  else if (unit == "TiB" || unit == "TB") mul = GIB * 1024;
  else bad(opt + ": unknown unit '" + unit + "' in '" + s + "'");
  long double v = std::stold(num) * static_cast<long double>(mul);
  if (v > 1.8e19L || v != static_cast<long double>(static_cast<uint64_t>(v))) {
    bad(opt + ": not a whole number of bytes: '" + s + "'");
  }
  return static_cast<uint64_t>(v);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      usage(stdout);
      std::exit(0);
    }
    if (a == "--stop-on-error") {
      o.stop_on_error = true;
      continue;
    }
    if (a.rfind("--", 0) != 0) bad("unexpected argument '" + a + "'");
    if (i + 1 >= argc) bad(a + " needs a value");
    std::string v = argv[++i];
    if (a == "--mode") {
      o.mode_given = true;
      if (v == "two-lock") o.mode = Mode::TwoLock;
      else if (v == "single-lock") o.mode = Mode::SingleLock;
      else if (v == "phase9-guarded") o.mode = Mode::Phase9Guarded;
      else if (v == "reservation") o.mode = Mode::Reservation;
      else if (v == "bug-every-N" || v == "bug-every-n") o.mode = Mode::BugEveryN;
      else if (v == "prestage-fallback") o.mode = Mode::PrestageFallback;
      else bad("--mode: unknown mode '" + v + "'");
    } else if (a == "--workers") {
      uint64_t w = parse_u64(a, v);
      if (w < 1 || w > 1024) bad("--workers: 1 to 1024, not " + v);
      o.workers = static_cast<int>(w);
    } else if (a == "--jobs") {
      uint64_t j = parse_u64(a, v);
      if (j < 1 || j > 1000000) bad("--jobs: 1 to 1000000, not " + v);
      o.jobs = static_cast<int>(j);
    } else if (a == "--budget") {
      o.budget = parse_size(a, v);
      if (o.budget == 0) bad("--budget: must be positive");
    } else if (a == "--staged-bytes") {
      o.staged = parse_size(a, v);
      if (o.staged < 8) bad("--staged-bytes: at least 8 bytes");
    } else if (a == "--scratch-bytes") {
      o.scratch = parse_size(a, v);
      if (o.scratch < 8) bad("--scratch-bytes: at least 8 bytes");
    } else if (a == "--synth-us") {
      o.synth_us = parse_u64(a, v);
    } else if (a == "--cpu-us") {
      o.cpu_us = parse_u64(a, v);
    } else if (a == "--jitter-us") {
      o.jitter_us = parse_u64(a, v);
    } else if (a == "--seed") {
      o.seed = parse_u64(a, v);
      o.seed_given = true;
    } else if (a == "--bug-every") {
      uint64_t n = parse_u64(a, v);
      if (n < 1 || n > 1000000) bad("--bug-every: 1 to 1000000, not " + v);
      o.bug_every = static_cast<int>(n);
    } else if (a == "--unit-bytes") {
      o.unit = parse_size(a, v);
      if (o.unit == 0) bad("--unit-bytes: must be positive");
    } else if (a == "--permits") {
      uint64_t p = parse_u64(a, v);
      if (p < 1 || p > (1ull << 40)) bad("--permits: must be positive");
      o.permits = static_cast<long>(p);
    } else if (a == "--guard-reserve") {
      o.guard_reserve = parse_size(a, v);
    } else if (a == "--kernel-passes") {
      uint64_t k = parse_u64(a, v);
      if (k < 1 || k > 1000) bad("--kernel-passes: 1 to 1000, not " + v);
      o.kernel_passes = static_cast<int>(k);
    } else {
      bad("unknown option '" + a + "'");
    }
  }
  if (!o.mode_given) bad("--mode is required");
  if (o.mode == Mode::BugEveryN && o.bug_every == 0) bad("--mode bug-every-N needs --bug-every N");
  if (o.mode != Mode::BugEveryN && o.bug_every != 0) bad("--bug-every is only for --mode bug-every-N");
  if (o.mode != Mode::Reservation && (o.permits != 0)) bad("--permits is only for --mode reservation");
  if (!o.seed_given) o.seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return o;
}

std::string fmt_size(uint64_t b) {
  char buf[64];
  if (b % GIB == 0) std::snprintf(buf, sizeof buf, "%lluGiB", (unsigned long long)(b / GIB));
  else if (b % MIB == 0) std::snprintf(buf, sizeof buf, "%lluMiB", (unsigned long long)(b / MIB));
  else std::snprintf(buf, sizeof buf, "%lluB", (unsigned long long)b);
  return buf;
}

/** The driver's name of a runtime error, for the two a run is expected to meet; empty otherwise. */
const char* driver_name(cudaError_t e) {
  switch (e) {
    case cudaErrorMemoryAllocation: return "CUDA_ERROR_OUT_OF_MEMORY";
    case cudaErrorLaunchOutOfResources: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    default: return "";
  }
}

uint32_t os_tid() { return static_cast<uint32_t>(::syscall(SYS_gettid)); }

// ---------------------------------------------------------------- NVTX

nvtxDomainHandle_t domain() {
  static nvtxDomainHandle_t d = nvtxDomainCreateA("testengine");
  return d;
}

/** An NVTX range around one step, named as the design names the step. */
struct Range {
  explicit Range(const char* name) { nvtxRangePushA(name); }
  explicit Range(const std::string& name) { nvtxRangePushA(name.c_str()); }
  ~Range() { nvtxRangePop(); }
  Range(const Range&) = delete;
  Range& operator=(const Range&) = delete;
};

/** Names a std::mutex for tools through NVTX resource naming of its pthread_mutex_t (libstdc++: native_handle()). */
void name_mutex(std::mutex& m, const char* name) {
  nvtxResourceAttributes_t attribs;
  std::memset(&attribs, 0, sizeof attribs);
  attribs.version = NVTX_VERSION;
  attribs.size = NVTX_RESOURCE_ATTRIB_STRUCT_SIZE;
  attribs.identifierType = NVTX_RESOURCE_TYPE_SYNC_PTHREAD_MUTEX;
  attribs.identifier.pValue = static_cast<const void*>(m.native_handle());
  attribs.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attribs.message.ascii = name;
  nvtxDomainResourceCreate(domain(), &attribs);
}

// ---------------------------------------------------------------- shared state

/** A counting semaphore of VRAM units (std::mutex + condvar, not a pthread semaphore), annotated as NVTX sync-user. */
class VramUnits {
 public:
  VramUnits(long permits, const char* name) : permits_(permits) {
    name_mutex(m_, "vram_units.guard");
    nvtxSyncUserAttributes_t attribs;
    std::memset(&attribs, 0, sizeof attribs);
    attribs.version = NVTX_VERSION;
    attribs.size = NVTX_SYNCUSER_ATTRIB_STRUCT_SIZE;
    attribs.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attribs.message.ascii = name;
    sync_ = nvtxDomainSyncUserCreate(domain(), &attribs);
  }
  ~VramUnits() { nvtxDomainSyncUserDestroy(sync_); }
  void acquire(long n) {
    nvtxDomainSyncUserAcquireStart(sync_);
    {
      std::unique_lock<std::mutex> lk(m_);
      cv_.wait(lk, [&] { return permits_ >= n; });
      permits_ -= n;
    }
    nvtxDomainSyncUserAcquireSuccess(sync_);
  }
  void release(long n) {
    nvtxDomainSyncUserReleasing(sync_);
    {
      std::lock_guard<std::mutex> lk(m_);
      permits_ += n;
    }
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  long permits_;
  nvtxSyncUser_t sync_;
};

struct Job {
  int id;  // 1-based, in queue order
};

/** The job queue: the main thread pushes, workers pop; closed when every job is pushed. */
class JobQueue {
 public:
  JobQueue() { name_mutex(m_, "job_queue"); }
  void push(Job j) {
    {
      std::lock_guard<std::mutex> lk(m_);
      q_.push_back(j);
    }
    cv_.notify_one();
  }
  void close() {
    {
      std::lock_guard<std::mutex> lk(m_);
      closed_ = true;
    }
    cv_.notify_all();
  }
  bool pop(Job& out) {
    std::unique_lock<std::mutex> lk(m_);
    cv_.wait(lk, [&] { return closed_ || !q_.empty(); });
    if (q_.empty()) return false;
    out = q_.front();
    q_.pop_front();
    return true;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Job> q_;
  bool closed_ = false;
};

struct Engine {
  Options opt;
  std::mutex mem_mtx, compute_mtx, log_mtx;
  VramUnits* units = nullptr;
  long units_per_job = 0;
  JobQueue queue;
  std::vector<cudaStream_t> streams;
  int grid = 0;
  std::atomic<bool> stop{false};
  std::atomic<int> completed{0}, failed{0}, prestaged{0}, fallback{0}, buggy{0};
};

// ---------------------------------------------------------------- kernels

/** ntt_msm: stands in for the NTTs and MSMs; a grid-stride read-modify-write of every word of both buffers. */
extern "C" __global__ void ntt_msm(uint64_t* a, size_t na, uint64_t* b, size_t nb, int passes) {
  size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int p = 0; p < passes; p++) {
    for (size_t i = first; i < na; i += stride) a[i] = a[i] * 0x9E3779B97F4A7C15ull + i;
    for (size_t i = first; i < nb; i += stride) b[i] = (b[i] ^ a[i % na]) + p;
  }
}

/** h2d: stands in for the upload of the staged buffer (reservation mode); writes every word. */
extern "C" __global__ void h2d(uint64_t* a, size_t na) {
  size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < na; i += stride) a[i] = i;
}

// ---------------------------------------------------------------- one job

/** One worker's view of the job it runs: where it is, what it holds, and how a failure is reported. */
struct JobRun {
  Engine& e;
  int worker;
  Job job;
  std::mt19937_64 rng;
  cudaStream_t stream;
  void* staged = nullptr;
  void* scratch = nullptr;
  bool staged_async = false, scratch_async = false;

  JobRun(Engine& eng, int w, Job j)
      : e(eng), worker(w), job(j), rng(eng.opt.seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(j.id)),
        stream(eng.streams[w]) {}

  /** CPU busy work for base + jitter microseconds (spinning, as synthesis and b_g2_msm keep a core busy). */
  void cpu(const char* step, uint64_t base_us) {
    Range r(step);
    uint64_t us = base_us + (e.opt.jitter_us ? rng() % (e.opt.jitter_us + 1) : 0);
    auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    volatile uint64_t x = job.id;
    while (std::chrono::steady_clock::now() < end) {
      for (int i = 0; i < 1000; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
    }
  }

  bool report(const char* step, const char* call, uint64_t bytes, cudaError_t err) {
    if (e.opt.stop_on_error) e.stop = true;
    std::lock_guard<std::mutex> lk(e.log_mtx);
    std::printf("[testengine] FAILED job %d thread gpu_worker#%d (tid %u) stage '%s': %s(%s) -> %s%s%s%s: %s\n", job.id,
        worker, os_tid(), step, call, bytes ? fmt_size(bytes).c_str() : "", cudaGetErrorName(err),
        driver_name(err)[0] ? " (" : "", driver_name(err), driver_name(err)[0] ? ")" : "", cudaGetErrorString(err));
    std::fflush(stdout);
    return false;
  }

  /** cudaMalloc, or cudaMallocAsync on the worker's stream; on failure reports and returns false. */
  bool alloc(const char* step, void** p, uint64_t bytes, bool async) {
    Range r(step);
    cudaError_t err = async ? cudaMallocAsync(p, bytes, stream) : cudaMalloc(p, bytes);
    if (err != cudaSuccess) {
      *p = nullptr;
      cudaGetLastError();  // an allocation failure is not sticky; clear it for this thread
      return report(step, async ? "cudaMallocAsync" : "cudaMalloc", bytes, err);
    }
    return true;
  }

  bool free_buf(const char* step, void** p, bool async) {
    if (*p == nullptr) return true;
    Range r(step);
    cudaError_t err = async ? cudaFreeAsync(*p, stream) : cudaFree(*p);
    *p = nullptr;
    return err == cudaSuccess || report(step, async ? "cudaFreeAsync" : "cudaFree", 0, err);
  }

  bool check(const char* step, const char* call, cudaError_t err) {
    return err == cudaSuccess || report(step, call, 0, err);
  }

  /** Launches a kernel on the worker's stream and waits for it (the design's kernel step ends when it ends). */
  bool kernel_ntt_msm() {
    Range r("ntt_msm");
    ntt_msm<<<e.grid, 256, 0, stream>>>(static_cast<uint64_t*>(staged), e.opt.staged / 8, static_cast<uint64_t*>(scratch),
        e.opt.scratch / 8, e.opt.kernel_passes);
    return check("ntt_msm", "cudaLaunchKernel(ntt_msm)", cudaGetLastError())
        && check("ntt_msm", "cudaStreamSynchronize", cudaStreamSynchronize(stream));
  }

  bool kernel_h2d() {
    Range r("h2d");
    h2d<<<e.grid, 256, 0, stream>>>(static_cast<uint64_t*>(staged), e.opt.staged / 8);
    return check("h2d", "cudaLaunchKernel(h2d)", cudaGetLastError())
        && check("h2d", "cudaStreamSynchronize", cudaStreamSynchronize(stream));
  }

  bool sync_stream() {
    Range r("sync stream");
    return check("sync stream", "cudaStreamSynchronize", cudaStreamSynchronize(stream));
  }

  /** After a failure: frees what the job still holds (locks are released by the caller's scope). */
  void release_buffers() {
    free_buf("free scratch", &scratch, scratch_async);
    free_buf("free staged", &staged, staged_async);
    if (staged_async || scratch_async) cudaStreamSynchronize(stream);
  }

  /** The GPU part under compute_mtx shared by single-lock and bug-every-N: everything but `alloc staged`. */
  bool scratch_kernel_free() {
    return alloc("alloc scratch", &scratch, e.opt.scratch, false) && kernel_ntt_msm()
        && free_buf("free scratch", &scratch, false) && free_buf("free staged", &staged, false);
  }

  // designs/two-lock.design
  bool two_lock() {
    cpu("synthesize", e.opt.synth_us);
    {
      std::unique_lock<std::mutex> mem(e.mem_mtx);
      if (!alloc("alloc staged", &staged, e.opt.staged, false)) return false;
    }
    {
      std::unique_lock<std::mutex> compute(e.compute_mtx);
      if (!scratch_kernel_free()) {
        release_buffers();
        return false;
      }
    }
    return tail();
  }

  // designs/single-lock.design; bug-every-N: the same, but job ids N, 2N, ... allocate staged before the lock
  bool single_lock(bool bug) {
    cpu("synthesize", e.opt.synth_us);
    if (bug) {
      e.buggy++;
      {
        std::lock_guard<std::mutex> lk(e.log_mtx);
        std::printf("[testengine] job %d thread gpu_worker#%d: deliberate bug: alloc staged outside compute_mtx\n", job.id,
            worker);
        std::fflush(stdout);
      }
      if (!alloc("alloc staged", &staged, e.opt.staged, false)) return false;
    }
    {
      std::unique_lock<std::mutex> compute(e.compute_mtx);
      if ((!bug && !alloc("alloc staged", &staged, e.opt.staged, false)) || !scratch_kernel_free()) {
        release_buffers();
        return false;
      }
    }
    return tail();
  }

  // capture/testengine/designs/phase9-guarded.design (the check-then-act of designs/cuzk/phase9.design)
  bool phase9_guarded() {
    cpu("synthesize", e.opt.synth_us);
    std::unique_lock<std::mutex> compute(e.compute_mtx);
    {
      Range r("sync");
      if (!check("sync", "cudaDeviceSynchronize", cudaDeviceSynchronize())) return false;
    }
    {
      Range r("trim");
      cudaMemPool_t pool;
      if (!check("trim", "cudaDeviceGetDefaultMemPool", cudaDeviceGetDefaultMemPool(&pool, 0))
          || !check("trim", "cudaMemPoolTrimTo", cudaMemPoolTrimTo(pool, 0))) {
        return false;
      }
    }
    size_t free = 0, total = 0;
    {
      Range r("if free");
      if (!check("if free", "cudaMemGetInfo", cudaMemGetInfo(&free, &total))) return false;
    }
    uint64_t need = e.opt.staged + e.opt.scratch;
    bool ok;
    if (free >= e.opt.guard_reserve && free - e.opt.guard_reserve >= need) {
      e.prestaged++;
      ok = alloc("alloc staged", &staged, e.opt.staged, false) && scratch_kernel_free();
    } else {
      e.fallback++;
      staged_async = scratch_async = true;
      ok = alloc("alloc staged", &staged, e.opt.staged, true) && sync_stream()
          && alloc("alloc scratch", &scratch, e.opt.scratch, true) && kernel_ntt_msm()
          && free_buf("free scratch", &scratch, true) && free_buf("free staged", &staged, true) && sync_stream();
    }
    if (!ok) {
      release_buffers();
      return false;
    }
    compute.unlock();
    return tail();
  }

  // capture/testengine/designs/prestage-fallback.design: staged is pre-staged outside any lock; when that cudaMalloc runs
  // out of memory (another job's staged is live) the failure is handled: the job takes compute_mtx, stages there, and
  // goes on as a pre-staged job does. The handler's own cudaMalloc is not handled: it fails when a pre-stage succeeded
  // meanwhile, and that job fails (an OOM the design's check finds with 2 workers).
  bool prestage_fallback() {
    cpu("synthesize", e.opt.synth_us);
    bool prestaged;
    {
      Range r("alloc staged");
      cudaError_t err = cudaMalloc(&staged, e.opt.staged);
      prestaged = err == cudaSuccess;
      if (!prestaged) {
        staged = nullptr;
        cudaGetLastError();  // not sticky; clear it for this thread
        if (err != cudaErrorMemoryAllocation) return report("alloc staged", "cudaMalloc", e.opt.staged, err);
      }
    }
    if (prestaged) {
      e.prestaged++;
    } else {
      e.fallback++;
      {
        std::lock_guard<std::mutex> lk(e.log_mtx);
        std::printf("[testengine] job %d thread gpu_worker#%d: pre-staging failed (out of memory), staging under compute_mtx\n",
            job.id, worker);
        std::fflush(stdout);
      }
      std::unique_lock<std::mutex> compute(e.compute_mtx);
      if (!alloc("alloc staged", &staged, e.opt.staged, false)) return false;
    }
    {
      std::unique_lock<std::mutex> compute(e.compute_mtx);
      if (!scratch_kernel_free()) {
        release_buffers();
        return false;
      }
    }
    return tail();
  }

  // designs/reservation.design
  bool reservation() {
    cpu("synthesize", e.opt.synth_us);
    std::string units = std::to_string(e.units_per_job);
    {
      Range r("acquire vram_units " + units);
      e.units->acquire(e.units_per_job);
    }
    bool ok = alloc("alloc staged", &staged, e.opt.staged, false) && kernel_h2d();
    if (ok) {
      std::unique_lock<std::mutex> compute(e.compute_mtx);
      ok = scratch_kernel_free();
      if (!ok) release_buffers();  // under compute_mtx, as the frees are
    }
    if (!ok) release_buffers();  // a failed alloc staged or h2d: nothing left to free under the lock
    {
      Range r("release vram_units " + units);
      e.units->release(e.units_per_job);
    }
    return ok && tail();
  }

  bool tail() {
    cpu("b_g2_msm", e.opt.cpu_us);
    cpu("epilogue", e.opt.cpu_us);
    return true;
  }

  bool run() {
    Range r("job");
    switch (e.opt.mode) {
      case Mode::TwoLock: return two_lock();
      case Mode::SingleLock: return single_lock(false);
      case Mode::BugEveryN: return single_lock(job.id % e.opt.bug_every == 0);
      case Mode::Phase9Guarded: return phase9_guarded();
      case Mode::Reservation: return reservation();
      case Mode::PrestageFallback: return prestage_fallback();
    }
    return false;
  }
};

void worker(Engine& e, int w) {
  std::string name = "gpu_worker#" + std::to_string(w);
  nvtxNameOsThreadA(os_tid(), name.c_str());
  cudaSetDevice(0);
  for (int done = 0; done < e.opt.jobs && !e.stop; done++) {
    Job job;
    if (!e.queue.pop(job)) break;
    if (JobRun(e, w, job).run()) e.completed++;
    else e.failed++;  // every false return has printed its CUDA error
  }
}

[[noreturn]] void setup_failed(const std::string& what, cudaError_t err) {
  std::fprintf(stderr, "testengine: %s: %s (%s)\n", what.c_str(), cudaGetErrorName(err), cudaGetErrorString(err));
  std::exit(EXIT_BAD_ARGS);
}

/** Makes the budget real: 1 GiB blocks, then one smaller block, until free is budget plus at most 64 MiB. */
std::vector<void*> ballast(uint64_t budget) {
  Range r("ballast");
  std::vector<void*> made;
  size_t free = 0, total = 0;
  auto refresh = [&] {
    cudaError_t err = cudaMemGetInfo(&free, &total);
    if (err != cudaSuccess) setup_failed("cudaMemGetInfo", err);
  };
  auto take = [&](uint64_t bytes) {
    void* p = nullptr;
    cudaError_t err = cudaMalloc(&p, bytes);
    if (err != cudaSuccess) setup_failed("ballast cudaMalloc(" + fmt_size(bytes) + ")", err);
    made.push_back(p);
  };
  refresh();
  if (free < budget) {
    std::fprintf(stderr, "testengine: the device has %s free, less than the budget %s\n", fmt_size(free).c_str(),
        fmt_size(budget).c_str());
    std::exit(EXIT_BAD_ARGS);
  }
  while (refresh(), free >= budget + GIB) take(GIB);
  if (free > budget + BALLAST_SLACK) take(free - budget - BALLAST_SLACK / 2);
  refresh();
  if (free < budget || free > budget + BALLAST_SLACK) {
    std::fprintf(stderr, "testengine: the ballast left %s free, not the budget %s plus 0 to 64MiB\n",
        fmt_size(free).c_str(), fmt_size(budget).c_str());
    std::exit(EXIT_BAD_ARGS);
  }
  return made;
}

}  // namespace

int main(int argc, char** argv) {
  Engine e;
  e.opt = parse(argc, argv);
  const Options& o = e.opt;
  nvtxNameOsThreadA(os_tid(), "main");
  name_mutex(e.mem_mtx, "mem_mtx");
  name_mutex(e.compute_mtx, "compute_mtx");
  name_mutex(e.log_mtx, "log_mtx");

  int devices = 0;
  cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "testengine: no CUDA device (%s)\n", err != cudaSuccess ? cudaGetErrorName(err) : "0 devices");
    return EXIT_BAD_ARGS;
  }
  std::vector<void*> held;
  {
    Range r("setup");
    if ((err = cudaSetDevice(0)) != cudaSuccess || (err = cudaFree(nullptr)) != cudaSuccess) setup_failed("cudaSetDevice", err);
    cudaDeviceProp prop;
    if ((err = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess) setup_failed("cudaGetDeviceProperties", err);
    e.grid = prop.multiProcessorCount * 8;
    for (int w = 0; w < o.workers; w++) {
      cudaStream_t s;
      if ((err = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) != cudaSuccess) setup_failed("cudaStreamCreate", err);
      e.streams.push_back(s);
    }
    // Load both kernels and initialize the default pool before the ballast, so that lazy loading takes no job's memory.
    void* warm = nullptr;
    if ((err = cudaMallocAsync(&warm, 2 * MIB, e.streams[0])) != cudaSuccess) setup_failed("cudaMallocAsync (warm-up)", err);
    ntt_msm<<<1, 32, 0, e.streams[0]>>>(static_cast<uint64_t*>(warm), 1024, static_cast<uint64_t*>(warm), 1024, 1);
    h2d<<<1, 32, 0, e.streams[0]>>>(static_cast<uint64_t*>(warm), 1024);
    cudaFreeAsync(warm, e.streams[0]);
    if ((err = cudaDeviceSynchronize()) != cudaSuccess) setup_failed("warm-up", err);
    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    cudaMemPoolTrimTo(pool, 0);
    if (o.budget) held = ballast(o.budget);
  }
  size_t free = 0, total = 0;
  cudaMemGetInfo(&free, &total);
  VramUnits* units = nullptr;
  if (o.mode == Mode::Reservation) {
    long permits = o.permits ? o.permits : static_cast<long>(free / o.unit);
    e.units_per_job = static_cast<long>((o.staged + o.scratch + o.unit - 1) / o.unit);
    if (e.units_per_job > permits) {
      std::fprintf(stderr, "testengine: a job needs %ld vram_units but there are only %ld: it would wait forever\n",
          e.units_per_job, permits);
      return EXIT_BAD_ARGS;
    }
    units = new VramUnits(permits, "vram_units");
    e.units = units;
    std::printf("[testengine] vram_units: %ld permits of %s, %ld per job\n", permits, fmt_size(o.unit).c_str(),
        e.units_per_job);
  }
  std::printf("[testengine] mode %s, %d workers x %d jobs (%d in all), staged %s, scratch %s, budget %s, free %s of %s, "
              "synth %lluus cpu %lluus jitter %lluus, seed %llu%s\n",
      mode_name(o.mode), o.workers, o.jobs, o.workers * o.jobs, fmt_size(o.staged).c_str(), fmt_size(o.scratch).c_str(),
      o.budget ? fmt_size(o.budget).c_str() : "none", fmt_size(free).c_str(), fmt_size(total).c_str(),
      (unsigned long long)o.synth_us, (unsigned long long)o.cpu_us, (unsigned long long)o.jitter_us,
      (unsigned long long)o.seed, o.bug_every ? (", bug every " + std::to_string(o.bug_every) + " jobs").c_str() : "");
  std::fflush(stdout);

  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int w = 0; w < o.workers; w++) threads.emplace_back(worker, std::ref(e), w);
  for (int id = 1; id <= o.workers * o.jobs; id++) e.queue.push(Job{id});
  e.queue.close();
  for (auto& t : threads) t.join();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  for (void* p : held) cudaFree(p);
  for (cudaStream_t s : e.streams) cudaStreamDestroy(s);
  delete units;
  int total_jobs = o.workers * o.jobs;
  std::printf("[testengine] %s: %d of %d jobs completed, %d failed, %d not run; %.1f ms", mode_name(o.mode),
      e.completed.load(), total_jobs, e.failed.load(), total_jobs - e.completed.load() - e.failed.load(), ms);
  if (o.mode == Mode::Phase9Guarded || o.mode == Mode::PrestageFallback) {
    std::printf("; pre-staged %d, fallback %d", e.prestaged.load(), e.fallback.load());
  }
  if (o.mode == Mode::BugEveryN) std::printf("; %d buggy allocations", e.buggy.load());
  std::printf("; seed %llu\n", (unsigned long long)o.seed);
  return e.completed.load() == total_jobs ? 0 : 1;
}
