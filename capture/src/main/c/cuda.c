/* The CUDA side, through CUPTI: loaded by the driver via CUDA_INJECTION64_PATH, which calls InitializeInjection.
 * Driver API calls are recorded when they return (callback API, driver domain); kernel device intervals come from
 * the activity API (CONCURRENT_KERNEL), their times aligned to CLOCK_MONOTONIC. */
#define _GNU_SOURCE
#include "capture.h"

#include <cuda.h>
#include <cupti.h> /* with generated_cuda_meta.h: the driver calls' parameter structures */

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACTIVITY_BUFFER (1u << 20)

static CUpti_SubscriberHandle subscriber;
static int all_driver;
static _Atomic int injected;

/* Clock alignment: a (CUPTI, CLOCK_MONOTONIC) pair at init, the latest at each flush; linear between them. */
static uint64_t cupti0, mono0;

static void sample_clocks(uint64_t *cupti, uint64_t *mono) {
  uint64_t before = cap_now();
  cuptiGetTimestamp(cupti);
  uint64_t after = cap_now();
  *mono = before + (after - before) / 2;
}

static uint64_t to_monotonic(uint64_t t, uint64_t cupti1, uint64_t mono1) {
  if (cupti1 > cupti0 + 1000000000ull) {
    long double scale = (long double)(mono1 - mono0) / (long double)(cupti1 - cupti0);
    return mono0 + (uint64_t)((long double)((int64_t)(t - cupti0)) * scale);
  }
  return t + (mono1 - cupti1);
}

static const uint32_t recorded[] = {
  CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2,
  CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged, CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2,
  CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync, CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz,
  CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync, CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz,
  CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync, CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz,
  CUPTI_DRIVER_TRACE_CBID_cuMemPoolTrimTo, CUPTI_DRIVER_TRACE_CBID_cuMemPoolSetAttribute,
  CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo_v2, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
  CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize,
  CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
  CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

static void alloc_record(const CUpti_CallbackData *d, CUresult rc, CUdeviceptr *dptr, size_t bytes, int async,
    CUstream stream) {
  CUdeviceptr ptr = rc == CUDA_SUCCESS && dptr != NULL ? *dptr : 0;
  char s[32] = "-";
  if (async) {
    snprintf(s, sizeof s, "0x%lx", CAP_PTR(stream));
  }
  cap_record("alloc", "ptr=0x%llx bytes=%zu async=%d stream=%s rc=%d api=%s", (unsigned long long)ptr, bytes, async,
      s, (int)rc, d->functionName);
}

static void free_record(const CUpti_CallbackData *d, CUresult rc, CUdeviceptr ptr, int async, CUstream stream) {
  char s[32] = "-";
  if (async) {
    snprintf(s, sizeof s, "0x%lx", CAP_PTR(stream));
  }
  cap_record("free", "ptr=0x%llx async=%d stream=%s rc=%d api=%s", (unsigned long long)ptr, async, s, (int)rc,
      d->functionName);
}

/* The kernel's name: CUPTI's symbolName, else cuFuncGetName (CUDA 12.3+) looked up in the loaded driver. */
static const char *kernel_name(const CUpti_CallbackData *d, CUfunction f) {
  if (d->symbolName != NULL) {
    return d->symbolName;
  }
  static CUresult (*get_name)(const char **, CUfunction);
  if (get_name == NULL) {
    get_name = (CUresult(*)(const char **, CUfunction))dlsym(RTLD_DEFAULT, "cuFuncGetName");
  }
  const char *name = NULL;
  if (get_name != NULL && f != NULL && get_name(&name, f) == CUDA_SUCCESS) {
    return name;
  }
  return NULL;
}

static void launch_record(const CUpti_CallbackData *d, CUresult rc, CUfunction f, CUstream stream) {
  char name[1024];
  cap_encode(name, sizeof name, kernel_name(d, f));
  cap_record("launch", "kernel=%s stream=0x%lx corr=%u rc=%d", name, CAP_PTR(stream), d->correlationId, (int)rc);
}

static void driver_exit(CUpti_CallbackId id, const CUpti_CallbackData *d) {
  CUresult rc = d->functionReturnValue != NULL ? *(const CUresult *)d->functionReturnValue : CUDA_SUCCESS;
  const void *p = d->functionParams;
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2: {
      const cuMemAlloc_v2_params *a = p;
      alloc_record(d, rc, a->dptr, a->bytesize, 0, NULL);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2: {
      const cuMemAllocPitch_v2_params *a = p;
      size_t pitch = rc == CUDA_SUCCESS && a->pPitch != NULL ? *a->pPitch : a->WidthInBytes;
      alloc_record(d, rc, a->dptr, pitch * a->Height, 0, NULL);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged: {
      const cuMemAllocManaged_params *a = p;
      alloc_record(d, rc, a->dptr, a->bytesize, 0, NULL);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz: {
      const cuMemAllocAsync_params *a = p; /* the _ptsz parameters have the same layout */
      alloc_record(d, rc, a->dptr, a->bytesize, 1, a->hStream);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz: {
      const cuMemAllocFromPoolAsync_params *a = p;
      alloc_record(d, rc, a->dptr, a->bytesize, 1, a->hStream);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2: {
      const cuMemFree_v2_params *a = p;
      free_record(d, rc, a->dptr, 0, NULL);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz: {
      const cuMemFreeAsync_params *a = p;
      free_record(d, rc, a->dptr, 1, a->hStream);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemPoolTrimTo: {
      const cuMemPoolTrimTo_params *a = p;
      cap_record("trim", "pool=0x%lx keep=%zu rc=%d", CAP_PTR(a->pool), a->minBytesToKeep, (int)rc);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemPoolSetAttribute: {
      const cuMemPoolSetAttribute_params *a = p;
      if (a->attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD && a->value != NULL) {
        cap_record("pool_threshold", "pool=0x%lx bytes=%llu rc=%d", CAP_PTR(a->pool),
            (unsigned long long)*(const cuuint64_t *)a->value, (int)rc);
      }
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo_v2: {
      const cuMemGetInfo_v2_params *a = p;
      size_t free_b = rc == CUDA_SUCCESS && a->free != NULL ? *a->free : 0;
      size_t total_b = rc == CUDA_SUCCESS && a->total != NULL ? *a->total : 0;
      cap_record("meminfo", "free=%zu total=%zu rc=%d", free_b, total_b, (int)rc);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize:
    case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2:
      cap_record("sync", "rc=%d api=%s", (int)rc, d->functionName);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz: {
      const cuStreamSynchronize_params *a = p;
      cap_record("sync_stream", "stream=0x%lx rc=%d", CAP_PTR(a->hStream), (int)rc);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const cuLaunchKernel_params *a = p;
      launch_record(d, rc, a->f, a->hStream);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const cuLaunchKernelEx_params *a = p;
      launch_record(d, rc, a->f, a->config != NULL ? a->config->hStream : NULL);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const cuLaunchCooperativeKernel_params *a = p;
      launch_record(d, rc, a->f, a->hStream);
      break;
    }
    default:
      if (all_driver) { /* INTERLOCK_CAPTURE_ALL_DRIVER=1: every driver call by name, to find what a runtime call maps to */
        cap_record("driver", "api=%s rc=%d", d->functionName, (int)rc);
      }
      break;
  }
}

static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *info) {
  (void)user;
  if (!cap_enabled() || !cap_enter()) {
    return;
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    const CUpti_CallbackData *d = info;
    if (d->callbackSite == CUPTI_API_EXIT) {
      driver_exit(id, d);
    }
  } else if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
    cuptiActivityFlushAll(0); /* the context's kernels, before they are gone */
  }
  cap_leave();
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *buffer = aligned_alloc(8, ACTIVITY_BUFFER);
  *size = *buffer != NULL ? ACTIVITY_BUFFER : 0;
  *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
  (void)ctx;
  (void)stream;
  (void)size;
  int entered = cap_enter();
  uint64_t cupti1, mono1;
  sample_clocks(&cupti1, &mono1);
  cap_comment("clock cupti_ns=%llu monotonic_ns=%llu", (unsigned long long)cupti1, (unsigned long long)mono1);
  CUpti_Activity *record = NULL;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)record;
      cap_record("kernel", "corr=%u start_ns=%llu end_ns=%llu", k->correlationId,
          (unsigned long long)to_monotonic(k->start, cupti1, mono1),
          (unsigned long long)to_monotonic(k->end, cupti1, mono1));
    }
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped > 0) {
    cap_comment("dropped_kernel_records=%zu", dropped);
  }
  free(buffer);
  if (entered) {
    cap_leave();
  }
}

static void flush_at_exit(void) {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

static void warn(const char *what, CUptiResult r) {
  const char *text = NULL;
  cuptiGetResultString(r, &text);
  cap_comment("cupti_error call=%s result=%d %s", what, (int)r, text != NULL ? text : "");
}

/* Entry point for CUDA_INJECTION64_PATH: the driver calls it once, from cuInit. */
__attribute__((visibility("default"))) int InitializeInjection(void) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&injected, &expected, 1)) {
    return 1;
  }
  cap_init();
  cap_filter_refresh(); /* libcuda is loaded by now */
  const char *all = getenv("INTERLOCK_CAPTURE_ALL_DRIVER");
  all_driver = all != NULL && strcmp(all, "1") == 0;
  CUptiResult r = cuptiSubscribe(&subscriber, (CUpti_CallbackFunc)on_callback, NULL);
  if (r != CUPTI_SUCCESS) {
    warn("cuptiSubscribe", r);
    return 1;
  }
  if (all_driver) {
    cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  } else {
    for (size_t i = 0; i < sizeof recorded / sizeof recorded[0]; i++) {
      r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, recorded[i]);
      if (r != CUPTI_SUCCESS) {
        warn("cuptiEnableCallback", r);
      }
    }
  }
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  sample_clocks(&cupti0, &mono0);
  cap_comment("clock cupti_ns=%llu monotonic_ns=%llu", (unsigned long long)cupti0, (unsigned long long)mono0);
  r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (r == CUPTI_SUCCESS) {
    r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  }
  if (r != CUPTI_SUCCESS) {
    warn("cuptiActivityEnable", r);
  } else {
    const char *period = getenv("INTERLOCK_CAPTURE_FLUSH_MS");
    cuptiActivityFlushPeriod(period != NULL ? (uint32_t)strtoul(period, NULL, 10) : 200);
    atexit(flush_at_exit);
  }
  return 1;
}
