/* Test program for the capture library (no GPU): two worker threads take an application mutex, post and wait a
 * semaphore, use NVTX ranges, thread names, a named mutex and a sync-user object, and call a library that stands in
 * for the CUDA driver (libnvidia-probe.so, whose own locks must not be recorded).
 *   capture_probe run [EXIT_STATUS]   # everything above, then exit with EXIT_STATUS (default 0)
 *   capture_probe more                # sem_trywait/timedwait, timedlock and rwlocks, taken and not; NVTX start/end
 *                                     # ranges (one ending on another thread) and marks; the same mutex locked by
 *                                     # libruntime-probe.so (5 times) and by the executable (3 times); 60
 *                                     # trylock/unlock pairs in a function named as static cudart names its own
 *   capture_probe abort               # lock and unlock once, then abort() */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtSync.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 3

static pthread_mutex_t app_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t named_mutex = PTHREAD_MUTEX_INITIALIZER;
static sem_t ready;
static nvtxDomainHandle_t domain;
static nvtxSyncUser_t sync_object;
static int counter;

static void *worker(void *arg) {
  char name[32];
  snprintf(name, sizeof name, "worker-%ld", (long)arg);
  nvtxNameOsThreadA((uint32_t)syscall(SYS_gettid), name);
  for (int i = 0; i < ROUNDS; i++) {
    nvtxRangePushA("job");
    pthread_mutex_lock(&app_mutex);
    counter++;
    pthread_mutex_unlock(&app_mutex);
    nvtxRangePop();
  }
  nvtxDomainSyncUserAcquireStart(sync_object);
  nvtxDomainSyncUserAcquireSuccess(sync_object);
  nvtxDomainSyncUserReleasing(sync_object);
  char *text = malloc(100); /* glibc's own work: stdio and malloc locks must not show up */
  snprintf(text, 100, "%d", counter);
  fprintf(stderr, "%s %s\n", name, text);
  free(text);
  sem_post(&ready);
  return NULL;
}

static pthread_mutex_t timed_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t shared_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static const struct timespec past = {0, 0}; /* an absolute deadline long gone: a busy object times out at once */

/* Fails to take timed_mutex, which main holds: ETIMEDOUT. Then ends main's "upload" range. */
static void *other_thread(void *arg) {
  int rc = pthread_mutex_timedlock(&timed_mutex, &past);
  nvtxRangeEnd(*(nvtxRangeId_t *)arg);
  return rc == ETIMEDOUT ? NULL : (void *)1;
}

/* Named as nvcc's static CUDA runtime names its functions: its mutex calls are cudart's own, as at its exit. */
__attribute__((noinline)) int libcudart_static_probe_teardown(pthread_mutex_t *m) {
  int taken = 0;
  for (int i = 0; i < 60; i++) {
    if (pthread_mutex_trylock(m) == 0) {
      taken++;
      pthread_mutex_unlock(m);
    }
  }
  return taken;
}

static int expect(int got, int want, const char *what) {
  if (got != want) {
    fprintf(stderr, "capture_probe: %s returned %d, expected %d\n", what, got, want);
    return 1;
  }
  return 0;
}

static int more(const char *library) {
  int bad = 0;
  sem_t sem;
  sem_init(&sem, 0, 0);
  bad |= expect(sem_trywait(&sem) == 0 ? 0 : errno, EAGAIN, "sem_trywait of an empty semaphore");
  bad |= expect(sem_timedwait(&sem, &past) == 0 ? 0 : errno, ETIMEDOUT, "sem_timedwait of an empty semaphore");
  sem_post(&sem);
  sem_post(&sem);
  bad |= expect(sem_trywait(&sem), 0, "sem_trywait");
  struct timespec later;
  clock_gettime(CLOCK_REALTIME, &later);
  later.tv_sec += 60;
  bad |= expect(sem_timedwait(&sem, &later), 0, "sem_timedwait");

  nvtxRangeId_t upload = nvtxRangeStartA("upload"); /* ended by the other thread */
  pthread_mutex_lock(&timed_mutex);
  pthread_t other;
  pthread_create(&other, NULL, other_thread, &upload);
  void *result = NULL;
  pthread_join(other, &result);
  bad |= expect(result != NULL, 0, "pthread_mutex_timedlock of a held mutex (ETIMEDOUT)");
  pthread_mutex_unlock(&timed_mutex);
  bad |= expect(pthread_mutex_timedlock(&timed_mutex, &later), 0, "pthread_mutex_timedlock");
  pthread_mutex_unlock(&timed_mutex);

  bad |= expect(pthread_rwlock_rdlock(&rwlock), 0, "pthread_rwlock_rdlock");
  bad |= expect(pthread_rwlock_tryrdlock(&rwlock), 0, "pthread_rwlock_tryrdlock");
  bad |= expect(pthread_rwlock_trywrlock(&rwlock), EBUSY, "pthread_rwlock_trywrlock while read");
  pthread_rwlock_unlock(&rwlock);
  pthread_rwlock_unlock(&rwlock);
  bad |= expect(pthread_rwlock_wrlock(&rwlock), 0, "pthread_rwlock_wrlock");
  pthread_rwlock_unlock(&rwlock);

  nvtxDomainHandle_t d = nvtxDomainCreateA("probe");
  nvtxEventAttributes_t a = {0};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = "stage";
  nvtxRangeId_t stage = nvtxDomainRangeStartEx(d, &a);
  nvtxMarkA("checkpoint");
  a.message.ascii = "domain mark";
  nvtxDomainMarkEx(d, &a);
  nvtxDomainRangeEnd(d, stage);

  /* a runtime library's locks (dropped with INTERLOCK_CAPTURE_IGNORE_LIBS=libruntime-probe) and the same mutex
   * locked here (always recorded) */
  void *runtime = dlopen(library, RTLD_NOW);
  if (runtime == NULL) {
    fprintf(stderr, "capture_probe: %s\n", dlerror());
    return 3;
  }
  void (*runtime_work)(pthread_mutex_t *, int) = (void (*)(pthread_mutex_t *, int))dlsym(runtime, "probe_runtime_work");
  runtime_work(&shared_mutex, 5);
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&shared_mutex);
    pthread_mutex_unlock(&shared_mutex);
  }
  static pthread_mutex_t cudart_mutex = PTHREAD_MUTEX_INITIALIZER;
  bad |= expect(libcudart_static_probe_teardown(&cudart_mutex), 60, "static cudart's trylocks");
  return bad ? 5 : 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "more") == 0) {
    return more(argc > 2 ? argv[2] : "libruntime-probe.so");
  }
  if (argc > 1 && strcmp(argv[1], "abort") == 0) {
    pthread_mutex_lock(&app_mutex);
    pthread_mutex_unlock(&app_mutex);
    abort();
  }
  int status = argc > 2 ? atoi(argv[2]) : 0;
  sem_init(&ready, 0, 0);
  domain = nvtxDomainCreateA("probe");
  nvtxResourceAttributes_t resource = {0};
  resource.version = NVTX_VERSION;
  resource.size = NVTX_RESOURCE_ATTRIB_STRUCT_SIZE;
  resource.identifierType = NVTX_RESOURCE_TYPE_SYNC_PTHREAD_MUTEX;
  resource.identifier.pValue = &named_mutex;
  resource.messageType = NVTX_MESSAGE_TYPE_ASCII;
  resource.message.ascii = "compute_mtx";
  nvtxDomainResourceCreate(domain, &resource);
  nvtxSyncUserAttributes_t sync = {0};
  sync.version = NVTX_VERSION;
  sync.size = NVTX_SYNCUSER_ATTRIB_STRUCT_SIZE;
  sync.messageType = NVTX_MESSAGE_TYPE_ASCII;
  sync.message.ascii = "rust mutex";
  sync_object = nvtxDomainSyncUserCreate(domain, &sync);

  /* a stand-in for the CUDA driver, loaded after start like libcuda: its locks are its own */
  void *driver = dlopen(argc > 3 ? argv[3] : "libnvidia-probe.so", RTLD_NOW);
  if (driver == NULL) {
    fprintf(stderr, "capture_probe: %s\n", dlerror());
    return 3;
  }
  void (*driver_work)(int) = (void (*)(int))dlsym(driver, "probe_driver_work");
  driver_work(1000);

  pthread_t threads[2];
  for (long i = 0; i < 2; i++) {
    pthread_create(&threads[i], NULL, worker, (void *)i);
  }
  sem_wait(&ready);
  sem_wait(&ready);
  for (int i = 0; i < 2; i++) {
    pthread_join(threads[i], NULL);
  }
  nvtxEventAttributes_t range = {0};
  range.version = NVTX_VERSION;
  range.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  range.messageType = NVTX_MESSAGE_TYPE_ASCII;
  range.message.ascii = "named lock";
  nvtxDomainRangePushEx(domain, &range);
  pthread_mutex_lock(&named_mutex); /* recorded: named through NVTX */
  pthread_mutex_unlock(&named_mutex);
  nvtxDomainRangePop(domain);
  return counter == 2 * ROUNDS ? status : 4;
}
