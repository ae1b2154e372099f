/* The capture file: records appended to a memory-mapped file as they happen, so a crash leaves them on disk.
 *
 * The file grows in chunks of CHUNK bytes; each chunk is mapped on its own and never moved or unmapped, so a thread
 * writing into one chunk is never disturbed by another thread growing the file. An atomic offset hands out disjoint
 * byte ranges, so lines of different threads never interleave. The unused tail of the last chunk is NUL bytes
 * (the wrapper cuts it off once the program has ended). No locks of pthreads are taken here. */
#define _GNU_SOURCE
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define CHUNK ((uint64_t)16 << 20)
#define MAX_CHUNKS 16384 /* 256 GiB */
#define LINE_MAX_BYTES 4096

static int fd = -1;
static _Atomic int enabled;
static _Atomic int init_state; /* 0 not started, 1 in progress, 2 done */
static _Atomic uint64_t offset;
static _Atomic(char *) chunks[MAX_CHUNKS];
static atomic_flag grow_lock = ATOMIC_FLAG_INIT;
static __thread int tls_tid __attribute__((tls_model("initial-exec")));
static __thread int tls_depth __attribute__((tls_model("initial-exec")));

uint64_t cap_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int cap_tid(void) {
  if (tls_tid == 0) {
    tls_tid = (int)syscall(SYS_gettid);
  }
  return tls_tid;
}

int cap_enabled(void) {
  return atomic_load_explicit(&enabled, memory_order_relaxed);
}

int cap_enter(void) {
  if (tls_depth > 0) {
    return 0;
  }
  tls_depth++;
  return 1;
}

void cap_leave(void) {
  tls_depth--;
}

/* Maps chunk k, growing the file first; NULL when that fails (recording then stops). */
static char *chunk(uint64_t k) {
  char *p = atomic_load_explicit(&chunks[k], memory_order_acquire);
  if (p != NULL) {
    return p;
  }
  while (atomic_flag_test_and_set_explicit(&grow_lock, memory_order_acquire)) {
    sched_yield();
  }
  p = atomic_load_explicit(&chunks[k], memory_order_acquire);
  if (p == NULL) {
    off_t need = (off_t)((k + 1) * CHUNK);
    off_t size = lseek(fd, 0, SEEK_END);
    if (size < need && ftruncate(fd, need) != 0) {
      atomic_store(&enabled, 0);
    } else {
      void *m = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)(k * CHUNK));
      if (m == MAP_FAILED) {
        atomic_store(&enabled, 0);
      } else {
        p = m;
        atomic_store_explicit(&chunks[k], p, memory_order_release);
      }
    }
  }
  atomic_flag_clear_explicit(&grow_lock, memory_order_release);
  return p;
}

static void append(const char *line, size_t len) {
  if (fd < 0 || !cap_enabled()) {
    return;
  }
  uint64_t at = atomic_fetch_add_explicit(&offset, len, memory_order_relaxed);
  while (len > 0) {
    uint64_t k = at / CHUNK;
    if (k >= MAX_CHUNKS) {
      atomic_store(&enabled, 0);
      return;
    }
    char *p = chunk(k);
    if (p == NULL) {
      return;
    }
    uint64_t in = at % CHUNK;
    size_t n = (size_t)(CHUNK - in) < len ? (size_t)(CHUNK - in) : len;
    memcpy(p + in, line, n);
    line += n;
    len -= n;
    at += n;
  }
}

static void vrecord(uint64_t ns, const char *event, const char *fields, va_list ap) {
  char line[LINE_MAX_BYTES];
  int n = snprintf(line, sizeof line, "%llu %d %s", (unsigned long long)ns, cap_tid(), event);
  if (fields != NULL && fields[0] != '\0' && n < (int)sizeof line - 2) {
    line[n++] = ' ';
    int m = vsnprintf(line + n, sizeof line - (size_t)n, fields, ap);
    n = m < 0 ? n : n + m;
  }
  if (n > (int)sizeof line - 2) {
    n = (int)sizeof line - 2; /* an over-long record is cut, still one line */
  }
  line[n++] = '\n';
  append(line, (size_t)n);
}

void cap_record(const char *event, const char *fields, ...) {
  va_list ap;
  va_start(ap, fields);
  vrecord(cap_now(), event, fields, ap);
  va_end(ap);
}

void cap_record_at(uint64_t ns, const char *event, const char *fields, ...) {
  va_list ap;
  va_start(ap, fields);
  vrecord(ns, event, fields, ap);
  va_end(ap);
}

void cap_comment(const char *fmt, ...) {
  char line[LINE_MAX_BYTES];
  line[0] = '#';
  line[1] = ' ';
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line + 2, sizeof line - 3, fmt, ap);
  va_end(ap);
  n = n < 0 ? 2 : n + 2;
  if (n > (int)sizeof line - 2) {
    n = (int)sizeof line - 2;
  }
  line[n++] = '\n';
  append(line, (size_t)n);
}

const char *cap_encode(char *dst, size_t n, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  if (s == NULL) {
    snprintf(dst, n, "-");
    return dst;
  }
  size_t o = 0;
  for (const unsigned char *c = (const unsigned char *)s; *c != '\0' && o + 4 <= n; c++) {
    if (*c < 0x21 || *c > 0x7E || *c == '=' || *c == '%') {
      dst[o++] = '%';
      dst[o++] = hex[*c >> 4];
      dst[o++] = hex[*c & 15];
    } else {
      dst[o++] = (char)*c;
    }
  }
  if (o == 0 && n > 1) {
    dst[o++] = '-'; /* an empty name is written as "-": a value is never empty */
  }
  dst[o] = '\0';
  return dst;
}

/* A forked child shares the mapping but not the offset: it records nothing. */
static void after_fork_in_child(void) {
  atomic_store(&enabled, 0);
}

/* Opens PATH exclusively; a second process (an exec'd child inheriting the environment) writes PATH.PID instead. */
static int open_output(const char *path) {
  int f = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (f < 0 && errno == EEXIST) {
    char other[PATH_MAX];
    snprintf(other, sizeof other, "%s.%d", path, (int)getpid());
    f = open(other, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  }
  return f;
}

void cap_init(void) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&init_state, &expected, 1)) {
    while (atomic_load(&init_state) != 2) {
      sched_yield();
    }
    return;
  }
  const char *path = getenv("INTERLOCK_CAPTURE_OUT");
  if (path != NULL && path[0] != '\0') {
    fd = open_output(path);
    if (fd < 0) {
      char msg[256];
      int len = snprintf(msg, sizeof msg, "interlock capture: cannot create %s: %s; recording nothing\n", path, strerror(errno));
      if (len > 0 && write(2, msg, (size_t)(len < (int)sizeof msg ? len : (int)sizeof msg - 1)) < 0) {
        /* nothing more to do */
      }
    } else {
      atomic_store(&enabled, 1);
      pthread_atfork(NULL, NULL, after_fork_in_child);
      char exe[PATH_MAX];
      ssize_t r = readlink("/proc/self/exe", exe, sizeof exe - 1);
      exe[r > 0 ? r : 0] = '\0';
      char program[3 * PATH_MAX];
      append("# interlock capture v1\n", 23);
      cap_comment("pid=%d program=%s clock=CLOCK_MONOTONIC start_ns=%llu", (int)getpid(),
          cap_encode(program, sizeof program, r > 0 ? exe : NULL), (unsigned long long)cap_now());
    }
  }
  atomic_store(&init_state, 2);
}
