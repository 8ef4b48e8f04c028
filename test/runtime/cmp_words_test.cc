// CmpWords (runtime/engine/cmp_words.h), the mutator's view of the target's comparisons: given the
// comparisons a run recorded and an input, the replacements that make those comparisons
// come out the other way, in the forms a binary or text format keeps its fields.
#include "runtime/engine/cmp_words.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "core/pcg.h"
#include "test/core/test_area.h"

namespace fuzzer::cfuzz {
namespace {

// As in cmp_table_test.cc: a site moves with the runtime's code, as a real one would.
std::uintptr_t site_pc(std::uint64_t k) { return reinterpret_cast<std::uintptr_t>(&cmp_table) + 0x4000 + 16 * k; }

// The live and the base table, recording; each test fills them as one run would.
struct Tables {
  Tables() {
    for (CmpTable* t : {&live, &base}) {
      t->clear();
      t->set_enabled(true);
      t->set_probing(true);
    }
  }
  void record_int(std::uint64_t k, std::uint64_t a, std::uint64_t b, int width) {
    live.record_int(site_pc(k), a, b, width, true);
    base.record_int(site_pc(k), a, b, width, true);
  }
  void record_bytes(std::uint64_t k, const std::string& a, const std::string& b) {
    live.record_bytes(site_pc(k), a.data(), a.size(), b.data(), b.size());
    base.record_bytes(site_pc(k), a.data(), a.size(), b.data(), b.size());
  }
  static inline CmpTable live, base;  // 50 KB each: not on the stack
};

struct Seen {
  std::size_t pos, old_len;
  std::string bytes;
  bool operator<(const Seen& o) const { return std::tie(pos, old_len, bytes) < std::tie(o.pos, o.old_len, o.bytes); }
};

// Every replacement CmpWords offers for `input` in `tries` draws.
std::set<Seen> replacements(const CmpWords& words, const std::string& input, int tries = 400) {
  core::Pcg rng(7, 1);
  std::set<Seen> seen;
  auto* data = reinterpret_cast<const std::uint8_t*>(input.data());
  for (int i = 0; i < tries; ++i) {
    core::WordSource::Replacement r;
    if (words.replacement_for(data, input.size(), rng, &r)) seen.insert({r.pos, r.old_len, std::string(r.bytes)});
  }
  return seen;
}

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int c : b) s.push_back(static_cast<char>(c));
  return s;
}

TEST(CmpWords, ABigEndianFieldIsReplacedByWhatItWasComparedWithAndItsNeighbours) {
  // A container's size field, big-endian at offset 4, checked against the 0x2000 it must
  // not pass: the field, the bound and the bound's neighbours (an ordering comparison is
  // won by them) are offered in the field's own byte order.
  Tables t;
  t.record_int(0, 0x1000, 0x2000, 4);
  CmpWords words(Tables::live, Tables::base);
  std::string input = "HDR!" + bytes({0x00, 0x00, 0x10, 0x00}) + "tail";
  auto seen = replacements(words, input);
  EXPECT_TRUE(seen.count({4, 4, bytes({0x00, 0x00, 0x20, 0x00})}));
  EXPECT_TRUE(seen.count({4, 4, bytes({0x00, 0x00, 0x20, 0x01})}));
  EXPECT_TRUE(seen.count({4, 4, bytes({0x00, 0x00, 0x1f, 0xff})}));
}

TEST(CmpWords, ALittleEndianFieldIsReplacedInItsOwnOrder) {
  Tables t;
  t.record_int(0, 0xcafe0001, 0x0badf00d, 4);
  CmpWords words(Tables::live, Tables::base);
  std::string input = "ab" + bytes({0x01, 0x00, 0xfe, 0xca}) + "cd";
  auto seen = replacements(words, input);
  EXPECT_TRUE(seen.count({2, 4, bytes({0x0d, 0xf0, 0xad, 0x0b})}));
}

TEST(CmpWords, ANarrowFieldComparedAfterPromotionIsFoundInItsOwnWidth) {
  // A 16-bit big-endian tag compared as an int: the 4-byte form is nowhere in the input.
  Tables t;
  t.record_int(0, 0x1234, 0x4242, 4);
  CmpWords words(Tables::live, Tables::base);
  std::string input = "xx" + bytes({0x12, 0x34}) + "yy";
  auto seen = replacements(words, input);
  EXPECT_TRUE(seen.count({2, 2, bytes({0x42, 0x42})}));
}

TEST(CmpWords, ANumberParsedFromTextIsReplacedByTheOtherOperandsDigits) {
  Tables t;
  t.record_int(0, 300, 17, 8);
  CmpWords words(Tables::live, Tables::base);
  auto seen = replacements(words, "len=300;");
  EXPECT_TRUE(seen.count({4, 3, "17"}));
}

TEST(CmpWords, BytesComparedWithAStringAreReplacedByIt) {
  Tables t;
  t.record_bytes(0, "GIF87a", "GIF89a");
  CmpWords words(Tables::live, Tables::base);
  auto seen = replacements(words, "GIF87a....");
  EXPECT_TRUE(seen.count({0, 6, "GIF89a"}));
}

TEST(CmpWords, InputToStateReplacesAnOperandAtItsFirstThreePlacesAndItsLast) {
  // A tag compared with the one it must be, in a long input that holds it five times, the
  // last at its very end, among near misses (its first three bytes, its first byte): the
  // stage tries the first three places and the last (of equal fields, the last may be a
  // checksum stored after them), in order, and nowhere else.
  Tables t;
  t.record_bytes(0, "TAG1", "TAG2");
  CmpWords words(Tables::live, Tables::base);
  std::string input(5000, '\0');
  for (std::size_t pos : {50, 900, 1900, 2900}) input.replace(pos, 3, "TAG");  // near misses
  for (std::size_t pos : {100, 1000, 2000, 3000}) input.replace(pos, 4, "TAG1");
  input.replace(4000, 1, "T");
  input.replace(input.size() - 4, 4, "TAG1");
  core_test::HeapArea area(input.size(), 1);
  area.header().count = 1;
  area.header().slots[0].len = input.size();
  std::memcpy(area.data(0), input.data(), input.size());

  std::vector<std::size_t> places;
  for (const CmpWords::Candidate& c : words.input_to_state_candidates(area.header(), 512)) {
    EXPECT_EQ(c.value, 0u);
    EXPECT_EQ(c.old_len, 4u);
    EXPECT_EQ(c.bytes, "TAG2");
    places.push_back(c.pos);
  }
  EXPECT_EQ(places, (std::vector<std::size_t>{100, 1000, 2000, input.size() - 4}));
}

TEST(CmpWords, NoComparisonsNoReplacement) {
  Tables t;
  CmpWords words(Tables::live, Tables::base);
  EXPECT_TRUE(replacements(words, "anything").empty());
}

TEST(CmpWords, AnIntegerArgumentGetsTheOperandItWasComparedWith) {
  Tables t;
  t.record_int(0, 41, 1000, 4);
  CmpWords words(Tables::live, Tables::base);
  core::Pcg rng(3, 1);
  std::set<std::uint64_t> offered;
  for (int i = 0; i < 200; ++i) {
    std::uint64_t v;
    if (words.integer_for(41, 4, rng, &v)) offered.insert(v);
  }
  EXPECT_TRUE(offered.count(1000));
}

TEST(CmpWords, DictionaryWordsArePickedAndCreditedToTheChainThatUsedThem) {
  Tables t;
  CmpWords words(Tables::live, Tables::base);
  words.set_dictionary({"magic!"});
  words.begin_chain();
  core::Pcg rng(5, 1);
  std::set<std::string> picked;
  for (int i = 0; i < 50; ++i) picked.insert(std::string(words.pick_word(rng)));
  EXPECT_TRUE(picked.count("magic!"));
  auto used = words.chain_words();
  EXPECT_NE(std::find(used.begin(), used.end(), "magic!"), used.end());
  words.begin_chain();
  EXPECT_TRUE(words.chain_words().empty());
}

}  // namespace
}  // namespace fuzzer::cfuzz
