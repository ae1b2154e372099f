/* Test program for the capture library (no GPU): two worker threads take an application mutex, post and wait a
 * semaphore, use NVTX ranges, thread names, a named mutex and a sync-user object, and call a library that stands in
 * for the CUDA driver (libnvidia-probe.so, whose own locks must not be recorded).
 *   capture_probe run [EXIT_STATUS]   # everything above, then exit with EXIT_STATUS (default 0)
 *   capture_probe abort               # lock and unlock once, then abort() */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtSync.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

int main(int argc, char **argv) {
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
