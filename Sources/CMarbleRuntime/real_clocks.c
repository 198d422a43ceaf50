// The platform's real clocks: how a real reading is made, and which clock ids Marbles makes
// virtual (virtual_clock.c).
//
// Linux: the real `clock_gettime` is the kernel's vDSO function, found in the vDSO's own symbol
// table (a raw system call where there is none), never through the dynamic loader, so that the
// process's first reading may come from a signal handler. Darwin (written for, not built here):
// `clock_gettime_nsec_np`, which the interposed wrappers leave alone.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CMarbleRuntime.h"
#include "internal.h"

#if defined(__linux__)
#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "wrappers.h"
#elif defined(__APPLE__)
#include <time.h>
#endif

#if defined(__linux__)

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
static clock_gettime_fn real_clock_gettime_fn;

static int system_clock_gettime(clockid_t id, struct timespec *time) {
  return (int)syscall(SYS_clock_gettime, id, time);
}

static bool same_name(const char *name, const char *other) {
  while (*name && *name == *other) {
    name++;
    other++;
  }
  return *name == *other;
}

/// The function `name` of the kernel's vDSO — the code `clock_gettime` runs without a system
/// call, mapped into every process — found from the auxiliary vector and the vDSO's own symbol
/// table: no dynamic loader, no lock, no allocation, so that a first reading from a signal
/// handler is safe (dlsym is not). `0` when there is no vDSO or no such function.
static void *vdso_function(const char *name) {
  uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
  if (base == 0) return 0;
  const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)base;
  if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0) return 0;
  const ElfW(Phdr) *segments = (const ElfW(Phdr) *)(base + header->e_phoff);
  uintptr_t bias = 0;
  bool loaded = false;
  const ElfW(Dyn) *dynamic = 0;
  for (int index = 0; index < header->e_phnum; index++) {
    if (segments[index].p_type == PT_LOAD && !loaded) {
      bias = base + segments[index].p_offset - segments[index].p_vaddr;
      loaded = true;
    } else if (segments[index].p_type == PT_DYNAMIC) {
      dynamic = (const ElfW(Dyn) *)(base + segments[index].p_offset);
    }
  }
  if (!loaded || !dynamic) return 0;
  const ElfW(Sym) *symbols = 0;
  const char *names = 0;
  const uint32_t *hash = 0, *gnu_hash = 0;
  for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; entry++) {
    switch (entry->d_tag) {
    case DT_SYMTAB: symbols = (const ElfW(Sym) *)(bias + entry->d_un.d_ptr); break;
    case DT_STRTAB: names = (const char *)(bias + entry->d_un.d_ptr); break;
    case DT_HASH: hash = (const uint32_t *)(bias + entry->d_un.d_ptr); break;
    case DT_GNU_HASH: gnu_hash = (const uint32_t *)(bias + entry->d_un.d_ptr); break;
    default: break;
    }
  }
  if (!symbols || !names) return 0;
  // How many symbols: the SysV hash table says; a GNU hash table's last chain ends at the last.
  uint32_t count = 0;
  if (hash) {
    count = hash[1];
  } else if (gnu_hash) {
    uint32_t buckets_count = gnu_hash[0], first = gnu_hash[1], bloom_words = gnu_hash[2];
    const uint32_t *buckets = gnu_hash + 4 + bloom_words * (sizeof(ElfW(Addr)) / 4);
    const uint32_t *chain = buckets + buckets_count;
    uint32_t last = 0;
    for (uint32_t index = 0; index < buckets_count; index++) {
      if (buckets[index] > last) last = buckets[index];
    }
    if (last >= first) {
      while ((chain[last - first] & 1) == 0) last++;
      count = last + 1;
    }
  }
  for (uint32_t index = 0; index < count; index++) {
    const ElfW(Sym) *symbol = &symbols[index];
    if ((symbol->st_info & 0xf) != STT_FUNC || symbol->st_shndx == SHN_UNDEF) continue;
    if (same_name(names + symbol->st_name, name)) return (void *)(bias + symbol->st_value);
  }
  return 0;
}

#if defined(__aarch64__)
#define MARBLES_VDSO_CLOCK_GETTIME "__kernel_clock_gettime"
#else
#define MARBLES_VDSO_CLOCK_GETTIME "__vdso_clock_gettime"
#endif

/// The real `clock_gettime`: the vDSO's, as the C library's own calls it, else the system call.
/// Under the thread sanitizer, its interceptor (found with dlsym), so that it sees every reading.
static clock_gettime_fn resolve_clock_gettime(void) {
  clock_gettime_fn real = __atomic_load_n(&real_clock_gettime_fn, __ATOMIC_ACQUIRE);
  if (real == 0) {
#if defined(MARBLES_UNDER_THREAD_SANITIZER)
    real = (clock_gettime_fn)marbles_real_function("__interceptor_clock_gettime", "clock_gettime");
#else
    real = (clock_gettime_fn)vdso_function(MARBLES_VDSO_CLOCK_GETTIME);
#endif
    if (real == 0) real = system_clock_gettime;
    __atomic_store_n(&real_clock_gettime_fn, real, __ATOMIC_RELEASE);
  }
  return real;
}

int marbles_real_clock_gettime(int id, struct timespec *time) {
  return resolve_clock_gettime()((clockid_t)id, time);
}

marbles_real_clock_source marbles_real_clock_source_now(void) {
  clock_gettime_fn real = resolve_clock_gettime();
  if (real == system_clock_gettime) return MARBLES_REAL_CLOCK_SYSTEM_CALL;
  if ((void *)real == vdso_function(MARBLES_VDSO_CLOCK_GETTIME)) return MARBLES_REAL_CLOCK_VDSO;
  return MARBLES_REAL_CLOCK_SANITIZER;
}

int64_t marbles_real_now_of(int id) {
  struct timespec time;
  if (resolve_clock_gettime()((clockid_t)id, &time) != 0) return 0;
  return (int64_t)time.tv_sec * 1000000000 + (int64_t)time.tv_nsec;
}

/// The clock ids that are virtual: CLOCK_REALTIME(_COARSE, _ALARM), CLOCK_MONOTONIC(_RAW,
/// _COARSE), CLOCK_BOOTTIME(_ALARM). CPU-time clocks and CLOCK_TAI stay real.
bool marbles_is_virtual_clock_id(int id) {
  switch (id) {
  case CLOCK_REALTIME: case CLOCK_REALTIME_COARSE: case CLOCK_REALTIME_ALARM:
  case CLOCK_MONOTONIC: case CLOCK_MONOTONIC_RAW: case CLOCK_MONOTONIC_COARSE:
  case CLOCK_BOOTTIME: case CLOCK_BOOTTIME_ALARM:
    return true;
  default:
    return false;
  }
}

int marbles_clock_id_of_kind(marbles_clock_kind kind) {
  switch (kind) {
  case MARBLES_CLOCK_CONTINUOUS: return CLOCK_BOOTTIME;
  case MARBLES_CLOCK_SUSPENDING: return CLOCK_MONOTONIC;
  default: return CLOCK_REALTIME;
  }
}

#elif defined(__APPLE__)

int64_t marbles_real_now_of(int id) {
  return (int64_t)clock_gettime_nsec_np((clockid_t)id);
}

/// `ContinuousClock` reads CLOCK_MONOTONIC_RAW, `SuspendingClock` CLOCK_UPTIME_RAW, `Date`
/// CLOCK_REALTIME (and gettimeofday); `DispatchTime` reads mach_absolute_time.
bool marbles_is_virtual_clock_id(int id) {
  switch (id) {
  case CLOCK_REALTIME: case CLOCK_MONOTONIC: case CLOCK_MONOTONIC_RAW:
  case CLOCK_MONOTONIC_RAW_APPROX: case CLOCK_UPTIME_RAW: case CLOCK_UPTIME_RAW_APPROX:
    return true;
  default:
    return false;
  }
}

int marbles_clock_id_of_kind(marbles_clock_kind kind) {
  switch (kind) {
  case MARBLES_CLOCK_CONTINUOUS: return CLOCK_MONOTONIC_RAW;
  case MARBLES_CLOCK_SUSPENDING: return CLOCK_UPTIME_RAW;
  default: return CLOCK_REALTIME;
  }
}

#else

int64_t marbles_real_now_of(int id) { (void)id; return 0; }
bool marbles_is_virtual_clock_id(int id) { (void)id; return false; }
int marbles_clock_id_of_kind(marbles_clock_kind kind) { return (int)kind; }
#endif

#if !defined(__linux__)
marbles_real_clock_source marbles_real_clock_source_now(void) { return MARBLES_REAL_CLOCK_PLATFORM; }
#endif
