/* Stands in for a language runtime (libjvm.so) in the capture tests: it locks the mutex it is given, and a
 * semaphore of its own; INTERLOCK_CAPTURE_IGNORE_LIBS=libruntime-probe drops these records. */
#include <pthread.h>
#include <semaphore.h>

void probe_runtime_work(pthread_mutex_t *m, int n) {
  sem_t s;
  sem_init(&s, 0, 0);
  for (int i = 0; i < n; i++) {
    pthread_mutex_lock(m);
    pthread_mutex_unlock(m);
    sem_post(&s);
    sem_wait(&s);
  }
  sem_destroy(&s);
}
