// What the C files of CMarbleRuntime share with each other, and nothing else does.
#ifndef MARBLES_INTERNAL_H
#define MARBLES_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

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
