// Typed values (cfuzz/typed_values.h) as the runtime sees them: shapes parse, the runtime's
// walk reads an encoding exactly as the header's decoder does, and the structure mutator
// makes canonical encodings that change values element by element.
#include "core/value_shape.h"

#include <cfuzz/domains.h>
#include <cfuzz/typed_values.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "core/minimizer.h"
#include "core/mutator.h"
#include "core/structure_mutator.h"

namespace cfuzz::core {
namespace {

using detail::decode_value;
using detail::encode_value;
using detail::shape_of;
using Bytes = std::vector<std::uint8_t>;

struct Point {
  std::int16_t x;
  std::uint64_t y;
  bool operator==(const Point&) const = default;
};

struct Record {
  std::vector<std::string> names;
  std::array<std::uint8_t, 3> rgb;
  std::optional<Point> where;
  std::variant<std::monostate, std::int32_t, std::string> any;
  std::tuple<bool, double, std::vector<Point>> rest;
  bool operator==(const Record&) const = default;
};

Bytes random_bytes(std::mt19937_64& rng, std::size_t max_len) {
  Bytes b(rng() % (max_len + 1));
  for (auto& x : b) x = static_cast<std::uint8_t>(rng() % 4 == 0 ? rng() : rng() % 4);  // small counts are likely
  return b;
}

Bytes canonical(const ValueShape& shape, const Bytes& b) {
  Bytes out;
  std::vector<ValuePart> parts;
  canonicalize(shape, b.data(), b.size(), out, parts);
  return out;
}

TEST(ValueShape, TheHeaderWritesShapesThatParseAndReadAsGoTypes) {
  EXPECT_EQ(shape_of<std::vector<std::int32_t>>(), "[]int32");
  EXPECT_EQ((shape_of<std::map<std::string, std::optional<std::uint8_t>>>()), "map[string]optional[uint8]");
  EXPECT_EQ((shape_of<std::set<std::int64_t>>()), "set[int64]");
  EXPECT_EQ((shape_of<std::array<std::vector<std::uint8_t>, 2>>()), "[2][]byte");
  EXPECT_EQ(shape_of<Point>(), "struct{int16; uint64}");
  EXPECT_EQ(shape_of<Record>(),
            "struct{[]string; [3]uint8; optional[struct{int16; uint64}]; variant[struct{}|int32|string]; "
            "struct{bool; float64; []struct{int16; uint64}}}");
  for (const std::string& text : {shape_of<Record>(), shape_of<std::map<std::string, std::optional<std::uint8_t>>>(),
                                  std::string("struct{}"), std::string("[0]bool")}) {
    EXPECT_EQ(ValueShape::parse(text).text(), text);
  }
}

TEST(ValueShape, AMalformedShapeSaysWhere) {
  for (const char* bad : {"", "int", "[]", "[x]int8", "map[string", "struct{int8;int8}", "int8 ", "variant[]"}) {
    try {
      ValueShape::parse(bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("malformed value shape"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("at offset"), std::string::npos) << e.what();
    }
  }
}

TEST(ValueShape, TheWalkReadsEveryByteStringAsTheHeaderDecodesIt) {
  const ValueShape shape = ValueShape::parse(shape_of<Record>());
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    Bytes raw = random_bytes(rng, 96);
    Record a{}, b{};
    decode_value(raw.data(), raw.size(), a);
    Bytes canon = canonical(shape, raw);
    decode_value(canon.data(), canon.size(), b);
    ASSERT_EQ(a, b) << "input " << i;
    // Without sets or maps, canonical is exactly what the header encodes.
    ASSERT_EQ(canon, encode_value(a)) << "input " << i;
    ASSERT_EQ(canonical(shape, canon), canon);
  }
}

TEST(ValueShape, PartsCoverTheirChildrenInPreOrder) {
  const ValueShape shape = ValueShape::parse("[]struct{string; optional[int32]}");
  Bytes raw = encode_value(std::vector<std::tuple<std::string, std::optional<std::int32_t>>>{{"ab", 5}, {"", {}}});
  Bytes out;
  std::vector<ValuePart> parts;
  canonicalize(shape, raw.data(), raw.size(), out, parts);
  EXPECT_EQ(out, raw);
  // root, element, string, optional, int32, element, string, optional
  ASSERT_EQ(parts.size(), 8u);
  EXPECT_EQ(parts[0].parent, -1);
  EXPECT_EQ(parts[1].parent, 0);
  EXPECT_EQ(parts[4].parent, 3);
  EXPECT_EQ(parts[5].parent, 0);
  for (const ValuePart& p : parts) {
    if (p.parent >= 0) {
      EXPECT_LE(parts[p.parent].begin, p.begin);
      EXPECT_LE(p.end, parts[p.parent].end);
    }
  }
}

TEST(ValueShape, RendersAValueForPeople) {
  auto render = [](const std::string& shape, const Bytes& b) {
    return render_value(ValueShape::parse(shape), b.data(), b.size());
  };
  EXPECT_EQ(render(shape_of<std::vector<std::int32_t>>(), encode_value(std::vector<std::int32_t>{1, -2})), "[1, -2]");
  EXPECT_EQ(render(shape_of<std::map<std::string, std::optional<std::uint8_t>>>(),
                   encode_value(std::map<std::string, std::optional<std::uint8_t>>{{"a\n", 7}, {"b", {}}})),
            "{\"a\\n\": 7, \"b\": none}");
  EXPECT_EQ(render(shape_of<Point>(), encode_value(Point{-3, 1ULL << 63})), "{-3, 9223372036854775808}");
  EXPECT_EQ(render(shape_of<std::variant<bool, double>>(), encode_value(std::variant<bool, double>{0.5})), "0.5");
  Bytes many = encode_value(std::vector<std::int32_t>(1000, 7));
  std::string cut = render_value(ValueShape::parse("[]int32"), many.data(), many.size(), 20);
  EXPECT_EQ(cut, "[7, 7, 7, 7, 7, 7, 7...");
}

// Minimizes `start` (one typed value of `shape`) while `fails` holds of the decoded value.
template <class V, class Pred>
V minimize_typed(const std::string& shape, const Bytes& start, Pred fails) {
  auto decoded = [](const corpus::Entry& e) {
    const auto& b = std::get<corpus::Bytes>(e[0]);
    V v{};
    decode_value(b.data(), b.size(), v);
    return v;
  };
  Minimizer m(corpus::Entry{corpus::Bytes(start)});
  m.set_shapes({shape});
  corpus::Entry candidate;
  int steps = 0;
  while (m.next(&candidate) && ++steps < 10000) m.report(fails(decoded(candidate)));
  EXPECT_LT(steps, 10000);
  const auto& best = std::get<corpus::Bytes>(m.best()[0]);
  EXPECT_EQ(canonical(ValueShape::parse(shape), best), best) << "the minimized value is canonical";
  return decoded(m.best());
}

TEST(TypedMinimization, DropsElementsAndZeroesWhatTheFailureDoesNotNeed) {
  using List = std::vector<std::int32_t>;
  auto has_run = [](const List& v) {
    for (std::size_t i = 0; i + 2 < v.size(); ++i) {
      if (v[i] == 1000003 && v[i + 1] == -77777 && v[i + 2] == 424242) return true;
    }
    return false;
  };
  Bytes bloated = encode_value(List{5, 1000003, -77777, 424242, 9, 11});
  bloated[0] = '0';  // a count far larger than the elements present, as a byte minimizer leaves it
  bloated.insert(bloated.end(), {1, 2, 3});
  EXPECT_EQ(minimize_typed<List>(shape_of<List>(), bloated, has_run), (List{1000003, -77777, 424242}));

  using Pair = std::tuple<std::optional<std::uint16_t>, std::string, std::int64_t>;
  auto needs_name = [](const Pair& p) { return std::get<1>(p) == "admin"; };
  EXPECT_EQ(minimize_typed<Pair>(shape_of<Pair>(), encode_value(Pair{7, "admin", -9}), needs_name),
            (Pair{std::nullopt, "admin", 0}));
}

// Words as the runtime's comparison table gives them: one integer the target compared with.
class OneOperand : public WordSource {
 public:
  std::string_view pick_word(Pcg&) const override { return "needle"; }
  bool replacement_for(const std::uint8_t*, std::size_t, Pcg&, Replacement*) const override { return false; }
  bool integer_for(std::uint64_t, int width, Pcg&, std::uint64_t* out) const override {
    if (width != 4) return false;
    *out = 1000003;
    return true;
  }
};

// A structure mutator for the value at `index`, with OneOperand's words.
struct GuidedMutator {
  Mutator bytes{4096};
  OneOperand words;
  StructureMutator m{bytes};
  GuidedMutator(std::uint32_t index, const std::string& shape) {
    bytes.set_words(&words);
    m.set_words(&words);
    m.set_shape(index, ValueShape::parse(shape));
  }
};

TEST(StructureMutator, MakesCanonicalValuesWithinCapAndChangesThemByElement) {
  const std::string text = shape_of<Record>();
  GuidedMutator guided(2, text);
  StructureMutator& m = guided.m;
  const ValueShape shape = ValueShape::parse(text);
  EXPECT_TRUE(m.handles(2));
  EXPECT_FALSE(m.handles(0));
  EXPECT_FALSE(m.handles(3));

  Pcg rng;
  rng.reseed(3, 1);
  Bytes data(512);
  std::uint64_t len = 0;  // the empty encoding: every field zero or empty
  bool grew = false, shrank = false, appeared = false, vanished = false, switched = false, operand = false,
       word = false;
  Record before{};
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t cap = 256;
    ASSERT_TRUE(m.mutate_value(2, data.data(), &len, cap, nullptr, 0, rng));
    ASSERT_LE(len, cap);
    Bytes now(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(len));
    ASSERT_EQ(canonical(shape, now), now) << "mutation " << i << " left a non-canonical encoding";
    Record after{};
    decode_value(now.data(), now.size(), after);
    grew |= after.names.size() > before.names.size();
    shrank |= after.names.size() < before.names.size();
    appeared |= after.where.has_value() && !before.where.has_value();
    vanished |= !after.where.has_value() && before.where.has_value();
    switched |= after.any.index() != before.any.index();
    if (const auto* v = std::get_if<std::int32_t>(&after.any)) operand |= *v == 1000003;
    for (const auto& n : after.names) word |= n.find("needle") != std::string::npos;
    before = after;
    if (i % 1000 == 999) len = 0;  // start over now and then, so that values stay small
  }
  EXPECT_TRUE(grew && shrank) << "containers gain and lose elements";
  EXPECT_TRUE(appeared && vanished) << "optionals appear and vanish";
  EXPECT_TRUE(switched) << "variants switch alternatives";
  EXPECT_TRUE(operand) << "comparison operands reach integers inside values";
  EXPECT_TRUE(word) << "dictionary words reach strings inside values";
}

TEST(StructureMutator, CopiesPartsOfTheSpliceParter) {
  const std::string text = shape_of<std::vector<std::int32_t>>();
  Mutator bytes(4096);
  StructureMutator m(bytes);
  m.set_shape(0, ValueShape::parse(text));
  Bytes other = encode_value(std::vector<std::int32_t>{-77777, 424242});
  Pcg rng;
  rng.reseed(5, 1);
  int copied = 0;
  for (int i = 0; i < 2000; ++i) {
    Bytes data = encode_value(std::vector<std::int32_t>{1, 2, 3});
    data.resize(256);
    std::uint64_t len = 16;
    m.mutate_value(0, data.data(), &len, 256, other.data(), other.size(), rng);
    std::vector<std::int32_t> v;
    decode_value(data.data(), len, v);
    for (std::int32_t x : v) copied += x == -77777 || x == 424242;
  }
  EXPECT_GT(copied, 50);
}

// Mutates an encoded value of domain `d` from `seed` many times; every result must be in
// the domain by the mutator's own doing (the fuzz function's decoder would drop it else).
template <class D>
void expect_mutations_stay_in(const D& d, const typename D::value_type& seed) {
  std::string text;
  d.shape(text);
  GuidedMutator guided(0, text);
  StructureMutator& m = guided.m;
  Pcg rng;
  rng.reseed(11, 1);
  Bytes data(4096);
  Bytes start;
  detail::ValueWriter w{start};
  d.encode(w, seed);
  std::copy(start.begin(), start.end(), data.begin());
  std::uint64_t len = start.size();
  for (int i = 0; i < 20000; ++i) {
    ASSERT_TRUE(m.mutate_value(0, data.data(), &len, 512, nullptr, 0, rng));
    typename D::value_type v{};
    detail::ValueReader r{data.data(), data.data() + len};
    std::string why;
    ASSERT_TRUE(d.decode(r, v) && d.admits(v, why)) << text << ": mutation " << i << " left the domain: " << why;
  }
}

TEST(StructureMutator, KeepsValuesInTheirDomains) {
  expect_mutations_stay_in(cfuzz::vector_of(cfuzz::element_of({2, 3, 5, 7})).with_size(1, 4), std::vector<int>{2});
  expect_mutations_stay_in(cfuzz::vector_of(cfuzz::in_range<std::int16_t>(-5, 5)).with_max_size(6),
                           std::vector<std::int16_t>{});
  expect_mutations_stay_in(cfuzz::vector_of(cfuzz::string_of("abc").with_size(2, 5)), std::vector<std::string>{"ab"});
  expect_mutations_stay_in(cfuzz::optional_of(cfuzz::in_range(0.0, 1.0)), std::optional<double>{});
  expect_mutations_stay_in(cfuzz::vector_of(cfuzz::in_range<std::uint64_t>(10, 20)), std::vector<std::uint64_t>{10});
}

TEST(StructureMutator, KeepsPlainValuesInTheirDomains) {
  Mutator bytes(4096);
  StructureMutator m(bytes);
  m.set_shape(0, ValueShape::parse("<range -3 3>int32"), /*plain=*/true);
  m.set_shape(1, ValueShape::parse("<size 1 3; alphabet 7879>string"), /*plain=*/true);
  m.set_shape(2, ValueShape::parse("<oneof 0200 0700>uint16"), /*plain=*/true);
  Pcg rng;
  std::uint64_t bits = 0, small = 2;
  std::uint8_t text[16] = {'x'};
  std::uint64_t len = 1;
  for (int i = 0; i < 20000; ++i) {
    ASSERT_TRUE(m.mutate_bits(0, &bits, rng));
    auto v = static_cast<std::int64_t>(bits);
    ASSERT_TRUE(v >= -3 && v <= 3) << v;
    ASSERT_TRUE(m.mutate_value(1, text, &len, sizeof text, nullptr, 0, rng));
    ASSERT_TRUE(len >= 1 && len <= 3) << len;
    for (std::uint64_t k = 0; k < len; ++k) ASSERT_TRUE(text[k] == 'x' || text[k] == 'y') << int(text[k]);
    ASSERT_TRUE(m.mutate_bits(2, &small, rng));
    ASSERT_TRUE(small == 2 || small == 7) << small;
  }
}

TEST(StructureMutator, LeavesValuesWithoutAShapeToTheNextMutator) {
  struct Counting : ValueMutator {
    int calls = 0;
    bool mutate_value(std::uint32_t, std::uint8_t*, std::uint64_t*, std::uint64_t, const std::uint8_t*, std::uint64_t,
                      Pcg&) override {
      ++calls;
      return true;
    }
  } next;
  Mutator bytes(64);
  StructureMutator m(bytes);
  m.set_shape(1, ValueShape::parse("[]int8"));
  Pcg rng;
  std::uint8_t data[8] = {};
  std::uint64_t len = 0;
  EXPECT_FALSE(m.mutate_value(0, data, &len, 8, nullptr, 0, rng));
  m.set_next(&next);
  EXPECT_TRUE(m.mutate_value(0, data, &len, 8, nullptr, 0, rng));
  EXPECT_EQ(next.calls, 1);
}

}  // namespace
}  // namespace cfuzz::core
