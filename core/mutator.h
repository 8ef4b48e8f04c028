// The mutation engine: changes one value of an input in place.
//
// It follows Go's mutator (one value picked uniformly, Go's 18 byte operators with their
// bias towards short ranges, small steps on numbers) and adds what libFuzzer and AFL++
// have and Go lacks: splicing with another corpus entry, interesting values for numbers
// and floats, and insertion of dictionary words (user dictionaries and comparison operands
// the target was seen to use). It works directly on an input area in shared memory, so the
// worker executes, and the coordinator can recover, exactly what it produced.
//
// Everything it does is a function of the PRNG state, the input, the splice partner and
// the dictionary, so a run with a fixed `--seed` repeats itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/pcg.h"
#include "core/shm_layout.h"
#include "corpus_format/value.h"

namespace cfuzz::core {

// Words the mutator may insert or write over input bytes: a user dictionary, and words
// learned from the target's comparisons. Kept outside the mutator so that the worker can
// refresh the learned part between executions without the mutator allocating.
class WordSource {
 public:
  virtual ~WordSource() = default;
  // A word to insert or write over input bytes: a dictionary word, or an operand of a
  // comparison the target made lately (libFuzzer's use of its table of recent compares).
  // Empty when there is none.
  virtual std::string_view pick_word(Pcg& rng) const = 0;

  // Input-to-state: bytes of the input that the target compared with something else, and
  // what they were compared with. Replacing `old_len` bytes at `pos` by `bytes` makes that
  // comparison come out the other way.
  struct Replacement {
    std::size_t pos;
    std::size_t old_len;
    std::string_view bytes;
  };
  virtual bool replacement_for(const std::uint8_t* data, std::size_t len, Pcg& rng, Replacement* out) const = 0;

  // An integer the target compared a value of this width with (the value itself, if it
  // was one side, gets the other side), or false when none is known.
  virtual bool integer_for(std::uint64_t current, int width_bytes, Pcg& rng, std::uint64_t* out) const = 0;

  // Just past a place where the input matched what the target compared it with (a keyword
  // the parser accepted, "depth=" in "SET depth="): where the parser reads next. False when
  // no such match is in the input.
  virtual bool position_after_match(const std::uint8_t* data, std::size_t len, Pcg& rng, std::size_t* pos) const {
    (void)data, (void)len, (void)rng, (void)pos;
    return false;
  }
};

// Mutations of a byte value that someone else makes: a target's custom mutator
// (runtime/engine/custom_mutator.h). `other` is the splice partner's value of the same index (may
// be null). Returns false for values it does not handle.
class ValueMutator {
 public:
  virtual ~ValueMutator() = default;
  virtual bool mutate_value(std::uint32_t index, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap,
                            const std::uint8_t* other, std::uint64_t other_len, Pcg& rng) = 0;
  // The same for a scalar value (in a slot's form); false for values it does not handle.
  virtual bool mutate_bits(std::uint32_t index, std::uint64_t* bits, Pcg& rng) {
    (void)index, (void)bits, (void)rng;
    return false;
  }
  // Whether the last mutation ran the target's own (instrumented) code, whose coverage is
  // not the coverage of the input it made.
  virtual bool ran_target_code() const { return true; }
};

// One mutation of a scalar value of type `type` (not []byte or string), given and returned
// as in a slot: integers sign- or zero-extended, floats as their bit pattern.
std::uint64_t mutate_scalar(std::uint64_t bits, corpus::Type type, Pcg& rng, const WordSource* words);

class Mutator {
 public:
  // `max_len` bounds the length of every byte value the mutator grows (a longer seed value
  // is shrunk or changed in place, never grown).
  explicit Mutator(std::size_t max_len);

  void set_words(const WordSource* words) { words_ = words; }
  // A new limit (length control raises it as a run goes on); allocates only to grow.
  void set_max_len(std::size_t max_len);
  void set_value_mutator(ValueMutator* m) { value_mutator_ = m; }
  ValueMutator* value_mutator() const { return value_mutator_; }
  std::size_t max_len() const { return max_len_; }

  // Applies one mutation to one value of `input`. `splice` (may be null or empty) is
  // another corpus entry whose values of the same type may be mixed in. Returns true when
  // the value mutator made it.
  bool mutate(InputAreaHeader& input, const InputAreaHeader* splice, Pcg& rng);

  // The operators of the mutations made since begin_sequence(), for libFuzzer's
  // "MS: 2 EraseBytes-CrossOver-" on the lines of a new unit and of a crash: a byte of
  // operator id a mutation, the first kMaxSequence kept, named only when described.
  static constexpr std::size_t kMaxSequence = 8;
  void begin_sequence() { sequence_len_ = 0; }
  // An input-to-state replacement (libFuzzer's CMP), made by the engine rather than here.
  void note_comparison_replacement() { note(kComparisonOp); }
  // "N Name-Name-" into `out` (always terminated); returns the length written.
  std::size_t describe_sequence(char* out, std::size_t cap) const;

  // The byte-level engine, exposed for tests: mutates data[0, *len) with room up to `cap`.
  void mutate_bytes(std::uint8_t* data, std::uint64_t* len, std::uint64_t cap, const std::uint8_t* other,
                    std::uint64_t other_len, Pcg& rng);

 private:
  // Ids past the byte operators' (mutator.cc's kByteOps).
  static constexpr std::uint8_t kScalarOp = 64, kValueMutatorOp = 65, kGrowOp = 66, kFlipOp = 67, kComparisonOp = 68;
  void note(std::uint8_t op) {
    if (sequence_len_ < kMaxSequence) sequence_[sequence_len_] = op;
    ++sequence_len_;
  }

  std::size_t max_len_;
  std::uint8_t sequence_[kMaxSequence] = {};
  std::uint32_t sequence_len_ = 0;
  const WordSource* words_ = nullptr;
  ValueMutator* value_mutator_ = nullptr;
  std::vector<std::uint8_t> scratch_;  // for swapping chunks; sized once
};

}  // namespace cfuzz::core
