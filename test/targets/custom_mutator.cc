// A libFuzzer harness with libFuzzer's custom mutator and crossover. Its input is a
// checksummed, scrambled record: 4 bytes of FNV-1a over the payload, then the payload XORed
// with 0x5A. The planted bug needs "FUZZ!" in the payload; mutating the raw bytes almost
// never keeps the checksum right, so it is found through the custom mutator (decode,
// LLVMFuzzerMutate, encode), as real structure-aware harnesses work.
//
// CFUZZ_TEST_MUTATOR changes what the hooks do, for the tests of the contract:
//   "called"     the target aborts once the custom mutator has run in its process
//   "crossover"  the same for the custom crossover
//   "too_long"   the custom mutator returns more than max_size
//   "crashes"    the custom mutator itself dies (SIGSEGV) on its first call
//   "noisy"      the target does nothing with its input, and the custom mutator takes one of
//                16 branches by its seed: none of that is the inputs' coverage
//   (unset)      the structure-aware fuzzing described above
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "scrambled_record.h"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

using scrambled_record::decode;
using scrambled_record::encode;

namespace {

std::string_view mode() {
  const char* m = std::getenv("CFUZZ_TEST_MUTATOR");
  return m != nullptr ? m : "";
}

bool custom_mutator_ran = false;
volatile int noise_sink;
bool custom_crossover_ran = false;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if ((mode() == "called" && custom_mutator_ran) || (mode() == "crossover" && custom_crossover_ran)) std::abort();
  if (mode() == "noisy") return 0;
  std::string payload;
  if (!decode(data, size, &payload)) return 0;
  if (payload.size() >= 5 && payload.compare(0, 1, "F") == 0 && payload.find("FUZZ!") != std::string::npos) {
    std::abort();  // the planted bug
  }
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  custom_mutator_ran = true;
  if (mode() == "too_long") return max_size + 1;
  // A custom mutator gets the run's whole length from the start, as in libFuzzer: length
  // control's first limit (4 bytes here) would starve an encoding.
  if (mode() == "full_length" && max_size < 4096) std::abort();
  if (mode() == "crashes") {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  if (mode() == "noisy") {
    switch (seed % 16) {
      case 0: noise_sink = 1; break;
      case 1: noise_sink = 2; break;
      case 2: noise_sink = 3; break;
      case 3: noise_sink = 4; break;
      case 4: noise_sink = 5; break;
      case 5: noise_sink = 6; break;
      case 6: noise_sink = 7; break;
      case 7: noise_sink = 8; break;
      default:
        for (unsigned i = 0; i < seed % 200; ++i) noise_sink = static_cast<int>(i);
        break;
    }
    data[0] = static_cast<std::uint8_t>(seed);
    return size > 0 ? size : 1;
  }
  std::string payload;
  if (!decode(data, size, &payload)) payload.clear();
  // Mutate the payload with the engine, in a buffer with room to grow.
  std::size_t room = max_size > 4 ? max_size - 4 : 0;
  payload.resize(room);
  std::size_t n = LLVMFuzzerMutate(reinterpret_cast<std::uint8_t*>(payload.data()),
                                   std::min(room, size >= 4 ? size - 4 : std::size_t{0}), room);
  if (n > room) __builtin_trap();  // LLVMFuzzerMutate must respect max_size (SIGILL, not the bug)
  payload.resize(n);
  (void)seed;
  return encode(payload, data, max_size);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1,
                                                 const std::uint8_t* data2, std::size_t size2, std::uint8_t* out,
                                                 std::size_t max_out_size, unsigned int seed) {
  custom_crossover_ran = true;
  std::string a, b;
  if (!decode(data1, size1, &a) || !decode(data2, size2, &b)) return 0;
  // The first half of one payload, the second of the other.
  std::string mixed = a.substr(0, a.size() / 2 + seed % 2) + b.substr(b.size() / 2);
  return encode(mixed, out, max_out_size);
}
