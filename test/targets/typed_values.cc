// Typed fuzz tests over containers, structs, optional, variant and maps
// (cfuzz/typed_values.h). Three planted bugs need element values in a given order; a
// fourth test takes every supported shape and, with CFUZZ_TEST_ROUND_TRIP=1, checks that
// its seed arrives exactly as it was added.
#include <cfuzz/cfuzz.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

CFUZZ_TEST(FuzzVectorInOrder, f) {
  f.add(std::vector<std::int32_t>{1, 2, 3});
  if (std::getenv("CFUZZ_TEST_WRONG_SEED") != nullptr) f.add(std::vector<std::int64_t>{1, 2, 3});
  f.fuzz([](cfuzz::T& t, const std::vector<std::int32_t>& v) {
    for (std::size_t i = 0; i + 2 < v.size(); ++i) {
      if (v[i] == 1000003 && v[i + 1] == -77777 && v[i + 2] == 424242) t.fatalf("planted bug: the sequence at %zu", i);
    }
  });
}

enum class Kind : std::uint8_t { Ping = 1, Data = 2, Close = 3 };

struct Header {
  Kind kind;
  std::uint16_t port;
  std::string name;
  std::vector<std::uint16_t> flags;
};

CFUZZ_TEST(FuzzStructAndOptional, f) {
  f.add(Header{Kind::Ping, 80, "guest", {1}}, std::optional<std::uint32_t>{});
  f.fuzz([](cfuzz::T& t, const Header& h, const std::optional<std::uint32_t>& token) {
    if (h.kind != Kind::Data || h.port != 8443) return;
    if (h.name != "admin" || !token) return;
    if (*token == 0xC0FFEE42u && h.flags.size() >= 2 && h.flags[0] == 7 && h.flags[1] == 9) {
      t.fatalf("planted bug: an admin data packet with the token");
    }
  });
}

CFUZZ_TEST(FuzzMap, f) {
  f.add(std::map<std::string, std::int64_t>{{"zeta", 1}});
  f.fuzz([](cfuzz::T& t, const std::map<std::string, std::int64_t>& m) {
    auto a = m.find("alpha");
    if (a == m.end() || a->second != 1100) return;
    auto b = m.find("beta");
    if (b == m.end() || b->second != -220022) return;
    auto g = m.find("gamma");
    if (g != m.end() && g->second == 3300330033LL) t.fatalf("planted bug: alpha, beta and gamma");
  });
}

struct Point {
  std::int16_t x;
  std::int16_t y;
  bool operator==(const Point&) const = default;
  bool operator<(const Point& o) const { return std::tie(x, y) < std::tie(o.x, o.y); }
};

struct Everything {
  std::vector<std::string> names;
  std::array<std::uint8_t, 3> rgb;
  std::deque<bool> bits;
  std::set<std::int64_t> ids;
  std::unordered_map<std::uint32_t, std::string> labels;
  std::optional<Point> where;
  std::variant<std::monostate, std::int32_t, std::string> any;
  std::pair<float, double> fp;
  std::tuple<Kind, std::vector<Point>> kinds;
  std::unordered_set<std::uint16_t> ports;
  std::vector<std::uint8_t> raw;
  std::map<Point, std::optional<std::string>> grid;
  bool operator==(const Everything&) const = default;
};

Everything sample() {
  return Everything{{"a", "", "long name"},
                    {1, 2, 255},
                    {true, false, true},
                    {-5, 0, 1LL << 40},
                    {{7, "seven"}, {0xffffffffu, "max"}},
                    Point{-3, 4},
                    std::string("alt"),
                    {1.5f, -2.25},
                    {Kind::Close, {{1, 2}, {-1, -2}}},
                    {80, 443},
                    {0, 1, 2, 0xff},
                    {{{0, 0}, std::nullopt}, {{1, -1}, "one"}}};
}

CFUZZ_TEST(FuzzEveryShape, f) {
  f.add(sample(), std::array<std::int32_t, 2>{-1, 2}, Kind::Data,
        std::tuple<std::int8_t, std::uint64_t, std::string>{-8, 1ULL << 63, "t"});
  f.fuzz([](cfuzz::T& t, const Everything& e, const std::array<std::int32_t, 2>& arr, Kind k,
            const std::tuple<std::int8_t, std::uint64_t, std::string>& tup) {
    const char* check = std::getenv("CFUZZ_TEST_ROUND_TRIP");
    if (check == nullptr || check[0] != '1') return;
    if (!(e == sample())) t.error("the struct changed on its way");
    if (arr != std::array<std::int32_t, 2>{-1, 2}) t.error("the array changed on its way");
    if (k != Kind::Data) t.error("the enum changed on its way");
    if (tup != std::tuple<std::int8_t, std::uint64_t, std::string>{-8, 1ULL << 63, "t"}) {
      t.error("the tuple changed on its way");
    }
    t.logf("round trip ok");
  });
}
