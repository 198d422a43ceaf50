// The wrappers every standard reading of time reaches, and that make it virtual where the
// thread's scope names a live clock (virtual_clock.c, clock_scope.c).
//
// Linux: a definition in the executable comes before the C library's in the dynamic linker's
// search, so the runtime's, Foundation's and Dispatch's calls reach these, which read the real
// clock as the C library does (real_clocks.c). They are weak (strong under the thread sanitizer:
// see wrappers.h): in a static link the C library's own win, and readings stay real there.
// Darwin (written for, not built here): DYLD_INTERPOSE of `clock_gettime`,
// `clock_gettime_nsec_np`, `mach_absolute_time`, `mach_continuous_time` and `gettimeofday`, which
// dyld honours for images present at launch; elsewhere readings stay real.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CMarbleRuntime.h"
#include "internal.h"

#if defined(__linux__)
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include "wrappers.h"
#elif defined(__APPLE__)
#include <mach/mach_time.h>
#include <sys/time.h>
#include <time.h>
#endif

/// How many readings of time this thread made, virtual or real (marbles_thread_reading_count).
static __thread uint64_t reading_count;

uint64_t marbles_thread_reading_count(void) { return reading_count; }

#if defined(MARBLES_TESTED_RUNTIME) && defined(__linux__)

MARBLES_WRAPPER int clock_gettime(clockid_t id, struct timespec *time) {
  reading_count++;
  int64_t nanoseconds;
  if (marbles_thread_scope.clock && marbles_virtual_reading(id, &nanoseconds, __builtin_frame_address(0))) {
    time->tv_sec = nanoseconds / 1000000000;
    time->tv_nsec = nanoseconds % 1000000000;
    return 0;
  }
  return marbles_real_clock_gettime(id, time);
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
  if (!(result && marbles_thread_scope.clock && marbles_virtual_reading(CLOCK_REALTIME, &nanoseconds, __builtin_frame_address(0)))) {
#if defined(MARBLES_UNDER_THREAD_SANITIZER)
    return ((gettimeofday_fn)marbles_resolve_real(
        &gettimeofday_symbol, "__interceptor_gettimeofday", "gettimeofday"))(time, zone);
#else
    // The real wall clock, as the C library reads it, without looking anything up.
    if (zone) memset(zone, 0, sizeof(struct timezone));
    if (!result) return 0;
    nanoseconds = marbles_real_now_of(CLOCK_REALTIME);
#endif
  }
  result->tv_sec = nanoseconds / 1000000000;
  result->tv_usec = (nanoseconds % 1000000000) / 1000;
  return 0;
}

MARBLES_WRAPPER time_t time(time_t *result) {
  reading_count++;
  int64_t nanoseconds;
  if (!(marbles_thread_scope.clock && marbles_virtual_reading(CLOCK_REALTIME, &nanoseconds, __builtin_frame_address(0)))) {
#if defined(MARBLES_UNDER_THREAD_SANITIZER)
    return ((time_fn)marbles_resolve_real(&time_symbol, "__interceptor_time", "time"))(result);
#else
    nanoseconds = marbles_real_now_of(CLOCK_REALTIME);
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
  if (marbles_thread_scope.clock && marbles_virtual_reading((int)id, &nanoseconds, __builtin_frame_address(0))) {
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
  if (marbles_thread_scope.clock && marbles_virtual_reading((int)id, &nanoseconds, __builtin_frame_address(0))) return (uint64_t)nanoseconds;
  return clock_gettime_nsec_np(id);
}
MARBLES_INTERPOSE(marbles_clock_gettime_nsec_np, clock_gettime_nsec_np);

static int marbles_gettimeofday(struct timeval *time, void *zone) {
  reading_count++;
  int64_t nanoseconds;
  if (time && marbles_thread_scope.clock && marbles_virtual_reading(CLOCK_REALTIME, &nanoseconds, __builtin_frame_address(0))) {
    time->tv_sec = nanoseconds / 1000000000;
    time->tv_usec = (int)((nanoseconds % 1000000000) / 1000);
    return 0;
  }
  return gettimeofday(time, zone);
}
MARBLES_INTERPOSE(marbles_gettimeofday, gettimeofday);

static uint64_t marbles_mach_absolute_time(void) {
  reading_count++;
  uint64_t value;
  return marbles_virtual_mach(false, &value) ? value : mach_absolute_time();
}
MARBLES_INTERPOSE(marbles_mach_absolute_time, mach_absolute_time);

static uint64_t marbles_mach_continuous_time(void) {
  reading_count++;
  uint64_t value;
  return marbles_virtual_mach(true, &value) ? value : mach_continuous_time();
}
MARBLES_INTERPOSE(marbles_mach_continuous_time, mach_continuous_time);

#endif
