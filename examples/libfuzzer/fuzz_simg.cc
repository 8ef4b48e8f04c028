// A libFuzzer harness, unmodified: it builds with clang++ -fsanitize=fuzzer (libFuzzer's
// own main) and with cfuzz-clang++ (cfuzz's), and runs under both.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "simg.h"

// Called once before the first input. Unknown chunks are common in fuzzed data, and a
// warning for each would bury the fuzzer's own output.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  simg_set_warning_handler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simg_info info;
  if (simg_parse(data, size, &info) != 0) return 0;
  // What a parsed header promises: a nonzero size and a title that is a C string.
  if (info.width == 0 || info.height == 0) abort();
  simg_free(&info);
  return 0;
}
