// The mutator on input areas shaped like the ones in shared memory: reproducible, inside
// its length limits, canonical for every scalar type, and using its partner and words.
#include "core/mutator.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "core/input_area.h"
#include "core/pcg.h"
#include "corpus_format/value.h"
#include "test/core/test_area.h"

namespace cfuzz::core {
namespace {

using core_test::area_with;
using core_test::bytes_of;
using core_test::HeapArea;
using corpus::Bytes;
using corpus::Entry;
using corpus::Type;
using corpus::Value;

// One value of every type, none of them zero, so that "changed" is visible.
Entry one_of_each_type() {
  return Entry{bytes_of("hello, bytes"),
               std::string("hello, string"),
               true,
               std::uint8_t{200},
               std::int32_t{-70000},
               corpus::GoInt{-5'000'000'000},
               std::int8_t{-3},
               std::int16_t{-300},
               std::int64_t{1234567890123},
               corpus::GoUint{9'000'000'000},
               std::uint16_t{40000},
               std::uint32_t{3'000'000'000},
               std::uint64_t{18'000'000'000'000'000'000ULL},
               1.5f,
               -2.25};
}

class StubWords : public WordSource {
 public:
  std::vector<std::string> words;
  std::string replacement;  // bytes for replacement_for(), empty for none
  std::uint64_t integer = 0;
  bool has_integer = false;
  mutable int replacement_calls = 0;
  mutable int integer_calls = 0;

  std::string_view pick_word(Pcg& rng) const override {
    return words.empty() ? std::string_view() : std::string_view(words[rng.below(words.size())]);
  }
  bool replacement_for(const std::uint8_t*, std::size_t len, Pcg& rng, Replacement* out) const override {
    ++replacement_calls;
    if (replacement.empty() || len == 0) return false;
    std::size_t pos = rng.below(len);
    *out = Replacement{pos, std::min<std::size_t>(2, len - pos), replacement};
    return true;
  }
  bool integer_for(std::uint64_t, int, Pcg&, std::uint64_t* out) const override {
    ++integer_calls;
    if (!has_integer) return false;
    *out = integer;
    return true;
  }
};

TEST(Mutator, SameRngStateAndInputGiveByteIdenticalAreas) {
  const Entry start = one_of_each_type();
  const HeapArea partner =
      area_with(Entry{bytes_of("PARTNER-bytes-0123456789"), std::string("PARTNER-string"), false, std::uint8_t{1},
                      std::int32_t{2}, corpus::GoInt{3}, std::int8_t{4}, std::int16_t{5}, std::int64_t{6},
                      corpus::GoUint{7}, std::uint16_t{8}, std::uint32_t{9}, std::uint64_t{10}, 11.0f, 12.0},
                256);
  StubWords words;
  words.words = {"WORD", "x", "longer dictionary word"};
  words.replacement = "REPL";
  words.has_integer = true;
  words.integer = 0x1234;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    HeapArea a = area_with(start, 256), b = area_with(start, 256);
    Mutator ma(200), mb(200);
    ma.set_words(&words);
    mb.set_words(&words);
    Pcg ra(seed, 1), rb(seed, 1);
    bool changed = false;
    for (int i = 0; i < 500; ++i) {
      ma.mutate(a.header(), &partner.header(), ra);
      mb.mutate(b.header(), &partner.header(), rb);
      ASSERT_TRUE(a.same_bytes(b)) << "seed " << seed << ", mutation " << i;
      ASSERT_EQ(ra.state(), rb.state());
      changed = changed || !a.same_bytes(area_with(start, 256));
    }
    EXPECT_TRUE(changed) << "seed " << seed;
  }
}

TEST(Mutator, DifferentRngStatesGiveDifferentMutations) {
  // The counterpart of the test above: the result does depend on the generator.
  const Entry start = {bytes_of("0123456789abcdef"), std::int64_t{1000}};
  HeapArea a = area_with(start, 64), b = area_with(start, 64);
  Mutator m(64);
  Pcg ra(1, 1), rb(2, 1);
  for (int i = 0; i < 20; ++i) {
    m.mutate(a.header(), nullptr, ra);
    m.mutate(b.header(), nullptr, rb);
  }
  EXPECT_FALSE(a.same_bytes(b));
}

TEST(Mutator, SuccessiveMutationsOfTheSameInputDiffer) {
  // The generator moves on with every mutation (the worker restarts each chain from the
  // base input with the same generator), so the chains explore different inputs.
  for (const Entry& start : {Entry{bytes_of("0123456789abcdef")}, Entry{std::int16_t{7}}, Entry{2.5},
                             Entry{std::string("text"), std::uint32_t{9}}}) {
    Mutator m(64);
    Pcg r(5, 1);
    std::set<std::string> results;
    for (int i = 0; i < 100; ++i) {
      HeapArea a = area_with(start, 64);
      m.mutate(a.header(), nullptr, r);
      results.insert(std::string(reinterpret_cast<const char*>(a.raw()), a.size()));
    }
    EXPECT_GT(results.size(), 30u);
  }
}

TEST(Mutator, NeverGrowsAByteValuePastMaxLen) {
  const std::size_t max_len = 64;
  // The partner is longer than max_len: splicing must still respect the limit.
  const HeapArea partner = area_with(Entry{Bytes(300, 'P'), std::string(300, 'Q')}, 512);
  StubWords words;
  words.words = {std::string(40, 'W'), "w"};
  words.replacement = std::string(50, 'R');
  std::uint64_t longest = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Pcg r(seed, 1);
    const Entry start = {Bytes(r.below(max_len + 1), 'b'), std::string(r.below(max_len + 1), 's')};
    HeapArea a = area_with(start, 512);
    Mutator m(max_len);
    if (seed % 2 == 0) m.set_words(&words);
    for (int i = 0; i < 3000; ++i) {
      m.mutate(a.header(), seed % 3 == 0 ? nullptr : &partner.header(), r);
      for (std::uint32_t v = 0; v < 2; ++v) {
        ASSERT_LE(a.header().slots[v].len, max_len) << "seed " << seed << ", mutation " << i;
        longest = std::max(longest, a.header().slots[v].len);
      }
    }
  }
  // Values do reach the limit, so the bound above was exercised.
  EXPECT_EQ(longest, max_len);
}

TEST(Mutator, NeverGrowsAByteValuePastItsSlotCapacity) {
  // max_len far above the slot: the slot is the limit. The area holds one value but is
  // followed by a guard zone that must stay untouched.
  const std::uint64_t capacity = 24;
  const HeapArea partner = area_with(Entry{Bytes(24, 'P')}, capacity);
  StubWords words;
  words.words = {std::string(20, 'W')};
  words.replacement = std::string(24, 'R');
  std::uint64_t longest = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    HeapArea a = area_with(Entry{Bytes(seed % capacity, 'b')}, capacity, /*guard=*/4096);
    Mutator m(1 << 20);
    m.set_words(&words);
    Pcg r(seed, 1);
    for (int i = 0; i < 3000; ++i) {
      m.mutate(a.header(), &partner.header(), r);
      ASSERT_LE(a.header().slots[0].len, capacity) << "seed " << seed << ", mutation " << i;
      ASSERT_TRUE(a.guard_intact()) << "seed " << seed << ", mutation " << i;
      longest = std::max(longest, a.header().slots[0].len);
    }
  }
  EXPECT_EQ(longest, capacity);
}

TEST(Mutator, NeverGrowsASeedValueThatIsAlreadyLongerThanMaxLen) {
  const std::size_t max_len = 16;
  const HeapArea partner = area_with(Entry{Bytes(200, 'P')}, 256);
  StubWords words;
  words.words = {"WORDWORD"};
  words.replacement = std::string(12, 'R');
  bool shrank = false;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    HeapArea a = area_with(Entry{Bytes(100 + seed, 'b')}, 256);
    Mutator m(max_len);
    m.set_words(&words);
    Pcg r(seed, 1);
    for (int i = 0; i < 2000; ++i) {
      std::uint64_t before = a.header().slots[0].len;
      m.mutate(a.header(), &partner.header(), r);
      std::uint64_t after = a.header().slots[0].len;
      ASSERT_LE(after, std::max<std::uint64_t>(before, max_len))
          << "seed " << seed << ", mutation " << i << ": " << before << " -> " << after;
      shrank = shrank || after < before;
    }
  }
  EXPECT_TRUE(shrank);
}

TEST(Mutator, EveryScalarStaysCanonicalInItsSlot) {
  // A slot holds integers sign- or zero-extended to 64 bits and bools as 0/1. Reading the
  // value back and storing it again must give the same slot: any stray high bit would be
  // lost in the round trip.
  StubWords words;
  words.has_integer = true;
  words.integer = 0xfedcba9876543210ULL;  // wider than most types: must be narrowed
  const Entry start = one_of_each_type();
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    HeapArea a = area_with(start, 64);
    Mutator m(64);
    if (seed % 2 == 0) m.set_words(&words);
    Pcg r(seed, 1);
    for (int i = 0; i < 3000; ++i) {
      m.mutate(a.header(), nullptr, r);
      const Entry loaded = load_entry(a.header());
      HeapArea again = area_with(loaded, 64);
      for (std::uint32_t v = 0; v < a.header().count; ++v) {
        const SlotHeader& s = a.header().slots[v];
        ASSERT_EQ(s.type, again.header().slots[v].type);
        ASSERT_EQ(s.bits, again.header().slots[v].bits)
            << "seed " << seed << ", mutation " << i << ", " << corpus::go_type_name(static_cast<Type>(s.type))
            << " slot bits 0x" << std::hex << s.bits;
        if (static_cast<Type>(s.type) == Type::Bool) {
          ASSERT_LE(s.bits, 1u);
        }
      }
    }
  }
}

// Negating INT64_MIN (a value the mutator itself produces, kInteresting64) must wrap, not
// overflow: in core_unit_test_sanitized, UBSan would report the overflow.
TEST(Mutator, NegatingTheMostNegativeInt64IsDefined) {
  for (const corpus::Value& v : {corpus::Value{std::numeric_limits<std::int64_t>::min()},
                                 corpus::Value{std::numeric_limits<corpus::GoInt>::min()}}) {
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
      HeapArea a = area_with(Entry{v}, 8);
      Mutator m(8);
      Pcg r(seed, 1);
      m.mutate(a.header(), nullptr, r);
    }
  }
}

TEST(Mutator, MutatesValuesOfEveryType) {
  for (int t = 0; t < corpus::kTypeCount; ++t) {
    const auto type = static_cast<Type>(t);
    const Entry start = {one_of_each_type()[static_cast<std::size_t>(t)]};
    HeapArea a = area_with(start, 64);
    Mutator m(64);
    Pcg r(1000 + static_cast<std::uint64_t>(t), 1);
    int changes = 0;
    const int calls = 200;
    for (int i = 0; i < calls; ++i) {
      HeapArea before = a;
      m.mutate(a.header(), nullptr, r);
      changes += !a.same_bytes(before);
    }
    // Each call picks the only value; almost every call changes it.
    EXPECT_GT(changes, calls / 2) << corpus::go_type_name(type);
  }
}

// True if some `window`-byte piece of `needle` occurs in `hay`.
bool shares_a_piece(std::string_view hay, std::string_view needle, std::size_t window) {
  for (std::size_t i = 0; i + window <= needle.size(); ++i) {
    if (hay.find(needle.substr(i, window)) != std::string_view::npos) return true;
  }
  return false;
}

int mutations_showing(std::string_view marker, const Entry& start, const HeapArea* partner, const WordSource* words,
                      std::size_t window) {
  int hits = 0;
  Mutator m(256);
  m.set_words(words);
  Pcg r(77, 1);
  for (int i = 0; i < 2000; ++i) {
    HeapArea a = area_with(start, 256);
    m.mutate(a.header(), partner != nullptr ? &partner->header() : nullptr, r);
    hits += shares_a_piece(a.bytes(0), marker, window);
  }
  return hits;
}

TEST(Mutator, SplicingMixesInBytesFromThePartner) {
  const std::string marker = "\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc";
  const Entry start = {Bytes(64, 'a')};
  const HeapArea partner = area_with(Entry{bytes_of(marker)}, 256);
  EXPECT_GT(mutations_showing(marker, start, &partner, nullptr, 3), 20);
  // Without a partner, three marker bytes in a row do not appear by chance.
  EXPECT_EQ(mutations_showing(marker, start, nullptr, nullptr, 3), 0);
}

TEST(Mutator, SplicingIgnoresAPartnerValueOfAnotherType) {
  const std::string marker = "\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc";
  const Entry start = {Bytes(64, 'a')};
  const HeapArea partner = area_with(Entry{marker}, 256);  // a string, not []byte
  EXPECT_EQ(mutations_showing(marker, start, &partner, nullptr, 3), 0);
}

TEST(Mutator, InsertsDictionaryWords) {
  StubWords words;
  words.words = {"MAGIC_WORD"};
  const Entry start = {Bytes(32, 'a')};
  // The whole word, not a piece of it.
  EXPECT_GT(mutations_showing("MAGIC_WORD", start, nullptr, &words, 10), 20);
  EXPECT_EQ(mutations_showing("MAGIC_WORD", start, nullptr, nullptr, 4), 0);
}

TEST(Mutator, ReplacesComparedBytesWithWhatTheyWereComparedTo) {
  StubWords words;
  words.replacement = "OPERAND!";
  const Entry start = {Bytes(32, 'a')};
  EXPECT_GT(mutations_showing("OPERAND!", start, nullptr, &words, 8), 5);
  EXPECT_GT(words.replacement_calls, 0);
}

TEST(Mutator, UsesComparedIntegersForIntegerValues) {
  StubWords words;
  words.has_integer = true;
  words.integer = 0xC0FFEE;
  Mutator m(64);
  m.set_words(&words);
  Pcg r(3, 1);
  int hits = 0;
  for (int i = 0; i < 500; ++i) {
    HeapArea a = area_with(Entry{std::uint32_t{5}}, 64);
    m.mutate(a.header(), nullptr, r);
    hits += a.header().slots[0].bits == 0xC0FFEE;
  }
  EXPECT_GT(hits, 10);
  EXPECT_GT(words.integer_calls, 0);
}

// Tag-length-value records three deep, each container filled exactly by its records.
bool nested_records_parse(std::string_view d, int depth) {
  while (!d.empty()) {
    if (d.size() < 2 || static_cast<std::uint8_t>(d[1]) > d.size() - 2) return false;
    std::string_view payload = d.substr(2, static_cast<std::uint8_t>(d[1]));
    if (depth < 2 && !nested_records_parse(payload, depth + 1)) return false;
    d.remove_prefix(2 + payload.size());
  }
  return true;
}

// How many of `n` single mutations of the byte value `start` (no partner, no words) give
// a value for which `holds` is true.
template <class Pred>
int mutations_where(const std::string& start, int n, std::uint64_t seed, Pred holds) {
  Mutator m(256);
  Pcg r(seed, 1);
  int count = 0;
  for (int i = 0; i < n; ++i) {
    HeapArea a = area_with(Entry{bytes_of(start)}, 256);
    m.mutate(a.header(), nullptr, r);
    count += holds(a.bytes(0));
  }
  return count;
}

TEST(Mutator, GrowsNestedRecordsWithTheirLengthsKeptTrue) {
  const std::string start(
      "G\x08I\x06"
      "F\x04"
      "abcd",
      10);
  ASSERT_TRUE(nested_records_parse(start, 0));
  int grown = mutations_where(
      start, 3000, 5, [&](std::string_view out) { return out.size() > start.size() && nested_records_parse(out, 0); });
  // About one mutation in thirty is the insert that keeps the lengths true; anything else
  // that grows the input and still parses (a copy of the whole input after itself) is rarer.
  EXPECT_GT(grown, 40);
}

// The most records any record at `depth` holds, in tag-length-value records that fill their
// containers exactly, those innermost all tagged `leaf`; -1 if they are not.
int widest_at(std::string_view d, int depth, char leaf) {
  int widest = 0, here = 0;
  while (!d.empty()) {
    if (d.size() < 2 || static_cast<std::uint8_t>(d[1]) > d.size() - 2) return -1;
    if (depth == 0 && d[0] != leaf) return -1;
    std::string_view payload = d.substr(2, static_cast<std::uint8_t>(d[1]));
    if (depth > 0) {
      int inner = widest_at(payload, depth - 1, leaf);
      if (inner < 0) return -1;
      widest = std::max(widest, inner);
    }
    ++here;
    d.remove_prefix(2 + payload.size());
  }
  return depth == 0 ? here : widest;
}

TEST(Mutator, GivesARecordASiblingCopiedFromTheValueWithTheLengthsKeptTrue) {
  // An item holding one field, three records deep: a second field needs an insert that is
  // itself a field record (its tag, a length that fits), with every enclosing length grown
  // by its size. Random bytes are one about 1 time in 65536; a copy of the field always is.
  const std::string start(
      "D\x0aS\x08I\x06"
      "F\x04"
      "abcd",
      12);
  ASSERT_EQ(widest_at(start, 3, 'F'), 1);
  int two = mutations_where(start, 1000000, 7, [&](std::string_view out) { return widest_at(out, 3, 'F') >= 2; });
  // The copy that makes it (the field, put in front of itself) is about 1 in 35000
  // mutations here: 30 of these. Inserting only random bytes gave none.
  EXPECT_GE(two, 10);
}

TEST(Mutator, CopiesAWholeValueIntoItselfAsOftenAsAnyOtherLength) {
  // A corpus entry shrunk to exactly the count it reached (here 15 bytes that are each one
  // more than the byte before) gets to the next hit-count bucket by one copy of itself,
  // inserted anywhere: at most one step is lost where it goes in.
  const std::string start = "ABCDEFGHIJKLMNOP";
  auto steps = [](std::string_view d) {
    int n = 0;
    for (std::size_t i = 1; i < d.size(); ++i) n += d[i] == d[i - 1] + 1;
    return n;
  };
  int doubled =
      mutations_where(start, 20000, 9, [&](std::string_view out) { return steps(out) >= 2 * steps(start) - 1; });
  // The copy operator is about 1 draw in 20 here (no partner, no words), and takes the
  // whole value about 1 time in 32: about 30. Drawing the start before the length: about 2.
  EXPECT_GT(doubled, 12);
}

TEST(Mutator, PutsOneQuotedOrBracketedPartInPlaceOfAnother) {
  // A member whose value is an object, where the next branch wants a string: the object
  // replaced by a string of the value is one step, which byte copies make only when both
  // ends of both ranges are right.
  const std::string start = R"({"aaa":{"aaaaaa":{"":{}}}})";
  auto string_valued = [](std::string_view out) {
    std::size_t at = out.find(R"("aaaaaa":")");
    if (at == std::string_view::npos) return false;
    std::size_t close = out.find('"', at + 10);
    return close != std::string_view::npos && out.substr(close + 1) == "}}";
  };
  int made = mutations_where(start, 100000, 11, string_valued);
  // 298 of 100000 with this seed; without the operator, 4.
  EXPECT_GE(made, 100);
}

TEST(Mutator, AnEmptyByteValueGrowsOnEveryMutation) {
  for (Type t : {Type::Bytes, Type::String}) {
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      HeapArea a = area_with(Entry{corpus::zero_value(t)}, 64);
      Mutator m(seed % 2 == 0 ? 64 : 1);
      Pcg r(seed, 1);
      m.mutate(a.header(), nullptr, r);
      ASSERT_GE(a.header().slots[0].len, 1u) << corpus::go_type_name(t) << ", seed " << seed;
    }
  }
}

TEST(Mutator, AValueAtItsLengthLimitStillChanges) {
  // No room to grow: the mutator must still change the byte rather than spin or give up
  // (a byte set to a random value may rarely land on the value it had).
  int changed = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    HeapArea a = area_with(Entry{Bytes(1, 'z')}, 1);
    Mutator m(1);
    Pcg r(seed, 1);
    m.mutate(a.header(), nullptr, r);
    ASSERT_EQ(a.header().slots[0].len, 1u);
    changed += a.data(0)[0] != 'z';
  }
  EXPECT_GE(changed, 190);
}

TEST(Mutator, MutatingAnEntryWithNoValuesDoesNothing) {
  HeapArea a(16, 1);
  a.header().count = 0;
  HeapArea before = a;
  Mutator m(16);
  Pcg r(1, 1);
  const std::uint64_t state = r.state();
  m.mutate(a.header(), nullptr, r);
  EXPECT_TRUE(a.same_bytes(before));
  EXPECT_EQ(r.state(), state);
}

TEST(Mutator, MutateBytesKeepsLengthWithinTheGivenCapacity) {
  // The byte engine on its own, with an odd capacity and a short partner.
  Mutator m(4096);
  Pcg r(8, 1);
  std::vector<std::uint8_t> buf(37 + 64, 0xEE);  // 64 guard bytes past the capacity
  std::uint64_t len = 10;
  const std::string other = "partner";
  for (int i = 0; i < 20000; ++i) {
    m.mutate_bytes(buf.data(), &len, 37, reinterpret_cast<const std::uint8_t*>(other.data()), other.size(), r);
    ASSERT_LE(len, 37u) << i;
    ASSERT_TRUE(std::all_of(buf.begin() + 37, buf.end(), [](std::uint8_t b) { return b == 0xEE; })) << i;
  }
}

}  // namespace
}  // namespace cfuzz::core
