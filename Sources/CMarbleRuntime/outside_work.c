// Work a world hands outside it — a thread, a Dispatch block not yet run, a wake-up of a thread
// that waits on a condition or a semaphore — counted on the world's clock while it is under way:
// what the world waits for in real time before it calls its state a deadlock.
#include "CMarbleRuntime.h"
#include "internal.h"

/// Counts work on `clock`, if its generation is still `generation`; sets `work` either way, so
/// that ending it is safe either way.
static bool begin_on(marbles_virtual_clock *clock, uint64_t generation, bool is_block,
                     marbles_outside_work *work) {
  work->clock = clock;
  work->generation = generation;
  work->is_block = is_block;
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return false;
  __atomic_fetch_add(&clock->outside, 1, __ATOMIC_ACQ_REL);
  if (is_block) __atomic_fetch_add(&clock->blocks, 1, __ATOMIC_ACQ_REL);
  return true;
}

static bool outside_begin(marbles_outside_work *work, bool is_block) {
  if (!marbles_thread_scope.clock) return false;
  uint64_t generation;
  marbles_virtual_clock *clock = marbles_live_clock(&generation);
  return clock && begin_on(clock, generation, is_block, work);
}

bool marbles_outside_begin(marbles_outside_work *work) { return outside_begin(work, false); }

bool marbles_outside_begin_block(marbles_outside_work *work) { return outside_begin(work, true); }

void marbles_outside_begin_block_on(marbles_virtual_clock *clock, uint64_t generation,
                                    marbles_outside_work *work) {
  (void)begin_on(clock, generation, true, work);
}

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
  return __atomic_load_n(&clock->blocks, __ATOMIC_ACQUIRE) +
         marbles_runnable_notifies(clock, generation);
}

void marbles_outside_signalled(void) {
  // A task's code only: a test framework's own code on a root thread (XCTest waking its waiter)
  // signals nothing the world waits for.
  if (!marbles_thread_scope.clock || !swift_task_getCurrent()) return;
  uint64_t generation;
  marbles_virtual_clock *clock = marbles_live_clock(&generation);
  if (clock) __atomic_fetch_add(&clock->signals, 1, __ATOMIC_ACQ_REL);
}

uint64_t marbles_clock_signals(marbles_virtual_clock *clock, uint64_t generation) {
  if (__atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE) != generation) return 0;
  return __atomic_load_n(&clock->signals, __ATOMIC_ACQUIRE);
}
