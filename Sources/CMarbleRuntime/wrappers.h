// How the clock and Dispatch wrappers are defined, and where "the real function" is found.
//
// Weak, so that a static link keeps the C library's own definition (readings stay real there).
// Under the thread sanitizer the wrappers are strong instead: its runtime, linked into the
// executable, defines a weak interceptor of the same name (`clock_gettime`, `dispatch_after`) that
// the link would otherwise keep. The real function is then the sanitizer's interceptor
// (`__interceptor_NAME`), so that it still sees every call it watches.
#ifndef MARBLES_WRAPPERS_H
#define MARBLES_WRAPPERS_H

#if defined(__linux__)
#include <dlfcn.h>
#include <stdlib.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MARBLES_UNDER_THREAD_SANITIZER 1
#endif
#endif

#if defined(MARBLES_UNDER_THREAD_SANITIZER)
#define MARBLES_WRAPPER
#else
#define MARBLES_WRAPPER __attribute__((weak))
#endif

/// The function the wrapper named `name` stands in front of: the thread sanitizer's interceptor
/// when there is one, else the next definition after this image (the C library's, libdispatch's);
/// `0` when there is none (a fully static executable).
static inline void *marbles_real_function(const char *interceptor, const char *name) {
#if defined(MARBLES_UNDER_THREAD_SANITIZER)
  void *intercepting = dlsym(RTLD_DEFAULT, interceptor);
  if (intercepting) return intercepting;
#else
  (void)interceptor;
#endif
  return dlsym(RTLD_NEXT, name);
}

/// ``marbles_real_function``, looked up once into `cache`; aborts if there is none (a wrapper in
/// a process without the function it stands for cannot go on).
static inline void *marbles_resolve_real(void **cache, const char *interceptor, const char *name) {
  void *symbol = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  if (!symbol) {
    symbol = marbles_real_function(interceptor, name);
    if (!symbol) abort();
    __atomic_store_n(cache, symbol, __ATOMIC_RELEASE);
  }
  return symbol;
}

#elif defined(__APPLE__)
// Darwin (written for, not built here) interposes with DYLD_INTERPOSE, which names the real
// function itself: nothing to define here.
#endif
#endif
