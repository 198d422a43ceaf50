// A `clock_gettime` that records, per thread, the last reading of the clocks that Swift's
// `ContinuousClock` (CLOCK_BOOTTIME) and `SuspendingClock` (CLOCK_MONOTONIC) read on Linux.
//
// Why: a standard sleep reaches Marbles as a real deadline, `now + duration`, with `now` read a
// moment earlier by the standard library; a thread preempted in between would make
// `deadline - (Marbles' own now)` short by the preemption. With the reading itself, the duration
// is `deadline - reading`, exactly.
//
// How: a definition of `clock_gettime` in the executable comes before the C library's in the
// dynamic linker's search, so the Swift runtime's calls reach this one, which calls the C
// library's (found with dlsym(RTLD_NEXT)) and notes the result in a thread-local. The C
// library's own internal calls, and the vDSO, are untouched; the cost is a thread-local store.
// Elsewhere (Apple platforms: two-level namespaces, no interposition) nothing is recorded.
#include "CMarbleRuntime.h"

#if defined(__linux__)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static clock_gettime_fn real_clock_gettime;

/// This thread's last readings, and the readings counted as made in its current step.
static __thread marbles_clock_reading last_reading;
static __thread marbles_clock_reading step_reading;

static clock_gettime_fn resolve(void) {
  clock_gettime_fn real = __atomic_load_n(&real_clock_gettime, __ATOMIC_ACQUIRE);
  if (real == 0) {
    real = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
    __atomic_store_n(&real_clock_gettime, real, __ATOMIC_RELEASE);
  }
  return real;
}

int clock_gettime(clockid_t clock, struct timespec *time) {
  int result = resolve()(clock, time);
  if (result == 0) {
    int64_t nanoseconds = (int64_t)time->tv_sec * 1000000000 + (int64_t)time->tv_nsec;
    if (clock == CLOCK_BOOTTIME) {
      last_reading.continuous = step_reading.continuous = nanoseconds;
      last_reading.hasContinuous = step_reading.hasContinuous = true;
    } else if (clock == CLOCK_MONOTONIC) {
      last_reading.suspending = step_reading.suspending = nanoseconds;
      last_reading.hasSuspending = step_reading.hasSuspending = true;
    }
  }
  return result;
}

bool marbles_records_clock_reads(void) { return resolve() != 0; }

void marbles_begin_step(marbles_clock_reading carried) { step_reading = carried; }

marbles_clock_reading marbles_step_reading(void) { return step_reading; }

marbles_clock_reading marbles_last_reading(void) { return last_reading; }

#else

static const marbles_clock_reading none = {0, false, 0, false};

bool marbles_records_clock_reads(void) { return false; }

void marbles_begin_step(marbles_clock_reading carried) { (void)carried; }

marbles_clock_reading marbles_step_reading(void) { return none; }

marbles_clock_reading marbles_last_reading(void) { return none; }
#endif
