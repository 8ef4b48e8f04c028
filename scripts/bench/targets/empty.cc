// Pure driver overhead: the target does nothing.
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }
