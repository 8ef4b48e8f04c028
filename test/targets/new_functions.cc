// A libFuzzer harness for the lines libFuzzer prints about what fuzzing reached:
// - reached_by_mutation() runs only for inputs starting with 'x' (not the seeds the tests
//   give): the first such input gets a NEW_FUNC line naming it.
// - An 8-byte word anywhere in the input crashes it (a heap-buffer-overflow). The word is
//   recognized by its hash, so comparison tracing cannot find it: only a dictionary that
//   holds it ("MAGIC\nWD", a newline in it, so that its printed forms escape a byte) does,
//   and the crash line then names it after "DE:".
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

volatile int g_sink;

std::uint64_t fnv1a(const uint8_t* p, size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

__attribute__((noinline)) void reached_by_mutation(const uint8_t* data, size_t size) { g_sink = data[size - 1]; }

__attribute__((noinline)) void crash() {
  char* p = static_cast<char*>(std::malloc(8));
  g_sink = p[g_sink + 8];
  std::free(p);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size >= 2 && data[0] == 'x') reached_by_mutation(data, size);
  static const std::uint64_t kWord = fnv1a(reinterpret_cast<const uint8_t*>("MAGIC\nWD"), 8);
  for (size_t i = 0; i + 8 <= size; ++i) {
    if (fnv1a(data + i, 8) == kWord) crash();
  }
  return 0;
}
