// A slow target: the same few microseconds of work for every input, whatever its length
// (so that execs/sec compares the drivers, not the lengths of the inputs they try), and a
// little coverage.
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  volatile uint64_t h = 1469598103934665603ULL;
  for (int round = 0; round < 256; ++round) {
    for (size_t i = 0; i < 16; ++i) h = (h ^ (size > 0 ? data[i % size] : 0)) * 1099511628211ULL;
  }
  if (size > 0 && data[0] == 'S') h = h + 1;
  return 0;
}
