// The Swift concurrency runtime as Marbles uses it, declared once for its C and its Swift: the
// hooks the task driver installs, the functions the runtime exports, and what Marbles reads of a
// job's and a task's layout. The runtime (libswift_Concurrency) defines every symbol named here.
//
// The runtime calls the hooks with the Swift calling convention, in the context of whoever
// enqueues the job: the task that creates a `Task {}` (it is still the current task while the new
// task is enqueued), or whoever resumes a continuation.

#ifndef MARBLES_SWIFT_RUNTIME_H
#define MARBLES_SWIFT_RUNTIME_H

#include <stdint.h>

#if __has_attribute(swiftcall)
#define MARBLES_SWIFT_CC __attribute__((swiftcall))
#else
#define MARBLES_SWIFT_CC
#endif

#if defined(__ELF__) || defined(__MACH__)
#define MARBLES_IMPORTED __attribute__((__visibility__("default")))
#else
#define MARBLES_IMPORTED
#endif

#define MARBLES_HOOK extern MARBLES_IMPORTED __attribute__((swift_attr("nonisolated(unsafe)")))

/// A job of the Swift concurrency runtime (a task, or part of one).
typedef struct MarblesJob *MarblesJobRef;

/// A serial executor as the runtime passes it: the executor object and its witness table (with
/// flags in the low bits); two words, like Swift's `UnownedSerialExecutor`.
typedef struct {
  const void *_Nullable identity;
  uintptr_t implementation;
} MarblesExecutorRef;

// MARK: Hooks

/// What the runtime would do with a job: enqueue it on the global concurrent executor.
typedef MARBLES_SWIFT_CC void (*MarblesEnqueueGlobalOriginal)(MarblesJobRef _Nonnull job);

/// A global enqueue hook.
typedef MARBLES_SWIFT_CC void (*MarblesEnqueueGlobalHook)(
    MarblesJobRef _Nonnull job, MarblesEnqueueGlobalOriginal _Nonnull original);

/// Called instead of enqueueing a job on the global concurrent executor, when set.
MARBLES_HOOK MarblesEnqueueGlobalHook _Nullable swift_task_enqueueGlobal_hook;

/// What the runtime would do with a job bound for its own main executor: enqueue it there.
typedef MARBLES_SWIFT_CC void (*MarblesEnqueueMainExecutorOriginal)(MarblesJobRef _Nonnull job);

/// A main-executor enqueue hook.
typedef MARBLES_SWIFT_CC void (*MarblesEnqueueMainExecutorHook)(
    MarblesJobRef _Nonnull job, MarblesEnqueueMainExecutorOriginal _Nonnull original);

/// Called instead of enqueueing a job on the runtime's own main executor, when set: the jobs of a
/// task that ran on the main actor before Marbles' main executor hook was installed (a
/// `@MainActor` test whose first line makes a scheduler) come back this way.
MARBLES_HOOK MarblesEnqueueMainExecutorHook _Nullable swift_task_enqueueMainExecutor_hook;

/// What the runtime would answer: the main actor's executor.
typedef MARBLES_SWIFT_CC MarblesExecutorRef (*MarblesGetMainExecutorOriginal)(void);

/// A main executor hook.
typedef MARBLES_SWIFT_CC MarblesExecutorRef (*MarblesMainExecutorHook)(
    MarblesGetMainExecutorOriginal _Nonnull original);

/// Called to find the main actor's executor, when set: every hop to the main actor, every
/// `@MainActor` task and every isolation check of the main actor asks it.
MARBLES_HOOK MarblesMainExecutorHook _Nullable swift_task_getMainExecutor_hook;

/// What the runtime would answer: whether an executor is the main actor's.
typedef MARBLES_SWIFT_CC _Bool (*MarblesIsMainExecutorOriginal)(MarblesExecutorRef executor);

/// An "is this the main executor?" hook.
typedef MARBLES_SWIFT_CC _Bool (*MarblesIsMainExecutorHook)(
    MarblesExecutorRef executor, MarblesIsMainExecutorOriginal _Nonnull original);

/// Called to decide whether an executor is the main actor's, when set: the isolation checks ask
/// it when the current executor and the expected one differ (`Task.immediate`, `assumeIsolated`).
MARBLES_HOOK MarblesIsMainExecutorHook _Nullable swift_task_isMainExecutor_hook;

// MARK: Runtime functions

/// A task's process-wide id (increasing in creation order), or a non-task job's id.
extern MARBLES_IMPORTED MARBLES_SWIFT_CC uint64_t swift_task_getJobTaskId(
    MarblesJobRef _Nonnull job);

/// The task running on this thread, if any.
extern MARBLES_IMPORTED MARBLES_SWIFT_CC MarblesJobRef _Nullable swift_task_getCurrent(void);

/// Cancels a task (which must be alive).
extern MARBLES_IMPORTED MARBLES_SWIFT_CC void swift_task_cancel(MarblesJobRef _Nonnull task);

/// Enqueues a job on the global concurrent executor (through its hook).
extern MARBLES_IMPORTED MARBLES_SWIFT_CC void swift_task_enqueueGlobal(MarblesJobRef _Nonnull job);

/// Enqueues a job on a serial executor.
extern MARBLES_IMPORTED MARBLES_SWIFT_CC void swift_task_enqueue(
    MarblesJobRef _Nonnull job, MarblesExecutorRef executor);

/// Runs a job on a serial executor (`{NULL, 0}` is the generic executor), as an executor does.
extern MARBLES_IMPORTED MARBLES_SWIFT_CC void swift_job_run(
    MarblesJobRef _Nonnull job, MarblesExecutorRef executor);

/// The executor the current job runs on. `{NULL, 2}` while a `Task.immediate` started from
/// nonisolated code runs its first steps in its caller (the runtime's synchronous-start marker),
/// `{NULL, 0}` on the generic executor.
extern MARBLES_IMPORTED MARBLES_SWIFT_CC MarblesExecutorRef swift_task_getCurrentExecutor(void);

/// Binds `value` (a `valueType`, taken: the runtime moves it out of `value`) to the task-local
/// `key` (a `TaskLocal` object) on the current task, or on this thread where no task is current.
extern MARBLES_IMPORTED MARBLES_SWIFT_CC void swift_task_localValuePush(
    const void *_Nonnull key, void *_Nonnull value, const void *_Nonnull valueType);

/// Ends the newest binding ``swift_task_localValuePush`` made here.
extern MARBLES_IMPORTED MARBLES_SWIFT_CC void swift_task_localValuePop(void);

/// Retains and releases a native Swift object — here, a task (C calling convention).
extern MARBLES_IMPORTED void *_Nonnull swift_retain(void *_Nonnull object);
extern MARBLES_IMPORTED void swift_release(void *_Nullable object);

/// A strong reference to `object` unless it is being deinitialized (then `NULL`); its memory must
/// still be allocated, which an unowned reference keeps (``swift_unownedRetain``) — what a weak
/// reference does, without the side table that a weak reference gives its object for good, and
/// that every retain and release of the object then goes through (libswiftCore).
extern MARBLES_IMPORTED void *_Nullable swift_tryRetain(void *_Nonnull object);
/// Takes and gives back an unowned reference to a native Swift object: its memory stays allocated
/// (not the object alive) while one is held.
extern MARBLES_IMPORTED void *_Nonnull swift_unownedRetain(void *_Nonnull object);
extern MARBLES_IMPORTED void swift_unownedRelease(void *_Nullable object);

// MARK: Helpers

/// Whether a job is a task (rather than an actor's or a continuation's job): the job's kind, the
/// low byte of its flags, which follow the object header and two words the executor owns. The
/// runtime's job layout is ABI on Apple platforms, and the same on Linux.
static inline int marbles_job_is_task(MarblesJobRef _Nonnull job) {
  const unsigned char *bytes = (const unsigned char *)job;
  return bytes[4 * sizeof(void *)] == 0;
}

/// Whether a task is an `async let`'s child: its job flags' bit 28 (`Task_IsAsyncLetTask`). Such a
/// task lives in its parent's task allocator, not on the heap: it is freed when the parent leaves
/// the `async let`'s scope, whatever its reference count.
static inline int marbles_task_is_async_let(MarblesJobRef _Nonnull task) {
  uint32_t flags = *(const uint32_t *)((const unsigned char *)task + 4 * sizeof(void *));
  return (flags & (1u << 28)) != 0;
}

/// Whether the current job runs the first steps of a `Task.immediate` started from nonisolated
/// code, in its caller: the runtime reports its executor as the generic one with kind 2.
static inline int marbles_is_synchronous_start(void) {
  MarblesExecutorRef executor = swift_task_getCurrentExecutor();
  return executor.identity == 0 && executor.implementation == 2;
}

/// A task's status flags (the runtime's `ActiveTaskStatus` flags word): running on a thread
/// (0x800), enqueued on an executor (0x1000), complete (0x2000), suspended on a dependency
/// (0x4000). It follows the task's resume context and the private storage's exclusivity words:
/// offset 96 on 64-bit platforms.
static inline uint32_t marbles_task_status(MarblesJobRef _Nonnull task) {
#if __SIZEOF_POINTER__ == 8
  return __atomic_load_n((const uint32_t *)((const unsigned char *)task + 96), __ATOMIC_ACQUIRE);
#else
  (void)task;
  return 0;
#endif
}

/// Whether a task runs a job on a thread now (its status flag 0x800).
static inline int marbles_task_is_running(MarblesJobRef _Nonnull task) {
  return (marbles_task_status(task) & 0x800) != 0;
}

/// Whether a task has been cancelled (its status flag 0x100, set before its cancellation handlers
/// run).
static inline int marbles_task_is_cancelled(MarblesJobRef _Nonnull task) {
  return (marbles_task_status(task) & 0x100) != 0;
}

/// What a suspended task waits for, from its innermost status record (a dependency record, which
/// the runtime pushes as the task suspends): 1 another task (`*object` is that task), 2 a
/// continuation, 3 its task group, 4 an executor it is enqueued on; 0 when the record is not a
/// dependency. Read only while the task is suspended (its records do not change then).
static inline int marbles_task_dependency(MarblesJobRef _Nonnull task, const void *_Nullable *_Nonnull object) {
#if __SIZEOF_POINTER__ == 8
  *object = 0;
  if ((marbles_task_status(task) & 0x4000) == 0) return 0;
  const unsigned char *record =
      __atomic_load_n((const unsigned char *const *)((const unsigned char *)task + 104), __ATOMIC_ACQUIRE);
  if (!record) return 0;
  unsigned kind = *(const unsigned *)(record + 32);
  if (kind < 1 || kind > 4) return 0;
  *object = *(const void *const *)(record + 16);
  return (int)kind;
#else
  (void)task;
  *object = 0;
  return 0;
#endif
}

/// Whether a task that no thread runs has suspended for good: what it awaits has not already
/// ended, so no thread goes on running it until something resumes it — and a resumption then
/// enqueues it. 0 while it is on its way to suspending, or back from it: it runs (0x800); it is
/// flagged suspended on a continuation that it has not yet awaited, or that was resumed before it
/// could (the runtime flags the task suspended, then tries to mark the continuation awaited, and
/// where a resumption came first flags the task running again and goes on on the same thread);
/// it awaits a task that has completed (it finds the result and goes on). The continuation's
/// status (0 pending, 1 awaited, 2 resumed) follows its context's parent, resume function and
/// flags: offset 24. The status word and the innermost record are read again after, and an
/// answer read across a change of either is 0: look again. 1 for anything else (a group's wait,
/// which its lock makes whole, an executor the task is enqueued on, a task with no dependency
/// record).
static inline int marbles_task_has_suspended(MarblesJobRef _Nonnull task) {
#if __SIZEOF_POINTER__ == 8
  uint32_t before = marbles_task_status(task);
  if ((before & 0x800) != 0) return 0;
  const void *const *records = (const void *const *)((const unsigned char *)task + 104);
  const void *record = __atomic_load_n(records, __ATOMIC_ACQUIRE);
  const void *object = 0;
  int kind = marbles_task_dependency(task, &object);
  int suspended = 1;
  if (kind == 2 && object) {
    const size_t *status = (const size_t *)((const unsigned char *)object + 24);
    size_t await = __atomic_load_n(status, __ATOMIC_ACQUIRE);
    suspended = await == 1;
  } else if (kind == 1 && object) {
    suspended = (marbles_task_status((MarblesJobRef)(uintptr_t)object) & 0x2000) == 0;
  }
  return suspended && marbles_task_status(task) == before &&
         __atomic_load_n(records, __ATOMIC_ACQUIRE) == record;
#else
  return (marbles_task_status(task) & 0x800) == 0;
#endif
}

/// Where a suspended task waits, as return addresses, innermost first: its resume function (the
/// async function that suspended, after its await), then each caller's resume point, from the
/// chain of async contexts (each context's parent and the parent's resume function, its first two
/// words). The task's resume function and context follow the job's header: offsets 56 and 64 on
/// 64-bit platforms. Read only while the task is suspended (nothing of it runs or changes then);
/// Linux only (Apple's arm64e signs these pointers). Returns how many it found.
static inline int marbles_task_async_frames(MarblesJobRef _Nonnull task, void *_Nullable *_Nonnull frames, int count) {
#if __SIZEOF_POINTER__ == 8 && defined(__linux__)
  uint32_t before = marbles_task_status(task);
  if ((before & 0x4000) == 0 || (before & 0x3800) != 0) return 0;
  const unsigned char *bytes = (const unsigned char *)task;
  int found = 0;
  void *resume = *(void *const *)(bytes + 56);
  const void *const *context = *(const void *const *const *)(bytes + 64);
  if (resume && found < count) frames[found++] = resume;
  while (context && found < count) {
    void *parent_resume = (void *)context[1];
    if (!parent_resume) break;
    frames[found++] = parent_resume;
    context = (const void *const *)context[0];
  }
  // NB: a task that moved meanwhile may have left frames that are not its own: none then.
  return marbles_task_status(task) == before ? found : 0;
#else
  (void)task;
  (void)frames;
  (void)count;
  return 0;
#endif
}

/// Whether this is the process's main thread.
#if defined(__APPLE__)
#include <pthread.h>
static inline int marbles_is_main_thread(void) { return pthread_main_np() != 0; }
#elif defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
static inline int marbles_is_main_thread(void) { return getpid() == (pid_t)syscall(SYS_gettid); }
#else
static inline int marbles_is_main_thread(void) { return 0; }
#endif

#endif
