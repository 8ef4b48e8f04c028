// libFuzzer API compatibility: a binary that defines LLVMFuzzerTestOneInput is a cfuzz
// target with one fuzz test of that name taking one []byte, so existing harnesses (and
// OSS-Fuzz's) build and run unchanged.
#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/registry.h"
#include "runtime/failure/memory_sanitizer.h"

extern "C" {
// Weak: defined by the harness, if it is one.
int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) __attribute__((weak));
int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));
}

namespace fuzzer::cfuzz {

namespace {

void libfuzzer_body(F& f) {
  f.fuzz([](T&, std::span<const std::uint8_t> data) {
    // libFuzzer's return value only asks it not to keep the input (-1); cfuzz keeps
    // inputs by coverage alone, so the value is ignored.
    msan_unpoison_params(2);
    (void)LLVMFuzzerTestOneInput(data.data(), data.size());
  });
}

}  // namespace

void register_libfuzzer_harness(int* argc, char*** argv) {
  if (LLVMFuzzerTestOneInput == nullptr) return;
  if (LLVMFuzzerInitialize != nullptr) {
    msan_unpoison_params(2);
    LLVMFuzzerInitialize(argc, argv);
  }
  detail::register_test(kHarnessTestName, &libfuzzer_body, "libFuzzer harness", 0);
}

}  // namespace fuzzer::cfuzz
