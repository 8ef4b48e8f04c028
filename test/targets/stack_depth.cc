// Inputs that differ only in how deep they take the stack: the first byte sizes an alloca,
// and nothing else about the run changes (the same edges, the same hit counts). Only the
// stack-depth feature (runtime/engine/stack_depth_feature.h) tells them apart.
#include <alloca.h>
#include <cfuzz/cfuzz.h>

#include <cstdint>
#include <span>

namespace {

__attribute__((noinline)) void sink(volatile char* p) { p[0] = 1; }

// Not a leaf: SanitizerCoverage records the stack pointer on entry only in functions that
// call others.
__attribute__((noinline)) void below(volatile char* p) {
  sink(p);
  sink(p + 1);
}

}  // namespace

CFUZZ_TEST(FuzzStackDepth, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> input) {
    std::size_t bytes = 16 + (input.empty() ? 0 : input[0]) * 64u;
    auto* p = static_cast<volatile char*>(alloca(bytes));
    below(p);
  });
}
