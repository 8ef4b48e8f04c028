// The search of one fuzzing run, made once for both front ends: which entry a fuzz call
// mutates and with what (the call's plan, the length control's limit, the dictionary's
// words), what a call's result teaches (the target's constants, how far the entry's
// input-to-state candidates got), and which inputs join the corpus (coverage the mask
// lacks, shrunk first within a share of the run).
//
// It decides; it executes nothing. `cfuzz run`'s coordinator holds one under its mutex and
// runs the calls in worker processes over RPC; the libFuzzer front end holds one and runs
// them in its own process with the fuzz engine. So a search change lands in both at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/corpus.h"
#include "core/dictionary.h"
#include "core/fuzz_call_plan.h"
#include "core/length_control.h"
#include "core/pcg.h"
#include "core/rpc.h"
#include "core/value_profile_switch.h"
#include "corpus_format/value.h"

namespace cfuzz::core {

// One fuzz call: what it mutates (plan.entry, crossed with plan.splice) and its parameters.
// The caller sets params.limit when a budget of executions bounds it.
struct FuzzCall {
  FuzzCallPlan plan;
  rpc::FuzzParams params;
};

// An input with coverage the mask lacks: the bits to keep while shrinking it.
struct NewCoverage {
  std::vector<std::uint8_t> keep;  // per counter: the new bucket bits
  std::size_t counters = 0;        // counters with a new bit; 0: nothing new
};

class FuzzSession {
 public:
  struct Settings {
    std::size_t counters = 0;  // the coverage mask's size
    std::uint64_t max_len = kDefaultMaxLen;
    std::uint64_t len_control = kDefaultLenControl;  // 0: every call may reach max_len
    std::uint64_t master_seed = 0;
    bool repeatable = false;  // count-bounded calls (repeatable_calls in core/fuzz_call_plan.h)
    bool only_ascii = false;  // libFuzzer's -only_ascii
    ValueProfileMode value_profile = ValueProfileMode::Off;  // core/value_profile_switch.h
    // Counters of the code under test (`cfuzz run --since`): an entry reaching one is focused.
    const std::vector<bool>* focus = nullptr;
  };
  // `initial`: the corpus as loaded (seeds, testdata, cache), if any.
  explicit FuzzSession(Settings s, Corpus initial = {});

  Corpus& corpus() { return corpus_; }
  const Corpus& corpus() const { return corpus_; }
  Dictionary& dictionary() { return dictionary_; }
  const Dictionary& dictionary() const { return dictionary_; }
  // Every feature the corpus reaches: per counter, its bucket bits.
  const std::vector<std::uint8_t>& mask() const { return mask_; }

  // Entry i ran with these features (the seeds' baseline, or what an earlier run measured):
  // they join the mask and weigh in the entry's schedule.
  void measured(std::size_t i, const std::vector<std::uint32_t>& features);

  // The seeds ran; fuzzing starts. An empty corpus gets the zero values of `types` (Go and
  // libFuzzer both fuzz from them), and the length control starts from the longest value.
  // True when the zero entry was added.
  bool begin_fuzzing(const std::vector<corpus::Type>& types);

  // The next call, once the run has made `total_execs` executions. Counts the call against
  // its entry.
  FuzzCall next_call(std::uint64_t total_execs);
  // What the call returned: the constants the target compared with, the dictionary words
  // that found new coverage, how far the entry's input-to-state candidates got.
  void absorb(const FuzzCall& call, const rpc::FuzzResult& r);

  // What of `snapshot` (an input's bucketed counters) the mask lacks.
  NewCoverage new_coverage(const std::uint8_t* snapshot) const;
  // Executions the next shrink of a new input of `input_bytes`, mutated from entry `base`,
  // may use once the run has made `total_execs` (0: keep it as found; always when it keeps
  // a long file's structure, kept_as_found); and what one used.
  std::uint64_t shrink_grant(std::uint64_t total_execs, std::uint64_t input_bytes,
                             std::optional<std::size_t> base) const {
    return kept_as_found(input_bytes, base) ? 0 : shrink_budget_.grant(total_execs);
  }
  void shrink_spent(std::uint64_t execs) { shrink_budget_.spent(execs); }

  // Takes `e` into the corpus if `snapshot` (its own bucketed counters) adds to the mask and
  // no entry has its content; `parent`: the entry whose fuzz call found it. Returns the
  // entry's index and the bits it added, or nothing.
  struct Admitted {
    std::size_t index = 0;
    std::size_t bits = 0;
    std::vector<std::uint32_t> features;
  };
  std::optional<Admitted> admit(CorpusEntry e, const std::uint8_t* snapshot, std::uint64_t total_execs,
                                std::optional<std::size_t> parent = std::nullopt);

  // Entries admit() took of this origin (Found: new coverage found by fuzzing; Cache:
  // entries other runs wrote, taken while this one ran).
  std::uint64_t admitted(Origin o) const { return admitted_[static_cast<std::size_t>(o)]; }

  std::uint64_t len_limit() const { return length_.current(); }
  std::uint64_t max_len() const { return settings_.max_len; }
  std::uint64_t input_to_state_execs() const { return input_to_state_budget_.used(); }

 private:
  // A new input of kLongestShrunkInput bytes or more, mutated from a long file the run
  // started with or from such an input kept as found, joins as found: shrinking would cut
  // the file's structure away. Long inputs the fuzzer grew from short ones are shrunk, so
  // that what made them new stays dense (a copy of the whole input then doubles it).
  bool kept_as_found(std::uint64_t input_bytes, std::optional<std::size_t> base) const {
    if (input_bytes < kLongestShrunkInput || !base || *base >= corpus_.size()) return false;
    const CorpusEntry& b = corpus_.at(*base);
    return b.origin == Origin::Found ? b.from_long_file : b.size >= kLongestShrunkInput;
  }
  void set_features(std::size_t i, const std::vector<std::uint32_t>& features);

  Settings settings_;
  Corpus corpus_;
  Dictionary dictionary_;
  std::vector<std::uint8_t> mask_;
  LengthControl length_;  // from the corpus as loaded; again from begin_fuzzing's
  InterestingMinimizeBudget shrink_budget_;
  InputToStateBudget input_to_state_budget_;
  ValueProfileSwitch value_profile_;
  Pcg rng_;
  std::uint64_t calls_ = 0;
  std::uint64_t admitted_[kOrigins] = {};  // by Origin
};

}  // namespace cfuzz::core
