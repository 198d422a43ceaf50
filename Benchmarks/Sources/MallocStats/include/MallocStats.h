#ifndef MALLOC_STATS_H
#define MALLOC_STATS_H

#include <stddef.h>

/// The bytes malloc has handed out and not taken back (glibc's mallinfo2), or 0 where unknown.
size_t malloc_stats_in_use(void);

#endif
