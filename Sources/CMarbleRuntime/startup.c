// MarbleTesting's driven world replaces process-wide runtime state: the global-enqueue and
// main-executor hooks, and the default executor. Doing it when the process loads — before the
// test runner starts a thread or a main-actor job — means every job and every sleep sees the
// same executors from the start: a main-actor job already running when the first scheduler is
// made does not run on an executor the runtime no longer calls the main one (which made that
// test's first `Task.immediate` unable to start in its caller), and the default executor is
// replaced while no other thread reads it.
//
// The function is MarbleTesting's (Swift, `@_cdecl`); a process that links this file links it.
extern void marbles_installDrivenWorld(void);

__attribute__((constructor)) static void marbles_startup(void) {
  marbles_installDrivenWorld();
}
