#include "core/fuzz_session.h"

#include "core/coverage.h"

namespace cfuzz::core {

FuzzSession::FuzzSession(Settings s, Corpus initial)
    : settings_(s),
      corpus_(std::move(initial)),
      mask_(s.counters, 0),
      length_(s.max_len, corpus_.longest_byte_value(), s.len_control),
      value_profile_(s.value_profile) {
  rng_.reseed(s.master_seed, 0x5eed);
}

void FuzzSession::set_features(std::size_t i, const std::vector<std::uint32_t>& features) {
  corpus_.set_features(i, features);
  if (settings_.focus == nullptr) return;
  const std::vector<bool>& focus = *settings_.focus;
  corpus_.at(i).focused = std::any_of(features.begin(), features.end(),
                                      [&](std::uint32_t f) { return f / 8 < focus.size() && focus[f / 8]; });
}

void FuzzSession::measured(std::size_t i, const std::vector<std::uint32_t>& features) {
  for (std::uint32_t f : features) {
    if (f / 8 < mask_.size()) mask_[f / 8] |= static_cast<std::uint8_t>(1u << (f % 8));
  }
  set_features(i, features);
}

bool FuzzSession::begin_fuzzing(const std::vector<corpus::Type>& types) {
  bool zero_added = false;
  if (corpus_.empty()) {
    corpus::Entry zero;
    for (auto t : types) zero.push_back(corpus::zero_value(t));
    zero_added = corpus_.add(make_corpus_entry("zero", Origin::Found, std::move(zero)));
  }
  length_ = LengthControl(settings_.max_len, corpus_.longest_byte_value(), settings_.len_control);
  return zero_added;
}

FuzzCall FuzzSession::next_call(std::uint64_t total_execs) {
  FuzzCall c;
  c.plan = plan_fuzz_call(corpus_, rng_, settings_.master_seed, calls_++, settings_.repeatable,
                          input_to_state_budget_.allows(total_execs));
  c.params.seed = c.plan.seed;
  c.params.limit = c.plan.limit;
  c.params.deadline_ms = c.plan.deadline_ms;
  c.params.max_len = length_.limit(total_execs);
  c.params.input_to_state = c.plan.input_to_state;
  c.params.input_to_state_from = c.plan.input_to_state_from;
  c.params.only_ascii = settings_.only_ascii;
  c.params.value_profile = value_profile_.on(total_execs);
  c.params.dictionary = *dictionary_.words_for_calls();
  return c;
}

void FuzzSession::absorb(const FuzzCall& call, const rpc::FuzzResult& r) {
  dictionary_.note_constants(r.new_words);
  if (r.status == rpc::Status::Interesting) dictionary_.credit(r.useful_words);
  if (call.plan.input_to_state != 0 && call.plan.entry < corpus_.size()) {
    note_input_to_state(corpus_.at(call.plan.entry), r.input_to_state_next, r.input_to_state_done);
    input_to_state_budget_.spent(std::min(r.input_to_state_execs, r.execs));
  }
}

NewCoverage FuzzSession::new_coverage(const std::uint8_t* snapshot) const {
  NewCoverage n;
  n.keep.resize(mask_.size());
  for (std::size_t i = 0; i < mask_.size(); ++i) {
    n.keep[i] = static_cast<std::uint8_t>(snapshot[i] & ~mask_[i]);
    n.counters += n.keep[i] != 0;
  }
  return n;
}

std::optional<FuzzSession::Admitted> FuzzSession::admit(CorpusEntry e, const std::uint8_t* snapshot,
                                                        std::uint64_t total_execs, std::optional<std::size_t> parent) {
  std::vector<std::uint32_t> features = Corpus::features_of(snapshot, mask_.size());
  // Merged first, as both front ends always did: an entry whose content is already there
  // still leaves its coverage in the mask.
  std::size_t bits = merge_into_mask(mask_.data(), snapshot, mask_.size());
  Origin origin = e.origin;
  e.from_long_file = kept_as_found(e.size, parent);
  if (bits == 0 || !corpus_.add(std::move(e))) return std::nullopt;
  admitted_[static_cast<std::size_t>(origin)]++;
  Admitted a;
  a.index = corpus_.size() - 1;
  a.bits = bits;
  set_features(a.index, features);
  if (parent && *parent < corpus_.size()) corpus_.at(*parent).found++;
  length_.corpus_grew(total_execs);
  value_profile_.corpus_grew(total_execs);
  a.features = std::move(features);
  return a;
}

}  // namespace cfuzz::core
