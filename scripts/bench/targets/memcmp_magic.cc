// Comparison guidance: an 8-byte memcmp magic.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* d, size_t size) {
  if (size >= 12 && memcmp(d + 4, "\x8cMAG1C\x07\xe4", 8) == 0) abort();
  return 0;
}
