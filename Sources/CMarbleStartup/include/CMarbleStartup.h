// Installs Marbles' driven world — the Swift concurrency runtime hooks and the default executor
// that routes standard sleeps — when the process loads, before any test or thread runs (see
// startup.c). Nothing to call: the header exists so that the target is a module.
#ifndef C_MARBLE_STARTUP_H
#define C_MARBLE_STARTUP_H
#endif
