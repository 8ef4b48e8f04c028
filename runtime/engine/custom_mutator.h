// Custom mutators: byte values that a target mutates itself, with libFuzzer's contract.
//   LLVMFuzzerCustomMutator(data, size, max_size, seed)   a libFuzzer harness's (optional)
//   LLVMFuzzerCustomCrossOver(d1, s1, d2, s2, out, max_out_size, seed)  likewise
//   f.custom_mutator(index, fn)                           a typed test's, for one argument
//   LLVMFuzzerMutate / cfuzz::mutate_bytes                provided here: cfuzz's byte mutator
//
// As in libFuzzer, a value with a custom mutator gets every mutation from it (half of them
// from the crossover, when there is one and a second corpus entry is at hand), and no
// input-to-state rewriting of its raw bytes; comparison guidance reaches it through
// LLVMFuzzerMutate, which runs the worker's own mutator with its dictionary and the
// operands the target compared.
#pragma once

#include <cfuzz/cfuzz.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/mutator.h"
#include "core/pcg.h"
#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/test_state.h"

namespace fuzzer::cfuzz {

// Thrown when a mutator breaks the contract (a size over max_size): the run stops with
// this message instead of fuzzing on with a broken mutator.
struct HarnessContractError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The custom mutators of one fuzz test, as the core mutator's hook for byte values.
class CustomMutators : public core::ValueMutator {
 public:
  // The libFuzzer harness's hooks for its one value, if it is that test and defines them;
  // else the test's f.custom_mutator calls.
  CustomMutators(const RegisteredTest& test, detail::TestState& f);

  bool empty() const { return entries_.empty(); }
  bool handles(std::uint32_t index) const { return find(index) != nullptr; }

  bool mutate_value(std::uint32_t index, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap,
                    const std::uint8_t* other, std::uint64_t other_len, core::Pcg& rng) override;

 private:
  using CrossOver = std::size_t (*)(const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t, std::uint8_t*,
                                    std::size_t, unsigned int);
  struct Entry {
    std::size_t index;
    CustomMutator mutate;  // or, for a domain's own mutator:
    detail::DomainMutator domain_mutate = nullptr;
    const void* domain = nullptr;
    CrossOver cross_over;    // may be null
    std::string name;        // for errors: "LLVMFuzzerCustomMutator", ...
    bool one_byte_fallback;  // libFuzzer's: an input no mutator changed becomes " "
  };
  const Entry* find(std::uint32_t index) const;

  std::vector<Entry> entries_;
  std::vector<std::uint8_t> buffer_;  // exactly max_size bytes, so ASan sees a write past it
};

// What LLVMFuzzerMutate uses while a worker fuzzes; without it (a harness calling it from a
// seed run or its own tests) a mutator of its own with a fixed seed.
void set_llvm_fuzzer_mutate_engine(core::Mutator* mutator, core::Pcg* rng);

}  // namespace fuzzer::cfuzz
