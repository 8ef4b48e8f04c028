#include "runtime/engine/custom_mutator.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "runtime/failure/crash_handler.h"

extern "C" {
// Weak: defined by the harness, if it has them.
std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed)
    __attribute__((weak));
std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1, const std::uint8_t* data2,
                                      std::size_t size2, std::uint8_t* out, std::size_t max_out_size, unsigned int seed)
    __attribute__((weak));
std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);
}

namespace fuzzer::cfuzz {

namespace {

core::Mutator* g_engine_mutator = nullptr;
core::Pcg* g_engine_rng = nullptr;

// libFuzzer tries a mutator this many times when it returns 0 (nothing done) before it
// gives up on the input (MutationDispatcher::MutateImpl).
constexpr int kAttempts = 100;

}  // namespace

CustomMutators::CustomMutators(const RegisteredTest& test, detail::TestState& f) {
  if (test.name == kHarnessTestName && LLVMFuzzerCustomMutator != nullptr) {
    entries_.push_back(Entry{0, LLVMFuzzerCustomMutator, nullptr, nullptr, LLVMFuzzerCustomCrossOver,
                             "LLVMFuzzerCustomMutator", true});
  }
  for (const auto& [index, fn] : f.custom_mutators()) {
    entries_.push_back(
        Entry{index, fn, nullptr, nullptr, nullptr, "the custom mutator of argument " + std::to_string(index), false});
  }
  for (const auto& d : f.domain_mutators()) {
    entries_.push_back(
        Entry{d.index, nullptr, d.fn, d.domain, nullptr, "the domain of argument " + std::to_string(d.index), false});
  }
}

const CustomMutators::Entry* CustomMutators::find(std::uint32_t index) const {
  for (const auto& e : entries_) {
    if (e.index == index) return &e;
  }
  return nullptr;
}

bool CustomMutators::mutate_value(std::uint32_t index, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap,
                                  const std::uint8_t* other, std::uint64_t other_len, core::Pcg& rng) {
  const Entry* e = find(index);
  if (e == nullptr || cap == 0) return false;
  buffer_.resize(cap);
  // A death inside the hook is the mutator's failure, not the input's (crash_handler.h).
  core::FailureRecord* record = execution_state().record;
  record->flags |= core::kFailureInCustomMutator;
  struct Unmark {
    core::FailureRecord* r;
    ~Unmark() { r->flags &= ~core::kFailureInCustomMutator; }
  } unmark{record};
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    bool cross = e->cross_over != nullptr && other != nullptr && other_len > 0 && rng.below(2) == 0;
    std::size_t n;
    if (cross) {
      n = e->cross_over(data, *len, other, other_len, buffer_.data(), cap, rng.next32());
    } else {
      std::memcpy(buffer_.data(), data, *len);
      n = e->domain_mutate != nullptr ? e->domain_mutate(e->domain, buffer_.data(), *len, cap, rng.next32())
                                      : e->mutate(buffer_.data(), *len, cap, rng.next32());
    }
    if (n > cap) {
      throw HarnessContractError((cross ? std::string("LLVMFuzzerCustomCrossOver") : e->name) + " returned " +
                                 std::to_string(n) + " bytes, more than the max_size of " + std::to_string(cap) +
                                 " it was given");
    }
    if (n == 0) continue;
    std::memcpy(data, buffer_.data(), n);
    *len = n;
    return true;
  }
  if (e->one_byte_fallback) {
    data[0] = ' ';
    *len = 1;
  }
  return true;  // otherwise left as it was
}

void set_llvm_fuzzer_mutate_engine(core::Mutator* mutator, core::Pcg* rng) {
  g_engine_mutator = mutator;
  g_engine_rng = rng;
}

}  // namespace fuzzer::cfuzz

std::size_t cfuzz::mutate_bytes(std::uint8_t* data, std::size_t size, std::size_t max_size) {
  return LLVMFuzzerMutate(data, size, max_size);
}

// cfuzz's byte mutator for harnesses: one mutation of data[0, size) within max_size bytes.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size) {
  using namespace cfuzz;
  static core::Pcg fallback_rng;
  static std::unique_ptr<core::Mutator> fallback_mutator;
  if (max_size == 0) return 0;
  core::Mutator* m = runtime::g_engine_mutator;
  core::Pcg* rng = runtime::g_engine_rng != nullptr ? runtime::g_engine_rng : &fallback_rng;
  // The mutator's scratch space holds max_len bytes: a larger buffer (a harness's own
  // max_size, a seed longer than --max-len) gets a mutator of its size.
  if (m == nullptr || m->max_len() < max_size) {
    if (fallback_mutator == nullptr || fallback_mutator->max_len() < max_size) {
      fallback_mutator = std::make_unique<core::Mutator>(max_size);
    }
    m = fallback_mutator.get();
  }
  std::uint64_t len = std::min(size, max_size);
  m->mutate_bytes(data, &len, max_size, nullptr, 0, *rng);
  return static_cast<std::size_t>(len);
}
