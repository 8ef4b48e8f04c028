// The fuzz target of fuzz_engine_test.cc: an ordinary libFuzzer harness, compiled with
// SanitizerCoverage as cfuzz-clang++ compiles targets (-fsanitize=fuzzer-no-link: 8-bit
// counters, PC table, comparison tracing, stack depth), so the engine scans real counters
// and records real comparisons, of one to eight bytes.
//
// It has no loop and no recursion: every block runs at most once per input, so its counters
// only ever hold 0 or 1, and the inputs in kEngineHarnessSeeds, which reach every block
// between them, saturate its coverage. No input can be new after them: a fuzz call runs
// to its limit.
#include "test/runtime/engine_harness.h"

#include <cstring>

std::uint64_t cfuzz::runtime::engine_test::g_harness_runs = 0;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ++cfuzz::runtime::engine_test::g_harness_runs;
  if (size < 4) return 0;
  if (data[0] != 'E') return 0;
  std::uint16_t kind;
  std::memcpy(&kind, data + 1, sizeof kind);
  int score = 0;
  if (kind == 0x4e47) score += 1;  // "GN"
  if (data[3] == 'a') score += 2;
  if (size >= 8) {
    std::uint32_t magic;
    std::memcpy(&magic, data + 4, sizeof magic);
    if (magic == 0x21454e49) score += 4;  // "INE!"
  }
  return score > 6 ? 0 : -1;  // libFuzzer's "do not keep" (-1): ignored by cfuzz
}
