// A long run of one byte: the bug needs 32 '=' in a row somewhere in the input. The only
// feedback is how often the branch that extends a run is taken.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  size_t run = 0, longest = 0;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '=') {
      ++run;
      if (run > longest) longest = run;
    } else {
      run = 0;
    }
  }
  if (longest >= 32) abort();
  return 0;
}
