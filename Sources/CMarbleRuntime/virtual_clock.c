// One virtual clock per scheduler, and the readings of time that reach it.
//
// A reading of a standard clock on a thread whose scope names a live clock is that clock's real
// reading at its tick 0 (its epoch, one per clock id) plus the virtual time elapsed since: exact
// differences, each clock its own epoch (a `Date` is still today's date). Everywhere else a
// reading is real. The scope is per thread (Marbles enters it around the work it runs), so that
// tests running side by side each read their own time; a clock that is let go bumps its
// generation, and a scope that names an old generation reads real time from then on.
//
// Why `clock_gettime`: every standard reading reaches it (checked on Swift 6.3.1 Linux, and in
// the RuntimeFacts suite): `ContinuousClock.now` as CLOCK_BOOTTIME; `SuspendingClock.now`,
// `DispatchTime.now()`, `ProcessInfo.systemUptime` as CLOCK_MONOTONIC; `Date()`,
// `DispatchWallTime.now()` as CLOCK_REALTIME.
//
// Linux: a definition in the executable comes before the C library's in the dynamic linker's
// search, so the runtime's, Foundation's and Dispatch's calls reach this one, which reads the real
// clock as the C library does: the kernel's vDSO function, found in the vDSO's own symbol table (a
// raw system call where there is none), never through the dynamic loader, so that the process's
// first reading may come from a signal handler. It is weak (strong under the thread sanitizer: see wrappers.h): in a static
// link the C library's own wins, and readings stay real there.
// Darwin (written for, not built here): DYLD_INTERPOSE of `clock_gettime`,
// `clock_gettime_nsec_np`, `mach_absolute_time`, `mach_continuous_time` and `gettimeofday`, which
// dyld honours for images present at launch; elsewhere readings stay real.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CMarbleRuntime.h"
#include "internal.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "wrappers.h"
#elif defined(__APPLE__)
#include <dlfcn.h>
#include <mach/mach_time.h>
#include <sys/time.h>
#include <time.h>
#endif
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

/// Clock ids, indexed into a clock's epochs.
#define MARBLES_CLOCK_IDS 32

struct marbles_virtual_clock {
  /// Unique while the clock is alive; 0 once let go.
  uint64_t generation;
  /// The real reading of each virtualized clock id at tick 0, in nanoseconds (Darwin's mach
  /// clocks in their own units).
  int64_t epoch[MARBLES_CLOCK_IDS];
  int64_t mach_absolute_epoch;
  int64_t mach_continuous_epoch;
  int64_t elapsed;
  /// How long, in real nanoseconds, a thread may read one frozen instant before its readings
  /// start to move in real time (0: never).
  int64_t frozen_limit;
  /// How many times a thread's readings started to move that way.
  uint64_t thawed;
  /// The elapsed virtual time at the last such start.
  int64_t thawed_at;
  /// How many opening jobs have ended (see marbles_clock_end_opening).
  uint64_t openings;
  /// How much work that readers of this clock handed to a thread or queue outside it is under
  /// way (see marbles_outside_begin).
  int64_t outside;
  /// How many of those are Dispatch blocks, which are the world's own work until they have run.
  int64_t blocks;
  /// How many times readers of this clock woke a thread outside it (a condition, a semaphore).
  uint64_t signals;
  marbles_virtual_clock *next_free;
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static marbles_virtual_clock *free_clocks;
static uint64_t last_generation;

static __thread marbles_clock_scope scope;
static __thread int real_depth;
static __thread uint64_t reading_count;

/// How far this thread's readings of one clock run ahead of its virtual time because the thread
/// blocked in the kernel while virtual time stood still (see marbles_waited): a wait that blocks
/// for real time moves the thread's readings on by as much, and virtual time that moves later
/// takes the lead back, so the thread's readings never go backwards.
static __thread struct {
  marbles_virtual_clock *clock;
  uint64_t generation;
  int64_t elapsed;
  int64_t offset;
} waited;

/// A thread that keeps reading one virtual instant — a blocking sleep that reads the clock to know
/// when it is done (`Thread.sleep`), a busy-wait on the clock — waits for time that cannot move
/// while it blocks. After the clock's frozen limit of real time its readings move on in real time
/// from that instant (so the wait ends), until the instant changes or the thread enters a new
/// scope; the clock counts it, and the scheduler names it.
static __thread struct {
  marbles_virtual_clock *clock;
  uint64_t generation;
  int64_t elapsed;
  uint64_t reads;
  int64_t since;  // real CLOCK_MONOTONIC at the first read of the instant
  bool thawed;
} frozen;

// MARK: The platform's clocks

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

marbles_real_clock_source marbles_real_clock_source_now(void) {
  clock_gettime_fn real = resolve_clock_gettime();
  if (real == system_clock_gettime) return MARBLES_REAL_CLOCK_SYSTEM_CALL;
  if ((void *)real == vdso_function(MARBLES_VDSO_CLOCK_GETTIME)) return MARBLES_REAL_CLOCK_VDSO;
  return MARBLES_REAL_CLOCK_SANITIZER;
}

static int64_t real_reading(clockid_t id) {
  struct timespec time;
  if (resolve_clock_gettime()(id, &time) != 0) return 0;
  return (int64_t)time.tv_sec * 1000000000 + (int64_t)time.tv_nsec;
}

/// The clock ids that are virtual: CLOCK_REALTIME(_COARSE, _ALARM), CLOCK_MONOTONIC(_RAW,
/// _COARSE), CLOCK_BOOTTIME(_ALARM). CPU-time clocks and CLOCK_TAI stay real.
static bool is_virtual_id(clockid_t id) {
  switch (id) {
  case CLOCK_REALTIME: case CLOCK_REALTIME_COARSE: case CLOCK_REALTIME_ALARM:
  case CLOCK_MONOTONIC: case CLOCK_MONOTONIC_RAW: case CLOCK_MONOTONIC_COARSE:
  case CLOCK_BOOTTIME: case CLOCK_BOOTTIME_ALARM:
    return true;
  default:
    return false;
  }
}

static clockid_t id_of_kind(marbles_clock_kind kind) {
  switch (kind) {
  case MARBLES_CLOCK_CONTINUOUS: return CLOCK_BOOTTIME;
  case MARBLES_CLOCK_SUSPENDING: return CLOCK_MONOTONIC;
  default: return CLOCK_REALTIME;
  }
}

static void read_epochs(marbles_virtual_clock *clock) {
  for (clockid_t id = 0; id < MARBLES_CLOCK_IDS; id++) {
    if (is_virtual_id(id)) __atomic_store_n(&clock->epoch[id], real_reading(id), __ATOMIC_RELAXED);
  }
}

#elif defined(__APPLE__)

static int64_t real_reading(clockid_t id) {
  return (int64_t)clock_gettime_nsec_np(id);
}

/// `ContinuousClock` reads CLOCK_MONOTONIC_RAW, `SuspendingClock` CLOCK_UPTIME_RAW, `Date`
/// CLOCK_REALTIME (and gettimeofday); `DispatchTime` reads mach_absolute_time.
static bool is_virtual_id(clockid_t id) {
  switch (id) {
  case CLOCK_REALTIME: case CLOCK_MONOTONIC: case CLOCK_MONOTONIC_RAW:
  case CLOCK_MONOTONIC_RAW_APPROX: case CLOCK_UPTIME_RAW: case CLOCK_UPTIME_RAW_APPROX:
    return true;
  default:
    return false;
  }
}

static clockid_t id_of_kind(marbles_clock_kind kind) {
  switch (kind) {
  case MARBLES_CLOCK_CONTINUOUS: return CLOCK_MONOTONIC_RAW;
  case MARBLES_CLOCK_SUSPENDING: return CLOCK_UPTIME_RAW;
  default: return CLOCK_REALTIME;
  }
}

static void read_epochs(marbles_virtual_clock *clock) {
  for (int id = 0; id < MARBLES_CLOCK_IDS; id++) {
    if (is_virtual_id((clockid_t)id)) {
      __atomic_store_n(&clock->epoch[id], real_reading((clockid_t)id), __ATOMIC_RELAXED);
    }
  }
  __atomic_store_n(&clock->mach_absolute_epoch, (int64_t)mach_absolute_time(), __ATOMIC_RELAXED);
  __atomic_store_n(
      &clock->mach_continuous_epoch, (int64_t)mach_continuous_time(), __ATOMIC_RELAXED);
}

#else

static int64_t real_reading(int id) { (void)id; return 0; }
static bool is_virtual_id(int id) { (void)id; return false; }
static int id_of_kind(marbles_clock_kind kind) { return (int)kind; }
static void read_epochs(marbles_virtual_clock *clock) { (void)clock; }

#endif

#if !defined(__linux__)
marbles_real_clock_source marbles_real_clock_source_now(void) { return MARBLES_REAL_CLOCK_PLATFORM; }
#endif

// MARK: Clocks

static int64_t load_epoch(const int64_t *epoch);
static bool still_generation(marbles_virtual_clock *clock, uint64_t generation);

/// `value + offset`, saturating at the ends of 64 bits.
static int64_t saturating_add(int64_t value, int64_t offset) {
  int64_t sum;
  if (__builtin_add_overflow(value, offset, &sum)) return offset > 0 ? INT64_MAX : INT64_MIN;
  return sum;
}

// A fork while another thread holds the pool's lock would leave the child a lock nobody
// releases; and the child's only thread must not go on reading the virtual time of worlds whose
// threads it does not have. The handlers are registered with the first clock: a process that
// makes none has nothing of Marbles' at fork either.
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static void before_fork(void) { pthread_mutex_lock(&pool_lock); }

static void after_fork_in_parent(void) { pthread_mutex_unlock(&pool_lock); }

static void after_fork_in_child(void) {
  pthread_mutex_unlock(&pool_lock);
  // NB: the scope's task is not released: the child has no runtime threads to run its deinit on,
  // and a leak in a forked child is harmless.
  scope.clock = 0;
  scope.kind = MARBLES_SCOPE_NONE;
  scope.task = 0;
  frozen.clock = 0;
  waited.clock = 0;
}

static void register_fork_handlers(void) {
  pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

marbles_virtual_clock *marbles_clock_create(uint64_t *created) {
  pthread_once(&fork_handlers_once, register_fork_handlers);
  pthread_mutex_lock(&pool_lock);
  marbles_virtual_clock *clock = free_clocks;
  if (clock) free_clocks = clock->next_free;
  uint64_t generation = ++last_generation;
  pthread_mutex_unlock(&pool_lock);
  if (!clock) clock = calloc(1, sizeof(marbles_virtual_clock));
  if (!clock) abort();
  read_epochs(clock);
  __atomic_store_n(&clock->elapsed, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&clock->frozen_limit, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&clock->thawed, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&clock->thawed_at, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&clock->outside, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&clock->blocks, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&clock->signals, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&clock->generation, generation, __ATOMIC_RELEASE);
  *created = generation;
  return clock;
}

void marbles_clock_align(marbles_virtual_clock *clock, uint64_t generation,
                         marbles_virtual_clock *base, uint64_t base_generation, int64_t offset) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return;
  int64_t epochs[MARBLES_CLOCK_IDS];
  for (int id = 0; id < MARBLES_CLOCK_IDS; id++) epochs[id] = load_epoch(&base->epoch[id]);
#if defined(__APPLE__)
  mach_timebase_info_data_t timebase;
  mach_timebase_info(&timebase);
  int64_t mach_offset = offset * (int64_t)timebase.denom / (int64_t)timebase.numer;
  int64_t mach_absolute = load_epoch(&base->mach_absolute_epoch);
  int64_t mach_continuous = load_epoch(&base->mach_continuous_epoch);
#endif
  if (!still_generation(base, base_generation)) return;
  for (int id = 0; id < MARBLES_CLOCK_IDS; id++) {
    if (is_virtual_id((clockid_t)id)) {
      __atomic_store_n(&clock->epoch[id], saturating_add(epochs[id], offset), __ATOMIC_RELAXED);
    }
  }
#if defined(__APPLE__)
  __atomic_store_n(&clock->mach_absolute_epoch, mach_absolute + mach_offset, __ATOMIC_RELAXED);
  __atomic_store_n(&clock->mach_continuous_epoch, mach_continuous + mach_offset, __ATOMIC_RELAXED);
#endif
  __atomic_thread_fence(__ATOMIC_RELEASE);
}

void marbles_clock_release(marbles_virtual_clock *clock, uint64_t generation) {
  uint64_t expected = generation;
  if (!__atomic_compare_exchange_n(&clock->generation, &expected, 0, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE)) {
    return;
  }
  pthread_mutex_lock(&pool_lock);
  clock->next_free = free_clocks;
  free_clocks = clock;
  pthread_mutex_unlock(&pool_lock);
}

void marbles_clock_set_elapsed(
    marbles_virtual_clock *clock, uint64_t generation, int64_t nanoseconds) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return;
  __atomic_store_n(&clock->elapsed, nanoseconds, __ATOMIC_RELEASE);
}

// MARK: Scopes

marbles_clock_scope marbles_clock_enter(
    marbles_virtual_clock *clock, uint64_t generation, marbles_scope_kind kind, const void *task) {
  marbles_clock_scope previous = scope;
  frozen.clock = 0;
  waited.clock = 0;
  scope.clock = kind == MARBLES_SCOPE_NONE ? 0 : clock;
  scope.generation = generation;
  scope.kind = scope.clock ? kind : MARBLES_SCOPE_NONE;
  scope.task = scope.kind == MARBLES_SCOPE_TASK ? task : 0;
  if (scope.task) swift_retain((void *)scope.task);
  scope.openings = clock ? __atomic_load_n(&clock->openings, __ATOMIC_ACQUIRE) : 0;
  return previous;
}

void marbles_clock_end_opening(marbles_virtual_clock *clock, uint64_t generation) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return;
  __atomic_fetch_add(&clock->openings, 1, __ATOMIC_ACQ_REL);
}

void marbles_clock_drop(marbles_clock_scope dropped) {
  if (dropped.task) swift_release((void *)dropped.task);
}

void marbles_clock_restore(marbles_clock_scope previous) {
  frozen.clock = 0;
  waited.clock = 0;
  marbles_clock_scope replaced = scope;
  scope = previous;
  marbles_clock_drop(replaced);
}

/// Ends this thread's scope: readings are real again.
static void end_scope(void) {
  marbles_clock_scope ended = scope;
  scope.clock = 0;
  scope.kind = MARBLES_SCOPE_NONE;
  scope.task = 0;
  marbles_clock_drop(ended);
}

void marbles_clock_set_frozen_limit(
    marbles_virtual_clock *clock, uint64_t generation, int64_t nanoseconds) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return;
  __atomic_store_n(&clock->frozen_limit, nanoseconds, __ATOMIC_RELEASE);
}

uint64_t marbles_clock_thawed(
    marbles_virtual_clock *clock, uint64_t generation, int64_t *elapsed) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return 0;
  *elapsed = __atomic_load_n(&clock->thawed_at, __ATOMIC_ACQUIRE);
  return __atomic_load_n(&clock->thawed, __ATOMIC_ACQUIRE);
}

void marbles_real_time_begin(void) { real_depth++; }

void marbles_real_time_end(void) { real_depth--; }

/// Whose code the thread's scope stands for now (see marbles_scope_here): the one place that
/// decides it, for the readings here and for MarbleTesting's routing of the jobs enqueued here.
/// A scope whose clock was let go, or whose task's job has ended, ends.
static marbles_scope_here_kind scope_here(uint64_t *generation) {
  marbles_virtual_clock *clock = scope.clock;
  if (!clock) return MARBLES_HERE_NOBODY;
  uint64_t live = __atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE);
  if (live != scope.generation) {
    end_scope();
    return MARBLES_HERE_NOBODY;
  }
  *generation = live;
  if (scope.kind != MARBLES_SCOPE_TASK || swift_task_getCurrent() == scope.task) {
    return MARBLES_HERE_SCOPED;
  }
  // A task started inside the scope's code runs its first steps here (Task.immediate): from code
  // with no task (a thread root), or while the scope's task still runs the job the scope was
  // entered for (a stale scope of an ended job must not stand for another test's task). The
  // scope retains its task, so that reading its status is safe.
  if (scope.task == 0) {
    // A test with no task (a synchronous XCTest method) runs until it returns; another task's job
    // here runs inside it (a run loop it spins): it is not the scope's code, and the scope stays.
    return marbles_is_synchronous_start() ? MARBLES_HERE_SCOPED : MARBLES_HERE_OTHER_CODE;
  }
  if (marbles_task_is_running((MarblesJobRef)scope.task) &&
      scope.openings == __atomic_load_n(&clock->openings, __ATOMIC_ACQUIRE)) {
    return MARBLES_HERE_SCOPED;
  }
  // A test's task that is no longer current has left the thread: its job ended.
  end_scope();
  return MARBLES_HERE_NOBODY;
}

marbles_scope_here_kind marbles_scope_here(void) {
  uint64_t generation;
  return scope_here(&generation);
}

/// The live clock this thread reads now, and its generation; NULL where readings are real.
static marbles_virtual_clock *live_clock(uint64_t *generation) {
  if (!scope.clock || real_depth > 0) return 0;
  uint64_t live;
  if (scope_here(&live) != MARBLES_HERE_SCOPED) return 0;
  *generation = live;
  return scope.clock;
}

bool marbles_reads_virtual_time(void) {
  uint64_t generation;
  return live_clock(&generation) != 0;
}

uint64_t marbles_thread_reading_count(void) { return reading_count; }

/// How far this thread's readings of the instant `elapsed` have moved on in real time (see
/// `frozen`): 0 until it has read that instant for the clock's frozen limit. The real clock is
/// read at the first read of an instant and at the 2nd, 4th, 8th… read of it after that, so a hot
/// loop of readings pays for a handful.
static marbles_busy_wait_handler busy_wait_handler;

void marbles_set_busy_wait_handler(marbles_busy_wait_handler handler) {
  __atomic_store_n(&busy_wait_handler, handler, __ATOMIC_RELEASE);
}

/// Tells the handler that the main thread keeps reading one virtual instant: it waits for time
/// (a run loop spinning until a date, XCTest's waiter polling its expectations).
static void tell_busy_wait(void) {
  marbles_busy_wait_handler handler = __atomic_load_n(&busy_wait_handler, __ATOMIC_ACQUIRE);
  if (handler && marbles_is_main_thread()) handler();
}

static int64_t thawed_by(marbles_virtual_clock *clock, uint64_t generation, int64_t elapsed) {
  if (frozen.clock != clock || frozen.generation != generation || frozen.elapsed != elapsed) {
    frozen.clock = clock;
    frozen.generation = generation;
    frozen.elapsed = elapsed;
    frozen.reads = 1;
    frozen.thawed = false;
    frozen.since = 0;
    return 0;
  }
  if (frozen.thawed) return real_reading(CLOCK_MONOTONIC) - frozen.since;
  frozen.reads++;
  if ((frozen.reads & 255) == 0) tell_busy_wait();
  if ((frozen.reads & (frozen.reads - 1)) != 0) return 0;
  int64_t limit = __atomic_load_n(&clock->frozen_limit, __ATOMIC_ACQUIRE);
  if (limit <= 0) return 0;
  int64_t now = real_reading(CLOCK_MONOTONIC);
  if (frozen.since == 0) {
    frozen.since = now;
    return 0;
  }
  if (now - frozen.since < limit) return 0;
  frozen.thawed = true;
  frozen.since = now;
  __atomic_store_n(&clock->thawed_at, elapsed, __ATOMIC_RELEASE);
  __atomic_fetch_add(&clock->thawed, 1, __ATOMIC_ACQ_REL);
  return 0;
}

static bool virtual_reading(int id, int64_t *nanoseconds, const void *frame);

/// How far this thread's readings of `clock` run ahead of virtual time `elapsed` (see `waited`).
static int64_t waited_offset(marbles_virtual_clock *clock, uint64_t generation, int64_t elapsed) {
  if (waited.clock != clock || waited.generation != generation) return 0;
  if (elapsed != waited.elapsed) {
    int64_t moved = elapsed - waited.elapsed;
    waited.offset = moved > 0 && waited.offset > moved ? waited.offset - moved : 0;
    waited.elapsed = elapsed;
  }
  return waited.offset;
}

/// One of a clock's epochs, read as a seqlock's data: relaxed, and only trusted once
/// ``still_generation`` confirms the clock was not let go (and its slot reused) meanwhile.
static int64_t load_epoch(const int64_t *epoch) { return __atomic_load_n(epoch, __ATOMIC_RELAXED); }

/// Whether `clock` is still `generation`, after the reads of its fields before this call: the
/// second read of the seqlock (the fence keeps those reads before it).
static bool still_generation(marbles_virtual_clock *clock, uint64_t generation) {
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return __atomic_load_n(&clock->generation, __ATOMIC_RELAXED) == generation;
}

/// A clock's reading of `epoch`'s clock now, or `false` if it was let go meanwhile.
static bool virtual_value(
    marbles_virtual_clock *clock, uint64_t generation, int64_t epoch, int64_t *value) {
  int64_t elapsed = __atomic_load_n(&clock->elapsed, __ATOMIC_ACQUIRE);
  if (!still_generation(clock, generation)) return false;
  *value = epoch + elapsed + thawed_by(clock, generation, elapsed) +
           waited_offset(clock, generation, elapsed);
  return true;
}

void marbles_waited(int64_t nanoseconds) {
  if (nanoseconds <= 0 || !scope.clock) return;
  uint64_t generation;
  marbles_virtual_clock *clock = live_clock(&generation);
  if (!clock) return;
  int64_t elapsed = __atomic_load_n(&clock->elapsed, __ATOMIC_ACQUIRE);
  if (waited.clock != clock || waited.generation != generation) {
    waited.clock = clock;
    waited.generation = generation;
    waited.elapsed = elapsed;
    waited.offset = 0;
  } else {
    (void)waited_offset(clock, generation, elapsed);
  }
  waited.offset += nanoseconds;
}

static bool outside_begin(marbles_outside_work *work, bool is_block) {
  if (!scope.clock) return false;
  uint64_t generation;
  marbles_virtual_clock *clock = live_clock(&generation);
  if (!clock) return false;
  __atomic_fetch_add(&clock->outside, 1, __ATOMIC_ACQ_REL);
  if (is_block) __atomic_fetch_add(&clock->blocks, 1, __ATOMIC_ACQ_REL);
  work->clock = clock;
  work->generation = generation;
  work->is_block = is_block;
  return true;
}

bool marbles_outside_begin(marbles_outside_work *work) { return outside_begin(work, false); }

bool marbles_outside_begin_block(marbles_outside_work *work) { return outside_begin(work, true); }

void marbles_outside_end(const marbles_outside_work *work) {
  if (__atomic_load_n(&work->clock->generation, __ATOMIC_ACQUIRE) != work->generation) return;
  if (work->is_block) __atomic_fetch_sub(&work->clock->blocks, 1, __ATOMIC_ACQ_REL);
  __atomic_fetch_sub(&work->clock->outside, 1, __ATOMIC_ACQ_REL);
}

int64_t marbles_clock_outside_work(marbles_virtual_clock *clock, uint64_t generation) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return 0;
  return __atomic_load_n(&clock->outside, __ATOMIC_ACQUIRE);
}

int64_t marbles_clock_pending_blocks(marbles_virtual_clock *clock, uint64_t generation) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return 0;
  return __atomic_load_n(&clock->blocks, __ATOMIC_ACQUIRE);
}

void marbles_outside_signalled(void) {
  // A task's code only: a test framework's own code on a root thread (XCTest waking its waiter)
  // signals nothing the world waits for.
  if (!scope.clock || !swift_task_getCurrent()) return;
  uint64_t generation;
  marbles_virtual_clock *clock = live_clock(&generation);
  if (clock) __atomic_fetch_add(&clock->signals, 1, __ATOMIC_ACQ_REL);
}

uint64_t marbles_clock_signals(marbles_virtual_clock *clock, uint64_t generation) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return 0;
  return __atomic_load_n(&clock->signals, __ATOMIC_ACQUIRE);
}

bool marbles_virtual_now(int id, int64_t *nanoseconds) {
  return scope.clock && virtual_reading(id, nanoseconds, 0);
}

int64_t marbles_real_now_of(int id) { return real_reading(id); }

/// The virtual reading of clock id `id` on this thread, if it is virtual. `frame`, a clock
/// wrapper's own frame (or none), tells whose reading it is: XCTest's own readings are real (a
/// test's duration, `measure {}`), though they still count as the thread keeping to one instant,
/// which is how XCTest's waiter polling its expectations is seen (`tell_busy_wait`).
static bool virtual_reading(int id, int64_t *nanoseconds, const void *frame) {
  if (id < 0 || id >= MARBLES_CLOCK_IDS || !is_virtual_id((clockid_t)id)) return false;
  uint64_t generation;
  marbles_virtual_clock *clock = live_clock(&generation);
  if (!clock) return false;
  if (frame && marbles_read_by_a_test_framework(frame)) {
    int64_t elapsed = __atomic_load_n(&clock->elapsed, __ATOMIC_ACQUIRE);
    if (still_generation(clock, generation)) (void)thawed_by(clock, generation, elapsed);
    return false;
  }
  return virtual_value(clock, generation, load_epoch(&clock->epoch[id]), nanoseconds);
}

int64_t marbles_real_now(marbles_clock_kind kind) { return real_reading(id_of_kind(kind)); }

bool marbles_clock_offset_of_dispatch_time(
    marbles_virtual_clock *clock, uint64_t generation, uint64_t when, int64_t *offset) {
  const uint64_t forever = ~0ull, wall_now = ~1ull;
  const uint64_t monotonic_mask = 1ull << 63, wall_mask = 1ull << 62;
  if (when == forever) return false;
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return false;
  int64_t elapsed = __atomic_load_n(&clock->elapsed, __ATOMIC_ACQUIRE);
  int64_t result;
  if (when == 0 || when == wall_now) {
    result = elapsed;
  } else if (when & monotonic_mask) {
    if (when & wall_mask) {
      result = -(int64_t)when - load_epoch(&clock->epoch[id_of_kind(MARBLES_CLOCK_WALL)]);
    } else {
#if defined(__APPLE__)
      mach_timebase_info_data_t base;
      mach_timebase_info(&base);
      int64_t ticks =
          (int64_t)(when & ~monotonic_mask) - load_epoch(&clock->mach_continuous_epoch);
      result = ticks * base.numer / base.denom;
#else
      result = (int64_t)(when & ~monotonic_mask) -
               load_epoch(&clock->epoch[id_of_kind(MARBLES_CLOCK_CONTINUOUS)]);
#endif
    }
  } else {
#if defined(__APPLE__)
    mach_timebase_info_data_t base;
    mach_timebase_info(&base);
    result = ((int64_t)when - load_epoch(&clock->mach_absolute_epoch)) * base.numer / base.denom;
#else
    result = (int64_t)when - load_epoch(&clock->epoch[id_of_kind(MARBLES_CLOCK_SUSPENDING)]);
#endif
  }
  if (!still_generation(clock, generation)) return false;
  *offset = result;
  return true;
}

// MARK: The wrappers

#if defined(MARBLES_TESTED_RUNTIME) && defined(__linux__)

MARBLES_WRAPPER int clock_gettime(clockid_t id, struct timespec *time) {
  reading_count++;
  int64_t nanoseconds;
  if (scope.clock && virtual_reading(id, &nanoseconds, __builtin_frame_address(0))) {
    time->tv_sec = nanoseconds / 1000000000;
    time->tv_nsec = nanoseconds % 1000000000;
    return 0;
  }
  return resolve_clock_gettime()(id, time);
}

typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
#if defined(MARBLES_UNDER_THREAD_SANITIZER)
static void *gettimeofday_symbol, *time_symbol;
#endif

/// Core Foundation reads the wall clock with gettimeofday (CFAbsoluteTimeGetCurrent: a run
/// loop's limit date, a timer's fire date), and C code with time().
MARBLES_WRAPPER int gettimeofday(struct timeval *time, void *zone) {
  reading_count++;
  int64_t nanoseconds;
  struct timeval *volatile result = time;  // glibc says non-null; callers may still pass none
  if (!(result && scope.clock && virtual_reading(CLOCK_REALTIME, &nanoseconds, __builtin_frame_address(0)))) {
#if defined(MARBLES_UNDER_THREAD_SANITIZER)
    return ((gettimeofday_fn)marbles_resolve_real(
        &gettimeofday_symbol, "__interceptor_gettimeofday", "gettimeofday"))(time, zone);
#else
    // The real wall clock, as the C library reads it, without looking anything up.
    if (zone) memset(zone, 0, sizeof(struct timezone));
    if (!result) return 0;
    nanoseconds = real_reading(CLOCK_REALTIME);
#endif
  }
  result->tv_sec = nanoseconds / 1000000000;
  result->tv_usec = (nanoseconds % 1000000000) / 1000;
  return 0;
}

MARBLES_WRAPPER time_t time(time_t *result) {
  reading_count++;
  int64_t nanoseconds;
  if (!(scope.clock && virtual_reading(CLOCK_REALTIME, &nanoseconds, __builtin_frame_address(0)))) {
#if defined(MARBLES_UNDER_THREAD_SANITIZER)
    return ((time_fn)marbles_resolve_real(&time_symbol, "__interceptor_time", "time"))(result);
#else
    nanoseconds = real_reading(CLOCK_REALTIME);
#endif
  }
  time_t seconds = (time_t)(nanoseconds / 1000000000);
  if (result) *result = seconds;
  return seconds;
}

#elif defined(MARBLES_TESTED_RUNTIME) && defined(__APPLE__)

#define MARBLES_INTERPOSE(replacement, replacee)                                                  \
  __attribute__((used)) static struct {                                                           \
    const void *replacement_;                                                                     \
    const void *replacee_;                                                                        \
  } marbles_interpose_##replacee __attribute__((section("__DATA,__interpose"))) = {              \
      (const void *)(unsigned long)&replacement, (const void *)(unsigned long)&replacee}

static int marbles_clock_gettime(clockid_t id, struct timespec *time) {
  reading_count++;
  int64_t nanoseconds;
  if (scope.clock && virtual_reading((int)id, &nanoseconds, __builtin_frame_address(0))) {
    time->tv_sec = nanoseconds / 1000000000;
    time->tv_nsec = nanoseconds % 1000000000;
    return 0;
  }
  return clock_gettime(id, time);
}
MARBLES_INTERPOSE(marbles_clock_gettime, clock_gettime);

static uint64_t marbles_clock_gettime_nsec_np(clockid_t id) {
  reading_count++;
  int64_t nanoseconds;
  if (scope.clock && virtual_reading((int)id, &nanoseconds, __builtin_frame_address(0))) return (uint64_t)nanoseconds;
  return clock_gettime_nsec_np(id);
}
MARBLES_INTERPOSE(marbles_clock_gettime_nsec_np, clock_gettime_nsec_np);

static int marbles_gettimeofday(struct timeval *time, void *zone) {
  reading_count++;
  int64_t nanoseconds;
  if (time && scope.clock && virtual_reading(CLOCK_REALTIME, &nanoseconds, __builtin_frame_address(0))) {
    time->tv_sec = nanoseconds / 1000000000;
    time->tv_usec = (int)((nanoseconds % 1000000000) / 1000);
    return 0;
  }
  return gettimeofday(time, zone);
}
MARBLES_INTERPOSE(marbles_gettimeofday, gettimeofday);

/// A mach clock's virtual reading: its epoch plus the elapsed time in its units.
static bool virtual_mach(bool continuous, uint64_t *value) {
  uint64_t generation;
  marbles_virtual_clock *clock = scope.clock ? live_clock(&generation) : 0;
  if (!clock) return false;
  mach_timebase_info_data_t base;
  mach_timebase_info(&base);
  int64_t nanoseconds = __atomic_load_n(&clock->elapsed, __ATOMIC_ACQUIRE);
  int64_t epoch = load_epoch(continuous ? &clock->mach_continuous_epoch : &clock->mach_absolute_epoch);
  if (!still_generation(clock, generation)) return false;
  nanoseconds += thawed_by(clock, generation, nanoseconds);
  int64_t elapsed = nanoseconds * base.denom / base.numer;
  *value = (uint64_t)(epoch + elapsed);
  return true;
}

static uint64_t marbles_mach_absolute_time(void) {
  reading_count++;
  uint64_t value;
  return virtual_mach(false, &value) ? value : mach_absolute_time();
}
MARBLES_INTERPOSE(marbles_mach_absolute_time, mach_absolute_time);

static uint64_t marbles_mach_continuous_time(void) {
  reading_count++;
  uint64_t value;
  return virtual_mach(true, &value) ? value : mach_continuous_time();
}
MARBLES_INTERPOSE(marbles_mach_continuous_time, mach_continuous_time);

#endif

// MARK: The image

bool marbles_image_identity(uint64_t identity[4]) {
  // NB: dladdr is in <dlfcn.h> on Darwin and, with _GNU_SOURCE, on Linux.
  Dl_info info;
  if (dladdr((const void *)&marbles_image_identity, &info) == 0 || !info.dli_fname) return false;
  struct stat status;
  if (stat(info.dli_fname, &status) != 0) return false;
  identity[0] = (uint64_t)status.st_dev;
  identity[1] = (uint64_t)status.st_ino;
  identity[2] = (uint64_t)status.st_size;
#if defined(__APPLE__)
  identity[3] = (uint64_t)status.st_mtimespec.tv_sec * 1000000000u + (uint64_t)status.st_mtimespec.tv_nsec;
#else
  identity[3] = (uint64_t)status.st_mtim.tv_sec * 1000000000u + (uint64_t)status.st_mtim.tv_nsec;
#endif
  return true;
}
