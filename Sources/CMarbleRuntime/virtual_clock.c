// One virtual clock per world (and per scheduler outside every world), and the readings of time
// that reach it.
//
// A reading of a standard clock on a thread whose scope names a live clock (clock_scope.c) is that
// clock's real reading at its tick 0 (its epoch, one per clock id) plus the virtual time elapsed
// since: exact differences, each clock its own epoch (a `Date` is still today's date). Everywhere
// else a reading is real. The scope is per thread, so that tests running side by side each read
// their own time; a clock that is let go bumps its generation, and a scope that names an old
// generation reads real time from then on.
//
// Why `clock_gettime`: every standard reading reaches it (checked on Swift 6.3.1 Linux, and in
// the RuntimeFacts suite): `ContinuousClock.now` as CLOCK_BOOTTIME; `SuspendingClock.now`,
// `DispatchTime.now()`, `ProcessInfo.systemUptime` as CLOCK_MONOTONIC; `Date()`,
// `DispatchWallTime.now()` as CLOCK_REALTIME. The wrappers that catch it are in
// clock_wrappers.c, the real clocks in real_clocks.c.
#include "CMarbleRuntime.h"
#include "internal.h"

#if defined(__APPLE__)
#include <mach/mach_time.h>
#endif
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static marbles_virtual_clock *free_clocks;
static uint64_t last_generation;

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

// MARK: Clocks

static int64_t load_epoch(const int64_t *epoch);
static bool still_generation(marbles_virtual_clock *clock, uint64_t generation);

// A fork while another thread holds the pool's lock would leave the child a lock nobody
// releases; and the child's only thread must not go on reading the virtual time of worlds whose
// threads it does not have. The handlers are registered with the first clock: a process that
// makes none has nothing of Marbles' at fork either.
static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

static void before_fork(void) { pthread_mutex_lock(&pool_lock); }

static void after_fork_in_parent(void) { pthread_mutex_unlock(&pool_lock); }

static void after_fork_in_child(void) {
  pthread_mutex_unlock(&pool_lock);
  marbles_scope_forget_after_fork();
  marbles_readings_forget();
}

/// Reads each virtualized clock id's real reading now, as `clock`'s tick 0.
static void read_epochs(marbles_virtual_clock *clock) {
  for (int id = 0; id < MARBLES_CLOCK_IDS; id++) {
    if (marbles_is_virtual_clock_id(id)) {
      __atomic_store_n(&clock->epoch[id], marbles_real_now_of(id), __ATOMIC_RELAXED);
    }
  }
#if defined(__APPLE__)
  __atomic_store_n(&clock->mach_absolute_epoch, (int64_t)mach_absolute_time(), __ATOMIC_RELAXED);
  __atomic_store_n(
      &clock->mach_continuous_epoch, (int64_t)mach_continuous_time(), __ATOMIC_RELAXED);
#endif
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

void marbles_clock_move_to(
    marbles_virtual_clock *clock, uint64_t generation, int64_t nanoseconds) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return;
  int64_t elapsed = __atomic_load_n(&clock->elapsed, __ATOMIC_RELAXED);
  while (elapsed < nanoseconds &&
         !__atomic_compare_exchange_n(&clock->elapsed, &elapsed, nanoseconds, true,
                                      __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
  }
}

void marbles_clock_end_opening(marbles_virtual_clock *clock, uint64_t generation) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return;
  __atomic_fetch_add(&clock->openings, 1, __ATOMIC_ACQ_REL);
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
  if (frozen.thawed) return marbles_real_now_of(CLOCK_MONOTONIC) - frozen.since;
  frozen.reads++;
  if ((frozen.reads & 255) == 0) tell_busy_wait();
  if ((frozen.reads & (frozen.reads - 1)) != 0) return 0;
  int64_t limit = __atomic_load_n(&clock->frozen_limit, __ATOMIC_ACQUIRE);
  if (limit <= 0) return 0;
  int64_t now = marbles_real_now_of(CLOCK_MONOTONIC);
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

void marbles_readings_forget(void) {
  frozen.clock = 0;
  waited.clock = 0;
}

void marbles_waited(int64_t nanoseconds) {
  if (nanoseconds <= 0 || !marbles_thread_scope.clock) return;
  uint64_t generation;
  marbles_virtual_clock *clock = marbles_live_clock(&generation);
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

bool marbles_virtual_now(int id, int64_t *nanoseconds) {
  return marbles_thread_scope.clock && marbles_virtual_reading(id, nanoseconds, 0);
}

/// The virtual reading of clock id `id` on this thread, if it is virtual. `frame`, a clock
/// wrapper's own frame (or none), tells whose reading it is: XCTest's own readings are real (a
/// test's duration, `measure {}`), though they still count as the thread keeping to one instant,
/// which is how XCTest's waiter polling its expectations is seen (`tell_busy_wait`).
bool marbles_virtual_reading(int id, int64_t *nanoseconds, const void *frame) {
  if (id < 0 || id >= MARBLES_CLOCK_IDS || !marbles_is_virtual_clock_id(id)) return false;
  uint64_t generation;
  marbles_virtual_clock *clock = marbles_live_clock(&generation);
  if (!clock) return false;
  if (frame && marbles_read_by_a_test_framework(frame)) {
    int64_t elapsed = __atomic_load_n(&clock->elapsed, __ATOMIC_ACQUIRE);
    if (still_generation(clock, generation)) (void)thawed_by(clock, generation, elapsed);
    return false;
  }
  return virtual_value(clock, generation, load_epoch(&clock->epoch[id]), nanoseconds);
}

int64_t marbles_real_now(marbles_clock_kind kind) {
  return marbles_real_now_of(marbles_clock_id_of_kind(kind));
}

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
      result = -(int64_t)when - load_epoch(&clock->epoch[marbles_clock_id_of_kind(MARBLES_CLOCK_WALL)]);
    } else {
#if defined(__APPLE__)
      mach_timebase_info_data_t base;
      mach_timebase_info(&base);
      int64_t ticks =
          (int64_t)(when & ~monotonic_mask) - load_epoch(&clock->mach_continuous_epoch);
      result = ticks * base.numer / base.denom;
#else
      result = (int64_t)(when & ~monotonic_mask) -
               load_epoch(&clock->epoch[marbles_clock_id_of_kind(MARBLES_CLOCK_CONTINUOUS)]);
#endif
    }
  } else {
#if defined(__APPLE__)
    mach_timebase_info_data_t base;
    mach_timebase_info(&base);
    result = ((int64_t)when - load_epoch(&clock->mach_absolute_epoch)) * base.numer / base.denom;
#else
    result = (int64_t)when - load_epoch(&clock->epoch[marbles_clock_id_of_kind(MARBLES_CLOCK_SUSPENDING)]);
#endif
  }
  if (!still_generation(clock, generation)) return false;
  *offset = result;
  return true;
}

#if defined(__APPLE__)

/// A mach clock's virtual reading: its epoch plus the elapsed time in its units.
bool marbles_virtual_mach(bool continuous, uint64_t *value) {
  uint64_t generation;
  marbles_virtual_clock *clock = marbles_thread_scope.clock ? marbles_live_clock(&generation) : 0;
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

#endif
