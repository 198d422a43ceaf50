#include "MallocStats.h"

#if defined(__linux__)
#include <malloc.h>
size_t malloc_stats_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd; // heap blocks in use, plus mmapped ones
}
#else
size_t malloc_stats_in_use(void) { return 0; }
#endif
