// Timed waits stay real inside a world. Foundation, Dispatch and the C library turn a timeout into
// an absolute deadline read on a standard clock — virtual where the thread reads virtual time —
// and hand it to the kernel, which compares it with the real clock: a semaphore's 0.2 s timeout
// would wait an hour, or not at all. Each wrapper here converts such a deadline into the same
// distance from the real now, and, after any blocking wait, tells the clock how long the thread
// blocked (marbles_waited), so that code which checks the clock after waiting — a run loop
// running until a date, XCTest's waiter — sees its own timeout pass.
//
// Also here: threads started where readings are virtual are counted as work outside the world
// while they run (pthread_create), so that a world waiting for one is not taken for deadlocked.
//
// Wrapped: sem_timedwait, pthread_cond_timedwait, pthread_cond_clockwait, pthread_mutex_timedlock,
// clock_nanosleep and timerfd_settime (absolute deadlines); epoll_wait, epoll_pwait, poll, ppoll,
// select and nanosleep (relative timeouts: only the waited time is told). A thread that reads real
// time passes straight through, at the cost of one thread-local read.
//
// Linux, for the toolchains Marbles was tested on: weak definitions in the executable, as
// virtual_clock.c explains. Darwin (written for, not built here): readings are virtual only where
// virtual_clock.c's interposition reaches (images present at launch), and there the same two
// conversions are interposed: pthread_cond_timedwait's realtime deadline and nanosleep's waited
// time. Darwin has no sem_timedwait, pthread_mutex_timedlock, timerfd or epoll; Dispatch's own
// waits (dispatch_semaphore_wait, dispatch_group_wait) measure mach time inside libdispatch and are
// not wrapped.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CMarbleRuntime.h"
#include "internal.h"

#if defined(MARBLES_TESTED_RUNTIME) && defined(__linux__)
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/timerfd.h>
#include <time.h>
#include "wrappers.h"

/// The clock each timer file descriptor measures, recorded by timerfd_create (CLOCK_REALTIME is 0,
/// so the table stores the clock + 1; 0 means not recorded).
#define MARBLES_TIMER_FDS 4096
static int timer_clocks[MARBLES_TIMER_FDS];

static int64_t nanoseconds_of(const struct timespec *time) {
  return (int64_t)time->tv_sec * 1000000000 + (int64_t)time->tv_nsec;
}

static struct timespec timespec_of(int64_t nanoseconds) {
  if (nanoseconds < 0) nanoseconds = 0;
  struct timespec time = {(time_t)(nanoseconds / 1000000000), (long)(nanoseconds % 1000000000)};
  return time;
}

/// The real deadline as far from the real now as `deadline` is from this thread's virtual now on
/// clock `id`; `false` where the thread reads real time (then `deadline` is real).
static bool real_deadline(clockid_t id, const struct timespec *deadline, struct timespec *real) {
  int64_t now;
  if (!deadline || !marbles_virtual_now((int)id, &now)) return false;
  *real = timespec_of(marbles_real_now_of((int)id) + (nanoseconds_of(deadline) - now));
  return true;
}

static int64_t real_monotonic(void) { return marbles_real_now_of(CLOCK_MONOTONIC); }

#define MARBLES_REAL(name, type) \
  static void *name##_symbol;    \
  static type real_##name(void) { return (type)marbles_resolve_real(&name##_symbol, "__interceptor_" #name, #name); }

typedef int (*sem_timedwait_fn)(sem_t *, const struct timespec *);
typedef int (*cond_timedwait_fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
typedef int (*cond_clockwait_fn)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *);
typedef int (*mutex_timedlock_fn)(pthread_mutex_t *, const struct timespec *);
typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);
typedef int (*timerfd_create_fn)(int, int);
typedef int (*timerfd_settime_fn)(int, int, const struct itimerspec *, struct itimerspec *);
typedef int (*epoll_wait_fn)(int, struct epoll_event *, int, int);
typedef int (*epoll_pwait_fn)(int, struct epoll_event *, int, int, const sigset_t *);
typedef int (*poll_fn)(struct pollfd *, nfds_t, int);
typedef int (*ppoll_fn)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
typedef int (*select_fn)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);

MARBLES_REAL(sem_timedwait, sem_timedwait_fn)
MARBLES_REAL(pthread_cond_timedwait, cond_timedwait_fn)
MARBLES_REAL(pthread_cond_clockwait, cond_clockwait_fn)
MARBLES_REAL(pthread_mutex_timedlock, mutex_timedlock_fn)
MARBLES_REAL(clock_nanosleep, clock_nanosleep_fn)
MARBLES_REAL(timerfd_create, timerfd_create_fn)
MARBLES_REAL(timerfd_settime, timerfd_settime_fn)
MARBLES_REAL(epoll_wait, epoll_wait_fn)
MARBLES_REAL(epoll_pwait, epoll_pwait_fn)
MARBLES_REAL(poll, poll_fn)
MARBLES_REAL(ppoll, ppoll_fn)
MARBLES_REAL(select, select_fn)
MARBLES_REAL(nanosleep, nanosleep_fn)

/// Runs `call` (an expression), and tells the clock how long it blocked where the thread reads
/// virtual time.
#define MARBLES_WAITING(reads_virtual, call)          \
  do {                                                \
    if (!(reads_virtual)) return call;                \
    int64_t start = real_monotonic();                 \
    int result = call;                                \
    int saved = errno;                                \
    marbles_waited(real_monotonic() - start);         \
    errno = saved;                                    \
    return result;                                    \
  } while (0)

MARBLES_WRAPPER int sem_timedwait(sem_t *semaphore, const struct timespec *deadline) {
  struct timespec real;
  bool converted = real_deadline(CLOCK_REALTIME, deadline, &real);
  MARBLES_WAITING(converted, real_sem_timedwait()(semaphore, converted ? &real : deadline));
}

/// The clock a condition variable measures its deadlines on: glibc keeps it in a bit of the
/// waiter count (`__wrefs`); elsewhere, the default.
static clockid_t clock_of(const pthread_cond_t *condition) {
#if defined(__GLIBC__)
  return (condition->__data.__wrefs & 2) ? CLOCK_MONOTONIC : CLOCK_REALTIME;
#else
  (void)condition;
  return CLOCK_REALTIME;
#endif
}

MARBLES_WRAPPER int pthread_cond_timedwait(
    pthread_cond_t *condition, pthread_mutex_t *mutex, const struct timespec *deadline) {
  struct timespec real;
  bool converted = real_deadline(clock_of(condition), deadline, &real);
  MARBLES_WAITING(
      converted, real_pthread_cond_timedwait()(condition, mutex, converted ? &real : deadline));
}

MARBLES_WRAPPER int pthread_cond_clockwait(
    pthread_cond_t *condition, pthread_mutex_t *mutex, clockid_t clock,
    const struct timespec *deadline) {
  struct timespec real;
  bool converted = real_deadline(clock, deadline, &real);
  MARBLES_WAITING(
      converted,
      real_pthread_cond_clockwait()(condition, mutex, clock, converted ? &real : deadline));
}

MARBLES_WRAPPER int pthread_mutex_timedlock(pthread_mutex_t *mutex, const struct timespec *deadline) {
  struct timespec real;
  bool converted = real_deadline(CLOCK_REALTIME, deadline, &real);
  MARBLES_WAITING(converted, real_pthread_mutex_timedlock()(mutex, converted ? &real : deadline));
}

MARBLES_WRAPPER int clock_nanosleep(
    clockid_t clock, int flags, const struct timespec *time, struct timespec *remaining) {
  int64_t ignored;
  bool virtual_here = marbles_virtual_now((int)clock, &ignored);
  struct timespec real;
  bool converted = (flags & TIMER_ABSTIME) && real_deadline(clock, time, &real);
  MARBLES_WAITING(
      virtual_here, real_clock_nanosleep()(clock, flags, converted ? &real : time, remaining));
}

MARBLES_WRAPPER int timerfd_create(int clock, int flags) {
  int descriptor = real_timerfd_create()(clock, flags);
  if (descriptor >= 0 && descriptor < MARBLES_TIMER_FDS) {
    __atomic_store_n(&timer_clocks[descriptor], clock + 1, __ATOMIC_RELEASE);
  }
  return descriptor;
}

MARBLES_WRAPPER int timerfd_settime(
    int descriptor, int flags, const struct itimerspec *value, struct itimerspec *old) {
  if (!(flags & TFD_TIMER_ABSTIME) || !value || descriptor < 0 ||
      descriptor >= MARBLES_TIMER_FDS) {
    return real_timerfd_settime()(descriptor, flags, value, old);
  }
  int clock = __atomic_load_n(&timer_clocks[descriptor], __ATOMIC_ACQUIRE) - 1;
  struct itimerspec real = *value;
  bool isArmed = value->it_value.tv_sec != 0 || value->it_value.tv_nsec != 0;
  if (clock < 0 || !isArmed || !real_deadline(clock, &value->it_value, &real.it_value)) {
    return real_timerfd_settime()(descriptor, flags, value, old);
  }
  // A deadline already passed (now, in real time) would disarm the timer: fire at once instead.
  if (real.it_value.tv_sec == 0 && real.it_value.tv_nsec == 0) real.it_value.tv_nsec = 1;
  return real_timerfd_settime()(descriptor, flags, &real, old);
}

/// Whether this thread reads virtual time now (the relative waits only tell the time they took).
static bool reads_virtual(void) {
  int64_t ignored;
  return marbles_virtual_now(CLOCK_MONOTONIC, &ignored);
}


static marbles_run_loop_handler run_loop_handler;

/// Runs `call`, a run loop's blocking wait for events (Core Foundation's run loop waits in
/// ppoll on Linux; epoll and poll are told alike): on the main thread, where it reads virtual time, the handler is told the wait's begin
/// and end — the code there waits synchronously, and its world may go on meanwhile.
#define MARBLES_RUN_LOOP_WAITING(blocks, call)                                                 \
  do {                                                                                         \
    if (!(blocks) || !reads_virtual()) return call;                                            \
    marbles_run_loop_handler handler = __atomic_load_n(&run_loop_handler, __ATOMIC_ACQUIRE);   \
    bool tells = handler && marbles_is_main_thread();                                          \
    if (tells) handler(true);                                                                  \
    int64_t start = real_monotonic();                                                          \
    int result = call;                                                                         \
    int saved = errno;                                                                         \
    marbles_waited(real_monotonic() - start);                                                  \
    if (tells) handler(false);                                                                 \
    errno = saved;                                                                             \
    return result;                                                                             \
  } while (0)

MARBLES_WRAPPER int epoll_wait(int descriptor, struct epoll_event *events, int count, int timeout) {
  MARBLES_RUN_LOOP_WAITING(timeout != 0, real_epoll_wait()(descriptor, events, count, timeout));
}

MARBLES_WRAPPER int epoll_pwait(
    int descriptor, struct epoll_event *events, int count, int timeout, const sigset_t *mask) {
  MARBLES_RUN_LOOP_WAITING(
      timeout != 0, real_epoll_pwait()(descriptor, events, count, timeout, mask));
}

MARBLES_WRAPPER int poll(struct pollfd *descriptors, nfds_t count, int timeout) {
  MARBLES_RUN_LOOP_WAITING(timeout != 0, real_poll()(descriptors, count, timeout));
}

MARBLES_WRAPPER int ppoll(
    struct pollfd *descriptors, nfds_t count, const struct timespec *timeout, const sigset_t *mask) {
  bool blocks = !timeout || timeout->tv_sec != 0 || timeout->tv_nsec != 0;
  MARBLES_RUN_LOOP_WAITING(blocks, real_ppoll()(descriptors, count, timeout, mask));
}

MARBLES_WRAPPER int select(
    int count, fd_set *reading, fd_set *writing, fd_set *failing, struct timeval *timeout) {
  MARBLES_WAITING(reads_virtual(), real_select()(count, reading, writing, failing, timeout));
}

// MARK: Threads

/// A thread started by a reader of virtual time, counted as work outside its world until it ends.
typedef struct {
  void *(*start)(void *);
  void *argument;
  marbles_outside_work work;
} marbles_counted_thread;

static void end_counted(void *context) {
  marbles_counted_thread *counted = context;
  marbles_outside_end(&counted->work);
  free(counted);
}

static void *run_counted_thread(void *context) {
  marbles_counted_thread *counted = context;
  void *result = 0;
  pthread_cleanup_push(end_counted, counted);
  result = counted->start(counted->argument);
  pthread_cleanup_pop(1);
  return result;
}

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
MARBLES_REAL(pthread_create, pthread_create_fn)

MARBLES_WRAPPER int pthread_create(
    pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
  marbles_outside_work work;
  if (marbles_outside_begin(&work)) {
    marbles_counted_thread *counted = malloc(sizeof(marbles_counted_thread));
    if (counted) {
      counted->start = start;
      counted->argument = argument;
      counted->work = work;
      int result = real_pthread_create()(thread, attributes, run_counted_thread, counted);
      if (result != 0) end_counted(counted);
      return result;
    }
    marbles_outside_end(&work);
  }
  return real_pthread_create()(thread, attributes, start, argument);
}

// World work that wakes a thread outside the world — a condition it waits on, a semaphore — is
// counted on the world's clock: that thread may answer a wait of the world (a database driver's,
// a delegate queue's), so the world gives it the stall timeout before it calls its state a
// deadlock.
typedef int (*cond_signal_fn)(pthread_cond_t *);
typedef int (*sem_post_fn)(sem_t *);
MARBLES_REAL(pthread_cond_signal, cond_signal_fn)
MARBLES_REAL(pthread_cond_broadcast, cond_signal_fn)
MARBLES_REAL(sem_post, sem_post_fn)

MARBLES_WRAPPER int pthread_cond_signal(pthread_cond_t *condition) {
  marbles_outside_signalled();
  return real_pthread_cond_signal()(condition);
}

MARBLES_WRAPPER int pthread_cond_broadcast(pthread_cond_t *condition) {
  marbles_outside_signalled();
  return real_pthread_cond_broadcast()(condition);
}

MARBLES_WRAPPER int sem_post(sem_t *semaphore) {
  marbles_outside_signalled();
  return real_sem_post()(semaphore);
}

MARBLES_WRAPPER int nanosleep(const struct timespec *duration, struct timespec *remaining) {
  MARBLES_WAITING(reads_virtual(), real_nanosleep()(duration, remaining));
}

#elif defined(MARBLES_TESTED_RUNTIME) && defined(__APPLE__)
#include <errno.h>
#include <pthread.h>
#include <time.h>

static int64_t nanoseconds_of(const struct timespec *time) {
  return (int64_t)time->tv_sec * 1000000000 + (int64_t)time->tv_nsec;
}

/// The waited time of a blocking call, told to the clock where the thread reads virtual time.
static void tell_waited(int64_t start) { marbles_waited(marbles_real_now_of(CLOCK_MONOTONIC) - start); }

static int marbles_pthread_cond_timedwait(
    pthread_cond_t *condition, pthread_mutex_t *mutex, const struct timespec *deadline) {
  int64_t now;
  if (!deadline || !marbles_virtual_now(CLOCK_REALTIME, &now)) {
    return pthread_cond_timedwait(condition, mutex, deadline);
  }
  int64_t real = marbles_real_now_of(CLOCK_REALTIME) + (nanoseconds_of(deadline) - now);
  if (real < 0) real = 0;
  struct timespec converted = {(time_t)(real / 1000000000), (long)(real % 1000000000)};
  int64_t start = marbles_real_now_of(CLOCK_MONOTONIC);
  int result = pthread_cond_timedwait(condition, mutex, &converted);
  tell_waited(start);
  return result;
}

static int marbles_nanosleep(const struct timespec *duration, struct timespec *remaining) {
  int64_t ignored;
  if (!marbles_virtual_now(CLOCK_MONOTONIC, &ignored)) return nanosleep(duration, remaining);
  int64_t start = marbles_real_now_of(CLOCK_MONOTONIC);
  int result = nanosleep(duration, remaining);
  int saved = errno;
  tell_waited(start);
  errno = saved;
  return result;
}

__attribute__((used)) static struct {
  const void *replacement;
  const void *replacee;
} marbles_interpose_waits[] __attribute__((section("__DATA,__interpose"))) = {
    {(const void *)(unsigned long)&marbles_pthread_cond_timedwait,
     (const void *)(unsigned long)&pthread_cond_timedwait},
    {(const void *)(unsigned long)&marbles_nanosleep, (const void *)(unsigned long)&nanosleep},
};
#endif

// The run-loop handler: Core Foundation's run loop waits in epoll on Linux (wrapped above); on
// Darwin (written for, not built here) it waits in mach_msg, which is not wrapped, so the handler
// is never told there.
static marbles_run_loop_handler run_loop_handler;

void marbles_set_run_loop_handler(marbles_run_loop_handler handler) {
  __atomic_store_n(&run_loop_handler, handler, __ATOMIC_RELEASE);
}
