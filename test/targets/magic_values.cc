// Bugs behind magic values that blind mutation essentially never guesses (2^32 to 2^64
// tries), which comparison-guided mutation finds: the operands of the comparisons the
// target makes are written into the input; and some that no comparison leads to: a sum
// (FuzzRotatedSum, for the value profile), nested lengths (FuzzNestedRecords,
// FuzzSecondField), exact sizes (FuzzQuotedSizes), a value of another kind
// (FuzzValueKinds) and a count (FuzzAscendingSteps). No seeds (but for the text formats of
// FuzzDecimalFields and FuzzValueKinds): every other test starts from zero values.
#include <cfuzz/cfuzz.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

namespace {

std::uint32_t u32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::uint64_t u64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// FNV-1a: a comparison of hashes tells the mutator nothing about the word behind them.
std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

}  // namespace

CFUZZ_TEST(FuzzMemcmpMagic, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    if (d.size() >= 12 && std::memcmp(d.data() + 4, "\x8cMAG1C\x07\xe4", 8) == 0) std::abort();
  });
}

CFUZZ_TEST(FuzzStrcmpKeyword, f) {
  f.fuzz([](cfuzz::T&, const std::string& s) {
    if (std::strcmp(s.c_str(), "open-sesame!") == 0) std::abort();
  });
}

CFUZZ_TEST(FuzzChainOf32, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    if (d.size() < 16) return;
    if (u32(d.data()) == 0x1badcafe) {
      if (u32(d.data() + 4) == 0x8badf00d) {
        if (u32(d.data() + 8) == 0xdeadbeef) {
          if (u32(d.data() + 12) == 0x0ddba11f) std::abort();
        }
      }
    }
  });
}

CFUZZ_TEST(FuzzEqual64, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    if (d.size() >= 8 && u64(d.data()) == 0x0123456789abcdefULL) std::abort();
  });
}

CFUZZ_TEST(FuzzTypedEqual64, f) {
  f.fuzz([](cfuzz::T&, std::int64_t n, std::uint32_t k) {
    if (n == 0x7a11c0de5eedf00dLL && k == 0xc0ffee) std::abort();
  });
}

// Fields behind offsets, as a dense switch compiles them (a range check on x - K): the
// comparisons see x - K and z + K, never a value that is in the input.
CFUZZ_TEST(FuzzOffsetFields, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    if (d.size() < 10) return;
    if (u32(d.data() + 2) - 0x2b1e0f00u < 3u) {
      if (u32(d.data() + 6) + 0x600dd00du == 0x13572468u) std::abort();
    }
  });
}

// Numbers parsed from text: the comparisons see the parsed values, never bytes of the
// input, so the digits that spell one operand must be rewritten to spell the other.
// Two 16-bit checksums of the rest of the input, carried big-endian in its first four
// bytes and compared after C's integer promotion: 32-bit comparisons whose operands are
// only 2 bytes each in the input (2^32 tries for blind mutation).
CFUZZ_TEST(FuzzPromotedChecksum, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    if (d.size() < 8) return;
    std::uint16_t sum = 0x5a5a, product = 1;
    for (std::size_t i = 4; i < d.size(); ++i) {
      sum = static_cast<std::uint16_t>(((sum << 3) | (sum >> 13)) + d[i]);
      product = static_cast<std::uint16_t>(product * 31 + d[i]);
    }
    if (static_cast<std::uint16_t>(d[0] << 8 | d[1]) != sum) return;
    if (static_cast<std::uint16_t>(d[2] << 8 | d[3]) != product) return;
    std::abort();
  });
}

// A record whose fields a checksum covers: each field made right breaks the checksum, so
// no single replacement gets further. A field and then the checksum over it (a chain of
// replacements) does, one field at a time; the record must also be exactly 12 bytes long.
CFUZZ_TEST(FuzzChecksummedFields, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    if (d.size() != 12 || d[0] != 'R') return;
    std::uint16_t sum = 0x5a5a;
    for (std::size_t i = 0; i < 10; ++i) sum = static_cast<std::uint16_t>(((sum << 3) | (sum >> 13)) + d[i]);
    if (static_cast<std::uint16_t>(d[10] << 8 | d[11]) != sum) return;
    auto field = [&](std::size_t i) { return static_cast<std::uint16_t>(d[2 + 2 * i] << 8 | d[3 + 2 * i]); };
    if (field(0) != 0x1234 || field(1) != 0x2345 || field(2) != 0x3456 || field(3) != 0x4567) return;
    std::abort();
  });
}

// Two readings whose rotated sum must be exactly one value: no operand of the comparison
// is in the input, and blind mutation has 2^-32 odds. How close the sum came (the value
// profile, runtime/engine/value_profile.h) is a gradient: an input one power of two nearer is
// kept, and the next is a bit flip or a small step away.
CFUZZ_TEST(FuzzRotatedSum, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    if (d.size() != 8) return;
    if (std::rotl(u32(d.data()), 7) + std::rotr(u32(d.data() + 4), 3) == 0x9e3779b9u) std::abort();
  });
}

// Splits d into records of a tag byte, a length byte and that many bytes, and calls
// each(tag, payload) on each; false when they do not fill d exactly.
template <class F>
bool for_each_record(std::span<const std::uint8_t> d, F each) {
  while (!d.empty()) {
    if (d.size() < 2 || d[1] > d.size() - 2) return false;
    if (!each(d[0], d.subspan(2, d[1]))) return false;
    d = d.subspan(2 + d[1]);
  }
  return true;
}

// Records three deep: groups of items of fields, each container filled exactly by its
// records. The bug wants a field of exactly five bytes that starts with '!'. Bytes inserted
// into a field break the length of every record around it, and no comparison says which
// bytes those are or what they should become: they have to grow together.
CFUZZ_TEST(FuzzNestedRecords, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    for_each_record(d, [](std::uint8_t tag, auto group) {
      return tag == 'G' && for_each_record(group, [](std::uint8_t tag, auto item) {
               return tag == 'I' && for_each_record(item, [](std::uint8_t tag, auto field) {
                        if (tag != 'F') return false;
                        if (field.size() == 5 && field[0] == '!') std::abort();
                        return true;
                      });
             });
    });
  });
}

// Records four deep (a document of groups of items of fields), where the bug wants an item
// of at least two fields, one of them of exactly six bytes that starts with '!'. An item
// grows a second field when the bytes inserted inside it, with the lengths around them
// grown, are themselves a field: its tag and a length that fits. A copy of the field it
// has is one.
CFUZZ_TEST(FuzzSecondField, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    auto item = [](std::uint8_t tag, auto fields) {
      if (tag != 'I') return false;
      int count = 0;
      bool bang = false;
      bool ok = for_each_record(fields, [&](std::uint8_t tag, auto field) {
        if (tag != 'F') return false;
        ++count;
        if (field.size() == 6 && field[0] == '!') bang = true;
        return true;
      });
      if (ok && count >= 2 && bang) std::abort();
      return ok;
    };
    for_each_record(d, [&](std::uint8_t tag, auto doc) {
      return tag == 'D' && for_each_record(doc, [&](std::uint8_t tag, auto group) {
               return tag == 'G' && for_each_record(group, item);
             });
    });
  });
}

// `name="value"` pairs separated by ';', where the bug wants a name of exactly 7 bytes with
// a value of exactly 13. Nothing in the input holds these sizes and no size between them
// gets new coverage, and the bytes must go between the quotes: only the comparisons of the
// measured sizes with 7 and 13 say how many bytes are missing.
CFUZZ_TEST(FuzzQuotedSizes, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    std::string_view text(reinterpret_cast<const char*>(d.data()), d.size());
    while (!text.empty()) {
      std::size_t eq = text.find('=');
      if (eq == std::string_view::npos || eq + 1 >= text.size() || text[eq + 1] != '"') return;
      std::size_t close = text.find('"', eq + 2);
      if (close == std::string_view::npos) return;
      if (eq == 7) {
        // Apart from the test of the value: otherwise the optimizer makes the two tests one
        // comparison, of ((name ^ 7) | (value ^ 13)) with 0.
        static volatile int names;
        names = names + 1;
        if (close - eq - 2 == 13) std::abort();
      }
      if (close + 1 < text.size() && text[close + 1] != ';') return;
      text.remove_prefix(std::min(close + 2, text.size()));
    }
  });
}

// A value of one kind where the seed has another: `id` must hold a string of three bytes or
// more, beside one `name` (renaming `name` to `id`, as the comparison of the keys suggests,
// does not do), and the whole line must still parse. The seed's `id` is a list; turning its
// bracket into a quote one byte at a time breaks the line, and no comparison names the
// string the parser wants; the seed's own `"abc"` put in place of the list is one step.
CFUZZ_TEST(FuzzValueKinds, f) {
  f.add(std::string("id=[1,2,3];name=\"abc\""));
  f.fuzz([](cfuzz::T&, const std::string& s) {
    std::string_view text(s);
    std::size_t at = 0;
    // One value from `at`: a number, a "string" or a [list, of, values]; its kind, or 0.
    auto value = [&](auto& self, std::size_t* string_len) -> int {
      if (at < text.size() && text[at] == '"') {
        std::size_t close = text.find('"', at + 1);
        if (close == std::string_view::npos) return 0;
        *string_len = close - at - 1;
        at = close + 1;
        return 1;
      }
      if (at < text.size() && text[at] == '[') {
        ++at;
        std::size_t ignored = 0;
        while (at < text.size() && text[at] != ']') {
          if (self(self, &ignored) == 0) return 0;
          if (at < text.size() && text[at] == ',') ++at;
        }
        if (at >= text.size()) return 0;
        ++at;
        return 2;
      }
      std::size_t start = at;
      while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
      return at > start ? 3 : 0;
    };
    bool long_string_id = false;
    int ids = 0, names = 0;
    while (at < text.size()) {
      std::size_t eq = text.find('=', at);
      if (eq == std::string_view::npos) return;
      std::string_view key = text.substr(at, eq - at);
      at = eq + 1;
      std::size_t len = 0;
      int kind = value(value, &len);
      if (kind == 0) return;
      if (key == "id") {
        ++ids;
        long_string_id = kind == 1 && len >= 3;
      }
      if (key == "name") ++names;
      if (at < text.size() && text[at++] != ';') return;
    }
    if (ids == 1 && names == 1 && long_string_id) std::abort();
  });
}

// A count that must reach 40: places where a byte is one more than the byte before it.
// Coverage sees only the hit-count bucket of one branch (8, 16, 32; an `if`, because an
// addition of the comparison compiles without a branch), and an entry shrunk to the bucket
// it reached has just that many steps: the next bucket needs a copy of most of the input,
// and 40 then needs eight more steps.
CFUZZ_TEST(FuzzAscendingSteps, f) {
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> d) {
    int steps = 0;
    for (std::size_t i = 1; i < d.size(); ++i) {
      if (d[i] == static_cast<std::uint8_t>(d[i - 1] + 1)) ++steps;
    }
    if (steps >= 40) std::abort();
  });
}

CFUZZ_TEST(FuzzDecimalFields, f) {
  f.add(std::string("w=1 h=1"));
  f.fuzz([](cfuzz::T&, const std::string& s) {
    long w = 0, h = 0;
    if (std::sscanf(s.c_str(), "w=%ld h=%ld", &w, &h) != 2) return;
    if (w == 1234567 && h < -9000000000L) std::abort();
  });
}

// A keyword, and a number right after it, in the middle of a line: the parser reads on
// where the keyword ended, so that is where a value has to go.
CFUZZ_TEST(FuzzKeywordThenNumber, f) {
  f.add(
      std::string("SET name=box; SET color=red; SET width=; SET height=; SET depth=; SET weight=; "
                  "SET owner=nobody; SET label=none; SET origin=here; SET target=there; END"));
  f.fuzz([](cfuzz::T&, const std::string& s) {
    const char* at = std::strstr(s.c_str(), "depth=");
    if (at == nullptr) return;
    char* end = nullptr;
    long depth = std::strtol(at + 6, &end, 10);
    if (*end == ';' && depth > 4000) std::abort();
  });
}

// Only a dictionary can find this one: the keyword is compared by hash.
CFUZZ_TEST(FuzzHashedKeyword, f) {
  f.fuzz([](cfuzz::T&, const std::string& s) {
    std::string_view rest = s;
    while (!rest.empty()) {
      auto space = rest.find(' ');
      std::string_view token = rest.substr(0, space);
      if (fnv1a(token) == fnv1a("xyzzy-plugh")) std::abort();
      if (space == std::string_view::npos) break;
      rest.remove_prefix(space + 1);
    }
  });
}
