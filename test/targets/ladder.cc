// A libFuzzer harness with a ladder of byte checks and no bug: each rung is one more edge,
// reached only past the ones before it. Both front ends climb it from nothing within a few
// thousand executions, which makes it a target to compare what each admits on the way.
#include <cstddef>
#include <cstdint>

static volatile int top;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || data[0] != 'L') return 0;
  top = 1;
  if (size < 2 || data[1] != 'A') return 0;
  top = 2;
  if (size < 3 || data[2] != 'D') return 0;
  top = 3;
  if (size < 4 || data[3] != 'D') return 0;
  top = 4;
  if (size < 5 || data[4] != 'E') return 0;
  top = 5;
  if (size < 6 || data[5] != 'R') return 0;
  top = 6;
  return 0;
}
