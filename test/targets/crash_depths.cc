// A libFuzzer harness whose planted bugs sit at different depths below
// LLVMFuzzerTestOneInput, for comparing how ClusterFuzz names each crash in a cfuzz build
// and in a libFuzzer build of this same file. The input's first two bytes pick the bug:
//   A0 A1 A3   heap-buffer-overflow (AddressSanitizer) in the harness itself, one function
//              below it, three functions below it
//   U0 U1 U3   signed integer overflow (UndefinedBehaviorSanitizer), at the same depths
//   M0 M1 M3   use of an uninitialized value (MemorySanitizer), at the same depths
// Anything else returns.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include <climits>

namespace {

char* volatile g_keep;  // so that the compiler keeps each allocation and its write

__attribute__((noinline)) void overflow_heap(const uint8_t* data, size_t size) {
  char* p = static_cast<char*>(std::malloc(4));
  g_keep = p;
  p[size] = static_cast<char>(data[0]);
  std::free(p);
}

__attribute__((noinline)) int overflow_int(const uint8_t* data, size_t size) {
  int big = INT_MAX - 1;
  return big + data[0] + static_cast<int>(size);
}

// An address computed from memory never written: MemorySanitizer reports the load here
// (a branch on the value could be turned into a select, and reported further up).
char g_table[16];
__attribute__((noinline)) void read_uninitialized(const uint8_t* data, size_t size) {
  int* p = static_cast<int*>(std::malloc(4 * sizeof(int)));
  p[0] = data[0];
  g_keep = &g_table[p[1 + size % 2] & 15];
  g_table[0] = *g_keep;
  std::free(p);
}

__attribute__((noinline)) void third(const uint8_t* data, size_t size, char bug) {
  if (bug == 'A') {
    overflow_heap(data, size);
  } else if (bug == 'M') {
    read_uninitialized(data, size);
  } else {
    g_keep = reinterpret_cast<char*>(static_cast<intptr_t>(overflow_int(data, size)));
  }
}
__attribute__((noinline)) void second(const uint8_t* data, size_t size, char bug) { third(data, size, bug); }
__attribute__((noinline)) void first(const uint8_t* data, size_t size, char bug) { second(data, size, bug); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 || (data[0] != 'A' && data[0] != 'U' && data[0] != 'M')) return 0;
  char bug = static_cast<char>(data[0]);
  if (data[1] == '0') {
    if (bug == 'A') {
      char* p = static_cast<char*>(std::malloc(4));
      g_keep = p;
      p[size + 2] = 1;
      std::free(p);
    } else if (bug == 'M') {
      int* p = static_cast<int*>(std::malloc(4 * sizeof(int)));
      p[0] = data[1];
      g_keep = &g_table[p[2 + size % 2] & 15];
      g_table[0] = *g_keep;
      std::free(p);
    } else {
      int big = INT_MAX - 1;
      g_keep = reinterpret_cast<char*>(static_cast<intptr_t>(big + data[1] + static_cast<int>(size)));
    }
  } else if (data[1] == '1') {
    if (bug == 'A') {
      overflow_heap(data, size + 2);
    } else if (bug == 'M') {
      read_uninitialized(data, size);
    } else {
      g_keep = reinterpret_cast<char*>(static_cast<intptr_t>(overflow_int(data, size)));
    }
  } else if (data[1] == '3') {
    first(data, size + (bug == 'A' ? 2 : 0), bug);
  }
  return 0;
}
