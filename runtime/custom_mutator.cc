#include "runtime/custom_mutator.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

extern "C" {
// Weak: defined by the harness, if it has them.
std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                    unsigned int seed) __attribute__((weak));
std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1, const std::uint8_t* data2,
                                      std::size_t size2, std::uint8_t* out, std::size_t max_out_size,
                                      unsigned int seed) __attribute__((weak));
std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);
}

namespace cfuzz::runtime {

namespace {

core::Mutator* g_engine_mutator = nullptr;
core::Pcg* g_engine_rng = nullptr;

// libFuzzer tries a mutator this many times when it returns 0 (nothing done) before it
// gives up on the input (MutationDispatcher::MutateImpl).
constexpr int kAttempts = 100;

[[noreturn]] void too_long(const char* who, std::size_t got, std::size_t max_size) {
  throw HarnessContractError(std::string(who) + " returned " + std::to_string(got) +
                             " bytes, more than the max_size of " + std::to_string(max_size) +
                             " it was given");
}

}  // namespace

bool CustomMutator::available() { return LLVMFuzzerCustomMutator != nullptr; }

void CustomMutator::mutate(core::InputAreaHeader& input, const core::InputAreaHeader* splice,
                           std::uint64_t max_len, core::Pcg& rng) {
  core::SlotHeader& slot = input.slots[0];
  std::uint8_t* data = core::ShmView::slot_data(input, 0);
  std::size_t max_size = std::min<std::uint64_t>(std::max<std::uint64_t>(max_len, slot.len), input.slot_capacity);
  if (max_size == 0) return;
  buffer_.resize(max_size);
  const std::uint8_t* other = nullptr;
  std::size_t other_len = 0;
  if (splice != nullptr && splice->count == 1 && splice->slots[0].len > 0) {
    other = core::ShmView::slot_data(*splice, 0);
    other_len = std::min<std::uint64_t>(splice->slots[0].len, splice->slot_capacity);
  }
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::size_t n = 0;
    bool cross = LLVMFuzzerCustomCrossOver != nullptr && other != nullptr && rng.below(2) == 0;
    if (cross) {
      n = LLVMFuzzerCustomCrossOver(data, slot.len, other, other_len, buffer_.data(), max_size, rng.next32());
      if (n > max_size) too_long("LLVMFuzzerCustomCrossOver", n, max_size);
    } else {
      std::memcpy(buffer_.data(), data, slot.len);
      n = LLVMFuzzerCustomMutator(buffer_.data(), slot.len, max_size, rng.next32());
      if (n > max_size) too_long("LLVMFuzzerCustomMutator", n, max_size);
    }
    if (n == 0) continue;
    std::memcpy(data, buffer_.data(), n);
    slot.len = n;
    return;
  }
  // libFuzzer's fallback when nothing mutated the input: a one-byte input.
  data[0] = ' ';
  slot.len = 1;
}

bool ArgumentMutators::mutate_value(std::uint32_t index, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap,
                                    core::Pcg& rng) {
  cfuzz::CustomMutator fn = nullptr;
  for (const auto& [i, m] : mutators_) {
    if (i == index) fn = m;
  }
  if (fn == nullptr || cap == 0) return false;
  buffer_.resize(cap);
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::memcpy(buffer_.data(), data, *len);
    std::size_t n = fn(buffer_.data(), *len, cap, rng.next32());
    if (n > cap) too_long(("the custom mutator of argument " + std::to_string(index)).c_str(), n, cap);
    if (n == 0) continue;
    std::memcpy(data, buffer_.data(), n);
    *len = n;
    return true;
  }
  return true;  // it never changed the value: leave it as it was
}

void set_llvm_fuzzer_mutate_engine(core::Mutator* mutator, core::Pcg* rng) {
  g_engine_mutator = mutator;
  g_engine_rng = rng;
}

}  // namespace cfuzz::runtime

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
