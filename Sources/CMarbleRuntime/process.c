// What the process is: the image Marbles is in, and the parent it was started by (noted before
// any of its code runs).
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CMarbleRuntime.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/// The process's parent as the process was loaded.
static long parent_at_load = 0;

/// Notes the parent as the library is loaded, before `main`: a parent that ends before the
/// first world opens (a test runner killed while a test without a world ran) is still the one
/// the process is compared with.
__attribute__((constructor)) static void marbles_note_parent_at_load(void) {
  parent_at_load = (long)getppid();
}

long marbles_parent_at_load(void) { return parent_at_load; }

/// Registers Marbles' XCTest watcher (Marbles' own: weak, absent where only MarbleTesting is
/// linked).
extern void marbles_watch_xctest_from_load(void) __attribute__((weak));

/// Registers Marbles' XCTest watcher as the library is loaded, before XCTest runs a test — only
/// when the environment asks for every test explored (`MARBLES_EXPLORE`, `MARBLES_REPLAY`): an
/// explored XCTest test is run again in fresh instances of its test case, which the watcher knows
/// only from the test case's start; registered at the first world, as otherwise, it would miss the
/// test that opened that world. Not on Apple platforms, where XCTest tests are not run again.
__attribute__((constructor)) static void marbles_watch_xctest_at_load(void) {
#if !defined(__APPLE__)
  const char *explore = getenv("MARBLES_EXPLORE");
  const char *replay = getenv("MARBLES_REPLAY");
  if (!((explore && *explore) || (replay && *replay))) return;
  if (marbles_watch_xctest_from_load) marbles_watch_xctest_from_load();
#endif
}

bool marbles_image_identity(uint64_t identity[4]) {
  // NB: dladdr is in <dlfcn.h> on Darwin and, with _GNU_SOURCE, on Linux.
  Dl_info info;
  if (dladdr((const void *)&marbles_image_identity, &info) == 0 || !info.dli_fname) return false;
  struct stat status;
  if (stat(info.dli_fname, &status) != 0) return false;
  identity[0] = (uint64_t)status.st_dev;
  identity[1] = (uint64_t)status.st_ino;
  identity[2] = (uint64_t)status.st_size;
#if defined(__APPLE__)
  identity[3] = (uint64_t)status.st_mtimespec.tv_sec * 1000000000u + (uint64_t)status.st_mtimespec.tv_nsec;
#else
  identity[3] = (uint64_t)status.st_mtim.tv_sec * 1000000000u + (uint64_t)status.st_mtim.tv_nsec;
#endif
  return true;
}
