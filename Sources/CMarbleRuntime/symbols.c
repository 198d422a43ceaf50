// Where code is, for reports: the frames of the code that started a task, and their names.
//
// Names come from the executable's own symbol table (.symtab, which a debug build keeps), read
// once from /proc/self/exe, whose entries have sizes: an address is named only by the function
// that holds it. `dladdr` is not used: it answers with the nearest exported symbol before an
// address, which may be another function. So on Linux a test's own functions are named (a test
// product is an executable there); code in shared libraries is not. Darwin (written for, not built
// here): a test bundle is not the executable, and nothing is named.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include "CMarbleRuntime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) || defined(__APPLE__)
#include <execinfo.h>
#endif

#if defined(__linux__)
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/// The executable's functions, sorted by address once (a report looks up each frame of each
/// task), its names, and where its code was loaded.
static struct {
  const ElfW(Sym) **functions;
  size_t count;
  const char *names;
  size_t names_size;
  uintptr_t bias, start, end;
} table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static int first_object(struct dl_phdr_info *info, size_t size, void *unused) {
  (void)size;
  (void)unused;
  table.bias = (uintptr_t)info->dlpi_addr;
  for (int index = 0; index < info->dlpi_phnum; index++) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
    if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
    uintptr_t start = table.bias + segment->p_vaddr, end = start + segment->p_memsz;
    if (!table.start || start < table.start) table.start = start;
    if (end > table.end) table.end = end;
  }
  return 1;  // The first object is the executable.
}

static int by_address(const void *left, const void *right) {
  ElfW(Addr) a = (*(const ElfW(Sym) *const *)left)->st_value;
  ElfW(Addr) b = (*(const ElfW(Sym) *const *)right)->st_value;
  return a < b ? -1 : a > b;
}

static void map_table(void) {
  dl_iterate_phdr(first_object, 0);
  int file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (file < 0) return;
  struct stat status;
  if (fstat(file, &status) != 0 || status.st_size < (off_t)sizeof(ElfW(Ehdr))) {
    close(file);
    return;
  }
  const unsigned char *image = mmap(0, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, file, 0);
  close(file);
  if (image == MAP_FAILED) return;
  const ElfW(Ehdr) *header = (const ElfW(Ehdr) *)image;
  if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_shoff == 0) return;
  const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(image + header->e_shoff);
  for (int index = 0; index < header->e_shnum; index++) {
    if (sections[index].sh_type != SHT_SYMTAB) continue;
    const ElfW(Shdr) *strings = &sections[sections[index].sh_link];
    const ElfW(Sym) *symbols = (const ElfW(Sym) *)(image + sections[index].sh_offset);
    size_t count = sections[index].sh_size / sizeof(ElfW(Sym));
    const ElfW(Sym) **functions = malloc(count * sizeof(*functions));
    if (!functions) return;
    size_t kept = 0;
    for (size_t symbol = 0; symbol < count; symbol++) {
      // NB: a function of size zero holds no address, and would hide one that starts with it.
      if ((symbols[symbol].st_info & 0xf) != STT_FUNC || symbols[symbol].st_value == 0 ||
          symbols[symbol].st_size == 0)
        continue;
      functions[kept++] = &symbols[symbol];
    }
    qsort(functions, kept, sizeof(*functions), by_address);
    table.functions = functions;
    table.count = kept;
    table.names = (const char *)(image + strings->sh_offset);
    table.names_size = strings->sh_size;
    return;
  }
}

/// The executable's function that holds `address`, if it is in the executable's code.
static const char *executable_symbol(const void *address) {
  pthread_once(&table_once, map_table);
  uintptr_t at = (uintptr_t)address;
  if (!table.functions || at < table.start || at >= table.end) return 0;
  uintptr_t offset = at - table.bias;
  // The last function that starts at or before the address; it holds it if the address falls
  // within its size. (Functions do not overlap; aliases of one start are alike.)
  size_t low = 0, high = table.count;
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (table.functions[middle]->st_value <= offset) low = middle + 1;
    else high = middle;
  }
  if (low == 0) return 0;
  const ElfW(Sym) *best = table.functions[low - 1];
  if (offset >= best->st_value + best->st_size || best->st_name >= table.names_size) return 0;
  return table.names + best->st_name;
}
#endif

int marbles_unwound_backtrace(void *_Nullable *_Nonnull frames, int count) {
#if defined(__linux__) || defined(__APPLE__)
  return backtrace(frames, count);
#else
  (void)frames;
  (void)count;
  return 0;
#endif
}

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
/// This thread's stack, read once per thread: the frame-pointer walk reads nothing outside it.
static __thread uintptr_t stack_high;

static uintptr_t thread_stack_high(void) {
  if (stack_high) return stack_high;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
  void *low = 0;
  size_t size = 0;
  int failed = pthread_attr_getstack(&attributes, &low, &size);
  pthread_attr_destroy(&attributes);
  if (failed || !low) return 0;
  stack_high = (uintptr_t)low + size;
  return stack_high;
}
#endif

/// The return addresses of the calls that led here by the chain of frame pointers, which Swift
/// code and the Swift runtime keep: each frame holds its caller's frame and its return address.
/// Every read stays between this frame and the top of the thread's stack, and a chain that goes
/// the wrong way ends the walk, so a frame without a frame pointer ends it early (the unwinder,
/// `backtrace`, then takes over) but never reads outside the stack. About a hundred times cheaper
/// than unwinding by the tables, which looks up each frame's unwind information.
__attribute__((noinline)) int marbles_backtrace(void *_Nullable *_Nonnull frames, int count) {
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
  uintptr_t high = thread_stack_high();
  uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
  uintptr_t low = frame;
  int found = 0;
  // The first entry is where this function was called, as `backtrace`'s first is inside it.
  while (high && found < count) {
    if (frame < low || frame + 2 * sizeof(uintptr_t) > high || (frame & (sizeof(uintptr_t) - 1)))
      break;
    uintptr_t caller = ((const uintptr_t *)frame)[0];
    uintptr_t returns = ((const uintptr_t *)frame)[1];
    if (!returns) break;
    frames[found++] = (void *)returns;
    // NB: an async function's frame marks its saved frame pointer with bit 60 (Swift's extended
    // frame layout); the frame it points to is an ordinary one.
    caller &= ~((uintptr_t)1 << 60);
    if (caller <= frame) break;
    frame = caller;
  }
  // A walk cut short by a frame with no frame pointer: the unwinder reads the tables instead.
  if (found >= 6 || found == count) return found;
#endif
  return marbles_unwound_backtrace(frames, count);
}

bool marbles_symbol_name(const void *address, char *buffer, size_t size) {
  if (!address || size == 0) return false;
  const char *name = 0;
#if defined(__linux__)
  name = executable_symbol(address);
#endif
  if (!name) return false;
  strncpy(buffer, name, size - 1);
  buffer[size - 1] = 0;
  return true;
}

/// The Swift runtime's demangler (libswiftCore); the result is the caller's to free.
extern char *swift_demangle(
    const char *mangled, size_t length, char *buffer, size_t *size, uint32_t flags);

bool marbles_swift_function_name(const void *address, char *buffer, size_t size) {
  char mangled[1024];
  if (!marbles_symbol_name(address, mangled, sizeof(mangled))) return false;
  if (strncmp(mangled, "$s", 2) != 0) return false;
  char *demangled = swift_demangle(mangled, strlen(mangled), 0, 0, 0);
  if (!demangled) return false;
  strncpy(buffer, demangled, size - 1);
  buffer[size - 1] = 0;
  free(demangled);
  return true;
}
