// The corpus of one fuzzing run, in memory: seeds, committed testdata files, the cache,
// and what this run finds; de-duplicated by content; and which entry to fuzz next.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/pcg.h"
#include "corpus_format/value.h"

namespace cfuzz::driver {

enum class Origin {
  Seed,      // f.add: "seed#N"
  Testdata,  // testdata/fuzz/<Name>/<file>
  Cache,     // the cache directory
  Found,     // new coverage found by this run
};

struct CorpusEntry {
  std::string name;
  Origin origin = Origin::Found;
  corpus::Entry values;
  std::string encoded;  // the entry's v1 file bytes
  std::uint64_t size = 0;       // bytes of its byte values
  std::uint64_t fuzz_calls = 0; // times it was picked
  std::uint64_t found = 0;      // entries found while fuzzing it
};

class Corpus {
 public:
  // False (and nothing added) when an entry with the same content is already there.
  bool add(CorpusEntry entry);
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  CorpusEntry& at(std::size_t i) { return entries_[i]; }
  const CorpusEntry& at(std::size_t i) const { return entries_[i]; }

  // The next entry to fuzz: an entry never fuzzed yet if there is one (oldest first),
  // else a weighted choice. Every entry gets turns, as in Go's round robin, but entries
  // that have been fuzzed less, that led to new coverage, and that are small get more
  // (in the spirit of AFL's favoured entries and libFuzzer's energy), which keeps the
  // search near recent progress and the inputs short.
  std::size_t pick(core::Pcg& rng);

 private:
  std::vector<CorpusEntry> entries_;
  std::vector<std::uint64_t> hashes_;
  std::size_t first_unfuzzed_ = 0;  // no entry before it has fuzz_calls == 0
};

}  // namespace cfuzz::driver
