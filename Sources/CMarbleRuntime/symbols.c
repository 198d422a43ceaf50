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
#include "internal.h"

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
#include <sys/uio.h>
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

/// The return addresses of the calls that led to `frame` (a frame record: the caller's frame, then
/// the return address), up to `count`, by the chain of frame pointers; fewer where the chain ends
/// — at a frame without a frame pointer, or one that goes the wrong way. Every read stays between
/// `frame` and the top of the thread's stack.
static int walk_frame_pointers(uintptr_t frame, void **frames, int count) {
  uintptr_t high = thread_stack_high();
  uintptr_t low = frame;
  int found = 0;
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
  return found;
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
  // The first entry is where this function was called, as `backtrace`'s first is inside it.
  int found = walk_frame_pointers((uintptr_t)__builtin_frame_address(0), frames, count);
  // A walk cut short by a frame with no frame pointer: the unwinder reads the tables instead.
  if (found >= 6 || found == count) return found;
#endif
  return marbles_unwound_backtrace(frames, count);
}

// MARK: Whose reading

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
/// Where the executable's code and XCTest's were loaded: a test's code (and Marbles') is in the
/// executable on Linux, XCTest in `libXCTest.so`; every other image is a library a reading goes
/// through (Foundation, Core Foundation, the C library, Swift's runtime, Dispatch).
static struct {
  uintptr_t executable_start, executable_end, framework_start, framework_end;
} images;
static pthread_once_t images_once = PTHREAD_ONCE_INIT;
extern const char __start_marbles_runtime[] __attribute__((weak));
extern const char __stop_marbles_runtime[] __attribute__((weak));

static int note_image(struct dl_phdr_info *info, size_t size, void *context) {
  (void)size;
  int *index = context;
  bool is_executable = (*index)++ == 0;
  bool is_framework = info->dlpi_name && strstr(info->dlpi_name, "/libXCTest.so") != 0;
  if (!is_executable && !is_framework) return 0;
  uintptr_t start = 0, end = 0;
  for (int segment_index = 0; segment_index < info->dlpi_phnum; segment_index++) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[segment_index];
    if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
    uintptr_t low = (uintptr_t)info->dlpi_addr + segment->p_vaddr, high = low + segment->p_memsz;
    if (!start || low < start) start = low;
    if (high > end) end = high;
  }
  if (is_executable) {
    images.executable_start = start;
    images.executable_end = end;
  } else {
    images.framework_start = start;
    images.framework_end = end;
  }
  return 0;
}

static void find_images(void) {
  int index = 0;
  dl_iterate_phdr(note_image, &index);
}

/// Whether `address` is in the code of the files that include internal.h (Marbles' wrappers).
static bool is_marbles_runtime_code(uintptr_t address) {
  return address >= (uintptr_t)__start_marbles_runtime &&
         address < (uintptr_t)__stop_marbles_runtime;
}

/// What the return address `returns` says of whose reading it is: 1 XCTest's, 0 a test's (the
/// executable's code outside Marbles' wrappers), -1 nothing yet (a library, or Marbles' wrappers).
static int whose_frame(uintptr_t returns) {
  if (is_marbles_runtime_code(returns)) return -1;
  if (returns >= images.framework_start && returns < images.framework_end) return 1;
  if (returns >= images.executable_start && returns < images.executable_end) return 0;
  return -1;
}
#endif

/// Whether the reading of time in progress is XCTest's own — a test run's start and stop dates,
/// `measure {}`'s metric, its waiter's timeout and watchdog — rather than a test's: walking out from
/// `frame` (a wrapper's own), the first return address in the executable (a test's code) or in
/// XCTest decides; frames in other libraries (Foundation, Core Foundation, Dispatch, the C library,
/// Swift's runtime) and in Marbles' own wrappers are how a reading is made, not who made it.
///
/// Asked on the main thread only, where XCTest runs its own code (elsewhere: no, at the cost of a
/// thread-local load). The walk follows frame pointers, reading nothing outside the thread's stack;
/// a library that keeps none (Dispatch's Swift overlay uses the register for data) ends it, and
/// the unwinder, which reads the tables, takes over. A walk that decides nothing in 32 frames (no
/// XCTest loaded) says no: the reading stays the world's.
bool marbles_read_by_a_test_framework(const void *frame_address) {
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
  // XCTest runs its own code — a test's start and stop, `measure {}`, its waiter — on the main
  // thread; elsewhere (Swift Testing's tasks, a world's loop) a reading is never walked.
  static __thread int8_t is_main_thread = -1;
  if (is_main_thread < 0) is_main_thread = (int8_t)marbles_is_main_thread();
  if (!is_main_thread || !frame_address) return false;
  pthread_once(&images_once, find_images);
  if (!images.framework_end) return false;
  void *frames[32];
  int count = walk_frame_pointers((uintptr_t)frame_address, frames, 32);
  for (int index = 0; index < count; index++) {
    int whose = whose_frame((uintptr_t)frames[index]);
    if (whose >= 0) return whose == 1;
  }
  count = marbles_unwound_backtrace(frames, 32);
  // The unwinder's own frames come first (under the thread sanitizer, its `backtrace` interceptor,
  // in the executable): the caller chain starts at the first of Marbles' frames.
  bool isPastTheUnwinder = false;
  for (int index = 0; index < count; index++) {
    uintptr_t returns = (uintptr_t)frames[index];
    isPastTheUnwinder = isPastTheUnwinder || is_marbles_runtime_code(returns);
    if (!isPastTheUnwinder) continue;
    int whose = whose_frame(returns);
    if (whose >= 0) return whose == 1;
  }
  return false;
#else
  // Darwin (written for, not built here) and other systems: a test bundle is not the executable,
  // and XCTest's readings stay the world's, as they were before this rule.
  (void)frame_address;
  return false;
#endif
}

bool marbles_read_memory(const void *address, void *buffer, size_t size) {
#if defined(__linux__)
  if (!address) return false;
  struct iovec local = {buffer, size};
  struct iovec remote = {(void *)address, size};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)size;
#else
  (void)address;
  (void)buffer;
  (void)size;
  return false;
#endif
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
