/* LD_PRELOAD interposition of the pthread and semaphore calls that C and C++ locks and threads go through.
 * Ordering: a lock is recorded when it returns (taken when rc=0: a failed trylock or a timed-out timedlock is
 * recorded with its error), an unlock before the call. A rwlock is recorded as rdlock/wrlock and rdunlock/wrunlock:
 * glibc keeps the writer's tid in the lock, which tells the mode of an unlock. pthread_cond_wait releases and retakes
 * its mutex inside glibc, so it is recorded as an unlock before and a lock after (via=cond_wait). thread_start
 * carries the child's start time, and the child waits until its parent has written it: it precedes the child's
 * records in the file as in time. */
#define _GNU_SOURCE
#include "capture.h"

#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The next definition of NAME (glibc's), looked up once; VERSION (or "") pins the symbol version where glibc has several. */
#define REAL(type, name, version)                                                   \
  static type real_##name;                                                          \
  static type next_##name(void) {                                                   \
    type f = __atomic_load_n(&real_##name, __ATOMIC_ACQUIRE);                       \
    if (f == NULL) {                                                                \
      const char *v = (version);                                                    \
      if (v[0] != '\0') {                                                           \
        f = (type)dlvsym(RTLD_NEXT, #name, v);                                      \
      }                                                                             \
      if (f == NULL) {                                                              \
        f = (type)dlsym(RTLD_NEXT, #name);                                          \
      }                                                                             \
      __atomic_store_n(&real_##name, f, __ATOMIC_RELEASE);                          \
    }                                                                               \
    return f;                                                                       \
  }

typedef int (*mutex_fn)(pthread_mutex_t *);
typedef int (*mutex_timed_fn)(pthread_mutex_t *, const struct timespec *);
typedef int (*mutex_clock_fn)(pthread_mutex_t *, clockid_t, const struct timespec *);
typedef int (*rw_fn)(pthread_rwlock_t *);
typedef int (*rw_timed_fn)(pthread_rwlock_t *, const struct timespec *);
typedef int (*rw_clock_fn)(pthread_rwlock_t *, clockid_t, const struct timespec *);
typedef int (*sem_fn)(sem_t *);
typedef int (*sem_timed_fn)(sem_t *, const struct timespec *);
typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
typedef int (*join_fn)(pthread_t, void **);
typedef int (*cond_wait_fn)(pthread_cond_t *, pthread_mutex_t *);
typedef int (*cond_timedwait_fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
typedef int (*cond_clockwait_fn)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *);
typedef int (*setname_fn)(pthread_t, const char *);

REAL(mutex_fn, pthread_mutex_lock, "")
REAL(mutex_fn, pthread_mutex_trylock, "")
REAL(mutex_fn, pthread_mutex_unlock, "")
REAL(mutex_timed_fn, pthread_mutex_timedlock, "")
REAL(mutex_clock_fn, pthread_mutex_clocklock, "")
REAL(rw_fn, pthread_rwlock_rdlock, "")
REAL(rw_fn, pthread_rwlock_tryrdlock, "")
REAL(rw_timed_fn, pthread_rwlock_timedrdlock, "")
REAL(rw_clock_fn, pthread_rwlock_clockrdlock, "")
REAL(rw_fn, pthread_rwlock_wrlock, "")
REAL(rw_fn, pthread_rwlock_trywrlock, "")
REAL(rw_timed_fn, pthread_rwlock_timedwrlock, "")
REAL(rw_clock_fn, pthread_rwlock_clockwrlock, "")
REAL(rw_fn, pthread_rwlock_unlock, "")
REAL(sem_fn, sem_wait, "")
REAL(sem_fn, sem_trywait, "")
REAL(sem_timed_fn, sem_timedwait, "")
REAL(sem_fn, sem_post, "")
REAL(create_fn, pthread_create, "")
REAL(join_fn, pthread_join, "")
REAL(cond_wait_fn, pthread_cond_wait, "GLIBC_2.3.2")
REAL(cond_timedwait_fn, pthread_cond_timedwait, "GLIBC_2.3.2")
REAL(cond_clockwait_fn, pthread_cond_clockwait, "")
REAL(setname_fn, pthread_setname_np, "")

/* Whether a call on OBJECT made from RETURN_ADDRESS is recorded (SYNC_CALL: a lock, semaphore or condition call,
 * which the ignored libraries drop too); on 1 the caller must cap_leave() after recording. */
static int wanted(const void *return_address, const void *object, int sync_call) {
  if (!cap_enabled() || !cap_enter()) {
    return 0;
  }
  if (cap_is_named(object) || cap_from_app(return_address, sync_call)) {
    return 1;
  }
  cap_leave();
  return 0;
}

__attribute__((constructor)) static void capture_preload_init(void) {
  cap_init();
  cap_filter_refresh();
}

int pthread_mutex_lock(pthread_mutex_t *m) {
  int want = wanted(__builtin_return_address(0), m, 1);
  int rc = next_pthread_mutex_lock()(m);
  if (want) {
    cap_record("lock", "obj=mutex@0x%lx rc=%d", CAP_PTR(m), rc);
    cap_leave();
  }
  return rc;
}

int pthread_mutex_trylock(pthread_mutex_t *m) {
  int want = wanted(__builtin_return_address(0), m, 1);
  int rc = next_pthread_mutex_trylock()(m);
  if (want) {
    cap_record("trylock", "obj=mutex@0x%lx rc=%d", CAP_PTR(m), rc);
    cap_leave();
  }
  return rc;
}

int pthread_mutex_unlock(pthread_mutex_t *m) {
  if (wanted(__builtin_return_address(0), m, 1)) {
    cap_record("unlock", "obj=mutex@0x%lx", CAP_PTR(m));
    cap_leave();
  }
  return next_pthread_mutex_unlock()(m);
}

/* A timed (or try) mutex lock: recorded as EVENT when it returns, with its rc (ETIMEDOUT, EBUSY: not taken). */
static int mutex_result(int want, const char *event, pthread_mutex_t *m, int rc) {
  if (want) {
    cap_record(event, "obj=mutex@0x%lx rc=%d", CAP_PTR(m), rc);
    cap_leave();
  }
  return rc;
}

int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *t) {
  int want = wanted(__builtin_return_address(0), m, 1);
  return mutex_result(want, "timedlock", m, next_pthread_mutex_timedlock()(m, t));
}

int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clock, const struct timespec *t) {
  int want = wanted(__builtin_return_address(0), m, 1);
  return mutex_result(want, "timedlock", m, next_pthread_mutex_clocklock()(m, clock, t));
}

/* A rwlock taken for reading (rdlock) or writing (wrlock), by any of the blocking, try, timed and clock calls. */
static int rw_result(int want, const char *event, pthread_rwlock_t *l, int rc) {
  if (want) {
    cap_record(event, "obj=rwlock@0x%lx rc=%d", CAP_PTR(l), rc);
    cap_leave();
  }
  return rc;
}

int pthread_rwlock_rdlock(pthread_rwlock_t *l) {
  int want = wanted(__builtin_return_address(0), l, 1);
  return rw_result(want, "rdlock", l, next_pthread_rwlock_rdlock()(l));
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t *l) {
  int want = wanted(__builtin_return_address(0), l, 1);
  return rw_result(want, "rdlock", l, next_pthread_rwlock_tryrdlock()(l));
}

int pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *t) {
  int want = wanted(__builtin_return_address(0), l, 1);
  return rw_result(want, "rdlock", l, next_pthread_rwlock_timedrdlock()(l, t));
}

int pthread_rwlock_clockrdlock(pthread_rwlock_t *l, clockid_t clock, const struct timespec *t) {
  int want = wanted(__builtin_return_address(0), l, 1);
  return rw_result(want, "rdlock", l, next_pthread_rwlock_clockrdlock()(l, clock, t));
}

int pthread_rwlock_wrlock(pthread_rwlock_t *l) {
  int want = wanted(__builtin_return_address(0), l, 1);
  return rw_result(want, "wrlock", l, next_pthread_rwlock_wrlock()(l));
}

int pthread_rwlock_trywrlock(pthread_rwlock_t *l) {
  int want = wanted(__builtin_return_address(0), l, 1);
  return rw_result(want, "wrlock", l, next_pthread_rwlock_trywrlock()(l));
}

int pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *t) {
  int want = wanted(__builtin_return_address(0), l, 1);
  return rw_result(want, "wrlock", l, next_pthread_rwlock_timedwrlock()(l, t));
}

int pthread_rwlock_clockwrlock(pthread_rwlock_t *l, clockid_t clock, const struct timespec *t) {
  int want = wanted(__builtin_return_address(0), l, 1);
  return rw_result(want, "wrlock", l, next_pthread_rwlock_clockwrlock()(l, clock, t));
}

int pthread_rwlock_unlock(pthread_rwlock_t *l) {
  if (wanted(__builtin_return_address(0), l, 1)) {
    /* glibc keeps the writer's tid in __cur_writer while the lock is held for writing (0 for readers) */
    int writer = l->__data.__cur_writer == cap_tid();
    cap_record(writer ? "wrunlock" : "rdunlock", "obj=rwlock@0x%lx", CAP_PTR(l));
    cap_leave();
  }
  return next_pthread_rwlock_unlock()(l);
}

/* A semaphore call that may fail (sem_trywait: EAGAIN; sem_timedwait: ETIMEDOUT), recorded with its errno. */
static int sem_result(int want, const char *event, sem_t *s, int rc) {
  if (want) {
    int error = rc == 0 ? 0 : errno;
    cap_record(event, "obj=sem@0x%lx rc=%d", CAP_PTR(s), error);
    cap_leave();
    errno = error;
  }
  return rc;
}

int sem_trywait(sem_t *s) {
  int want = wanted(__builtin_return_address(0), s, 1);
  return sem_result(want, "sem_trywait", s, next_sem_trywait()(s));
}

int sem_timedwait(sem_t *s, const struct timespec *t) {
  int want = wanted(__builtin_return_address(0), s, 1);
  return sem_result(want, "sem_timedwait", s, next_sem_timedwait()(s, t));
}

int sem_wait(sem_t *s) {
  int want = wanted(__builtin_return_address(0), s, 1);
  int rc = next_sem_wait()(s);
  if (want) {
    cap_record("sem_wait", "obj=sem@0x%lx rc=%d", CAP_PTR(s), rc == 0 ? 0 : errno);
    cap_leave();
  }
  return rc;
}

int sem_post(sem_t *s) {
  if (wanted(__builtin_return_address(0), s, 1)) {
    cap_record("sem_post", "obj=sem@0x%lx", CAP_PTR(s));
    cap_leave();
  }
  return next_sem_post()(s);
}

static void cond_before(int want, pthread_mutex_t *m) {
  if (want) {
    cap_record("unlock", "obj=mutex@0x%lx via=cond_wait", CAP_PTR(m));
  }
}

static void cond_after(int want, pthread_mutex_t *m) {
  if (want) {
    cap_record("lock", "obj=mutex@0x%lx rc=0 via=cond_wait", CAP_PTR(m));
    cap_leave();
  }
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  int want = wanted(__builtin_return_address(0), m, 1);
  cond_before(want, m);
  int rc = next_pthread_cond_wait()(c, m);
  cond_after(want, m);
  return rc;
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t) {
  int want = wanted(__builtin_return_address(0), m, 1);
  cond_before(want, m);
  int rc = next_pthread_cond_timedwait()(c, m, t);
  cond_after(want, m);
  return rc;
}

int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clock, const struct timespec *t) {
  int want = wanted(__builtin_return_address(0), m, 1);
  cond_before(want, m);
  int rc = next_pthread_cond_clockwait()(c, m, clock, t);
  cond_after(want, m);
  return rc;
}

/* pthread_t -> tid of threads started under the library: an open-addressing table, keys never removed (a reused
 * pthread_t overwrites its tid). */
#define THREAD_SLOTS 8192
static _Atomic unsigned long thread_keys[THREAD_SLOTS];
static _Atomic int thread_tids[THREAD_SLOTS];

static size_t thread_slot(unsigned long key) {
  return (size_t)(key * 0x9E3779B97F4A7C15ull >> 51) % THREAD_SLOTS;
}

static void remember_thread(unsigned long key, int tid) {
  for (size_t i = 0, s = thread_slot(key); i < THREAD_SLOTS; i++, s = (s + 1) % THREAD_SLOTS) {
    unsigned long expected = 0;
    if (atomic_compare_exchange_strong(&thread_keys[s], &expected, key) || expected == key) {
      atomic_store(&thread_tids[s], tid);
      return;
    }
  }
}

int cap_tid_of(unsigned long key) {
  for (size_t i = 0, s = thread_slot(key); i < THREAD_SLOTS; i++, s = (s + 1) % THREAD_SLOTS) {
    unsigned long k = atomic_load(&thread_keys[s]);
    if (k == key) {
      return atomic_load(&thread_tids[s]);
    }
    if (k == 0) {
      return 0;
    }
  }
  return 0;
}

struct start {
  void *(*routine)(void *);
  void *arg;
  uint64_t ns;          /* when the child started: thread_start is recorded at this time, before the child's records */
  _Atomic int tid;      /* published by the child before it runs the routine */
  _Atomic int recorded; /* set by the parent once thread_start is written: the child runs the routine after that */
  _Atomic int refs;     /* parent and child: the last one to let go frees it */
};

static void let_go(struct start *s) {
  if (atomic_fetch_sub(&s->refs, 1) == 1) {
    free(s);
  }
}

static void *started(void *p) {
  struct start *s = p;
  void *(*routine)(void *) = s->routine;
  void *arg = s->arg;
  int tid = cap_tid();
  s->ns = cap_now();
  remember_thread((unsigned long)pthread_self(), tid);
  atomic_store(&s->tid, tid);
  syscall(SYS_futex, &s->tid, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
  while (atomic_load(&s->recorded) == 0) {
    syscall(SYS_futex, &s->recorded, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
  }
  let_go(s);
  return routine(arg);
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*routine)(void *), void *arg) {
  if (!wanted(__builtin_return_address(0), NULL, 0)) {
    return next_pthread_create()(thread, attr, routine, arg);
  }
  struct start *s = malloc(sizeof *s);
  if (s == NULL) {
    cap_leave();
    return next_pthread_create()(thread, attr, routine, arg);
  }
  s->routine = routine;
  s->arg = arg;
  atomic_store(&s->tid, 0);
  atomic_store(&s->recorded, 0);
  atomic_store(&s->refs, 2);
  int rc = next_pthread_create()(thread, attr, started, s);
  int child = 0;
  uint64_t ns = 0;
  if (rc == 0) {
    while ((child = atomic_load(&s->tid)) == 0) {
      syscall(SYS_futex, &s->tid, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
    }
    ns = s->ns;
  } else {
    ns = cap_now();
  }
  cap_record_at(ns, "thread_start", "child=%d rc=%d", child, rc);
  if (rc == 0) {
    atomic_store(&s->recorded, 1);
    syscall(SYS_futex, &s->recorded, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    let_go(s);
  } else {
    free(s); /* no child */
  }
  cap_leave();
  return rc;
}

int pthread_join(pthread_t thread, void **result) {
  int child = cap_tid_of((unsigned long)thread);
  int want = wanted(__builtin_return_address(0), NULL, 0);
  int rc = next_pthread_join()(thread, result);
  if (want) {
    cap_record("thread_join", "child=%d rc=%d", child, rc);
    cap_leave();
  }
  return rc;
}

int pthread_setname_np(pthread_t thread, const char *name) {
  int rc = next_pthread_setname_np()(thread, name);
  if (rc == 0 && cap_enabled() && cap_enter()) {
    char enc[256];
    cap_encode(enc, sizeof enc, name);
    if (pthread_equal(thread, pthread_self())) {
      cap_record("thread_name", "name=%s", enc);
    } else {
      cap_record("thread_name", "name=%s tid_named=%d", enc, cap_tid_of((unsigned long)thread));
    }
    cap_leave();
  }
  return rc;
}
