// What MarbleTesting adds to the process, in C:
//
// - startup.c: a constructor that installs the driven world's runtime hooks when the process
//   loads, before the test runner starts a thread or a main-actor job.
// - clock_reads.c: on Linux, a `clock_gettime` that records, per thread, the last reading of the
//   clocks behind `ContinuousClock` and `SuspendingClock`, so that a standard sleep's real deadline
//   can be turned back into the exact duration it was made from.
#ifndef C_MARBLE_RUNTIME_H
#define C_MARBLE_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

/// Readings of the standard clocks, in nanoseconds of each clock.
typedef struct {
  /// `ContinuousClock`'s clock (CLOCK_BOOTTIME), if read.
  int64_t continuous;
  bool hasContinuous;
  /// `SuspendingClock`'s clock (CLOCK_MONOTONIC), if read.
  int64_t suspending;
  bool hasSuspending;
} marbles_clock_reading;

/// Whether this process records clock readings (Linux, where `clock_gettime` can be wrapped).
bool marbles_records_clock_reads(void);

/// A step — a job Marbles runs — begins on this thread: the readings made before it no longer
/// count, but `carried` does (the readings of the step it continues, on another thread).
void marbles_begin_step(marbles_clock_reading carried);

/// The last reading of each clock this thread made in its current step (or carried into it).
marbles_clock_reading marbles_step_reading(void);

/// The last reading of each clock this thread made, in the step or not.
marbles_clock_reading marbles_last_reading(void);

#endif
