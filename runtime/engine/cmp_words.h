// What the mutator learns from the target's comparisons and from dictionaries: the
// worker's core::WordSource.
//
// - Dictionary words: the user's --dict files and the coordinator's automatic dictionary
//   (constants the target compared with in earlier calls), handed over with each call.
// - Input-to-state replacements: the comparisons the base input of this call made (run
//   once, unmutated, at the start of the call) and the recent ones. When the input holds
//   one operand of a comparison, that operand is replaced by the other (both byte orders
//   for integers, also in each narrower width both operands fit in, as for a 16-bit field
//   compared after C's integer promotion, and +-1 for ordering comparisons), which turns a
//   2^32 or 2^64 guess into one step: REDQUEEN's input-to-state correspondence, libFuzzer's
//   table of recent compares. An integer operand is also looked for as decimal text (a number the target
//   parsed before comparing) and replaced by the other operand's digits. The base input's
//   own comparisons matter most: every mutation chain starts from it, so its operands are
//   where they were recorded.
// - Operands for typed integer arguments.
//
// It also notes which words the current mutation chain used (to credit them when the
// chain finds coverage: the "recommended dictionary") and which constants of this call
// the dictionary does not have yet.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/mutator.h"
#include "runtime/engine/cmp_table.h"
#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

class CmpWords : public core::WordSource {
 public:
  // `live` is recorded as the target runs; `base` is the copy taken after the base input's
  // run.
  CmpWords(const CmpTable& live, const CmpTable& base) : table_(live), base_(base) {}

  // The dictionary for the next call; words are raw bytes.
  void set_dictionary(std::vector<std::string> words);
  // A new mutation chain starts from the base input: forget the words used so far.
  void begin_chain() { used_count_ = 0; }
  // The words the current chain inserted (at most a few).
  std::vector<std::string> chain_words() const;
  // The same without allocating, for a crash report: chain_word(0 .. chain_word_count()-1).
  std::size_t chain_word_count() const { return used_count_; }
  std::string_view chain_word(std::size_t i) const { return {used_[i].bytes, used_[i].len}; }
  // The input-to-state stage (AFL++'s REDQUEEN): rather than wait for random picks, try
  // every operand of the base input's comparisons where it occurs in the base input, once.
  // Each candidate is one replacement in one value of the base input.
  struct Candidate {
    std::uint32_t value;  // index of the value in the entry
    std::size_t pos;      // byte values: where
    std::size_t old_len;
    std::string bytes;    // byte values: what to write; scalars: the new bits (8 bytes LE)
    bool is_word = true;  // false: filler bytes, not worth a dictionary entry
  };
  std::vector<Candidate> input_to_state_candidates(const core::InputAreaHeader& base, std::size_t max) const;

  // Chained input-to-state: once a candidate has run without new coverage, the comparisons
  // that run made and the base input's run did not (a checksum over the bytes it changed, a
  // count that no longer agrees), where the mutated input holds one operand, each give a
  // second replacement on top of the first. A field that a check covers is then mended in
  // the step that changed it, which one replacement at a time never does. Written into
  // `out` (at most `max`, without allocating: this runs between executions).
  enum class ByteOrder : std::uint8_t { Unknown, Little, Big };
  struct FollowUp {
    std::uint32_t value;
    std::size_t pos;
    std::size_t old_len;
    std::uint8_t len;
    std::uint8_t bytes[CmpTable::kMaxBytes];
    std::uint32_t comparison;  // the comparison it answers (its site; with the top bit, a byte comparison's slot)
    ByteOrder order;           // of the integer it wrote, where the input's bytes showed it
    std::string_view replacement() const { return {reinterpret_cast<const char*>(bytes), len}; }
  };
  // The bytes of the step just made, which the next step leaves alone.
  struct Kept {
    std::uint32_t value;
    std::size_t pos, len;
  };
  // `prefer`: the byte order to try first (the one the chain's steps have shown so far).
  std::size_t follow_ups(const core::InputAreaHeader& input, const core::InputAreaHeader& base, CmpTable::Mark since,
                         const Kept* kept, ByteOrder prefer, FollowUp* out, std::size_t max) const;

  // Constants seen in this call's comparisons that the dictionary lacks, at most `max`.
  std::vector<std::string> new_constants(std::size_t max) const;

  std::string_view pick_word(core::Pcg& rng) const override;
  bool replacement_for(const std::uint8_t* data, std::size_t len, core::Pcg& rng, Replacement* out) const override;
  bool integer_for(std::uint64_t current, int width_bytes, core::Pcg& rng, std::uint64_t* out) const override;
  bool position_after_match(const std::uint8_t* data, std::size_t len, core::Pcg& rng, std::size_t* pos) const override;

 private:
  void note_used(std::string_view w) const;
  void add_decimal_candidates(std::uint32_t v, const std::uint8_t* data, std::size_t len, std::size_t max,
                              std::vector<Candidate>* out) const;
  // A size compared with a constant: the difference inserted or deleted where the size may
  // have been measured.
  static constexpr std::size_t kLengthCandidates = 192;
  void add_length_candidates(std::uint32_t v, const std::uint8_t* data, std::size_t len, std::size_t max,
                             std::vector<Candidate>* out) const;
  void add_arithmetic_candidates(std::uint32_t v, const std::uint8_t* data, std::size_t len, std::size_t max,
                                 std::vector<Candidate>* out) const;
  bool replace_int(const CmpTable::IntCmp& c, const std::uint8_t* data, std::size_t len, core::Pcg& rng,
                   Replacement* out) const;
  bool replace_bytes(const CmpTable::ByteCmp& c, const std::uint8_t* data, std::size_t len, core::Pcg& rng,
                     Replacement* out) const;

  const CmpTable& table_;
  const CmpTable& base_;
  std::vector<std::string> dict_;
  std::unordered_set<std::string> dict_set_;
  // The replacement bytes handed out last (a Replacement points here).
  mutable std::uint8_t scratch_[CmpTable::kMaxBytes];
  struct Used {
    std::uint8_t len;
    char bytes[CmpTable::kMaxBytes];
  };
  mutable Used used_[8];
  mutable std::size_t used_count_ = 0;
};

}  // namespace fuzzer::cfuzz
