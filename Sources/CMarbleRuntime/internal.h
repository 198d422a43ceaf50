// What the C files of CMarbleRuntime share with each other, and nothing else does.
#ifndef MARBLES_INTERNAL_H
#define MARBLES_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "CMarbleRuntime.h"

struct timespec;

// MARK: Clocks (virtual_clock.c)

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

/// This thread's reading of clock id `id`, in nanoseconds, if it reads virtual time now. `frame`,
/// a clock wrapper's own frame (or none), tells whose reading it is: XCTest's own are real.
bool marbles_virtual_reading(int id, int64_t *nanoseconds, const void *frame);

#if defined(__APPLE__)
/// This thread's reading of a mach clock (the continuous one, or the absolute), in its units, if
/// it reads virtual time now.
bool marbles_virtual_mach(bool continuous, uint64_t *value);
#endif

/// Forgets this thread's notes on its readings of one instant (a new scope, a forked child).
void marbles_readings_forget(void);

// MARK: The thread's scope (clock_scope.c)

/// This thread's scope: whose clock its readings are. The clock wrappers look at its clock first.
extern __thread marbles_clock_scope marbles_thread_scope;

/// The live clock this thread reads now, and its generation; NULL where readings are real.
marbles_virtual_clock *marbles_live_clock(uint64_t *generation);

/// Ends the scope of a forked child's only thread, without releasing its task.
void marbles_scope_forget_after_fork(void);

// MARK: Real clocks (real_clocks.c)

/// Whether Marbles makes clock id `id` virtual.
bool marbles_is_virtual_clock_id(int id);

/// The clock id a kind of clock reads.
int marbles_clock_id_of_kind(marbles_clock_kind kind);

#if defined(__linux__)
/// The real `clock_gettime`: the vDSO's (the sanitizer's interceptor under the thread sanitizer).
int marbles_real_clock_gettime(int id, struct timespec *time);
#endif

// MARK: Elsewhere

/// This thread's reading of clock id `id`, in nanoseconds, if it reads virtual time now.
bool marbles_virtual_now(int id, int64_t *nanoseconds);

/// The real reading of clock id `id`, in nanoseconds, whatever this thread's scope.
int64_t marbles_real_now_of(int id);

/// Says that this thread blocked in the kernel for `nanoseconds` of real time: where it reads
/// virtual time, its readings move on by as much (virtual time that moves later takes the lead
/// back), so that a wait which checks the clock after it blocked sees the time it waited.
void marbles_waited(int64_t nanoseconds);

/// Work a reader of a virtual clock handed to a thread or a queue outside it, while it is under
/// way: what a world waits for in real time before it calls its state a deadlock.
typedef struct {
  struct marbles_virtual_clock *clock;
  uint64_t generation;
  /// Whether it is a Dispatch block (the world's own work), rather than a thread.
  bool is_block;
} marbles_outside_work;

/// Counts work handed outside by this thread, if it reads virtual time now; `false` if it does not
/// (nothing is counted, and `marbles_outside_end` must not be called).
bool marbles_outside_begin(marbles_outside_work *work);

/// ``marbles_outside_begin`` for a Dispatch block, which is the world's own work until it has run.
bool marbles_outside_begin_block(marbles_outside_work *work);

/// Counts that this thread, where it reads virtual time and runs a task's code, woke a thread
/// outside its world (a condition, a semaphore): a thread that may answer a wait of the world.
void marbles_outside_signalled(void);

/// Ends what `marbles_outside_begin` counted.
void marbles_outside_end(const marbles_outside_work *work);

/// Counts a Dispatch block on `clock`, if its generation is still `generation` (a block a thread
/// outside the world starts for it: a group's notify). `work` is set either way, and ending it is
/// safe either way.
void marbles_outside_begin_block_on(marbles_virtual_clock *clock, uint64_t generation,
                                    marbles_outside_work *work);

/// How many blocks world work handed to `dispatch_group_notify` on `clock` are runnable: their
/// group is empty, and they have not run (virtual_dispatch.c).
int64_t marbles_runnable_notifies(marbles_virtual_clock *clock, uint64_t generation);

/// Whether the reading of time in progress, whose clock wrapper's frame is `frame`, is XCTest's
/// own: its readings are real while a world's time runs ahead (symbols.c).
bool marbles_read_by_a_test_framework(const void *frame);

// Every function of the files that include this one goes to a section of its own, whose bounds
// the linker names (`__start_marbles_runtime`, `__stop_marbles_runtime`): a frame of these
// wrappers on the way to a reading (`dispatch_after`'s, a timed wait's) is how the reading is made,
// not who made it (`marbles_read_by_a_test_framework`).
#if defined(__linux__)
#pragma clang section text = "marbles_runtime"
#elif defined(__APPLE__)
// Darwin (written for, not built here): XCTest's readings are not told from a test's there
// (`marbles_read_by_a_test_framework` says no), so no wrapper frame needs telling apart.
#endif

#endif
