// A counter that must reach N: the bug needs 24 places where a byte is one more than the
// byte before it. Progress shows only in how often one branch runs (hit-count buckets).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int steps = 0;
  for (size_t i = 1; i < size; ++i) {
    if (data[i] == static_cast<uint8_t>(data[i - 1] + 1)) ++steps;
  }
  if (steps >= 24) abort();
  return 0;
}
