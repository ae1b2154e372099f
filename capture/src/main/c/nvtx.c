/* NVTX, through NVTX_INJECTION64_PATH: the application's NVTX calls land here once InitializeInjectionNvtx2 has put
 * our functions into NVTX's tables. Push/pop ranges become range_push/range_pop, start/end ranges (not bound to a
 * thread) range_start/range_end with the id we hand out, marks mark records, sync-user objects sync_* records, and
 * names of threads, mutexes and sync objects name/thread_name records (a named mutex is always recorded). */
#define _GNU_SOURCE
#define NVTX_NO_IMPL
#include "capture.h"

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtSync.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define NAME_BYTES 512

/* What our handles point to: domains, registered strings and sync objects all carry their name. */
struct named {
  char name[NAME_BYTES];
};

static __thread int range_depth __attribute__((tls_model("initial-exec")));
static _Atomic uint64_t last_range_id; /* start/end range ids: unique in the process, never 0 */

static struct named *named_new(const char *name) {
  struct named *n = calloc(1, sizeof *n);
  if (n != NULL && name != NULL) {
    snprintf(n->name, sizeof n->name, "%s", name);
  }
  return n;
}

static void narrow(char *dst, size_t n, const wchar_t *w) {
  size_t o = 0;
  for (; w != NULL && *w != 0 && o + 1 < n; w++) {
    dst[o++] = *w >= 0x20 && *w < 0x7F ? (char)*w : '?';
  }
  dst[o] = '\0';
}

/* The message of an NVTX attribute structure, encoded for a record. */
static const char *message(char *dst, size_t n, int32_t type, nvtxMessageValue_t value) {
  char plain[NAME_BYTES];
  const char *text = NULL;
  if (type == NVTX_MESSAGE_TYPE_ASCII) {
    text = value.ascii;
  } else if (type == NVTX_MESSAGE_TYPE_UNICODE) {
    narrow(plain, sizeof plain, value.unicode);
    text = plain;
  } else if (type == NVTX_MESSAGE_TYPE_REGISTERED && value.registered != NULL) {
    text = ((const struct named *)(const void *)value.registered)->name;
  }
  return cap_encode(dst, n, text);
}

static const char *domain_name(char *dst, size_t n, nvtxDomainHandle_t domain) {
  return cap_encode(dst, n, domain != NULL ? ((const struct named *)(const void *)domain)->name : NULL);
}

static int push(nvtxDomainHandle_t domain, int32_t type, nvtxMessageValue_t value) {
  if (cap_enabled() && cap_enter()) {
    char name[3 * NAME_BYTES], dom[3 * NAME_BYTES];
    cap_record("range_push", "name=%s domain=%s", message(name, sizeof name, type, value),
        domain_name(dom, sizeof dom, domain));
    cap_leave();
  }
  return range_depth++;
}

static int pop(nvtxDomainHandle_t domain) {
  if (cap_enabled() && cap_enter()) {
    char dom[3 * NAME_BYTES];
    cap_record("range_pop", "domain=%s", domain_name(dom, sizeof dom, domain));
    cap_leave();
  }
  return range_depth > 0 ? --range_depth : -1;
}

static int range_push_a(const char *text) {
  nvtxMessageValue_t v;
  v.ascii = text;
  return push(NULL, NVTX_MESSAGE_TYPE_ASCII, v);
}

static int range_push_w(const wchar_t *text) {
  nvtxMessageValue_t v;
  v.unicode = text;
  return push(NULL, NVTX_MESSAGE_TYPE_UNICODE, v);
}

static int range_push_ex(const nvtxEventAttributes_t *a) {
  return push(NULL, a != NULL ? a->messageType : 0, a != NULL ? a->message : (nvtxMessageValue_t){0});
}

static int range_pop(void) {
  return pop(NULL);
}

static int domain_range_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a) {
  return push(domain, a != NULL ? a->messageType : 0, a != NULL ? a->message : (nvtxMessageValue_t){0});
}

static int domain_range_pop(nvtxDomainHandle_t domain) {
  return pop(domain);
}

/* A start/end range: it may end on another thread, so its records carry the id that nvtxRangeEnd is given. */
static nvtxRangeId_t start(nvtxDomainHandle_t domain, int32_t type, nvtxMessageValue_t value) {
  nvtxRangeId_t id = atomic_fetch_add_explicit(&last_range_id, 1, memory_order_relaxed) + 1;
  if (cap_enabled() && cap_enter()) {
    char name[3 * NAME_BYTES], dom[3 * NAME_BYTES];
    cap_record("range_start", "name=%s domain=%s id=%llu", message(name, sizeof name, type, value),
        domain_name(dom, sizeof dom, domain), (unsigned long long)id);
    cap_leave();
  }
  return id;
}

static void end(nvtxRangeId_t id) {
  if (cap_enabled() && cap_enter()) {
    cap_record("range_end", "id=%llu", (unsigned long long)id);
    cap_leave();
  }
}

static void mark(nvtxDomainHandle_t domain, int32_t type, nvtxMessageValue_t value) {
  if (cap_enabled() && cap_enter()) {
    char name[3 * NAME_BYTES], dom[3 * NAME_BYTES];
    cap_record("mark", "name=%s domain=%s", message(name, sizeof name, type, value), domain_name(dom, sizeof dom, domain));
    cap_leave();
  }
}

static nvtxRangeId_t range_start_a(const char *text) {
  nvtxMessageValue_t v;
  v.ascii = text;
  return start(NULL, NVTX_MESSAGE_TYPE_ASCII, v);
}

static nvtxRangeId_t range_start_w(const wchar_t *text) {
  nvtxMessageValue_t v;
  v.unicode = text;
  return start(NULL, NVTX_MESSAGE_TYPE_UNICODE, v);
}

static nvtxRangeId_t range_start_ex(const nvtxEventAttributes_t *a) {
  return start(NULL, a != NULL ? a->messageType : 0, a != NULL ? a->message : (nvtxMessageValue_t){0});
}

static nvtxRangeId_t domain_range_start_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a) {
  return start(domain, a != NULL ? a->messageType : 0, a != NULL ? a->message : (nvtxMessageValue_t){0});
}

static void range_end(nvtxRangeId_t id) {
  end(id);
}

static void domain_range_end(nvtxDomainHandle_t domain, nvtxRangeId_t id) {
  (void)domain; /* the id alone says which range ends */
  end(id);
}

static void mark_a(const char *text) {
  nvtxMessageValue_t v;
  v.ascii = text;
  mark(NULL, NVTX_MESSAGE_TYPE_ASCII, v);
}

static void mark_w(const wchar_t *text) {
  nvtxMessageValue_t v;
  v.unicode = text;
  mark(NULL, NVTX_MESSAGE_TYPE_UNICODE, v);
}

static void mark_ex(const nvtxEventAttributes_t *a) {
  mark(NULL, a != NULL ? a->messageType : 0, a != NULL ? a->message : (nvtxMessageValue_t){0});
}

static void domain_mark_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a) {
  mark(domain, a != NULL ? a->messageType : 0, a != NULL ? a->message : (nvtxMessageValue_t){0});
}

static void name_thread(uint32_t tid, const char *enc) {
  if ((int)tid == cap_tid()) {
    cap_record("thread_name", "name=%s", enc);
  } else {
    cap_record("thread_name", "name=%s tid_named=%u", enc, tid);
  }
}

static void name_os_thread_a(uint32_t tid, const char *name) {
  if (cap_enabled() && cap_enter()) {
    char enc[3 * NAME_BYTES];
    name_thread(tid, cap_encode(enc, sizeof enc, name));
    cap_leave();
  }
}

static void name_os_thread_w(uint32_t tid, const wchar_t *name) {
  char plain[NAME_BYTES];
  narrow(plain, sizeof plain, name);
  name_os_thread_a(tid, plain);
}

static nvtxDomainHandle_t domain_create_a(const char *name) {
  return (nvtxDomainHandle_t)(void *)named_new(name);
}

static nvtxDomainHandle_t domain_create_w(const wchar_t *name) {
  char plain[NAME_BYTES];
  narrow(plain, sizeof plain, name);
  return domain_create_a(plain);
}

static nvtxStringHandle_t register_string_a(nvtxDomainHandle_t domain, const char *text) {
  (void)domain;
  return (nvtxStringHandle_t)(void *)named_new(text);
}

static nvtxStringHandle_t register_string_w(nvtxDomainHandle_t domain, const wchar_t *text) {
  char plain[NAME_BYTES];
  narrow(plain, sizeof plain, text);
  return register_string_a(domain, plain);
}

static void name_object(const char *kind, const void *address, const char *enc) {
  cap_name_object(address);
  cap_record("name", "obj=%s@0x%lx name=%s", kind, CAP_PTR(address), enc);
}

/* Resource naming: a pthread mutex (or a generic pointer, taken to be one) gets its name in the trace. */
static nvtxResourceHandle_t resource_create(nvtxDomainHandle_t domain, nvtxResourceAttributes_t *a) {
  (void)domain;
  if (a != NULL && cap_enabled() && cap_enter()) {
    char enc[3 * NAME_BYTES];
    message(enc, sizeof enc, a->messageType, a->message);
    if (a->identifierType == NVTX_RESOURCE_TYPE_SYNC_PTHREAD_MUTEX
        || a->identifierType == NVTX_RESOURCE_TYPE_GENERIC_POINTER) {
      name_object("mutex", a->identifier.pValue, enc);
    } else if (a->identifierType == NVTX_RESOURCE_TYPE_GENERIC_THREAD_NATIVE) {
      name_thread((uint32_t)a->identifier.ullValue, enc);
    }
    cap_leave();
  }
  return (nvtxResourceHandle_t)(void *)named_new(NULL);
}

static void resource_destroy(nvtxResourceHandle_t handle) {
  (void)handle; /* kept: a record may still name it */
}

static nvtxSyncUser_t sync_create(nvtxDomainHandle_t domain, const nvtxSyncUserAttributes_t *a) {
  (void)domain;
  struct named *n = named_new(NULL);
  if (n != NULL && a != NULL && cap_enabled() && cap_enter()) {
    char enc[3 * NAME_BYTES];
    message(enc, sizeof enc, a->messageType, a->message);
    name_object("sync", n, enc);
    cap_leave();
  }
  return (nvtxSyncUser_t)(void *)n;
}

static void sync_event(const char *event, nvtxSyncUser_t handle) {
  if (cap_enabled() && cap_enter()) {
    cap_record(event, "obj=sync@0x%lx", CAP_PTR(handle));
    cap_leave();
  }
}

static void sync_destroy(nvtxSyncUser_t handle) {
  (void)handle; /* kept: its address must not name another object later */
}

static void sync_acquire_start(nvtxSyncUser_t h) { sync_event("sync_acquire_start", h); }
static void sync_acquire_failed(nvtxSyncUser_t h) { sync_event("sync_acquire_failed", h); }
static void sync_acquire_success(nvtxSyncUser_t h) { sync_event("sync_acquire", h); }
static void sync_releasing(nvtxSyncUser_t h) { sync_event("sync_release", h); }

/* Puts FN into slot ID of MODULE's table, where the application's NVTX has that slot. */
static void install(const NvtxExportTableCallbacks *etbl, NvtxCallbackModule module, unsigned id, NvtxFunctionPointer fn) {
  NvtxFunctionTable table = NULL;
  unsigned int size = 0;
  if (etbl->GetModuleFunctionTable(module, &table, &size) && table != NULL && id < size && table[id] != NULL) {
    *table[id] = fn;
  }
}

#define FN(f) ((NvtxFunctionPointer)(void (*)(void))(f))

/* Entry point for NVTX_INJECTION64_PATH: NVTX calls it at the application's first NVTX call. */
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  cap_init();
  const NvtxExportTableCallbacks *etbl = get_export_table(NVTX_ETID_CALLBACKS);
  if (etbl == NULL || etbl->struct_size < sizeof(NvtxExportTableCallbacks)) {
    return 0;
  }
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushA, FN(range_push_a));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushW, FN(range_push_w));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, FN(range_push_ex));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePop, FN(range_pop));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartA, FN(range_start_a));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartW, FN(range_start_w));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeStartEx, FN(range_start_ex));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangeEnd, FN(range_end));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_MarkA, FN(mark_a));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_MarkW, FN(mark_w));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_MarkEx, FN(mark_ex));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_NameOsThreadA, FN(name_os_thread_a));
  install(etbl, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_NameOsThreadW, FN(name_os_thread_w));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, FN(domain_range_push_ex));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, FN(domain_range_pop));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeStartEx, FN(domain_range_start_ex));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangeEnd, FN(domain_range_end));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainMarkEx, FN(domain_mark_ex));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainCreateA, FN(domain_create_a));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainCreateW, FN(domain_create_w));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRegisterStringA, FN(register_string_a));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRegisterStringW, FN(register_string_w));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainResourceCreate, FN(resource_create));
  install(etbl, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainResourceDestroy, FN(resource_destroy));
  install(etbl, NVTX_CB_MODULE_SYNC, NVTX_CBID_SYNC_DomainSyncUserCreate, FN(sync_create));
  install(etbl, NVTX_CB_MODULE_SYNC, NVTX_CBID_SYNC_DomainSyncUserDestroy, FN(sync_destroy));
  install(etbl, NVTX_CB_MODULE_SYNC, NVTX_CBID_SYNC_DomainSyncUserAcquireStart, FN(sync_acquire_start));
  install(etbl, NVTX_CB_MODULE_SYNC, NVTX_CBID_SYNC_DomainSyncUserAcquireFailed, FN(sync_acquire_failed));
  install(etbl, NVTX_CB_MODULE_SYNC, NVTX_CBID_SYNC_DomainSyncUserAcquireSuccess, FN(sync_acquire_success));
  install(etbl, NVTX_CB_MODULE_SYNC, NVTX_CBID_SYNC_DomainSyncUserReleasing, FN(sync_releasing));
  return 1;
}
