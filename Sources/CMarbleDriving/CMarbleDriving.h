// The Swift concurrency runtime's hook for jobs sent to the global executor, which
// `MarbleTesting` uses to drive the unstructured tasks that code under test creates. The
// runtime exports the variable from libswift_Concurrency; this header only declares it.
//
// The runtime calls the hook with the Swift calling convention, in the context of whoever
// enqueues the job (the task that creates a `Task {}`, or resumes a continuation).

#ifndef C_MARBLE_DRIVING_H
#define C_MARBLE_DRIVING_H

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

/// A job of the Swift concurrency runtime (a task, or part of one).
typedef struct MarblesJob *MarblesJobRef;

/// What the runtime would do with a job: enqueue it on the global concurrent executor.
typedef MARBLES_SWIFT_CC void (*MarblesEnqueueGlobalOriginal)(MarblesJobRef _Nonnull job);

/// Called instead of enqueueing a job on the global concurrent executor, when set.
extern MARBLES_IMPORTED __attribute__((swift_attr("nonisolated(unsafe)")))
MARBLES_SWIFT_CC void (* _Nullable swift_task_enqueueGlobal_hook)(
    MarblesJobRef _Nonnull job, MarblesEnqueueGlobalOriginal _Nonnull original);

#endif
