#include "core/mutator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/decimal_text.h"
#include "core/text_spans.h"
#include "corpus_format/value.h"

namespace cfuzz::core {

namespace {

using corpus::Type;

// AFL's interesting values, which Go's mutator also uses.
constexpr std::int8_t kInteresting8[] = {-128, -1, 0, 1, 16, 32, 64, 100, 127};
constexpr std::int16_t kInteresting16[] = {-32768, -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767};
constexpr std::int32_t kInteresting32[] = {-2147483647 - 1, -100663046, -32769,    32768,
                                           65535,           65536,      100663045, 2147483647};
constexpr std::int64_t kInteresting64[] = {std::numeric_limits<std::int64_t>::min(), -4294967296LL, 4294967295LL,
                                           4294967296LL, std::numeric_limits<std::int64_t>::max()};

// A chunk length for a buffer of n bytes: 90% up to 8, 9% up to 32, 1% anything, as Go's
// chooseLen. Short chunks keep mutations local, and inputs small.
std::uint64_t choose_len(Pcg& r, std::uint64_t n) {
  std::uint32_t x = r.below(100);
  std::uint64_t hi = x < 90 ? std::min<std::uint64_t>(8, n) : x < 99 ? std::min<std::uint64_t>(32, n) : n;
  return r.range(1, hi);
}

// A chunk to copy or repeat: half the time as choose_len, half uniformly up to n, as
// libFuzzer draws CopyPart and InsertRepeatedBytes. A run or a counter that must reach N
// then grows by whole stretches rather than eight bytes at a time.
std::uint64_t choose_long_len(Pcg& r, std::uint64_t n) { return r.coin() ? choose_len(r, n) : r.range(1, n); }

std::uint64_t interesting_value(Pcg& r, int width) {
  // Any of the tables up to the width, as AFL does (16-bit includes the 8-bit values...).
  std::size_t n8 = std::size(kInteresting8), n16 = std::size(kInteresting16), n32 = std::size(kInteresting32),
              n64 = std::size(kInteresting64);
  std::size_t total = n8 + (width >= 2 ? n16 : 0) + (width >= 4 ? n32 : 0) + (width >= 8 ? n64 : 0);
  std::size_t i = r.below(total);
  std::int64_t v;
  if (i < n8) {
    v = kInteresting8[i];
  } else if ((i -= n8) < n16) {
    v = kInteresting16[i];
  } else if ((i -= n16) < n32) {
    v = kInteresting32[i];
  } else {
    v = kInteresting64[i - n32];
  }
  return static_cast<std::uint64_t>(v);
}

std::uint64_t load_le(const std::uint8_t* p, int width) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, static_cast<std::size_t>(width));
  return v;
}

void store_le(std::uint8_t* p, std::uint64_t v, int width) { std::memcpy(p, &v, static_cast<std::size_t>(width)); }

std::uint64_t byte_swap(std::uint64_t v, int width) {
  std::uint64_t out = 0;
  for (int i = 0; i < width; ++i) out |= ((v >> (8 * i)) & 0xff) << (8 * (width - 1 - i));
  return out;
}

std::uint64_t width_mask(int width) { return width == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * width)) - 1; }

// State shared by the byte operators of one mutation.
struct ByteContext {
  Pcg& r;
  std::uint8_t* d;
  std::uint64_t& n;
  std::uint64_t cap;
  const std::uint8_t* other;
  std::uint64_t other_len;
  std::vector<std::uint8_t>& scratch;
  const WordSource* words;
};

// Where to insert into a value of n bytes: anywhere, but the end a quarter of the time.
// Minimized corpus entries are exactly as long as the coverage they hold needs, so the next
// step often needs a byte past the end, where a parser reads next.
std::uint64_t insert_position(Pcg& r, std::uint64_t n) { return r.below(4) == 0 ? n : r.below(n + 1); }

void insert_gap(ByteContext& c, std::uint64_t pos, std::uint64_t k) {
  std::memmove(c.d + pos + k, c.d + pos, c.n - pos);
  c.n += k;
}

std::uint8_t* scratch_of(ByteContext& c, std::uint64_t k) {
  if (c.scratch.size() < k) c.scratch.resize(k);  // only for seeds longer than max_len
  return c.scratch.data();
}

bool erase_bytes(ByteContext& c) {
  if (c.n <= 1) return false;
  std::uint64_t pos = c.r.below(c.n);
  std::uint64_t k = choose_len(c.r, c.n - pos);
  std::memmove(c.d + pos, c.d + pos + k, c.n - pos - k);
  c.n -= k;
  return true;
}

bool insert_random_bytes(ByteContext& c) {
  std::uint64_t k = choose_len(c.r, 1024);
  if (c.n + k > c.cap) return false;
  std::uint64_t pos = insert_position(c.r, c.n);
  insert_gap(c, pos, k);
  for (std::uint64_t i = 0; i < k; ++i) c.d[pos + i] = static_cast<std::uint8_t>(c.r.next32());
  return true;
}

// Inserts bytes and adds their count to every byte before the insertion point that, read as
// the length of what follows it, reaches that point without passing the end. In nested
// tag-length-value records those are the lengths of the records around the point, which
// must all grow together for the input to parse; any other insert breaks them all, and no
// comparison names them. Tags and text are mostly left alone: a byte over the input's
// remaining length does not qualify. Where many bytes qualify (binary data of small values)
// they are not lengths, and the insert changes none of them.
//
// Where lengths do grow, half the time the bytes are a copy of a part of the value rather
// than random: put in front of itself, a record gets a sibling of its own kind, which
// random bytes make only when they spell its tag and a length that fits (1 time in 65536).
// Elsewhere (text, no lengths) the insert stays random, as a copy is what
// `duplicate_bytes` does.
bool insert_within_lengths(ByteContext& c) {
  if (c.n < 2) return false;
  std::uint64_t k = choose_len(c.r, 32);
  if (c.n + k > c.cap) return false;
  std::uint64_t pos = c.r.range(1, c.n);
  constexpr std::uint64_t kReach = 256;  // a one-byte length reaches no farther
  constexpr int kMostLengths = 8;        // nesting deeper than this is rare
  std::uint64_t first = pos > kReach ? pos - kReach : 0;
  auto encloses = [&](std::uint64_t o) {
    std::uint64_t end = o + 1 + c.d[o];
    return end >= pos && end <= c.n && c.d[o] + k <= 255;
  };
  int lengths = 0;
  for (std::uint64_t o = first; o < pos && lengths <= kMostLengths; ++o) lengths += encloses(o);
  bool grows = lengths > 0 && lengths <= kMostLengths;
  std::uint8_t* chunk = nullptr;
  if (grows && k <= c.n && c.r.coin()) {
    chunk = scratch_of(c, k);
    std::memcpy(chunk, c.d + c.r.below(c.n - k + 1), k);  // before the lengths in it grow
  }
  if (grows) {
    for (std::uint64_t o = first; o < pos; ++o) {
      if (encloses(o)) c.d[o] = static_cast<std::uint8_t>(c.d[o] + k);
    }
  }
  insert_gap(c, pos, k);
  if (chunk != nullptr) {
    std::memcpy(c.d + pos, chunk, k);
  } else {
    for (std::uint64_t i = 0; i < k; ++i) c.d[pos + i] = static_cast<std::uint8_t>(c.r.next32());
  }
  return true;
}

// The copying operators draw the chunk's length first and then where it starts (as
// libFuzzer's CopyPart and CrossOver do), so that a copy of the whole value is as likely as
// a copy of any other length. Drawn the other way round, a whole-value copy needs the first
// byte and then the longest length, about 1 in 2n^2 rather than 1 in 2n. A corpus entry
// shrunk to exactly the count it reached (8 steps of a counter) needs just that copy to
// reach the next (16).
bool duplicate_bytes(ByteContext& c) {
  if (c.n <= 1) return false;
  std::uint64_t k = choose_long_len(c.r, c.n);
  std::uint64_t src = c.r.below(c.n - k + 1);
  if (c.n + k > c.cap) return false;
  std::uint64_t dst = c.r.below(c.n + 1);
  std::uint8_t* chunk = scratch_of(c, k);
  std::memcpy(chunk, c.d + src, k);
  insert_gap(c, dst, k);
  std::memcpy(c.d + dst, chunk, k);
  return true;
}

bool overwrite_bytes(ByteContext& c) {
  if (c.n <= 1) return false;
  std::uint64_t k = choose_long_len(c.r, c.n - 1);
  std::uint64_t src = c.r.below(c.n - k + 1);
  std::uint64_t dst = c.r.below(c.n - k + 1);
  if (src == dst) return false;
  std::memmove(c.d + dst, c.d + src, k);
  return true;
}

bool bit_flip(ByteContext& c) {
  if (c.n == 0) return false;
  c.d[c.r.below(c.n)] ^= static_cast<std::uint8_t>(1u << c.r.below(8));
  return true;
}

bool xor_byte(ByteContext& c) {
  if (c.n == 0) return false;
  c.d[c.r.below(c.n)] ^= static_cast<std::uint8_t>(1 + c.r.below(255));
  return true;
}

bool set_byte(ByteContext& c) {
  if (c.n == 0) return false;
  c.d[c.r.below(c.n)] = static_cast<std::uint8_t>(c.r.below(256));
  return true;
}

bool swap_byte(ByteContext& c) {
  if (c.n <= 1) return false;
  std::uint64_t i = c.r.below(c.n), j = c.r.below(c.n);
  if (i == j) return false;
  std::swap(c.d[i], c.d[j]);
  return true;
}

template <int W>
bool arithmetic(ByteContext& c) {
  if (c.n < W) return false;
  std::uint64_t pos = c.r.below(c.n - W + 1);
  bool swap = W > 1 && c.r.coin();
  std::uint64_t v = load_le(c.d + pos, W);
  if (swap) v = byte_swap(v, W);
  std::uint64_t delta = 1 + c.r.below(35);
  v = c.r.coin() ? v + delta : v - delta;
  if (swap) v = byte_swap(v & width_mask(W), W);
  store_le(c.d + pos, v, W);
  return true;
}

template <int W>
bool interesting(ByteContext& c) {
  if (c.n < W) return false;
  std::uint64_t pos = c.r.below(c.n - W + 1);
  std::uint64_t v = interesting_value(c.r, W) & width_mask(W);
  if (W > 1 && c.r.coin()) v = byte_swap(v, W);
  store_le(c.d + pos, v, W);
  return true;
}

bool insert_constant_bytes(ByteContext& c) {
  if (c.n <= 1) return false;
  std::uint64_t k = c.r.coin() ? choose_len(c.r, 4096) : c.r.range(3, 128);
  if (c.n + k > c.cap) return false;
  std::uint64_t pos = insert_position(c.r, c.n);
  insert_gap(c, pos, k);
  std::memset(c.d + pos, static_cast<int>(c.r.below(256)), k);
  return true;
}

bool overwrite_constant_bytes(ByteContext& c) {
  if (c.n <= 1) return false;
  std::uint64_t pos = c.r.below(c.n);
  std::uint64_t k = choose_long_len(c.r, c.n - pos);
  std::memset(c.d + pos, static_cast<int>(c.r.below(256)), k);
  return true;
}

bool shuffle_bytes(ByteContext& c) {
  if (c.n <= 1) return false;
  std::uint64_t pos = c.r.below(c.n);
  std::uint64_t k = choose_len(c.r, c.n - pos);
  if (k <= 1) return false;
  for (std::uint64_t i = k - 1; i > 0; --i) std::swap(c.d[pos + i], c.d[pos + c.r.below(i + 1)]);
  return true;
}

bool swap_chunks(ByteContext& c) {
  if (c.n <= 1) return false;
  std::uint64_t a = c.r.below(c.n), b = c.r.below(c.n);
  if (a == b) return false;
  if (a > b) std::swap(a, b);
  std::uint64_t k = choose_len(c.r, c.n - b);
  if (a + k > b) return false;  // overlapping chunks
  std::uint8_t* tmp = scratch_of(c, k);
  std::memcpy(tmp, c.d + a, k);
  std::memcpy(c.d + a, c.d + b, k);
  std::memcpy(c.d + b, tmp, k);
  return true;
}

// Crossover with another corpus entry (libFuzzer's CrossOver / AFL's splice): Go has none.
bool splice_insert(ByteContext& c) {
  if (c.other_len == 0) return false;
  std::uint64_t k = choose_long_len(c.r, c.other_len);
  std::uint64_t src = c.r.below(c.other_len - k + 1);
  if (c.n + k > c.cap) return false;
  std::uint64_t pos = insert_position(c.r, c.n);
  insert_gap(c, pos, k);
  std::memcpy(c.d + pos, c.other + src, k);
  return true;
}

bool splice_overwrite(ByteContext& c) {
  if (c.other_len == 0 || c.n == 0) return false;
  std::uint64_t src = c.r.below(c.other_len);
  std::uint64_t dst = c.r.below(c.n);
  std::uint64_t k = choose_len(c.r, std::min(c.other_len - src, c.n - dst));
  std::memcpy(c.d + dst, c.other + src, k);
  return true;
}

bool splice_tail(ByteContext& c) {
  if (c.other_len == 0) return false;
  std::uint64_t keep = c.r.below(c.n + 1);
  std::uint64_t from = c.r.below(c.other_len);
  std::uint64_t tail = c.other_len - from;
  if (keep + tail > c.cap || (keep + tail == 0)) return false;
  std::memcpy(c.d + keep, c.other + from, tail);
  c.n = keep + tail;
  return true;
}

// Numbers written in ASCII (text formats: JSON, configs, command lines): one of them
// changed as a number, not as bytes: +1, -1, negated, doubled, halved, replaced, or given a
// fraction or an exponent (libFuzzer's ChangeASCIIInteger, and more for floats).
bool ascii_number(ByteContext& c) {
  // One of the digit runs, starting from a random place and wrapping round.
  DecimalRun run;
  if (!next_decimal_run(c.d, c.n, c.r.below(c.n + 1), &run) && !next_decimal_run(c.d, c.n, 0, &run)) return false;
  std::uint64_t begin = run.begin, end = run.end;
  std::int64_t v = static_cast<std::int64_t>(run.magnitude);
  if (run.negative) v = -v;
  char text[48];
  int len;
  switch (c.r.below(8)) {
    case 0: len = std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v) + 1); break;
    case 1: len = std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v) - 1); break;
    case 2: len = std::snprintf(text, sizeof text, "%lld", -static_cast<long long>(v)); break;
    case 3: len = std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v) * 2); break;
    case 4: len = std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v) / 2); break;
    case 5:
      len = std::snprintf(text, sizeof text, "%lld", static_cast<long long>(c.r.next64() >> c.r.below(64)));
      break;
    case 6:
      len = std::snprintf(text, sizeof text, "%s%lld.%u", c.r.coin() ? "-" : "", static_cast<long long>(v < 0 ? -v : v),
                          c.r.below(10));
      break;
    default:
      len = std::snprintf(text, sizeof text, "%llde%s%u", static_cast<long long>(v), c.r.coin() ? "-" : "",
                          c.r.below(400));
      break;
  }
  std::uint64_t old_len = end - begin, new_len = static_cast<std::uint64_t>(len);
  if (c.n - old_len + new_len > c.cap) return false;
  std::memmove(c.d + begin + new_len, c.d + end, c.n - end);
  std::memcpy(c.d + begin, text, new_len);
  c.n = c.n - old_len + new_len;
  return true;
}

bool word_insert(ByteContext& c) {
  if (c.words == nullptr) return false;
  std::string_view w = c.words->pick_word(c.r);
  if (w.empty() || c.n + w.size() > c.cap) return false;
  std::uint64_t pos = insert_position(c.r, c.n);
  insert_gap(c, pos, w.size());
  std::memcpy(c.d + pos, w.data(), w.size());
  return true;
}

bool word_overwrite(ByteContext& c) {
  if (c.words == nullptr) return false;
  std::string_view w = c.words->pick_word(c.r);
  if (w.empty() || w.size() > c.n) return false;
  std::uint64_t pos = c.r.below(c.n - w.size() + 1);
  std::memcpy(c.d + pos, w.data(), w.size());
  return true;
}

bool word_replace_operand(ByteContext& c) {
  if (c.words == nullptr) return false;
  WordSource::Replacement rep{};
  if (!c.words->replacement_for(c.d, c.n, c.r, &rep)) return false;
  if (rep.pos > c.n || rep.old_len > c.n - rep.pos) return false;
  std::uint64_t new_n = c.n - rep.old_len + rep.bytes.size();
  if (new_n > c.cap || new_n == 0) return false;
  std::memmove(c.d + rep.pos + rep.bytes.size(), c.d + rep.pos + rep.old_len, c.n - rep.pos - rep.old_len);
  std::memcpy(c.d + rep.pos, rep.bytes.data(), rep.bytes.size());
  c.n = new_n;
  return true;
}

// Something a parser may read next, right after a keyword it accepted: a number in decimal
// ("depth=" wants a value), a word the target compares with, or a few random bytes. The
// number then meets its own comparison, which input-to-state turns into the value wanted.
bool insert_after_match(ByteContext& c) {
  if (c.words == nullptr) return false;
  std::size_t pos;
  if (!c.words->position_after_match(c.d, c.n, c.r, &pos) || pos > c.n) return false;
  char text[24];
  std::string_view what;
  switch (c.r.below(3)) {
    case 0: {
      auto n = std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(c.r.next64() >> c.r.below(64)));
      what = std::string_view(text, static_cast<std::size_t>(n));
      break;
    }
    case 1: what = c.words->pick_word(c.r); break;
    default: {
      std::uint64_t k = std::min<std::uint64_t>(1 + c.r.below(8), sizeof text);
      for (std::uint64_t i = 0; i < k; ++i) text[i] = static_cast<char>(c.r.below(256));
      what = std::string_view(text, k);
      break;
    }
  }
  if (what.empty() || c.n + what.size() > c.cap) return false;
  insert_gap(c, pos, what.size());
  std::memcpy(c.d + pos, what.data(), what.size());
  return true;
}

// A quoted string or bracketed group of the value replaced by another one, from the value
// itself or the splice partner: in a structured text, one whole value (a JSON object, a
// group of a regular expression) stands in for another in a single step and the text
// still parses, where byte copies must hit both ends exactly.
bool replace_span(ByteContext& c) {
  std::uint64_t spans = count_text_spans(c.d, c.n);
  std::uint64_t begin, end;
  if (spans == 0 || !text_span(c.d, c.n, c.r.below(spans), &begin, &end)) return false;
  bool from_other = c.other_len != 0 && c.r.coin();
  const std::uint8_t* src = from_other ? c.other : c.d;
  std::uint64_t src_n = from_other ? c.other_len : c.n;
  std::uint64_t src_spans = count_text_spans(src, src_n);
  std::uint64_t src_begin, src_end;
  if (src_spans == 0 || !text_span(src, src_n, c.r.below(src_spans), &src_begin, &src_end)) return false;
  std::uint64_t k = src_end - src_begin, old = end - begin;
  if ((!from_other && src_begin == begin && src_end == end) || c.n - old + k > c.cap) return false;
  std::uint8_t* chunk = scratch_of(c, k);
  std::memcpy(chunk, src + src_begin, k);
  std::memmove(c.d + begin + k, c.d + end, c.n - end);
  std::memcpy(c.d + begin, chunk, k);
  c.n = c.n - old + k;
  return true;
}

using ByteOp = bool (*)(ByteContext&);
// clang-format off
constexpr ByteOp kByteOps[] = {
    erase_bytes,         insert_random_bytes,   duplicate_bytes,       overwrite_bytes,
    bit_flip,            xor_byte,              set_byte,              swap_byte,
    arithmetic<1>,       arithmetic<2>,         arithmetic<4>,         arithmetic<8>,
    interesting<1>,      interesting<2>,        interesting<4>,        interesting<8>,
    insert_constant_bytes, overwrite_constant_bytes, shuffle_bytes,    swap_chunks,
    splice_insert,       splice_overwrite,      splice_tail,
    word_insert,         word_overwrite,        word_replace_operand,  word_replace_operand,
    ascii_number,        insert_after_match,    insert_within_lengths, replace_span,
};
// Their names on libFuzzer's "MS:" lines: libFuzzer's own where the operator does what
// libFuzzer's of that name does, else a name of the same kind.
constexpr const char* kByteOpNames[] = {
    "EraseBytes",          "InsertBytes",         "CopyPart",            "CopyPart",
    "ChangeBit",           "ChangeByte",          "ChangeByte",          "SwapBytes",
    "ChangeBinInt",        "ChangeBinInt",        "ChangeBinInt",        "ChangeBinInt",
    "InterestingValue",    "InterestingValue",    "InterestingValue",    "InterestingValue",
    "InsertRepeatedBytes", "ChangeRepeatedBytes", "ShuffleBytes",        "SwapChunks",
    "CrossOver",           "CrossOver",           "CrossOver",
    "DictInsert",          "DictOverwrite",       "CMP",                 "CMP",
    "ChangeASCIIInteger",  "InsertAfterMatch",    "InsertWithinLengths", "ReplaceSpan",
};
// clang-format on
static_assert(std::size(kByteOpNames) == std::size(kByteOps));
static_assert(std::size(kByteOps) < 64, "byte operator ids must stay below Mutator::kScalarOp");

int type_width(Type t) {
  switch (t) {
    case Type::Byte:
    case Type::Int8: return 1;
    case Type::Int16:
    case Type::Uint16: return 2;
    case Type::Rune:
    case Type::Uint32: return 4;
    default: return 8;
  }
}

bool type_signed(Type t) {
  return t == Type::Rune || t == Type::Int || t == Type::Int8 || t == Type::Int16 || t == Type::Int64;
}

// Brings a 64-bit pattern back to the canonical slot form of the type: sign-extended for
// signed types, zero-extended for unsigned ones.
std::uint64_t normalize(std::uint64_t v, int width, bool is_signed) {
  if (width == 8) return v;
  v &= width_mask(width);
  if (is_signed && (v >> (8 * width - 1)) != 0) v |= ~width_mask(width);
  return v;
}

std::uint64_t mutate_integer(std::uint64_t bits, Type t, Pcg& r, const WordSource* words) {
  int w = type_width(t);
  bool sgn = type_signed(t);
  switch (r.below(10)) {
    case 0:
    case 1:
    case 2:
    case 3: {
      // Go's step: add or subtract 1..100, turning around rather than wrapping.
      std::uint64_t delta = 1 + r.below(100);
      bool up = r.coin();
      if (sgn) {
        std::int64_t v = static_cast<std::int64_t>(bits);
        std::int64_t max = w == 8 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (8 * w - 1)) - 1;
        std::int64_t min = -max - 1;
        auto d = static_cast<std::int64_t>(delta);
        if (up && v > max - d) up = false;
        if (!up && v < min + d) up = true;
        if (up && v > max - d) return bits;
        return static_cast<std::uint64_t>(up ? v + d : v - d);
      }
      std::uint64_t max = width_mask(w);
      if (up && bits > max - delta) up = false;
      if (!up && bits < delta) up = true;
      if (up && bits > max - delta) return bits;
      return up ? bits + delta : bits - delta;
    }
    case 4: return normalize(interesting_value(r, w), w, sgn);
    case 5: return normalize(bits ^ (std::uint64_t{1} << r.below(8 * static_cast<unsigned>(w))), w, sgn);
    case 6: return normalize(r.next64(), w, sgn);
    case 7:
      // Negation in unsigned arithmetic: defined for the most negative value too.
      return normalize(sgn ? std::uint64_t{0} - bits : byte_swap(bits, w), w, sgn);
    default: {
      std::uint64_t v;
      if (words != nullptr && words->integer_for(bits & width_mask(w), w, r, &v)) {
        return normalize(v, w, sgn);
      }
      return normalize(bits + (r.coin() ? 1 : ~std::uint64_t{0}), w, sgn);
    }
  }
}

template <class F>
F special_float(Pcg& r) {
  using L = std::numeric_limits<F>;
  const F specials[] = {F(0),           -F(0),    F(1),        F(-1),    L::infinity(),   -L::infinity(),
                        L::quiet_NaN(), L::max(), L::lowest(), L::min(), L::denorm_min(), L::epsilon()};
  return specials[r.below(std::size(specials))];
}

template <class F, class Bits>
Bits mutate_float(Bits bits, Pcg& r) {
  F f;
  std::memcpy(&f, &bits, sizeof f);
  const F limit = std::numeric_limits<F>::max();
  switch (r.below(9)) {
    // Go's four operations: add, subtract, multiply, divide by a small number, bounded.
    case 0: {
      F v = f + static_cast<F>(1 + r.below(100));
      f = v > limit ? f : v;
      break;
    }
    case 1: {
      F v = f - static_cast<F>(1 + r.below(100));
      f = v < -limit ? f : v;
      break;
    }
    case 2: {
      F v = f * static_cast<F>(1 + r.below(10));
      f = std::isinf(v) && !std::isinf(f) ? f : v;
      break;
    }
    case 3: f = f / static_cast<F>(1 + r.below(10)); break;
    case 4:
    case 5: f = special_float<F>(r); break;
    case 6: {
      Bits b;
      std::memcpy(&b, &f, sizeof b);
      b ^= Bits{1} << r.below(8 * sizeof(Bits));
      std::memcpy(&f, &b, sizeof f);
      break;
    }
    case 7: f = -f; break;
    default: f = static_cast<F>(static_cast<std::int64_t>(r.below(2001)) - 1000); break;
  }
  Bits out;
  std::memcpy(&out, &f, sizeof out);
  return out;
}

}  // namespace

Mutator::Mutator(std::size_t max_len) : max_len_(max_len) { scratch_.resize(max_len_ + 1); }

void Mutator::set_max_len(std::size_t max_len) {
  max_len_ = max_len;
  if (scratch_.size() < max_len_ + 1) scratch_.resize(max_len_ + 1);
}

void Mutator::mutate_bytes(std::uint8_t* data, std::uint64_t* len, std::uint64_t cap, const std::uint8_t* other,
                           std::uint64_t other_len, Pcg& rng) {
  ByteContext c{rng, data, *len, cap, other, other_len, scratch_, words_};
  // Operators that do not apply (too short, no room, no partner) draw again; a bounded
  // number of draws keeps a degenerate input (empty, no room) from spinning.
  for (int attempt = 0; attempt < 64; ++attempt) {
    auto op = static_cast<std::uint8_t>(rng.below(std::size(kByteOps)));
    if (kByteOps[op](c)) {
      note(op);
      return;
    }
  }
  // Nothing applied (an empty value, or one at its length limit): grow by one byte or
  // flip a bit, so that every call changes something.
  if (*len < cap) {
    data[*len] = static_cast<std::uint8_t>(rng.below(256));
    ++*len;
    note(kGrowOp);
  } else if (*len > 0) {
    data[rng.below(*len)] ^= 1;
    note(kFlipOp);
  }
}

std::size_t Mutator::describe_sequence(char* out, std::size_t cap) const {
  if (cap == 0) return 0;
  std::size_t n = 0;
  auto put = [&](std::string_view s) {
    for (char ch : s) {
      if (n + 1 < cap) out[n++] = ch;
    }
  };
  char count[24];
  int k = std::snprintf(count, sizeof count, "%u ", sequence_len_);
  put(std::string_view(count, k > 0 ? static_cast<std::size_t>(k) : 0));
  for (std::size_t i = 0; i < std::min<std::size_t>(sequence_len_, kMaxSequence); ++i) {
    std::uint8_t op = sequence_[i];
    put(op < std::size(kByteOpNames) ? kByteOpNames[op]
        : op == kScalarOp            ? "ChangeBinInt"
        : op == kValueMutatorOp      ? "Custom"
        : op == kGrowOp              ? "InsertByte"
        : op == kFlipOp              ? "ChangeBit"
                                     : "CMP");
    put("-");
  }
  out[n] = '\0';
  return n;
}

bool Mutator::mutate(InputAreaHeader& input, const InputAreaHeader* splice, Pcg& rng) {
  if (input.count == 0) return false;
  std::uint32_t i = rng.below(input.count);
  SlotHeader& slot = input.slots[i];
  auto type = static_cast<Type>(slot.type);
  switch (type) {
    case Type::Bytes:
    case Type::String: {
      std::uint64_t cap = std::min<std::uint64_t>(input.slot_capacity, max_len_);
      // A seed longer than max_len keeps its length limit as its own size.
      if (slot.len > cap) cap = slot.len;
      const std::uint8_t* other = nullptr;
      std::uint64_t other_len = 0;
      if (splice != nullptr && i < splice->count && splice->slots[i].type == slot.type) {
        other = ShmView::slot_data(*splice, i);
        other_len = std::min(splice->slots[i].len, splice->slot_capacity);
      }
      if (value_mutator_ != nullptr &&
          value_mutator_->mutate_value(i, ShmView::slot_data(input, i), &slot.len, cap, other, other_len, rng)) {
        note(kValueMutatorOp);
        return true;
      }
      mutate_bytes(ShmView::slot_data(input, i), &slot.len, cap, other, other_len, rng);
      break;
    }
    default:
      if (value_mutator_ != nullptr && value_mutator_->mutate_bits(i, &slot.bits, rng)) {
        note(kValueMutatorOp);
        return true;
      }
      slot.bits = mutate_scalar(slot.bits, type, rng, words_);
      note(kScalarOp);
      break;
  }
  return false;
}

std::uint64_t mutate_scalar(std::uint64_t bits, Type type, Pcg& rng, const WordSource* words) {
  switch (type) {
    case Type::Bool: return bits ^ 1;
    case Type::Float32: return mutate_float<float, std::uint32_t>(static_cast<std::uint32_t>(bits), rng);
    case Type::Float64: return mutate_float<double, std::uint64_t>(bits, rng);
    default: return mutate_integer(bits, type, rng, words);
  }
}

}  // namespace cfuzz::core
