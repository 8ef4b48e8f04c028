// A libFuzzer harness that leaks one block on an input starting with "BUG" (issue 55's
// harness), with the last copy of the block's address left where LEAK_PLACE says:
//   register  in a register, then dropped (the default)
//   local     in a local array, which the dead frame keeps when the function returns
//   global    in a global, then overwritten
// In each, the pointer is also held in a callee-saved register across memset, so the
// allocator's frames save copies of it below the harness, as in any real code. LeakSanitizer
// must find the block all the same. Only the first such input of a process leaks, as a leak
// on a rare path does: the check after it is the one chance, and a second leaking input
// cannot rescue a check that missed the first.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

volatile char g_sink;
void* volatile g_last_copy;
bool g_leaked = false;

__attribute__((noinline)) void leak_from_a_register() {
  void* p = std::malloc(1234);
  std::memset(p, 7, 1234);
  g_sink = static_cast<char*>(p)[5];
  p = nullptr;
}

__attribute__((noinline)) void leak_from_a_local() {
  void* p = std::malloc(1234);
  std::memset(p, 7, 1234);
  g_sink = static_cast<char*>(p)[5];
  void* volatile kept[8];
  for (auto& k : kept) k = p;
}

__attribute__((noinline)) void leak_from_a_global() {
  void* p = std::malloc(1234);
  std::memset(p, 7, 1234);
  g_sink = static_cast<char*>(p)[5];
  g_last_copy = p;
  g_last_copy = nullptr;
}

void (*g_leak)() = leak_from_a_register;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* place = std::getenv("LEAK_PLACE");
  if (place == nullptr || std::strcmp(place, "register") == 0) {
    g_leak = leak_from_a_register;
  } else if (std::strcmp(place, "local") == 0) {
    g_leak = leak_from_a_local;
  } else if (std::strcmp(place, "global") == 0) {
    g_leak = leak_from_a_global;
  } else {
    std::abort();  // an unknown LEAK_PLACE
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3 || data[0] != 'B' || data[1] != 'U' || data[2] != 'G' || g_leaked) return 0;
  g_leaked = true;
  g_leak();
  return 0;
}
