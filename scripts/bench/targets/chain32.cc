// Comparison guidance: a chain of four 32-bit equalities.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint32_t u32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* d, size_t size) {
  if (size < 16) return 0;
  if (u32(d) == 0x1badcafe)
    if (u32(d + 4) == 0x8badf00d)
      if (u32(d + 8) == 0xdeadbeef)
        if (u32(d + 12) == 0x0ddba11f) abort();
  return 0;
}
