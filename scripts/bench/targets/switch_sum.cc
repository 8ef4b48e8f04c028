// Values behind integer transforms (in the manner of libFuzzer's Switch2Test): three 32-bit
// fields each go through a dense switch, which the compiler turns into a range check on
// x - 400001 and a lookup table. The only comparisons the fuzzer sees are (x - 400001, 3)
// and (sum, constant): the input never holds an operand. The bug needs the three fields to
// pick table entries that add up to 543 or 83.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

__attribute__((noinline)) int weight(int x) {
  switch (x) {
    case 400001: return 3;
    case 400002: return 40;
    case 400003: return 500;
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* d, size_t size) {
  if (size < 12) return 0;
  int sum = 0;
  for (int i = 0; i < 3; ++i) {
    int x;
    memcpy(&x, d + 4 * i, 4);
    sum += weight(x);
  }
  if (sum == 543 || sum == 83) abort();
  return 0;
}
