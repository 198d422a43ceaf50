// What MarbleTesting adds to the process, in C: one virtual clock per scheduler, and the seams
// through which every reading of time and every Dispatch timer of driven work reaches it.
//
// - virtual_clock.c: each scheduler's clock (its real epochs, its elapsed virtual time), the
//   thread's clock scope, and a `clock_gettime` that answers from that clock where the scope says
//   so — every standard reading of time (`ContinuousClock.now`, `SuspendingClock.now`, `Date()`,
//   `DispatchTime.now()`, `DispatchWallTime.now()`, `ProcessInfo.systemUptime`) reaches it.
// - virtual_dispatch.c: `dispatch_after` (every `asyncAfter`) and `dispatch_source_set_timer`,
//   handed to MarbleTesting where the thread reads virtual time.
//
// The wrappers are compiled only for the toolchains Marbles was tested on (MARBLES_TESTED_RUNTIME,
// set by the manifest); elsewhere readings and timers stay real.
//
// Platform: Linux wraps the C library's symbols (a definition in the executable comes first in the
// dynamic linker's search); the Darwin twin interposes with DYLD_INTERPOSE. Darwin is written for,
// not built or tested here.
#ifndef C_MARBLE_RUNTIME_H
#define C_MARBLE_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "swift_runtime.h"

// MARK: Virtual clocks

/// One scheduler's clock: the real readings of each standard clock when it was made (its tick 0),
/// and how much virtual time has passed since.
typedef struct marbles_virtual_clock marbles_virtual_clock;

/// Makes a clock whose tick 0 is now, in real time (the readings are real whatever the thread's
/// scope), and sets `generation` to the number that names it while it lives: clocks are pooled,
/// and every call below that takes a generation does nothing to a clock that was let go and made
/// again since. Never fails.
marbles_virtual_clock *_Nonnull marbles_clock_create(uint64_t *_Nonnull generation);

/// Lets a clock go: no thread reads it any more, whatever its scope still says.
void marbles_clock_release(marbles_virtual_clock *_Nonnull clock, uint64_t generation);

/// Moves the clock on to `nanoseconds` of virtual time after its tick 0; never back (a world's
/// schedulers each bring the one clock to where they are, and the furthest is the world's time).
void marbles_clock_move_to(
    marbles_virtual_clock *_Nonnull clock, uint64_t generation, int64_t nanoseconds);

/// Sets how long, in real nanoseconds, a thread may keep reading one virtual instant before its
/// readings move on in real time from it (0: never) — so that a blocking wait on the clock in
/// driven work (`Thread.sleep`, a busy-wait) ends.
void marbles_clock_set_frozen_limit(
    marbles_virtual_clock *_Nonnull clock, uint64_t generation, int64_t nanoseconds);

/// How many times a thread's readings of `clock` moved on in real time that way, and (in
/// `elapsed`) the virtual time elapsed at the last of them.
uint64_t marbles_clock_thawed(
    marbles_virtual_clock *_Nonnull clock, uint64_t generation, int64_t *_Nonnull elapsed);

/// Whose code reads a clock's virtual time on a thread.
typedef enum {
  /// Nobody's: readings are real.
  MARBLES_SCOPE_NONE = 0,
  /// Every reading on the thread until the scope is restored (driven work in a drain, a job of a
  /// test's task that Marbles runs).
  MARBLES_SCOPE_THREAD = 1,
  /// Only while `task` is the current task (NULL: while no task is current) — the job that opened
  /// a world, which Marbles did not start and whose end it does not see — or while a task started
  /// inside it runs its first steps there (`Task.immediate`: `task` is still running then). A
  /// reading by any other task ends it. The scope retains `task` while it holds it.
  MARBLES_SCOPE_TASK = 2,
} marbles_scope_kind;

/// A thread's clock scope, to restore it.
typedef struct {
  marbles_virtual_clock *_Nullable clock;
  uint64_t generation;
  const void *_Nullable task;
  marbles_scope_kind kind;
  /// The clock's count of ended opening jobs when the scope was entered.
  uint64_t openings;
} marbles_clock_scope;

/// Says that the job which opened a world has ended: a task scope entered for it (on the thread
/// it ran on) no longer stands for a task that runs there, whatever that task does later.
void marbles_clock_end_opening(marbles_virtual_clock *_Nonnull clock, uint64_t generation);

/// Makes this thread's readings `clock`'s (while it has `generation`), as `kind` says, and
/// returns the scope it replaces, which the caller owns: it hands it to `marbles_clock_restore` or
/// to `marbles_clock_drop`.
marbles_clock_scope marbles_clock_enter(
    marbles_virtual_clock *_Nullable clock, uint64_t generation, marbles_scope_kind kind,
    const void *_Nullable task);

/// Puts back a scope that `marbles_clock_enter` returned.
void marbles_clock_restore(marbles_clock_scope scope);

/// Lets go of a scope that `marbles_clock_enter` returned and that is not put back.
void marbles_clock_drop(marbles_clock_scope scope);

/// How much work the readers of `clock` handed to threads and queues outside its world is under
/// way: threads they started that have not ended, blocks they gave a queue (`dispatch_async`, a
/// barrier's, a group's) that have not run.
int64_t marbles_clock_outside_work(marbles_virtual_clock *_Nonnull clock, uint64_t generation);

/// How many of those are Dispatch blocks that have not yet run to their end — and blocks handed to
/// `dispatch_group_notify` whose group is empty — the world's own work, runnable, for as long as it
/// is under way.
int64_t marbles_clock_pending_blocks(marbles_virtual_clock *_Nonnull clock, uint64_t generation);

/// How many times the readers of `clock` woke a thread outside its world: signalled a condition
/// (`pthread_cond_signal`, `pthread_cond_broadcast`) or a semaphore (`sem_post`,
/// `dispatch_semaphore_signal`). Such a thread may answer a wait of the world.
uint64_t marbles_clock_signals(marbles_virtual_clock *_Nonnull clock, uint64_t generation);

/// Called on the thread that hands a Dispatch block over, where it runs world work: returns a
/// token for the world (which the handler keeps), or NULL.
typedef void *_Nullable (*marbles_block_begin_handler)(void);

/// Called on the thread that runs a block `marbles_block_begin_handler` gave a token for: runs the
/// block (`marbles_block_run`) as the world's work, then `end` (which ends the count), then lets the
/// token go.
typedef void (*marbles_block_run_handler)(
    void *_Nonnull token, void *_Nonnull block, void *_Nonnull end_context,
    void (*_Nonnull end)(void *_Nonnull end_context));

/// Called on the main thread, where it reads virtual time, as its run loop begins (`true`) and ends
/// (`false`) a blocking wait for events: the code there — a test's task — waits synchronously
/// (XCTest's `wait(for:timeout:)`, `waitForExpectations(timeout:)`, `RunLoop.run(until:)`).
typedef void (*marbles_run_loop_handler)(bool waits);

/// Sets the run-loop handler (NULL: none).
void marbles_set_run_loop_handler(marbles_run_loop_handler _Nullable handler);

/// Called on the main thread, every 256th reading of one virtual instant there: the code there
/// keeps reading the time without its time moving — it waits for it (XCTest's waiter polling its
/// expectations, a run loop spinning until a date).
typedef void (*marbles_busy_wait_handler)(void);

/// Sets the busy-wait handler (NULL: none).
void marbles_set_busy_wait_handler(marbles_busy_wait_handler _Nullable handler);

/// Sets the block handlers (NULL: none).
void marbles_set_block_handlers(
    marbles_block_begin_handler _Nullable begin, marbles_block_run_handler _Nullable run);

/// Whether this thread's clock scope stands for the code running here now.
typedef enum {
  /// No scope (none entered, or it ended: its clock was let go, or its task's job ended).
  MARBLES_HERE_NOBODY = 0,
  /// The scope's code runs here: a drain's or a run's work, the job the scope was entered for, or
  /// a `Task.immediate`'s first steps inside that job.
  MARBLES_HERE_SCOPED = 1,
  /// The scope stands, but the code running here is not its own: another task's job inside a
  /// thread root's code (a run loop it spins).
  MARBLES_HERE_OTHER_CODE = 2,
} marbles_scope_here_kind;

/// Whose code this thread's scope stands for now — the one decision of "whose code runs here",
/// which the readings of time and MarbleTesting's routing of jobs both take from it.
marbles_scope_here_kind marbles_scope_here(void);

/// Whether a reading on this thread, now, is virtual.
bool marbles_reads_virtual_time(void);

/// Where the real readings behind the clock wrappers come from.
typedef enum {
  /// The kernel's vDSO function, found in the vDSO's own symbol table (Linux).
  MARBLES_REAL_CLOCK_VDSO,
  /// The `clock_gettime` system call, where there is no vDSO.
  MARBLES_REAL_CLOCK_SYSTEM_CALL,
  /// The thread sanitizer's interceptor, found with dlsym (under `--sanitize=thread`).
  MARBLES_REAL_CLOCK_SANITIZER,
  /// The platform's own (Darwin, which Marbles does not wrap this way).
  MARBLES_REAL_CLOCK_PLATFORM,
} marbles_real_clock_source;

/// Where the real readings come from: on Linux never the dynamic loader, outside the thread
/// sanitizer, so that a first reading from a signal handler is safe.
marbles_real_clock_source marbles_real_clock_source_now(void);

/// Makes this thread's readings real until `marbles_real_time_end` (nested calls count): for
/// Marbles' own waits and timeouts, which must be real wherever they run.
void marbles_real_time_begin(void);
void marbles_real_time_end(void);

/// The standard clocks, as a reading names them.
typedef enum {
  /// `ContinuousClock` (Linux: CLOCK_BOOTTIME).
  MARBLES_CLOCK_CONTINUOUS = 0,
  /// `SuspendingClock`, `DispatchTime` (Linux: CLOCK_MONOTONIC).
  MARBLES_CLOCK_SUSPENDING = 1,
  /// `Date`, `DispatchWallTime` (CLOCK_REALTIME).
  MARBLES_CLOCK_WALL = 2,
} marbles_clock_kind;

/// The real reading of a standard clock, in nanoseconds, whatever this thread's scope.
int64_t marbles_real_now(marbles_clock_kind kind);

/// What names the image (executable or test bundle) that holds MarbleTesting's C code: its
/// device, inode, size and modification time in nanoseconds; `false` if it cannot be found.
bool marbles_image_identity(uint64_t identity[_Nonnull 4]);

/// How many clock readings this thread has made through the wrapper, virtual or not: lets a test
/// check that a reading reached it.
uint64_t marbles_thread_reading_count(void);

/// How far after `clock`'s tick 0 a Dispatch deadline (`dispatch_time_t`) falls, in nanoseconds;
/// `false` for `DISPATCH_TIME_FOREVER`, or when `clock` is no longer `generation` (let go, or
/// reused by another scheduler). `DISPATCH_TIME_NOW` and `DISPATCH_WALLTIME_NOW` are the clock's
/// elapsed time.
bool marbles_clock_offset_of_dispatch_time(
    marbles_virtual_clock *_Nonnull clock, uint64_t generation, uint64_t when,
    int64_t *_Nonnull offset);

// MARK: Dispatch timers

/// Called for a `dispatch_after` made where readings are virtual, with a copy of the block that
/// the handler owns when it returns `true` (it took the work); with `false` the call goes on in
/// real time.
typedef bool (*marbles_dispatch_after_handler)(
    uint64_t when, void *_Nonnull queue, void *_Nonnull block);

/// What happens to a Dispatch timer source made where readings are virtual, told to the handlers
/// below: made (with its target queue), given an event handler (a copy of the block, which the
/// handler owns), given a timer, cancelled.
typedef enum {
  MARBLES_TIMER_CREATED = 0,
  MARBLES_TIMER_HANDLER = 1,
  MARBLES_TIMER_SET = 2,
  MARBLES_TIMER_CANCELLED = 3,
} marbles_timer_event;

/// Called for each event of a timer source; for MARBLES_TIMER_SET it returns whether it took the
/// timer into virtual time (then the real timer is not armed). `object` is the queue, the block,
/// or NULL; `start`, `interval` and `leeway` are the timer's.
typedef bool (*marbles_dispatch_timer_handler)(
    marbles_timer_event event, void *_Nonnull source, void *_Nullable object, uint64_t start,
    uint64_t interval, uint64_t leeway);

/// Sets the handlers (NULL: none).
void marbles_set_dispatch_handlers(
    marbles_dispatch_after_handler _Nullable after, marbles_dispatch_timer_handler _Nullable timer);

/// Whether a handler is set.
bool marbles_dispatch_handlers_are_set(void);

/// Called for a job the Swift concurrency runtime enqueues on the main queue through its own main
/// executor (a task that was on the main actor before Marbles' main executor hook was installed
/// hops back there): `true` if the handler took the job, which then does not reach the queue.
typedef bool (*marbles_main_job_handler)(void *_Nonnull job);

/// Sets the main-queue job handler (NULL: none).
void marbles_set_main_job_handler(marbles_main_job_handler _Nullable handler);

/// How many jobs of the Swift concurrency runtime's main executor the main-queue job wrapper has
/// seen (whether a handler took them or not): for the runtime fact it relies on.
uint64_t marbles_main_queue_jobs_seen(void);

/// Runs a block without releasing it (a timer's event handler, which runs again).
void marbles_block_invoke(void *_Nonnull block);

/// Whether a Dispatch source has been cancelled.
bool marbles_source_is_cancelled(void *_Nonnull source);

/// Retains and releases a Dispatch object.
void marbles_dispatch_retain(void *_Nonnull object);
void marbles_dispatch_release(void *_Nonnull object);

/// Runs a block the after-handler took, then releases it.
void marbles_block_run(void *_Nonnull block);

/// Releases a block the after-handler took without running it.
void marbles_block_release(void *_Nonnull block);

/// The label `queue` was made with.
const char *_Nonnull marbles_queue_label(void *_Nonnull queue);

/// Whether `queue` is the main queue.
bool marbles_is_main_queue(void *_Nonnull queue);

/// `dispatch_async_f` on `queue` (the real one).
void marbles_dispatch_async(
    void *_Nonnull queue, void *_Nullable context, void (*_Nonnull work)(void *_Nullable));

// MARK: Where code is

/// The return addresses of the calls that led here, innermost first, into `frames` (at most
/// `count`); how many it found. By the chain of frame pointers where it reaches far enough, else
/// by the unwinder.
int marbles_backtrace(void *_Nullable *_Nonnull frames, int count);

/// The same by the unwinder alone (`backtrace`), which reads each frame's unwind tables.
int marbles_unwound_backtrace(void *_Nullable *_Nonnull frames, int count);

/// Copies `size` bytes at `address` into `buffer`, if they are all readable memory of this
/// process (Linux: `process_vm_readv`, which fails instead of faulting); `false` otherwise, and
/// elsewhere.
bool marbles_read_memory(const void *_Nullable address, void *_Nonnull buffer, size_t size);

/// The name of the function whose code holds `address` (mangled, as the symbol tables have it),
/// into `buffer`; `false` where none is known.
bool marbles_symbol_name(const void *_Nullable address, char *_Nonnull buffer, size_t size);

/// The demangled name of the Swift function whose code holds `address`, into `buffer`; `false`
/// where none is known, or it is not a Swift function.
bool marbles_swift_function_name(const void *_Nullable address, char *_Nonnull buffer, size_t size);

/// The process's parent as the process was loaded, before `main` (a constructor notes it).
long marbles_parent_at_load(void);

#endif
