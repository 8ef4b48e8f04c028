// The corpus of one fuzzing run, in memory: seeds, committed testdata files, the cache,
// and what this run finds; de-duplicated by content; and which entry to fuzz next.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/pcg.h"
#include "corpus_format/value.h"

namespace cfuzz::core {

enum class Origin {
  Seed,      // f.add: "seed#N"
  Testdata,  // testdata/fuzz/<Name>/<file>
  Cache,     // the cache directory
  Found,     // new coverage found by this run
};
inline constexpr std::size_t kOrigins = 4;

struct CorpusEntry {
  std::string name;
  corpus::Entry values;
  // XXH3-64 of the entry's v1 file bytes: its content name (content_name.h) and its key in
  // the baseline file. The bytes themselves are not kept: 10^5 entries are read at start.
  std::uint64_t key = 0;
  std::uint64_t size = 0;        // bytes of its byte values
  std::uint64_t fuzz_calls = 0;  // times it was picked
  std::uint64_t found = 0;       // entries found while fuzzing it
  // How far its input-to-state candidates have been tried: the next call resumes there.
  std::uint64_t input_to_state_next = 0;
  bool input_to_state_done = false;
  std::uint32_t owned = 0;  // features for which it is the smallest entry ("favored")
  Origin origin = Origin::Found;
  // Counters (edges) that no earlier entry reached: where this entry opened new ground.
  // A few are kept; how many entries share them tells how rare the entry still is.
  std::vector<std::uint32_t> new_counters;
  // It reaches a function the change under test touched (`cfuzz run --since`): it is picked
  // as if favored, kFocusBoost times as often.
  bool focused = false;
  // Found: a long input mutated from a long file the run started with (or from another
  // such input) and kept as found (FuzzSession::shrink_grant); its bytes keep the file's
  // structure.
  bool from_long_file = false;
};

// An entry of these values, with its v1 encoding (none for an entry of no values) and size.
CorpusEntry make_corpus_entry(std::string name, Origin origin, corpus::Entry values);
// The same, with the key already made (XXH3-64 of corpus::encode(values)): a big cache
// encodes its entries on all CPUs while it is read.
CorpusEntry make_corpus_entry(std::string name, Origin origin, corpus::Entry values, std::uint64_t key);
// XXH3-64 of an entry's v1 encoding (of nothing, for an entry of no values).
std::uint64_t entry_key(const corpus::Entry& values);

// Length of the longest []byte or string value of an entry (0 if it has none).
std::uint64_t longest_byte_value(const corpus::Entry& values);

class Corpus {
 public:
  // How much more a focused entry weighs: enough that the entries reaching the changed code
  // get most of the calls while they are a few among many, not so much that the rest of the
  // corpus (the way into the changed code's other branches) starves.
  static constexpr double kFocusBoost = 8.0;

  // False (and nothing added) when an entry with the same content is already there.
  bool add(CorpusEntry entry);
  // Room for n entries in all: a big cache is loaded without the vector doubling its way up.
  void reserve(std::size_t n) { entries_.reserve(n); }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  CorpusEntry& at(std::size_t i) { return entries_[i]; }
  const CorpusEntry& at(std::size_t i) const { return entries_[i]; }

  // Records the coverage of entry i: its features, as bits of a bucketed snapshot
  // (counter index * 8 + bucket bit).
  void set_features(std::size_t i, const std::vector<std::uint32_t>& features);

  // The next entry to fuzz: an entry never fuzzed yet if there is one (oldest first),
  // else a weighted choice, most of the time among the favored entries. An entry is
  // favored when it is the smallest entry with some feature (AFL's favored queue entries):
  // the one that alone reaches a rare branch gets its share however big the corpus grows.
  // Within that, entries fuzzed less, that led to new coverage, and small ones weigh more,
  // and so does an entry that reached an edge few entries reach (libFuzzer's entropic
  // schedule and AFL++'s rare one favour the same): the first input past a check gets
  // several times the share of inputs that only changed how often a loop ran.
  std::size_t pick(Pcg& rng);

  // The longest []byte or string value of any entry.
  std::uint64_t longest_byte_value() const;

  // Features of a bucketed coverage snapshot.
  static std::vector<std::uint32_t> features_of(const std::uint8_t* snapshot, std::size_t n);

 private:
  double rarity(const CorpusEntry& e) const;

  std::vector<CorpusEntry> entries_;
  // Content hash -> entries with it: a lookup per add, not a scan (100k-entry corpora).
  std::unordered_multimap<std::uint64_t, std::size_t> by_hash_;
  std::size_t first_unfuzzed_ = 0;                        // no entry before it has fuzz_calls == 0
  std::unordered_map<std::uint32_t, std::size_t> owner_;  // feature -> smallest entry with it
  std::vector<std::uint32_t> holders_;                    // counter -> entries that reach it
};

}  // namespace cfuzz::core
