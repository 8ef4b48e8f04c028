#include "core/corpus.h"

#include <algorithm>
#include <cmath>

// Inlined: the runtime, linked into every target, must not need libxxhash at link time.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "core/input_area.h"
#include "corpus_format/codec.h"

namespace cfuzz::core {

std::uint64_t entry_key(const corpus::Entry& values) {
  std::string encoded = values.empty() ? std::string() : corpus::encode(values);
  return XXH3_64bits(encoded.data(), encoded.size());
}

CorpusEntry make_corpus_entry(std::string name, Origin origin, corpus::Entry values) {
  std::uint64_t key = entry_key(values);
  return make_corpus_entry(std::move(name), origin, std::move(values), key);
}

CorpusEntry make_corpus_entry(std::string name, Origin origin, corpus::Entry values, std::uint64_t key) {
  CorpusEntry e;
  e.name = std::move(name);
  e.origin = origin;
  e.key = key;
  e.size = entry_size(values);
  e.values = std::move(values);
  return e;
}

std::uint64_t longest_byte_value(const corpus::Entry& values) {
  std::uint64_t m = 0;
  for (const auto& v : values) {
    if (const auto* b = std::get_if<corpus::Bytes>(&v)) m = std::max<std::uint64_t>(m, b->size());
    if (const auto* s = std::get_if<std::string>(&v)) m = std::max<std::uint64_t>(m, s->size());
  }
  return m;
}

std::uint64_t Corpus::longest_byte_value() const {
  std::uint64_t m = 0;
  for (const auto& e : entries_) m = std::max(m, core::longest_byte_value(e.values));
  return m;
}

bool Corpus::add(CorpusEntry entry) {
  auto [first, last] = by_hash_.equal_range(entry.key);
  for (auto it = first; it != last; ++it) {
    if (corpus::same_entry(entries_[it->second].values, entry.values)) return false;
  }
  by_hash_.emplace(entry.key, entries_.size());
  entries_.push_back(std::move(entry));
  return true;
}

std::vector<std::uint32_t> Corpus::features_of(const std::uint8_t* snapshot, std::size_t n) {
  std::vector<std::uint32_t> features;
  for (std::size_t i = 0; i < n; ++i) {
    for (unsigned bit = 0, v = snapshot[i]; v != 0; ++bit, v >>= 1) {
      if ((v & 1) != 0) features.push_back(static_cast<std::uint32_t>(i * 8 + bit));
    }
  }
  return features;
}

void Corpus::set_features(std::size_t i, const std::vector<std::uint32_t>& features) {
  constexpr std::size_t kNewCountersKept = 8;
  std::uint32_t last_counter = UINT32_MAX;
  for (std::uint32_t f : features) {
    std::uint32_t counter = f / 8;  // features_of lists a counter's bucket bits together
    if (counter != last_counter) {
      last_counter = counter;
      if (counter >= holders_.size()) holders_.resize(counter + 1, 0);
      if (holders_[counter]++ == 0 && entries_[i].new_counters.size() < kNewCountersKept) {
        entries_[i].new_counters.push_back(counter);
      }
    }
  }
  for (std::uint32_t f : features) {
    auto [it, inserted] = owner_.try_emplace(f, i);
    if (inserted) {
      ++entries_[i].owned;
      continue;
    }
    std::size_t& owner = it->second;
    if (owner == i) continue;
    const CorpusEntry& cur = entries_[owner];
    if (entries_[i].size < cur.size) {
      --entries_[owner].owned;
      owner = i;
      ++entries_[i].owned;
    }
  }
}

double Corpus::rarity(const CorpusEntry& e) const {
  // 1 + 7 / (entries that share the rarest of its new edges): 8 for the only entry past a
  // check, falling as its descendants reach the same edge; 1 for an entry without new edges.
  constexpr double kRareBoost = 7.0;
  std::uint32_t fewest = UINT32_MAX;
  for (std::uint32_t c : e.new_counters) fewest = std::min(fewest, holders_[c]);
  return fewest == UINT32_MAX ? 1.0 : 1.0 + kRareBoost / static_cast<double>(fewest);
}

std::size_t Corpus::pick(Pcg& rng) {
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
  // Nine times in ten, among the favored entries only (when there are any).
  bool favored_only = rng.below(10) != 0 &&
                      std::any_of(entries_.begin(), entries_.end(), [](const CorpusEntry& e) { return e.owned > 0; });
  double total = 0;
  std::vector<double> weights(entries_.size());
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const CorpusEntry& e = entries_[i];
    if (favored_only && e.owned == 0 && !e.focused) {
      weights[i] = 0;
      continue;
    }
    double freshness = 1.0 / (1.0 + static_cast<double>(e.fuzz_calls) / 8.0);
    double success = 1.0 + 2.0 * static_cast<double>(std::min<std::uint64_t>(e.found, 8));
    double smallness = 1.0 / (1.0 + std::log2(1.0 + static_cast<double>(e.size) / 64.0));
    weights[i] = freshness * success * smallness * rarity(e) * (e.focused ? kFocusBoost : 1.0) + 1e-3;
    total += weights[i];
  }
  double x = static_cast<double>(rng.next32()) / 4294967296.0 * total;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (x < weights[i]) return i;
    x -= weights[i];
  }
  return entries_.size() - 1;
}

}  // namespace cfuzz::core
