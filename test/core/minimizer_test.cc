// The minimizer as the worker drives it (next / report), and as the coordinator resumes it
// after a candidate killed the worker.
#include "core/minimizer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "core/input_area.h"
#include "core/rpc_json.h"
#include "corpus_format/value.h"
#include "test/core/test_area.h"

namespace cfuzz::core {
namespace {

using core_test::bytes_of;
using core_test::is_valid_utf8;
using core_test::view_of;
using corpus::Bytes;
using corpus::Entry;
using corpus::Value;

using Predicate = std::function<bool(const Entry&)>;

// A fingerprint of an entry, to compare candidate sequences without storing them.
std::uint64_t fingerprint(const Entry& e) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&](std::uint64_t x) {
    for (int i = 0; i < 8; ++i) {
      h ^= (x >> (8 * i)) & 0xff;
      h *= 1099511628211ULL;
    }
  };
  for (const Value& v : e) {
    mix(v.index());
    if (std::holds_alternative<Bytes>(v) || std::holds_alternative<std::string>(v)) {
      std::string_view s = view_of(v);
      mix(s.size());
      for (char c : s) mix(static_cast<unsigned char>(c));
    } else {
      mix(scalar_bits(v));
    }
  }
  return h;
}

struct Outcome {
  Entry best;
  std::vector<std::uint64_t> candidates;  // fingerprints, in order
  std::vector<bool> verdicts;
};

// Checks every candidate must pass, whatever the predicate.
void check_candidate(const Entry& best, const Entry& candidate) {
  ASSERT_EQ(candidate.size(), best.size());
  ASSERT_FALSE(corpus::same_entry(candidate, best)) << "proposed the current best again";
  for (std::size_t i = 0; i < best.size(); ++i) {
    ASSERT_EQ(candidate[i].index(), best[i].index()) << "value " << i << " changed type";
    if (std::holds_alternative<Bytes>(best[i]) || std::holds_alternative<std::string>(best[i])) {
      if (!view_of(best[i]).empty()) {
        ASSERT_FALSE(view_of(candidate[i]).empty()) << "value " << i << " proposed empty";
      }
    }
  }
}

// Runs a minimizer to completion, as the worker does without interruptions.
Outcome minimize(const Entry& start, const Predicate& qualifies, std::uint64_t max_candidates = 2'000'000) {
  Outcome out;
  Minimizer m(start);
  Entry candidate;
  while (m.next(&candidate)) {
    if (out.candidates.size() >= max_candidates) {
      ADD_FAILURE() << "no end after " << max_candidates << " candidates";
      break;
    }
    check_candidate(m.best(), candidate);
    if (::testing::Test::HasFatalFailure()) break;
    bool q = qualifies(candidate);
    out.candidates.push_back(fingerprint(candidate));
    out.verdicts.push_back(q);
    m.report(q);
  }
  out.best = m.best();
  return out;
}

// Runs a minimizer as if the worker died on every single candidate: the coordinator reads
// the state the worker published and the best input so far from shared memory, judges the
// candidate, and starts a new minimizer from there with that verdict.
Outcome minimize_dying_every_time(const Entry& start, const Predicate& qualifies,
                                  std::uint64_t max_candidates = 2'000'000) {
  Outcome out;
  Entry best = start;
  MinimizerState state{};
  std::optional<bool> verdict;
  for (;;) {
    // The state travels as the real one does: six words in shared memory, copied into the
    // next "minimize" request with the verdict, as JSON, and unpacked by the new worker.
    rpc::MinimizeParams params;
    params.mode = rpc::MinimizeMode::Failure;
    params.state = state.pack();
    params.resume_verdict = verdict;
    const auto received = nlohmann::json::parse(nlohmann::json(params).dump()).get<rpc::MinimizeParams>();
    std::uint64_t words[6];
    std::copy(received.state.begin(), received.state.end(), words);
    Minimizer m(best, MinimizerState::unpack(words));
    if (received.resume_verdict.has_value()) m.report(*received.resume_verdict);
    Entry candidate;
    if (!m.next(&candidate)) {
      out.best = m.best();
      return out;
    }
    if (out.candidates.size() >= max_candidates) {
      ADD_FAILURE() << "no end after " << max_candidates << " candidates";
      out.best = m.best();
      return out;
    }
    state = m.state();
    bool q = qualifies(candidate);
    out.candidates.push_back(fingerprint(candidate));
    out.verdicts.push_back(q);
    best = q ? candidate : m.best();
    verdict = q;
  }
}

std::string random_bytes(std::uint64_t seed, std::size_t n) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

// n random bytes with "BUG" planted at `at`, and nowhere else.
Bytes random_with_bug(std::uint64_t seed, std::size_t n, std::size_t at) {
  std::string s = random_bytes(seed, n);
  for (std::size_t p; (p = s.find("BUG")) != std::string::npos;) s[p] = 'b';
  s.replace(at, 3, "BUG");
  return bytes_of(s);
}

bool contains(const Value& v, std::string_view what) { return view_of(v).find(what) != std::string_view::npos; }

// A predicate that accepts about `percent`% of all candidates, differently for each.
Predicate pseudo_random(std::uint64_t salt, std::uint64_t percent) {
  return [=](const Entry& e) { return (fingerprint(e) ^ salt) % 100 < percent; };
}

TEST(Minimizer, ShrinksRandomBytesDownToExactlyTheBytesTheFailureNeeds) {
  const Entry start = {random_with_bug(1, 5000, 2711)};
  const Outcome out = minimize(start, [](const Entry& e) { return contains(e[0], "BUG"); });
  ASSERT_EQ(out.best.size(), 1u);
  EXPECT_EQ(view_of(out.best[0]), "BUG");
}

TEST(Minimizer, ShrinksEveryValueOfAMultiValueEntry) {
  const Entry start = {
      random_with_bug(2, 700, 300),
      std::string("a long prefix, then the KEY, then a long suffix"),
      std::int64_t{123456789},
      true,
      1234.5678,
      3.75f,
      std::uint16_t{60000},
      std::int8_t{-100},
      corpus::GoInt{-987654321},
      std::int32_t{-77},
  };
  auto qualifies = [](const Entry& e) {
    return contains(e[0], "BUG") && contains(e[1], "KEY") && std::get<std::int64_t>(e[2]) >= 100 &&
           std::get<double>(e[4]) >= 1.0 && std::get<corpus::GoInt>(e[8]) <= -50;
  };
  const Outcome out = minimize(start, qualifies);
  const Entry& b = out.best;
  ASSERT_EQ(b.size(), start.size());
  EXPECT_EQ(view_of(b[0]), "BUG");
  EXPECT_EQ(view_of(b[1]), "KEY");
  // Halving stops once half would fail; single steps go on from there.
  const auto i64 = std::get<std::int64_t>(b[2]);
  EXPECT_GE(i64, 100);
  EXPECT_LT(i64, 200);
  EXPECT_EQ(std::get<bool>(b[3]), false);
  // 1234.5678 halves down to 1.2056, then the fraction is dropped.
  EXPECT_EQ(std::get<double>(b[4]), 1.0);
  EXPECT_EQ(std::get<float>(b[5]), 0.0f);
  EXPECT_FALSE(std::signbit(std::get<float>(b[5])));
  EXPECT_EQ(std::get<std::uint16_t>(b[6]), 0);
  EXPECT_EQ(std::get<std::int8_t>(b[7]), 0);
  const auto goint = std::get<corpus::GoInt>(b[8]);
  EXPECT_LE(goint, -50);
  EXPECT_GT(goint, -100);
  EXPECT_EQ(std::get<std::int32_t>(b[9]), 0);
}

TEST(Minimizer, StepsIntegersOneAtATimeUpToTheBoundary) {
  // Halving 111 gives 55, which fails; single steps then reach exactly 100.
  const Entry start = {std::int64_t{111}, std::int16_t{-111}, std::uint32_t{111}};
  const Outcome out = minimize(start, [](const Entry& e) {
    return std::get<std::int64_t>(e[0]) >= 100 && std::get<std::int16_t>(e[1]) <= -100 &&
           std::get<std::uint32_t>(e[2]) >= 100;
  });
  EXPECT_EQ(std::get<std::int64_t>(out.best[0]), 100);
  EXPECT_EQ(std::get<std::int16_t>(out.best[1]), -100);
  EXPECT_EQ(std::get<std::uint32_t>(out.best[2]), 100u);
}

TEST(Minimizer, ASecondPassShrinksWhatTheFirstPassCouldNot) {
  // The bytes must be at least as long as the number says: the first pass shrinks the
  // bytes as far as the number allows, then the number; only a second pass can take the
  // bytes down to what the smaller number allows.
  const Entry start = {Bytes(100, 'a'), std::int64_t{50}};
  const Outcome out = minimize(start, [](const Entry& e) {
    const auto n = std::get<std::int64_t>(e[1]);
    return n >= 1 && view_of(e[0]).size() >= static_cast<std::size_t>(n);
  });
  EXPECT_EQ(std::get<std::int64_t>(out.best[1]), 1);
  EXPECT_EQ(view_of(out.best[0]), "a");
}

TEST(Minimizer, TakesAFloatWithAFractionToItsIntegerPart) {
  const Entry start = {7.875, -3.5f};
  const Outcome out =
      minimize(start, [](const Entry& e) { return std::get<double>(e[0]) > 6 && std::get<float>(e[1]) < -2; });
  EXPECT_EQ(std::get<double>(out.best[0]), 7.0);
  EXPECT_EQ(std::get<float>(out.best[1]), -3.0f);
}

TEST(Minimizer, TakesNegativeZeroNaNAndInfinityToPositiveZero) {
  const Entry start = {-0.0, std::nan(""), -std::numeric_limits<float>::infinity()};
  const Outcome out = minimize(start, [](const Entry&) { return true; });
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(scalar_bits(out.best[i]), 0u) << "value " << i;
  }
}

TEST(Minimizer, ShrinksEverythingToTheSmallestFormWhenAnythingQualifies) {
  const Entry start = {bytes_of(std::string("\x01zzzz\x02", 6)),
                       std::string("\x7fstring"),
                       true,
                       std::uint64_t{~0ULL},
                       std::int16_t{-32768},
                       99.9};
  const Outcome out = minimize(start, [](const Entry&) { return true; });
  const Entry& b = out.best;
  // One byte is the least a non-empty value keeps, made printable.
  EXPECT_EQ(view_of(b[0]), "0");
  EXPECT_EQ(view_of(b[1]), "0");
  EXPECT_EQ(std::get<bool>(b[2]), false);
  EXPECT_EQ(std::get<std::uint64_t>(b[3]), 0u);
  EXPECT_EQ(std::get<std::int16_t>(b[4]), 0);
  EXPECT_EQ(std::get<double>(b[5]), 0.0);
}

TEST(Minimizer, ReplacesNonPrintableBytesWithPrintableOnes) {
  const Entry start = {
      bytes_of(std::string("\x01\x02"
                           "BUG\x7f",
                           6))};
  const Outcome out = minimize(start, [](const Entry& e) {
    std::string_view s = view_of(e[0]);
    return s.size() == 6 && s.substr(2, 3) == "BUG";
  });
  EXPECT_EQ(view_of(out.best[0]), "00BUG0");
}

TEST(Minimizer, AValidUtf8StringStaysValidInEveryCandidate) {
  const std::string text = "ünïcødé → KEY ← 日本語テキスト 🎉🎉 ok";
  ASSERT_TRUE(is_valid_utf8(text));
  int candidates = 0;
  auto check = [&](const Entry& e) {
    ++candidates;
    EXPECT_TRUE(is_valid_utf8(view_of(e[0]))) << "candidate: " << view_of(e[0]);
  };
  {
    const Outcome out = minimize({text}, [&](const Entry& e) {
      check(e);
      return contains(e[0], "→ KEY");
    });
    EXPECT_EQ(view_of(out.best[0]), "→ KEY");
  }
  // Arbitrary verdicts reach many more positions inside multi-byte runes.
  for (std::uint64_t salt = 0; salt < 20; ++salt) {
    const Predicate random = pseudo_random(salt, 40);
    const Outcome out = minimize({text}, [&](const Entry& e) {
      check(e);
      return random(e);
    });
    EXPECT_TRUE(is_valid_utf8(view_of(out.best[0])));
  }
  EXPECT_GT(candidates, 500);
}

TEST(Minimizer, AStringThatIsNotUtf8IsShrunkByteByByte) {
  const Entry start = {
      std::string("\xff\xfe"
                  "abc"
                  "\xc3"
                  "BUG"
                  "\x80xyz")};
  const Outcome out = minimize(start, [](const Entry& e) { return contains(e[0], "BUG"); });
  EXPECT_EQ(view_of(out.best[0]), "BUG");
}

TEST(Minimizer, NeverProposesAnEmptyByteValue) {
  // check_candidate() asserts it for every candidate; here the predicates that push
  // hardest towards empty values: everything qualifies, or a random half does.
  const Entry start = {bytes_of("abcdefghij"), std::string("k"), Bytes{}, std::string("xy")};
  const Outcome all = minimize(start, [](const Entry&) { return true; });
  EXPECT_EQ(view_of(all.best[0]).size(), 1u);
  EXPECT_EQ(view_of(all.best[1]), "k");
  EXPECT_EQ(view_of(all.best[2]), "");  // was empty: left alone
  EXPECT_EQ(view_of(all.best[3]).size(), 1u);
  for (std::uint64_t salt = 0; salt < 50; ++salt) {
    minimize(start, pseudo_random(salt, 50));
    ASSERT_FALSE(::testing::Test::HasFailure()) << "salt " << salt;
  }
}

TEST(Minimizer, StatePacksIntoSixWordsAndBack) {
  const MinimizerState s{1, 2, 3, 0xfffffffffffffffeULL, 5, 1};
  const auto packed = s.pack();
  std::uint64_t words[6];
  std::copy(packed.begin(), packed.end(), words);
  const MinimizerState back = MinimizerState::unpack(words);
  EXPECT_EQ(back.pass, 1u);
  EXPECT_EQ(back.value, 2u);
  EXPECT_EQ(back.stage, 3u);
  EXPECT_EQ(back.a, 0xfffffffffffffffeULL);
  EXPECT_EQ(back.b, 5u);
  EXPECT_EQ(back.improved, 1u);
  EXPECT_EQ(back.pack(), packed);
}

void expect_resume_equivalence(const Entry& start, const Predicate& qualifies) {
  const Outcome straight = minimize(start, qualifies);
  const Outcome resumed = minimize_dying_every_time(start, qualifies);
  EXPECT_TRUE(corpus::same_entry(straight.best, resumed.best));
  EXPECT_EQ(straight.candidates.size(), resumed.candidates.size());
  EXPECT_TRUE(straight.candidates == resumed.candidates) << "the candidate sequences differ";
  // Both verdicts occurred, so both resume paths were exercised.
  EXPECT_NE(std::count(straight.verdicts.begin(), straight.verdicts.end(), true), 0);
  EXPECT_NE(std::count(straight.verdicts.begin(), straight.verdicts.end(), false), 0);
}

TEST(Minimizer, ResumedAfterEveryCandidateEndsWhereAnUninterruptedRunEnds) {
  expect_resume_equivalence({random_with_bug(3, 1500, 900)}, [](const Entry& e) { return contains(e[0], "BUG"); });
}

TEST(Minimizer, ResumedAfterEveryCandidateOfAMultiValueEntryEndsTheSame) {
  const Entry start = {bytes_of(std::string("\x01\x02xxBUGyy\x03", 10)),
                       std::string("ü → KEY ← 日本"),
                       std::int64_t{5000},
                       true,
                       99.5,
                       std::uint8_t{200}};
  expect_resume_equivalence(start, [](const Entry& e) {
    return contains(e[0], "BUG") && contains(e[1], "KEY") && std::get<std::int64_t>(e[2]) > 37 &&
           std::get<double>(e[4]) > 2;
  });
}

TEST(Minimizer, ResumedAfterEveryCandidateWithArbitraryVerdictsEndsTheSame) {
  const Entry start = {bytes_of(random_bytes(4, 60)), std::string("añb→c日d🎉e"), std::int32_t{-4000}, false, 3.25f};
  for (std::uint64_t salt = 0; salt < 10; ++salt) {
    SCOPED_TRACE("salt " + std::to_string(salt));
    expect_resume_equivalence(start, pseudo_random(salt, 30));
  }
}

TEST(Minimizer, EndsAfterBoundedCandidatesWhenNothingQualifies) {
  const std::string text = random_bytes(5, 150);
  const Entry start = {bytes_of(text), text, std::int64_t{-123456}, 3.5, true};
  const Outcome out = minimize(start, [](const Entry&) { return false; });
  EXPECT_TRUE(corpus::same_entry(out.best, start));
  // Tail and head cuts, single removals, range removals (quadratic, as Go's), printable
  // replacements: for n bytes well under n*n + 40n candidates per byte value.
  const std::size_t n = text.size();
  EXPECT_LT(out.candidates.size(), 2 * (n * n + 40 * n) + 100);
}

TEST(Minimizer, EndsQuicklyWhenEverythingQualifies) {
  const Entry start = {bytes_of(random_bytes(6, 5000)), std::uint64_t{1} << 60};
  const Outcome out = minimize(start, [](const Entry&) { return true; });
  EXPECT_EQ(view_of(out.best[0]).size(), 1u);
  EXPECT_LT(out.candidates.size(), 200u);
}

TEST(Minimizer, ResumingFromAnyStateEndsWithoutBadCandidates) {
  // The state comes back from shared memory, where a dying target may have scribbled on
  // it. Whatever the six words, the minimizer must end, and propose only sane candidates:
  // same types, no emptied values, the UTF-8 string still UTF-8.
  std::mt19937_64 rng(7);
  const Entry start = {bytes_of("0123456789abcdefghij"), std::string("añb→c"), std::int64_t{-99}, true, 12.5};
  auto word = [&]() -> std::uint64_t {
    switch (rng() % 4) {
      case 0: return rng() % 4;
      case 1: return rng() % 24;
      case 2: return ~std::uint64_t{0} - rng() % 3;
      default: return rng();
    }
  };
  std::uint64_t total = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::uint64_t words[6];
    for (auto& w : words) w = word();
    Minimizer m(start, MinimizerState::unpack(words));
    const Predicate q = pseudo_random(static_cast<std::uint64_t>(trial), 50);
    Entry candidate;
    std::uint64_t count = 0;
    while (m.next(&candidate)) {
      ASSERT_LT(++count, 100000u) << "trial " << trial;
      check_candidate(m.best(), candidate);
      ASSERT_FALSE(HasFatalFailure()) << "trial " << trial;
      ASSERT_TRUE(is_valid_utf8(view_of(candidate[1]))) << "trial " << trial;
      m.report(q(candidate));
    }
    total += count;
  }
  // Most states still lead somewhere: the loop above did run candidates.
  EXPECT_GT(total, 1000u);
}

TEST(Minimizer, AnEntryWithNoValuesHasNoCandidates) {
  Minimizer m(Entry{});
  Entry candidate;
  EXPECT_FALSE(m.next(&candidate));
}

}  // namespace
}  // namespace cfuzz::core
