/* Stands in for the CUDA driver in the capture tests: its name starts with libnvidia-, so its locks are not recorded. */
#include <pthread.h>

static pthread_mutex_t driver_mutex = PTHREAD_MUTEX_INITIALIZER;

void probe_driver_work(int n) {
  for (int i = 0; i < n; i++) {
    pthread_mutex_lock(&driver_mutex);
    pthread_mutex_unlock(&driver_mutex);
  }
}
