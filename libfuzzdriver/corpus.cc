#include "libfuzzdriver/corpus.h"

#include <algorithm>
#include <cmath>

#include <xxhash.h>

namespace cfuzz::driver {

bool Corpus::add(CorpusEntry entry) {
  std::uint64_t h = XXH3_64bits(entry.encoded.data(), entry.encoded.size());
  for (std::size_t i = 0; i < hashes_.size(); ++i) {
    if (hashes_[i] == h && entries_[i].encoded == entry.encoded) return false;
  }
  hashes_.push_back(h);
  entries_.push_back(std::move(entry));
  return true;
}

std::size_t Corpus::pick(core::Pcg& rng) {
  if (entries_.size() <= 1) return 0;
  // New entries first, oldest first: what just found coverage is next to the coverage not
  // found yet (AFL fuzzes new queue entries before it goes round again).
  for (std::size_t i = first_unfuzzed_; i < entries_.size(); ++i) {
    if (entries_[i].fuzz_calls == 0) {
      first_unfuzzed_ = i;
      return i;
    }
  }
  first_unfuzzed_ = entries_.size();
  double total = 0;
  std::vector<double> weights(entries_.size());
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const CorpusEntry& e = entries_[i];
    double freshness = 1.0 / (1.0 + static_cast<double>(e.fuzz_calls) / 8.0);
    double success = 1.0 + 2.0 * static_cast<double>(std::min<std::uint64_t>(e.found, 8));
    double smallness = 1.0 / (1.0 + std::log2(1.0 + static_cast<double>(e.size) / 64.0));
    weights[i] = freshness * success * smallness + 1e-3;
    total += weights[i];
  }
  double x = static_cast<double>(rng.next32()) / 4294967296.0 * total;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  return entries_.size() - 1;
}

}  // namespace cfuzz::driver
