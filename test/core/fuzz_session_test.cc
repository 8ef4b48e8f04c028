// The search of a run, driven alone: the calls it plans (the same for the same seed; the
// length control's limit; the input-to-state stage and the shrinking of new inputs within
// their shares of the run), what it learns from a call's result, and which inputs it admits.
#include "core/fuzz_session.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cfuzz::core {
namespace {

constexpr std::size_t kCounters = 16;

FuzzSession session_of(std::size_t n, bool repeatable = false) {
  FuzzSession::Settings st;
  st.counters = kCounters;
  st.master_seed = 7;
  st.repeatable = repeatable;
  FuzzSession s(st);
  for (std::size_t i = 0; i < n; ++i) {
    std::string v = "value " + std::to_string(100 + i);
    s.corpus().add(make_corpus_entry("e" + std::to_string(i), Origin::Cache, {corpus::Bytes(v.begin(), v.end())}));
  }
  return s;
}

CorpusEntry found(const std::string& v) {
  return make_corpus_entry("", Origin::Found, {corpus::Bytes(v.begin(), v.end())});
}

std::vector<std::uint8_t> snapshot_with(std::size_t counter, std::uint8_t bits) {
  std::vector<std::uint8_t> s(kCounters, 0);
  s[counter] = bits;
  return s;
}

TEST(FuzzSession, AnEmptyCorpusStartsFromTheZeroValues) {
  FuzzSession s = session_of(0);
  EXPECT_TRUE(s.begin_fuzzing({corpus::Type::Bytes, corpus::Type::Int}));
  ASSERT_EQ(s.corpus().size(), 1u);
  EXPECT_EQ(s.corpus().at(0).values.size(), 2u);
  FuzzSession t = session_of(2);
  EXPECT_FALSE(t.begin_fuzzing({corpus::Type::Bytes}));
  EXPECT_EQ(t.corpus().size(), 2u);
}

TEST(FuzzSession, TheSameSeedPlansTheSameCalls) {
  auto plans = [] {
    FuzzSession s = session_of(20, /*repeatable=*/true);
    s.begin_fuzzing({corpus::Type::Bytes});
    std::vector<std::uint64_t> out;
    for (std::uint64_t i = 0; i < 50; ++i) {
      FuzzCall c = s.next_call(i * kSeededCallExecs);
      EXPECT_EQ(c.params.limit, kSeededCallExecs);
      EXPECT_EQ(c.params.deadline_ms, 0u);
      out.insert(out.end(), {c.plan.entry, c.plan.splice, c.params.seed, c.params.max_len});
    }
    return out;
  };
  EXPECT_EQ(plans(), plans());
}

TEST(FuzzSession, CallsCarryTheLengthControlsLimitAndTheDictionary) {
  FuzzSession s = session_of(3);
  s.dictionary().add_user_words({"MAGIC"});
  s.begin_fuzzing({corpus::Type::Bytes});
  FuzzCall c = s.next_call(0);
  EXPECT_EQ(c.params.max_len, 9u);  // the longest value, "value 102"
  EXPECT_EQ(c.params.deadline_ms, kCallMillis);
  EXPECT_EQ(c.params.dictionary, std::vector<std::string>{"MAGIC"});
  // Without growth, the limit rises with the executions (core/length_control.h).
  EXPECT_GT(s.next_call(100000).params.max_len, 9u);
}

TEST(FuzzSession, CallsTurnTheValueProfileOnOnceCoverageStallsInAutoAndNeverByDefault) {
  constexpr std::uint64_t kStall = ValueProfileSwitch::kMinStallExecs;
  FuzzSession::Settings settings;
  settings.counters = 64;
  FuzzSession never(settings);
  never.begin_fuzzing({corpus::Type::Bytes});
  EXPECT_FALSE(never.next_call(100 * kStall).params.value_profile);
  settings.value_profile = ValueProfileMode::Auto;
  FuzzSession stalls(settings);
  stalls.begin_fuzzing({corpus::Type::Bytes});
  EXPECT_FALSE(stalls.next_call(0).params.value_profile);
  EXPECT_TRUE(stalls.next_call(kStall).params.value_profile);
}

TEST(FuzzSession, TheLengthLimitStartsFromTheCorpusAsLoaded) {
  Corpus loaded;
  loaded.add(found("twelve bytes"));
  FuzzSession::Settings st;
  st.counters = kCounters;
  FuzzSession s(st, std::move(loaded));
  EXPECT_EQ(s.len_limit(), 12u);  // what the progress lines show during the seeds' baseline
}

TEST(FuzzSession, AResultTeachesConstantsAndInputToStateProgress) {
  FuzzSession s = session_of(1);
  s.begin_fuzzing({corpus::Type::Bytes});
  FuzzCall c = s.next_call(0);
  ASSERT_EQ(c.params.input_to_state, kInputToStateCandidates);  // an entry's first call
  rpc::FuzzResult r;
  r.execs = 100;
  r.new_words = rpc::ByteWords({"needle"});
  r.input_to_state_next = 40;
  r.input_to_state_done = true;
  r.input_to_state_execs = 60;
  s.absorb(c, r);
  EXPECT_EQ(s.corpus().at(0).input_to_state_next, 40u);
  EXPECT_TRUE(s.corpus().at(0).input_to_state_done);
  EXPECT_EQ(s.input_to_state_execs(), 60u);
  FuzzCall next = s.next_call(100);
  EXPECT_EQ(next.params.input_to_state, 0u);  // the entry got through them all
  EXPECT_TRUE(next.params.dictionary.empty());
  rpc::FuzzResult again;
  again.new_words = rpc::ByteWords({"needle"});
  s.absorb(next, again);  // a constant seen in two calls is a word
  EXPECT_EQ(s.next_call(200).params.dictionary, std::vector<std::string>{"needle"});
}

TEST(FuzzSession, TheInputToStateStageTakesAShareOfTheRun) {
  FuzzSession s = session_of(3);
  s.begin_fuzzing({corpus::Type::Bytes});
  FuzzCall c = s.next_call(0);
  EXPECT_EQ(c.params.input_to_state, kInputToStateCandidates);  // the start allowance
  rpc::FuzzResult r;
  r.execs = InputToStateBudget::kStart + 1024;
  r.input_to_state_execs = r.execs;
  s.absorb(c, r);
  EXPECT_EQ(s.next_call(4096).params.input_to_state, 0u);  // the allowance and a quarter of 4096 spent
  EXPECT_EQ(s.next_call(4100).params.input_to_state, kInputToStateCandidates);
}

TEST(FuzzSession, ShrinkingTakesAShareOfTheRun) {
  FuzzSession s = session_of(1);
  EXPECT_EQ(s.shrink_grant(0, 10, 0), kInterestingMinimizeExecs);  // one full shrink to start with
  s.shrink_spent(kInterestingMinimizeExecs);
  EXPECT_EQ(s.shrink_grant(0, 10, 0), 0u);                             // nothing run yet: keep new inputs as found
  EXPECT_EQ(s.shrink_grant(40000, 10, 0), kInterestingMinimizeExecs);  // a quarter of 40000
}

TEST(FuzzSession, LongInputsMutatedFromALongFileAreKeptAsFound) {
  FuzzSession s = session_of(1);  // entry 0: a short file
  s.corpus().add(make_corpus_entry("font", Origin::Cache, {corpus::Bytes(1940, 't')}));
  s.begin_fuzzing({corpus::Type::Bytes});
  EXPECT_EQ(s.shrink_grant(1000000, 1940, 1), 0u);  // a mutated font: its tables stay
  EXPECT_EQ(s.shrink_grant(0, kLongestShrunkInput, 1), 0u);
  EXPECT_EQ(s.shrink_grant(0, kLongestShrunkInput - 1, 1), kInterestingMinimizeExecs);
  // Grown long from a short file, an input is shrunk, and so are the long inputs mutated
  // from it: only the filler the fuzzer added would be kept.
  EXPECT_EQ(s.shrink_grant(0, 500, 0), kInterestingMinimizeExecs);
  std::vector<std::uint8_t> first = snapshot_with(4, 1), second = snapshot_with(5, 1), third = snapshot_with(6, 1);
  auto grown = s.admit(make_corpus_entry("", Origin::Found, {corpus::Bytes(500, 'g')}), first.data(), 0, 0);
  ASSERT_TRUE(grown);
  EXPECT_EQ(s.shrink_grant(0, 600, grown->index), kInterestingMinimizeExecs);
  // Kept as found from the font, it passes its structure on.
  auto from_font = s.admit(make_corpus_entry("", Origin::Found, {corpus::Bytes(1900, 'f')}), second.data(), 0, 1);
  ASSERT_TRUE(from_font);
  EXPECT_EQ(s.shrink_grant(0, 1800, from_font->index), 0u);
  auto cut = s.admit(make_corpus_entry("", Origin::Found, {corpus::Bytes(20, 'c')}), third.data(), 0, from_font->index);
  ASSERT_TRUE(cut);
  EXPECT_EQ(s.shrink_grant(0, 600, cut->index), kInterestingMinimizeExecs);  // cut short, it lost it
}

TEST(FuzzSession, AdmitsOnlyInputsThatAddCoverage) {
  FuzzSession s = session_of(1);
  s.measured(0, {3 * 8 + 0});  // counter 3, bucket 1
  s.begin_fuzzing({corpus::Type::Bytes});
  std::vector<std::uint8_t> old = snapshot_with(3, 1), more = snapshot_with(5, 4);
  EXPECT_EQ(s.new_coverage(old.data()).counters, 0u);
  NewCoverage n = s.new_coverage(more.data());
  EXPECT_EQ(n.counters, 1u);
  EXPECT_EQ(n.keep[5], 4u);

  EXPECT_FALSE(s.admit(found("nothing new"), old.data(), 10, 0));
  auto a = s.admit(found("new"), more.data(), 10, 0);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->index, 1u);
  EXPECT_EQ(a->bits, 1u);
  EXPECT_EQ(a->features, std::vector<std::uint32_t>{5 * 8 + 2});
  EXPECT_EQ(s.corpus().at(0).found, 1u);  // its parent
  EXPECT_EQ(s.mask()[5], 4u);
  EXPECT_FALSE(s.admit(found("new again"), more.data(), 11, 0));  // now in the mask
  EXPECT_EQ(s.admitted(Origin::Found), 1u);
  EXPECT_EQ(s.admitted(Origin::Cache), 0u);
}

TEST(FuzzSession, AnEntryReachingTheChangedCodeIsFocused) {
  std::vector<bool> focus(kCounters, false);
  focus[6] = true;
  FuzzSession::Settings st;
  st.counters = kCounters;
  st.focus = &focus;
  FuzzSession s(st);
  s.corpus().add(found("seed"));
  s.measured(0, {1 * 8});
  EXPECT_FALSE(s.corpus().at(0).focused);
  std::vector<std::uint8_t> changed = snapshot_with(6, 1);
  auto a = s.admit(found("reaches it"), changed.data(), 0);
  ASSERT_TRUE(a);
  EXPECT_TRUE(s.corpus().at(a->index).focused);
}

}  // namespace
}  // namespace cfuzz::core
