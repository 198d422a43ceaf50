// Dispatch's timers, where readings are virtual: `dispatch_after` (every `asyncAfter` of the
// Swift overlay reaches it) is offered to MarbleTesting's handler, which runs the block at the
// virtual deadline; a timer source made there is followed (`dispatch_source_create`, its event
// handler, `dispatch_source_set_timer`, `dispatch_source_cancel`) so that its handler runs at the
// virtual deadlines on its queue, while the real timer stays unarmed. Blocks that such code hands
// to `dispatch_async`, `dispatch_barrier_async` or `dispatch_group_async` are counted as work
// outside the world until they have run, and so are those it hands to `dispatch_group_notify`
// from the moment their group is empty (`dispatch_block_notify` — a work item's `notify` —
// reaches it too: libdispatch calls it with the work item's own group).
//
// Why: a deadline made from a virtual `DispatchTime.now()` means nothing to Dispatch's own timer
// threads, which read the real clock while they wait.
//
// Linux: weak definitions in the executable, before libdispatch's in the dynamic linker's search
// (a static link keeps libdispatch's own: timers stay real there). Darwin (written for, not built
// here): DYLD_INTERPOSE.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CMarbleRuntime.h"
#include "internal.h"

#if defined(__linux__)
#include <dlfcn.h>
#endif
#include "wrappers.h"
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static marbles_dispatch_after_handler after_handler;
static marbles_dispatch_timer_handler timer_handler;
static marbles_main_job_handler main_job_handler;
static marbles_block_begin_handler block_begin_handler;
static marbles_block_run_handler block_run_handler;

void marbles_set_block_handlers(marbles_block_begin_handler begin, marbles_block_run_handler run) {
  __atomic_store_n(&block_begin_handler, begin, __ATOMIC_RELEASE);
  __atomic_store_n(&block_run_handler, run, __ATOMIC_RELEASE);
}

void marbles_set_main_job_handler(marbles_main_job_handler handler) {
  __atomic_store_n(&main_job_handler, handler, __ATOMIC_RELEASE);
}

static uint64_t main_queue_jobs_seen;

uint64_t marbles_main_queue_jobs_seen(void) {
  return __atomic_load_n(&main_queue_jobs_seen, __ATOMIC_RELAXED);
}

void marbles_set_dispatch_handlers(
    marbles_dispatch_after_handler after, marbles_dispatch_timer_handler timer) {
  __atomic_store_n(&after_handler, after, __ATOMIC_RELEASE);
  __atomic_store_n(&timer_handler, timer, __ATOMIC_RELEASE);
}

bool marbles_dispatch_handlers_are_set(void) {
  return __atomic_load_n(&after_handler, __ATOMIC_ACQUIRE) ||
         __atomic_load_n(&timer_handler, __ATOMIC_ACQUIRE);
}

// MARK: Blocks

/// The start of every block's layout (the Blocks ABI): `invoke` is called with the block.
struct marbles_block_layout {
  void *isa;
  int flags;
  int reserved;
  void (*invoke)(void *);
};

#if defined(__linux__)

typedef void *(*block_copy_fn)(const void *);
typedef void (*block_release_fn)(const void *);
typedef void (*dispatch_after_fn)(uint64_t, void *, void *);
typedef void (*dispatch_async_f_fn)(void *, void *, void (*)(void *));
typedef void (*dispatch_set_timer_fn)(void *, uint64_t, uint64_t, uint64_t);
typedef void (*dispatch_async_fn)(void *, void *);
typedef void *(*source_create_fn)(const void *, uintptr_t, uintptr_t, void *);
typedef void (*source_set_handler_fn)(void *, void *);
typedef void (*source_cancel_fn)(void *);
typedef long (*source_testcancel_fn)(void *);
typedef void (*object_fn)(void *);

/// A symbol of a library the process has loaded (BlocksRuntime, libdispatch), or of the next one
/// after this image.
static void *resolve(void **cache, void *handle, const char *name) {
  void *symbol = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  if (!symbol) {
    symbol = dlsym(handle, name);
    if (!symbol) abort();
    __atomic_store_n(cache, symbol, __ATOMIC_RELEASE);
  }
  return symbol;
}

/// The function a wrapper stands in front of (see wrappers.h).
static void *resolve_real(void **cache, const char *interceptor, const char *name) {
  return marbles_resolve_real(cache, interceptor, name);
}

static void *block_copy_symbol, *block_release_symbol, *after_symbol, *async_f_symbol,
    *set_timer_symbol, *main_queue_symbol, *async_symbol, *timer_type_symbol, *create_symbol,
    *set_handler_symbol, *cancel_symbol, *testcancel_symbol, *retain_symbol, *release_symbol;

static void *block_copy(void *block) {
  return ((block_copy_fn)resolve(&block_copy_symbol, RTLD_DEFAULT, "_Block_copy"))(block);
}

void marbles_block_release(void *block) {
  ((block_release_fn)resolve(&block_release_symbol, RTLD_DEFAULT, "_Block_release"))(block);
}

bool marbles_is_main_queue(void *queue) {
  return queue == resolve(&main_queue_symbol, RTLD_DEFAULT, "_dispatch_main_q");
}

void marbles_dispatch_async(void *queue, void *context, void (*work)(void *)) {
  ((dispatch_async_f_fn)resolve_real(&async_f_symbol, "__interceptor_dispatch_async_f",
                                     "dispatch_async_f"))(queue, context, work);
}


typedef const char *(*queue_label_fn)(void *);
typedef uint64_t (*dispatch_time_fn)(uint64_t, int64_t);
static void *label_symbol, *time_symbol;

const char *marbles_queue_label(void *queue) {
  return ((queue_label_fn)resolve(&label_symbol, RTLD_DEFAULT, "dispatch_queue_get_label"))(queue);
}

bool marbles_source_is_cancelled(void *source) {
  return ((source_testcancel_fn)resolve(&testcancel_symbol, RTLD_DEFAULT, "dispatch_source_testcancel"))(
             source) != 0;
}

void marbles_dispatch_retain(void *object) {
  ((object_fn)resolve(&retain_symbol, RTLD_DEFAULT, "dispatch_retain"))(object);
}

void marbles_dispatch_release(void *object) {
  ((object_fn)resolve(&release_symbol, RTLD_DEFAULT, "dispatch_release"))(object);
}

/// `when`, a deadline read where readings are virtual, as the same distance from the real now (a
/// wall-clock deadline and "forever" stay as they are).
static uint64_t real_dispatch_time(uint64_t when) {
  const uint64_t forever = ~0ull, wall_mask = 1ull << 62;
  if (when == forever || (when & wall_mask)) return when;
  dispatch_time_fn dispatch_time = (dispatch_time_fn)resolve(&time_symbol, RTLD_DEFAULT, "dispatch_time");
  uint64_t virtual_now = dispatch_time(0, 0);
  int64_t remaining = (int64_t)(when - virtual_now);
  marbles_real_time_begin();
  uint64_t real = dispatch_time(0, remaining > 0 ? remaining : 0);
  marbles_real_time_end();
  return real;
}

#if defined(MARBLES_TESTED_RUNTIME)
/// Whether the wrapper this is used in was called by XCTest's own code where readings are virtual
/// (its waiter's watchdog, the timers of a run loop it spins): XCTest's readings are real, and so
/// is the work it times (`marbles_read_by_a_test_framework`). A macro: the frame is the wrapper's.
#define MARBLES_CALLED_BY_A_TEST_FRAMEWORK() \
  (marbles_reads_virtual_time() && marbles_read_by_a_test_framework(__builtin_frame_address(0)))

MARBLES_WRAPPER void dispatch_after(uint64_t when, void *queue, void *block) {
  marbles_dispatch_after_handler handler = __atomic_load_n(&after_handler, __ATOMIC_ACQUIRE);
  bool frameworks = MARBLES_CALLED_BY_A_TEST_FRAMEWORK();
  if (handler && !frameworks && marbles_reads_virtual_time()) {
    void *copy = block_copy(block);
    if (handler(when, queue, copy)) return;
    marbles_block_release(copy);
    // Declined (no scheduler here): real time, as far away as it was meant to be — and read in
    // real time inside too (libdispatch checks the deadline against its own reading).
    when = real_dispatch_time(when);
    frameworks = true;
  }
  // XCTest's own timer (its waiter's watchdog), or a declined one: Dispatch's work for it — the
  // timer thread it may start — is real too, and not the world's.
  if (frameworks) marbles_real_time_begin();
  ((dispatch_after_fn)resolve_real(&after_symbol, "__interceptor_dispatch_after", "dispatch_after"))(
      when, queue, block);
  if (frameworks) marbles_real_time_end();
}

/// A block handed to a queue by world work: the world's own work, counted until it has
/// run, and run as the world's (the tasks it starts are the world's, its readings virtual).
typedef struct {
  void *block;
  marbles_outside_work work;
  /// The world's token from the begin handler, or NULL.
  void *token;
  /// The group it is in (retained, entered for it), or NULL: it leaves the group before its count
  /// ends, so that a notify the group's end makes runnable is counted before it is not.
  void *group;
} marbles_counted_block;

typedef void (*group_fn)(void *);
typedef long (*group_wait_fn)(void *, uint64_t);
static void *group_enter_symbol, *group_leave_symbol, *group_wait_symbol;

/// Ends a block's count, after it left its group if it was in one.
static void end_counted_block(void *context) {
  marbles_counted_block *counted = context;
  if (counted->group) {
    ((group_fn)resolve(&group_leave_symbol, RTLD_DEFAULT, "dispatch_group_leave"))(counted->group);
    marbles_dispatch_release(counted->group);
  }
  marbles_outside_end(&counted->work);
}

static void run_counted(void *context) {
  marbles_counted_block *counted = context;
  marbles_block_run_handler run = __atomic_load_n(&block_run_handler, __ATOMIC_ACQUIRE);
  if (counted->token && run) {
    run(counted->token, counted->block, counted, end_counted_block);
  } else {
    marbles_block_run(counted->block);
    end_counted_block(counted);
  }
  free(counted);
}

/// How a block was handed to its queue: the overlay's `async` (`dispatch_async`),
/// `async(flags: .barrier)` (`dispatch_barrier_async`) or `async(group:)` (`dispatch_group_async`).
typedef enum { SUBMIT_ASYNC, SUBMIT_BARRIER, SUBMIT_GROUP } submit_kind;

typedef void (*dispatch_barrier_async_fn)(void *, void *);
typedef void (*dispatch_group_async_fn)(void *, void *, void *);
static void *barrier_async_symbol, *barrier_async_f_symbol, *group_async_symbol;

/// `block`, handed to `queue` (in `group`) as `kind` says, by the real function.
static void submit_real(submit_kind kind, void *group, void *queue, void *block) {
  switch (kind) {
    case SUBMIT_ASYNC:
      ((dispatch_async_fn)resolve_real(&async_symbol, "__interceptor_dispatch_async", "dispatch_async"))(
          queue, block);
      return;
    case SUBMIT_BARRIER:
      ((dispatch_barrier_async_fn)resolve_real(&barrier_async_symbol, "__interceptor_dispatch_barrier_async",
                                               "dispatch_barrier_async"))(queue, block);
      return;
    case SUBMIT_GROUP:
      ((dispatch_group_async_fn)resolve_real(&group_async_symbol, "__interceptor_dispatch_group_async",
                                             "dispatch_group_async"))(group, queue, block);
      return;
  }
}

/// `counted`, handed to `queue` (in `group`) as `kind` says, to be run by `run_counted`. A group's
/// block enters the group here and leaves it as its count ends (``end_counted_block``), as
/// `dispatch_group_async` would around it.
static void submit_counted(submit_kind kind, void *group, void *queue, marbles_counted_block *counted) {
  counted->group = 0;
  switch (kind) {
    case SUBMIT_ASYNC:
      marbles_dispatch_async(queue, counted, run_counted);
      return;
    case SUBMIT_BARRIER:
      ((dispatch_async_f_fn)resolve_real(&barrier_async_f_symbol, "__interceptor_dispatch_barrier_async_f",
                                         "dispatch_barrier_async_f"))(queue, counted, run_counted);
      return;
    case SUBMIT_GROUP:
      ((group_fn)resolve(&group_enter_symbol, RTLD_DEFAULT, "dispatch_group_enter"))(group);
      marbles_dispatch_retain(group);
      counted->group = group;
      marbles_dispatch_async(queue, counted, run_counted);
      return;
  }
}

/// A block handed to a queue: world work's is counted until it has run (`marbles_counted_block`).
/// `frameworks`: whether a test framework's own code handed it over (its blocks are not the
/// world's work), as the wrapper read it in its own frame.
static void submit(submit_kind kind, void *group, void *queue, void *block, bool frameworks) {
  marbles_outside_work work;
  if (!frameworks && marbles_outside_begin_block(&work)) {
    marbles_counted_block *counted = malloc(sizeof(marbles_counted_block));
    if (counted) {
      marbles_block_begin_handler begin = __atomic_load_n(&block_begin_handler, __ATOMIC_ACQUIRE);
      counted->block = block_copy(block);
      counted->work = work;
      counted->token = begin ? begin() : 0;
      submit_counted(kind, group, queue, counted);
      return;
    }
    marbles_outside_end(&work);
  }
  if (frameworks) marbles_real_time_begin();
  submit_real(kind, group, queue, block);
  if (frameworks) marbles_real_time_end();
}

MARBLES_WRAPPER void dispatch_async(void *queue, void *block) {
  submit(SUBMIT_ASYNC, 0, queue, block, MARBLES_CALLED_BY_A_TEST_FRAMEWORK());
}

MARBLES_WRAPPER void dispatch_barrier_async(void *queue, void *block) {
  submit(SUBMIT_BARRIER, 0, queue, block, MARBLES_CALLED_BY_A_TEST_FRAMEWORK());
}

MARBLES_WRAPPER void dispatch_group_async(void *group, void *queue, void *block) {
  submit(SUBMIT_GROUP, group, queue, block, MARBLES_CALLED_BY_A_TEST_FRAMEWORK());
}

/// A block world work handed to `dispatch_group_notify`: not runnable while its group has work in
/// it (the world may move time meanwhile: that work may wait for it), runnable from the moment
/// the group is empty until it has run (``marbles_runnable_notifies``), and run as the world's.
typedef struct marbles_group_notify {
  void *block;
  /// The world's token from the begin handler, or NULL.
  void *token;
  /// Retained until the block runs.
  void *group;
  marbles_virtual_clock *clock;
  uint64_t generation;
  struct marbles_group_notify *previous, *next;
} marbles_group_notify;

static pthread_mutex_t notifies_lock = PTHREAD_MUTEX_INITIALIZER;
/// The notifies whose blocks have not run, newest first.
static marbles_group_notify *notifies;
/// How many: with none, the count of a world's runnable work takes no lock.
static int64_t notify_count;

typedef void (*group_notify_fn)(void *, void *, void *);
typedef void (*group_notify_f_fn)(void *, void *, void *, void (*)(void *));
static void *group_notify_symbol, *group_notify_f_symbol;

/// Runs a notify's block as a counted block of its world — counted before the notify leaves the
/// list, so that no moment comes between when the world sees neither.
static void run_notify(void *context) {
  marbles_group_notify *notify = context;
  marbles_counted_block *counted = malloc(sizeof(marbles_counted_block));
  if (counted) marbles_outside_begin_block_on(notify->clock, notify->generation, &counted->work);
  pthread_mutex_lock(&notifies_lock);
  if (notify->previous) notify->previous->next = notify->next; else notifies = notify->next;
  if (notify->next) notify->next->previous = notify->previous;
  __atomic_fetch_sub(&notify_count, 1, __ATOMIC_ACQ_REL);
  pthread_mutex_unlock(&notifies_lock);
  marbles_dispatch_release(notify->group);
  if (counted) {
    counted->block = notify->block;
    counted->token = notify->token;
    counted->group = 0;
    run_counted(counted);
  } else {
    marbles_block_run(notify->block);
  }
  free(notify);
}

int64_t marbles_runnable_notifies(marbles_virtual_clock *clock, uint64_t generation) {
  if (__atomic_load_n(&notify_count, __ATOMIC_ACQUIRE) == 0) return 0;
  group_wait_fn wait = (group_wait_fn)resolve(&group_wait_symbol, RTLD_DEFAULT, "dispatch_group_wait");
  int64_t runnable = 0;
  pthread_mutex_lock(&notifies_lock);
  for (marbles_group_notify *notify = notifies; notify; notify = notify->next) {
    // NB: a wait that does not wait (DISPATCH_TIME_NOW): 0 when the group is empty.
    if (notify->clock == clock && notify->generation == generation && wait(notify->group, 0) == 0) {
      runnable += 1;
    }
  }
  pthread_mutex_unlock(&notifies_lock);
  return runnable;
}

MARBLES_WRAPPER void dispatch_group_notify(void *group, void *queue, void *block) {
  bool frameworks = MARBLES_CALLED_BY_A_TEST_FRAMEWORK();
  uint64_t generation = 0;
  marbles_virtual_clock *clock =
      frameworks || !marbles_thread_scope.clock ? 0 : marbles_live_clock(&generation);
  marbles_group_notify *notify = clock ? malloc(sizeof(marbles_group_notify)) : 0;
  if (notify) {
    marbles_block_begin_handler begin = __atomic_load_n(&block_begin_handler, __ATOMIC_ACQUIRE);
    notify->block = block_copy(block);
    notify->token = begin ? begin() : 0;
    notify->group = group;
    marbles_dispatch_retain(group);
    notify->clock = clock;
    notify->generation = generation;
    notify->previous = 0;
    pthread_mutex_lock(&notifies_lock);
    notify->next = notifies;
    if (notifies) notifies->previous = notify;
    notifies = notify;
    __atomic_fetch_add(&notify_count, 1, __ATOMIC_ACQ_REL);
    pthread_mutex_unlock(&notifies_lock);
    ((group_notify_f_fn)resolve(&group_notify_f_symbol, RTLD_DEFAULT, "dispatch_group_notify_f"))(
        group, queue, notify, run_notify);
    return;
  }
  if (frameworks) marbles_real_time_begin();
  ((group_notify_fn)resolve_real(&group_notify_symbol, "__interceptor_dispatch_group_notify",
                                 "dispatch_group_notify"))(group, queue, block);
  if (frameworks) marbles_real_time_end();
}

/// Whether `work` is the Swift concurrency runtime's function that runs a job handed to a queue
/// (its main executor's enqueue ends in `dispatch_async_f(queue, job, that function)`): a function
/// of the library that defines `swift_task_getCurrent`. The answer for the last function seen is
/// kept, so that the common case costs one comparison.
static bool is_swift_job_runner(void (*work)(void *)) {
  static void *known_runner, *known_other;
  void *function = (void *)work;
  if (function == __atomic_load_n(&known_runner, __ATOMIC_RELAXED)) return true;
  if (function == __atomic_load_n(&known_other, __ATOMIC_RELAXED)) return false;
  Dl_info runtime, candidate;
  bool isRunner = dladdr((const void *)&swift_task_getCurrent, &runtime) != 0 &&
                  dladdr(function, &candidate) != 0 && runtime.dli_fbase == candidate.dli_fbase;
  __atomic_store_n(isRunner ? &known_runner : &known_other, function, __ATOMIC_RELAXED);
  return isRunner;
}

/// The concurrency runtime's main executor enqueues a job on the main queue with this call; while
/// a world is open (the handler is set), such a job is offered to MarbleTesting's routing first.
MARBLES_WRAPPER void dispatch_async_f(void *queue, void *context, void (*work)(void *)) {
  marbles_main_job_handler handler = __atomic_load_n(&main_job_handler, __ATOMIC_ACQUIRE);
  if (handler && context && marbles_is_main_queue(queue) && is_swift_job_runner(work)) {
    __atomic_fetch_add(&main_queue_jobs_seen, 1, __ATOMIC_RELAXED);
    if (handler(context)) return;
  }
  ((dispatch_async_f_fn)resolve_real(&async_f_symbol, "__interceptor_dispatch_async_f",
                                     "dispatch_async_f"))(queue, context, work);
}

typedef long (*dispatch_semaphore_signal_fn)(void *);
static void *semaphore_signal_symbol;

/// World work that signals a semaphore may wake a thread outside the world, which may answer.
MARBLES_WRAPPER long dispatch_semaphore_signal(void *semaphore) {
  marbles_outside_signalled();
  return ((dispatch_semaphore_signal_fn)resolve_real(
      &semaphore_signal_symbol, "__interceptor_dispatch_semaphore_signal",
      "dispatch_semaphore_signal"))(semaphore);
}

MARBLES_WRAPPER void dispatch_source_set_timer(
    void *source, uint64_t start, uint64_t interval, uint64_t leeway) {
  marbles_dispatch_timer_handler handler = __atomic_load_n(&timer_handler, __ATOMIC_ACQUIRE);
  bool frameworks = MARBLES_CALLED_BY_A_TEST_FRAMEWORK();
  if (!frameworks && handler && handler(MARBLES_TIMER_SET, source, 0, start, interval, leeway)) {
    start = ~0ull;  // Taken into virtual time: the real timer stays unarmed.
  } else if (frameworks || marbles_reads_virtual_time()) {
    // A real timer armed where readings are virtual (a run loop timing its wait): as far away
    // as it was meant to be, in real time, and armed in real time. XCTest's own deadline is real.
    if (!frameworks) start = real_dispatch_time(start);
    marbles_real_time_begin();
    ((dispatch_set_timer_fn)resolve_real(
        &set_timer_symbol, "__interceptor_dispatch_source_set_timer", "dispatch_source_set_timer"))(
        source, start, interval, leeway);
    marbles_real_time_end();
    return;
  }
  ((dispatch_set_timer_fn)resolve_real(
      &set_timer_symbol, "__interceptor_dispatch_source_set_timer", "dispatch_source_set_timer"))(
      source, start, interval, leeway);
}

MARBLES_WRAPPER void *dispatch_source_create(
    const void *type, uintptr_t handle, uintptr_t mask, void *queue) {
  void *source = ((source_create_fn)resolve_real(
      &create_symbol, "__interceptor_dispatch_source_create", "dispatch_source_create"))(
      type, handle, mask, queue);
  marbles_dispatch_timer_handler handler = __atomic_load_n(&timer_handler, __ATOMIC_ACQUIRE);
  if (source && handler && marbles_reads_virtual_time() &&
      type == resolve(&timer_type_symbol, RTLD_DEFAULT, "_dispatch_source_type_timer") &&
      !MARBLES_CALLED_BY_A_TEST_FRAMEWORK()) {
    handler(MARBLES_TIMER_CREATED, source, queue, 0, 0, 0);
  }
  return source;
}

MARBLES_WRAPPER void dispatch_source_set_event_handler(void *source, void *block) {
  ((source_set_handler_fn)resolve_real(
      &set_handler_symbol, "__interceptor_dispatch_source_set_event_handler",
      "dispatch_source_set_event_handler"))(source, block);
  marbles_dispatch_timer_handler handler = __atomic_load_n(&timer_handler, __ATOMIC_ACQUIRE);
  if (handler && block && marbles_reads_virtual_time()) {
    void *copy = block_copy(block);
    if (!handler(MARBLES_TIMER_HANDLER, source, copy, 0, 0, 0)) marbles_block_release(copy);
  }
}

MARBLES_WRAPPER void dispatch_source_cancel(void *source) {
  ((source_cancel_fn)resolve_real(
      &cancel_symbol, "__interceptor_dispatch_source_cancel", "dispatch_source_cancel"))(source);
  marbles_dispatch_timer_handler handler = __atomic_load_n(&timer_handler, __ATOMIC_ACQUIRE);
  if (handler) handler(MARBLES_TIMER_CANCELLED, source, 0, 0, 0, 0);
}
#endif

#elif defined(__APPLE__)

#include <Block.h>
#include <dispatch/dispatch.h>

void marbles_block_release(void *block) { _Block_release(block); }

bool marbles_is_main_queue(void *queue) { return queue == (void *)dispatch_get_main_queue(); }

const char *marbles_queue_label(void *queue) { return dispatch_queue_get_label((dispatch_queue_t)queue); }

bool marbles_source_is_cancelled(void *source) {
  return dispatch_source_testcancel((dispatch_source_t)source) != 0;
}

void marbles_dispatch_retain(void *object) { dispatch_retain((dispatch_object_t)object); }
void marbles_dispatch_release(void *object) { dispatch_release((dispatch_object_t)object); }

void marbles_dispatch_async(void *queue, void *context, void (*work)(void *)) {
  dispatch_async_f((dispatch_queue_t)queue, context, work);
}

#if defined(MARBLES_TESTED_RUNTIME)
static void marbles_dispatch_after(dispatch_time_t when, dispatch_queue_t queue,
                                   dispatch_block_t block) {
  marbles_dispatch_after_handler handler = __atomic_load_n(&after_handler, __ATOMIC_ACQUIRE);
  if (handler && marbles_reads_virtual_time()) {
    void *copy = (void *)_Block_copy((const void *)block);
    if (handler(when, (void *)queue, copy)) return;
    _Block_release(copy);
  }
  dispatch_after(when, queue, block);
}

static void marbles_dispatch_source_set_timer(dispatch_source_t source, dispatch_time_t start,
                                              uint64_t interval, uint64_t leeway) {
  marbles_dispatch_timer_handler handler = __atomic_load_n(&timer_handler, __ATOMIC_ACQUIRE);
  if (handler && handler(MARBLES_TIMER_SET, (void *)source, 0, start, interval, leeway)) {
    start = DISPATCH_TIME_FOREVER;
  }
  dispatch_source_set_timer(source, start, interval, leeway);
}

/// The concurrency runtime's main executor on Darwin hands a job to the main queue with
/// `dispatch_async_swift_job` (which it looks up by name): while a world is open, such a job is
/// offered to MarbleTesting's routing first.
extern void dispatch_async_swift_job(dispatch_queue_t queue, void *job, qos_class_t qos)
    __attribute__((weak_import));

static void marbles_dispatch_async_swift_job(dispatch_queue_t queue, void *job, qos_class_t qos) {
  marbles_main_job_handler handler = __atomic_load_n(&main_job_handler, __ATOMIC_ACQUIRE);
  if (handler && job && queue == dispatch_get_main_queue()) {
    __atomic_fetch_add(&main_queue_jobs_seen, 1, __ATOMIC_RELAXED);
    if (handler(job)) return;
  }
  dispatch_async_swift_job(queue, job, qos);
}

__attribute__((used)) static struct {
  const void *replacement;
  const void *replacee;
} marbles_interpose_dispatch[] __attribute__((section("__DATA,__interpose"))) = {
    {(const void *)(unsigned long)&marbles_dispatch_async_swift_job,
     (const void *)(unsigned long)&dispatch_async_swift_job},
    {(const void *)(unsigned long)&marbles_dispatch_after, (const void *)(unsigned long)&dispatch_after},
    {(const void *)(unsigned long)&marbles_dispatch_source_set_timer,
     (const void *)(unsigned long)&dispatch_source_set_timer},
};
#endif

#else

void marbles_block_release(void *block) { (void)block; }
bool marbles_is_main_queue(void *queue) { (void)queue; return false; }
const char *marbles_queue_label(void *queue) { (void)queue; return ""; }
bool marbles_source_is_cancelled(void *source) { (void)source; return true; }
void marbles_dispatch_retain(void *object) { (void)object; }
void marbles_dispatch_release(void *object) { (void)object; }
void marbles_dispatch_async(void *queue, void *context, void (*work)(void *)) {
  (void)queue;
  work(context);
}

#endif

#if !(defined(__linux__) && defined(MARBLES_TESTED_RUNTIME))
int64_t marbles_runnable_notifies(marbles_virtual_clock *clock, uint64_t generation) {
  (void)clock;
  (void)generation;
  return 0;
}
#endif

void marbles_block_run(void *block) {
  ((struct marbles_block_layout *)block)->invoke(block);
  marbles_block_release(block);
}

void marbles_block_invoke(void *block) { ((struct marbles_block_layout *)block)->invoke(block); }
