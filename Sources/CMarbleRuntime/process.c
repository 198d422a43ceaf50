// What the process was started with, noted before any of its code runs.

#include "CMarbleRuntime.h"

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
