/* Which interposed calls are the application's: a call is recorded when its return address lies outside the CUDA
 * driver, CUPTI, the CUDA runtime, NVIDIA's other driver libraries and this library, and, for lock, semaphore and
 * condition calls, outside the libraries named in INTERLOCK_CAPTURE_IGNORE_LIBS (colon-separated substrings of the
 * object's path, such as libjvm.so), and outside the statically linked CUDA runtime's functions in the executable
 * (by its symbol table); or when its object was named through NVTX. The loaded objects' executable
 * segments, each with what it drops, are kept in a sorted table that is replaced (never changed in place) when
 * dl_iterate_phdr reports that a library was loaded: a lookup is a binary search, no lock. */
#define _GNU_SOURCE
#include "capture.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum drop {
  DROP_NONE = 0, /* the application's code */
  DROP_SYNC = 1, /* a library named in INTERLOCK_CAPTURE_IGNORE_LIBS: its lock, semaphore and condition calls */
  DROP_ALL = 2   /* the CUDA side's own code and this library: none of its calls */
};

struct range {
  uintptr_t lo, hi;
  enum drop drop;
};

struct table {
  unsigned long long adds;
  size_t objects; /* objects walked so far: the first is the executable */
  size_t n, cap;
  struct range r[];
};

static _Atomic(struct table *) current;
static atomic_flag refreshing = ATOMIC_FLAG_INIT;

static const char *const skipped[] = {
  "libcuda.so", "libcupti.so", "libcudart.so", "libnvidia-", "libnvrtc", "libnvJitLink", "libcudadebugger", NULL
};

/* INTERLOCK_CAPTURE_IGNORE_LIBS, split at its colons once, by the first refresh (which runs alone) */
#define IGNORED_MAX 32
static char ignored_text[4096];
static const char *ignored[IGNORED_MAX + 1];
static int ignored_read;

static void read_ignored(void) {
  const char *env = getenv("INTERLOCK_CAPTURE_IGNORE_LIBS");
  ignored_read = 1;
  if (env == NULL) {
    return;
  }
  snprintf(ignored_text, sizeof ignored_text, "%s", env);
  int n = 0;
  for (char *part = ignored_text, *colon; part != NULL && n < IGNORED_MAX; part = colon) {
    colon = strchr(part, ':');
    if (colon != NULL) {
      *colon++ = '\0';
    }
    if (part[0] != '\0') {
      ignored[n++] = part;
    }
  }
  ignored[n] = NULL;
}

static int ignored_name(const char *path) {
  for (int i = 0; ignored[i] != NULL; i++) {
    if (strstr(path, ignored[i]) != NULL) {
      return 1;
    }
  }
  return 0;
}

static int skipped_name(const char *path) {
  const char *base = strrchr(path, '/');
  base = base == NULL ? path : base + 1;
  for (int i = 0; skipped[i] != NULL; i++) {
    if (strncmp(base, skipped[i], strlen(skipped[i])) == 0) {
      return 1;
    }
  }
  return 0;
}

/* The statically linked CUDA runtime's functions in the executable: its code is part of the executable, so the
 * address ranges of the executable's segments cannot tell its mutex calls from the application's. nvcc's static
 * cudart names every function of its own libcudart_static_<hash> (CUDA 13); these names are in the executable's
 * symbol table (.symtab, read once from /proc/self/exe) unless it was stripped, and the functions' ranges, merged
 * where only alignment padding separates them, drop all their calls. */
#define CUDART_PREFIX "libcudart_static_"
#define CUDART_GAP 16
struct span {
  uintptr_t lo, hi; /* offsets from the executable's load address */
};
static struct span *cudart;
static size_t cudart_n;
static int cudart_read;

static int by_span(const void *a, const void *b) {
  uintptr_t x = ((const struct span *)a)->lo, y = ((const struct span *)b)->lo;
  return x < y ? -1 : x > y;
}

static void read_cudart(void) {
  cudart_read = 1;
  int f = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (f < 0) {
    return;
  }
  struct stat st;
  void *map = fstat(f, &st) == 0 && (size_t)st.st_size >= sizeof(ElfW(Ehdr))
      ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, f, 0) : MAP_FAILED;
  close(f);
  if (map == MAP_FAILED) {
    return;
  }
  size_t size = (size_t)st.st_size;
  const unsigned char *base = map;
  const ElfW(Ehdr) *eh = map;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)
      || eh->e_shoff == 0 || eh->e_shoff + (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > size) {
    munmap(map, size);
    return;
  }
  const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(base + eh->e_shoff);
  for (int i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum || sh[i].sh_entsize != sizeof(ElfW(Sym))
        || sh[i].sh_offset + sh[i].sh_size > size) {
      continue;
    }
    const ElfW(Shdr) *strs = &sh[sh[i].sh_link];
    if (strs->sh_offset + strs->sh_size > size) {
      continue;
    }
    const char *names = (const char *)(base + strs->sh_offset);
    const ElfW(Sym) *sym = (const ElfW(Sym) *)(base + sh[i].sh_offset);
    size_t count = sh[i].sh_size / sizeof(ElfW(Sym)), n = 0;
    struct span *spans = malloc(count * sizeof *spans + 1);
    for (size_t k = 0; spans != NULL && k < count; k++) {
      if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC && sym[k].st_size > 0 && sym[k].st_name < strs->sh_size
          && strncmp(names + sym[k].st_name, CUDART_PREFIX, sizeof CUDART_PREFIX - 1) == 0) {
        spans[n].lo = sym[k].st_value;
        spans[n].hi = sym[k].st_value + sym[k].st_size;
        n++;
      }
    }
    if (n > 0) {
      qsort(spans, n, sizeof *spans, by_span);
      size_t m = 0;
      for (size_t k = 1; k < n; k++) {
        if (spans[k].lo <= spans[m].hi + CUDART_GAP) {
          spans[m].hi = spans[k].hi > spans[m].hi ? spans[k].hi : spans[m].hi;
        } else {
          spans[++m] = spans[k];
        }
      }
      cudart = spans;
      cudart_n = m + 1;
    } else {
      free(spans);
    }
    break;
  }
  munmap(map, size);
}

static int count_segments(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  size_t *n = data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_X)) {
      (*n)++;
    }
  }
  return 0;
}

static void add_range(struct table *t, uintptr_t lo, uintptr_t hi, enum drop drop) {
  if (lo < hi && t->n < t->cap) {
    t->r[t->n++] = (struct range){lo, hi, drop};
  }
}

static int add_segments(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct table *t = data;
  uintptr_t self = (uintptr_t)&add_segments;
  int executable = t->objects++ == 0; /* dl_iterate_phdr reports the executable first */
  t->adds = info->dlpi_adds;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) {
      continue;
    }
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
    const char *name = info->dlpi_name != NULL ? info->dlpi_name : "";
    enum drop drop = (self >= lo && self < hi) || skipped_name(name) ? DROP_ALL
        : name[0] != '\0' && ignored_name(name) ? DROP_SYNC : DROP_NONE;
    for (size_t k = 0; executable && k < cudart_n; k++) {
      /* the executable's segment, less the static cudart's functions inside it */
      uintptr_t clo = info->dlpi_addr + cudart[k].lo, chi = info->dlpi_addr + cudart[k].hi;
      if (chi <= lo || clo >= hi) {
        continue;
      }
      clo = clo < lo ? lo : clo;
      chi = chi > hi ? hi : chi;
      add_range(t, lo, clo, drop);
      add_range(t, clo, chi, DROP_ALL);
      lo = chi;
    }
    add_range(t, lo, hi, drop);
  }
  return 0;
}

static int by_start(const void *a, const void *b) {
  uintptr_t x = ((const struct range *)a)->lo, y = ((const struct range *)b)->lo;
  return x < y ? -1 : x > y;
}

void cap_filter_refresh(void) {
  if (atomic_flag_test_and_set(&refreshing)) {
    return; /* another thread is at it; the old table serves meanwhile */
  }
  if (!ignored_read) {
    read_ignored();
  }
  if (!cudart_read) {
    read_cudart();
  }
  size_t n = 0;
  dl_iterate_phdr(count_segments, &n);
  n += 16 + 2 * cudart_n; /* a library loaded between the two walks; the pieces around static cudart */
  struct table *t = malloc(sizeof *t + n * sizeof(struct range));
  if (t != NULL) {
    t->n = 0;
    t->cap = n;
    t->adds = 0;
    t->objects = 0;
    dl_iterate_phdr(add_segments, t);
    qsort(t->r, t->n, sizeof(struct range), by_start);
    /* the old table is left allocated: a reader may still be searching it (one per library load) */
    atomic_store_explicit(&current, t, memory_order_release);
  }
  atomic_flag_clear(&refreshing);
}

static int first_adds(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  *(unsigned long long *)data = info->dlpi_adds;
  return 1; /* the first object is enough */
}

static const struct range *find(const struct table *t, uintptr_t a) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (a < t->r[mid].lo) {
      hi = mid;
    } else if (a >= t->r[mid].hi) {
      lo = mid + 1;
    } else {
      return &t->r[mid];
    }
  }
  return NULL;
}

int cap_from_app(const void *return_address, int sync_call) {
  uintptr_t a = (uintptr_t)return_address;
  struct table *t = atomic_load_explicit(&current, memory_order_acquire);
  if (t == NULL) {
    cap_filter_refresh();
    t = atomic_load_explicit(&current, memory_order_acquire);
    if (t == NULL) {
      return 1;
    }
  }
  const struct range *r = find(t, a);
  if (r == NULL) {
    /* code in no known object: a library loaded since the last walk, or generated code */
    unsigned long long adds = 0;
    dl_iterate_phdr(first_adds, &adds);
    if (adds != t->adds) {
      cap_filter_refresh();
      t = atomic_load_explicit(&current, memory_order_acquire);
      r = find(t, a);
    }
  }
  return r == NULL || r->drop == DROP_NONE || (r->drop == DROP_SYNC && !sync_call);
}

/* NVTX-named objects: an insert-only open-addressing set of addresses. */
#define NAMED_SLOTS 4096
static _Atomic uintptr_t named[NAMED_SLOTS];
static _Atomic int any_named;

static size_t slot_of(uintptr_t a) {
  return (size_t)((a >> 3) * 0x9E3779B97F4A7C15ull >> 52) % NAMED_SLOTS;
}

void cap_name_object(const void *address) {
  uintptr_t a = (uintptr_t)address;
  if (a == 0) {
    return;
  }
  for (size_t i = 0, s = slot_of(a); i < NAMED_SLOTS; i++, s = (s + 1) % NAMED_SLOTS) {
    uintptr_t expected = 0;
    if (atomic_compare_exchange_strong(&named[s], &expected, a) || expected == a) {
      atomic_store(&any_named, 1);
      return;
    }
  }
}

int cap_is_named(const void *address) {
  if (!atomic_load_explicit(&any_named, memory_order_relaxed)) {
    return 0;
  }
  uintptr_t a = (uintptr_t)address;
  for (size_t i = 0, s = slot_of(a); i < NAMED_SLOTS; i++, s = (s + 1) % NAMED_SLOTS) {
    uintptr_t v = atomic_load_explicit(&named[s], memory_order_relaxed);
    if (v == a) {
      return 1;
    }
    if (v == 0) {
      return 0;
    }
  }
  return 0;
}
