/* Interlock capture library: shared declarations of the record writer, the caller filter and the thread table. */
#ifndef INTERLOCK_CAPTURE_H
#define INTERLOCK_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#define CAP_HIDDEN __attribute__((visibility("hidden")))

/* record.c: the memory-mapped capture file (INTERLOCK_CAPTURE_OUT) */
CAP_HIDDEN void cap_init(void);                 /* opens the file and writes the header, once per process */
CAP_HIDDEN int cap_enabled(void);               /* 1 when records are being written */
CAP_HIDDEN uint64_t cap_now(void);              /* CLOCK_MONOTONIC in ns */
CAP_HIDDEN int cap_tid(void);                   /* this thread's OS id (gettid), cached */
/* Appends "NS TID EVENT FIELDS\n"; fields is printf-style, already encoded (see cap_encode). */
CAP_HIDDEN void cap_record(const char *event, const char *fields, ...) __attribute__((format(printf, 2, 3)));
CAP_HIDDEN void cap_record_at(uint64_t ns, const char *event, const char *fields, ...) __attribute__((format(printf, 3, 4)));
CAP_HIDDEN void cap_comment(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Percent-encodes s into dst (capacity n, NUL-terminated): bytes outside 0x21..0x7E and '=', '%'. "-" for NULL. */
CAP_HIDDEN const char *cap_encode(char *dst, size_t n, const char *s);

/* Re-entrancy guard: our own work inside a hook must not be recorded. */
CAP_HIDDEN int cap_enter(void);                 /* 0 when already inside the library on this thread */
CAP_HIDDEN void cap_leave(void);

/* filter.c: which calls are the application's */
CAP_HIDDEN void cap_filter_refresh(void);       /* re-reads the loaded objects (dl_iterate_phdr) */
/* Whether a call from RETURN_ADDRESS is the application's; SYNC_CALL: a lock, semaphore or condition call, which the
 * libraries of INTERLOCK_CAPTURE_IGNORE_LIBS also drop. */
CAP_HIDDEN int cap_from_app(const void *return_address, int sync_call);
CAP_HIDDEN void cap_name_object(const void *address);   /* an object named through NVTX: always recorded */
CAP_HIDDEN int cap_is_named(const void *address);

/* posix.c: pthread_t -> tid of the threads created under the library */
CAP_HIDDEN int cap_tid_of(unsigned long pthread);

#define CAP_PTR(p) ((unsigned long)(uintptr_t)(p))

#endif
