// libFuzzer's structure-aware fuzzing contract, for libFuzzer harnesses:
//   LLVMFuzzerCustomMutator(data, size, max_size, seed)   defined by the harness (optional)
//   LLVMFuzzerCustomCrossOver(d1, s1, d2, s2, out, max_out_size, seed)  likewise
//   LLVMFuzzerMutate(data, size, max_size)               provided here: cfuzz's byte mutator
//
// As in libFuzzer, a harness with a custom mutator gets every mutation from it (half of them
// from its crossover, when it has one and a second corpus entry is at hand), and no
// input-to-state rewriting of its raw bytes; comparison guidance reaches it through
// LLVMFuzzerMutate, which runs the worker's own mutator with its dictionary and the
// operands the target compared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include <cfuzz/cfuzz.h>

#include "core/mutator.h"
#include "core/pcg.h"
#include "core/shm_layout.h"

namespace cfuzz::runtime {

// Thrown when the harness breaks the contract (a size over max_size): the run stops with
// this message instead of fuzzing on with a broken mutator.
struct HarnessContractError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class CustomMutator {
 public:
  // Whether the binary's harness defines LLVMFuzzerCustomMutator.
  static bool available();

  // Mutates the one []byte value of `input` in place (crossing over with `splice`'s, if
  // given), to at most `max_len` bytes.
  void mutate(core::InputAreaHeader& input, const core::InputAreaHeader* splice, std::uint64_t max_len,
              core::Pcg& rng);

 private:
  std::vector<std::uint8_t> buffer_;  // exactly max_size bytes, so ASan sees a write past it
};

// The custom mutators a typed fuzz test gave for some of its arguments (F::custom_mutator),
// as the mutator's hook: each gets a heap buffer of exactly the room it may use.
class ArgumentMutators : public core::ValueMutator {
 public:
  explicit ArgumentMutators(std::vector<std::pair<std::size_t, cfuzz::CustomMutator>> mutators)
      : mutators_(std::move(mutators)) {}
  bool empty() const { return mutators_.empty(); }
  bool mutate_value(std::uint32_t index, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap,
                    core::Pcg& rng) override;

 private:
  std::vector<std::pair<std::size_t, cfuzz::CustomMutator>> mutators_;
  std::vector<std::uint8_t> buffer_;
};

// What LLVMFuzzerMutate uses while a worker fuzzes; without it (a harness calling it from a
// seed run or its own tests) a mutator of its own with a fixed seed.
void set_llvm_fuzzer_mutate_engine(core::Mutator* mutator, core::Pcg* rng);

}  // namespace cfuzz::runtime
