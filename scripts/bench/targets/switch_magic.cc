// Comparison guidance: switches over magic values, two levels deep.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* d, size_t size) {
  if (size < 8) return 0;
  uint32_t a, b;
  memcpy(&a, d, 4);
  memcpy(&b, d + 4, 4);
  switch (a) {
    case 0x50415253: return 1;
    case 0x4c4f4144:
      switch (b) {
        case 0x00000001: return 2;
        case 0x7fe4c0de: abort();
        case 0x13371337: return 3;
      }
      return 4;
    case 0xfeedface: return 5;
  }
  return 0;
}
