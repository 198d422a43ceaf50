// The thread's scope: whose clock the readings on a thread are, for how long, and whose code the
// thread runs now (marbles_scope_here). Marbles enters it around the work it runs — a drain, a
// job of a world's task — and, for the job that opened a world, until that job ends.
#include "CMarbleRuntime.h"
#include "internal.h"

__thread marbles_clock_scope marbles_thread_scope;

/// How deep this thread is in Marbles' own real-time code (marbles_real_time_begin): its readings
/// are real there, whatever its scope.
static __thread int real_depth;

marbles_clock_scope marbles_clock_enter(
    marbles_virtual_clock *clock, uint64_t generation, marbles_scope_kind kind, const void *task) {
  marbles_clock_scope previous = marbles_thread_scope;
  marbles_readings_forget();
  marbles_thread_scope.clock = kind == MARBLES_SCOPE_NONE ? 0 : clock;
  marbles_thread_scope.generation = generation;
  marbles_thread_scope.kind = marbles_thread_scope.clock ? kind : MARBLES_SCOPE_NONE;
  marbles_thread_scope.task = marbles_thread_scope.kind == MARBLES_SCOPE_TASK ? task : 0;
  if (marbles_thread_scope.task) swift_retain((void *)marbles_thread_scope.task);
  marbles_thread_scope.openings = clock ? __atomic_load_n(&clock->openings, __ATOMIC_ACQUIRE) : 0;
  return previous;
}

void marbles_clock_drop(marbles_clock_scope dropped) {
  if (dropped.task) swift_release((void *)dropped.task);
}

void marbles_clock_restore(marbles_clock_scope previous) {
  marbles_readings_forget();
  marbles_clock_scope replaced = marbles_thread_scope;
  marbles_thread_scope = previous;
  marbles_clock_drop(replaced);
}

/// Ends this thread's scope: readings are real again.
static void end_scope(void) {
  marbles_clock_scope ended = marbles_thread_scope;
  marbles_thread_scope.clock = 0;
  marbles_thread_scope.kind = MARBLES_SCOPE_NONE;
  marbles_thread_scope.task = 0;
  marbles_clock_drop(ended);
}

void marbles_real_time_begin(void) { real_depth++; }

void marbles_real_time_end(void) { real_depth--; }

/// Whose code the thread's scope stands for now (see marbles_scope_here): the one place that
/// decides it, for the readings here and for MarbleTesting's routing of the jobs enqueued here.
/// A scope whose clock was let go, or whose task's job has ended, ends.
static marbles_scope_here_kind scope_here(uint64_t *generation) {
  marbles_virtual_clock *clock = marbles_thread_scope.clock;
  if (!clock) return MARBLES_HERE_NOBODY;
  uint64_t live = __atomic_load_n(&clock->generation, __ATOMIC_ACQUIRE);
  if (live != marbles_thread_scope.generation) {
    end_scope();
    return MARBLES_HERE_NOBODY;
  }
  *generation = live;
  if (marbles_thread_scope.kind != MARBLES_SCOPE_TASK || swift_task_getCurrent() == marbles_thread_scope.task) {
    return MARBLES_HERE_SCOPED;
  }
  // A task started inside the scope's code runs its first steps here (Task.immediate): from code
  // with no task (a thread root), or while the scope's task still runs the job the scope was
  // entered for (a stale scope of an ended job must not stand for another test's task). The
  // scope retains its task, so that reading its status is safe.
  if (marbles_thread_scope.task == 0) {
    // A test with no task (a synchronous XCTest method) runs until it returns; another task's job
    // here runs inside it (a run loop it spins): it is not the scope's code, and the scope stays.
    return marbles_is_synchronous_start() ? MARBLES_HERE_SCOPED : MARBLES_HERE_OTHER_CODE;
  }
  if (marbles_task_is_running((MarblesJobRef)marbles_thread_scope.task) &&
      marbles_thread_scope.openings == __atomic_load_n(&clock->openings, __ATOMIC_ACQUIRE)) {
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

marbles_virtual_clock *marbles_live_clock(uint64_t *generation) {
  if (!marbles_thread_scope.clock || real_depth > 0) return 0;
  uint64_t live;
  if (scope_here(&live) != MARBLES_HERE_SCOPED) return 0;
  *generation = live;
  return marbles_thread_scope.clock;
}

bool marbles_reads_virtual_time(void) {
  uint64_t generation;
  return marbles_live_clock(&generation) != 0;
}

void marbles_scope_forget_after_fork(void) {
  // NB: the scope's task is not released: the child has no runtime threads to run its deinit on,
  // and a leak in a forked child is harmless.
  marbles_thread_scope.clock = 0;
  marbles_thread_scope.kind = MARBLES_SCOPE_NONE;
  marbles_thread_scope.task = 0;
}
