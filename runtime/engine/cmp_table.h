// Recent comparisons made by the target, recorded by the SanitizerCoverage comparison
// callbacks and the memcmp/strcmp hooks: the raw material of comparison-guided mutation.
//
// Fixed-size tables indexed by a hash of the comparison site, overwritten as the target
// runs (libFuzzer's "table of recent compares"): recording is a few stores, never an
// allocation, and nothing at all while recording is off (standalone seed runs).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/address_values.h"
#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

class CmpTable;
namespace cmp_table_detail {
// Zero-initialized storage: comparisons can happen in static constructors of the target.
extern CmpTable g_cmp_table;
}  // namespace cmp_table_detail
// Inline, and a plain global rather than a function's static: the comparison hooks reach it
// on every comparison, and a call there made each hook save and restore six registers.
inline CmpTable& cmp_table() { return cmp_table_detail::g_cmp_table; }

class CmpTable {
 public:
  static constexpr std::size_t kIntSlots = 1024;
  static constexpr std::size_t kByteSlots = 256;
  static constexpr std::size_t kMaxBytes = 64;

  struct IntCmp {
    std::uint64_t a, b;
    std::uint8_t width;     // bytes: 1, 2, 4 or 8; 0 = empty slot
    std::uint8_t is_const;  // 1: `a` is a constant; 2: a constant, a case of a switch
    std::uint32_t site;     // which comparison made it (a hash of its place in the code)
  };
  struct ByteCmp {
    std::uint8_t a[kMaxBytes], b[kMaxBytes];
    std::uint8_t a_len, b_len;  // 0 and 0 = empty slot
  };

  void set_enabled(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }
  // Where a comparison goes when its slot holds another. With probing, to the first of the
  // 3 other slots of its group of 4 that is free or holds it: for the base input's run, whose
  // table the input-to-state stage reads and where a lost comparison is a lost candidate.
  // Without, over the other: probing every run cost libxml2 a fifth of its time, most of it
  // looking through a full table for a place that was not there.
  void set_probing(bool on) { probing_ = on; }

  [[gnu::always_inline]] void record_int(std::uintptr_t pc, std::uint64_t a, std::uint64_t b, int width, bool is_const,
                                         bool switch_case = false) {
    if (!enabled_ || a == b ||
        (width == 8 && !is_const && core::looks_like_address(a) && core::looks_like_address(b))) {
      return;
    }
    // Both operands pick the slot, as libFuzzer's table of recent compares does: a site
    // that compares several fields with one constant (a loop, a function called per field)
    // keeps one entry per field, not just the last.
    std::uintptr_t at = site(pc);
    std::size_t i = slot(at ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b * 0xc2b2ae3d27d4eb4fULL), kIntSlots);
    if (probing_) [[unlikely]] {
      // A tail call: the hooks' common path then calls nothing, and saves no registers.
      store_int_probing(i, at, a, b, width, is_const, switch_case);
      return;
    }
    store_int(i, at, a, b, width, is_const, switch_case);
  }

  void record_bytes(std::uintptr_t pc, const void* a, std::size_t a_len, const void* b, std::size_t b_len);

  // Byte strings the input matched (a memcmp, strcmp or strstr that came out equal or
  // found): keywords the parser accepted, after which it reads on. A ring of the last
  // kMatches distinct ones of 2 bytes or more, apart from the comparisons above.
  static constexpr std::size_t kMatches = 16;
  struct Match {
    std::uint8_t bytes[kMaxBytes];
    std::uint8_t len;
  };
  void record_match(const void* p, std::size_t n);
  std::size_t match_count() const { return match_count_ < kMatches ? match_count_ : kMatches; }
  const Match& match(std::size_t k) const { return matches_[k]; }

  const IntCmp& int_slot(std::size_t i) const { return ints_[i]; }
  // Whether slot i's group of 4 holds comparison c's operands: where a probing run (the base
  // input's) may have put what a later run, not probing, wrote to slot i.
  bool group_holds(std::size_t i, const IntCmp& c) const {
    for (std::size_t d = 0; d < 4; ++d) {
      const IntCmp& s = ints_[i ^ d];
      if (s.width == c.width && s.a == c.a && s.b == c.b) return true;
    }
    return false;
  }
  const ByteCmp& byte_slot(std::size_t i) const { return bytes_[i]; }
  void clear();

  // Slots written lately (most tables are nearly empty: sampling slots at random would
  // mostly find nothing). Index k < recent_*_count() of the last kRecent writes.
  static constexpr std::size_t kRecent = 64;
  std::size_t recent_int_count() const { return recent_int_count_ < kRecent ? recent_int_count_ : kRecent; }
  std::size_t recent_byte_count() const { return recent_byte_count_ < kRecent ? recent_byte_count_ : kRecent; }
  const IntCmp& recent_int(std::size_t k) const { return ints_[recent_ints_[k]]; }
  const ByteCmp& recent_byte(std::size_t k) const { return bytes_[recent_bytes_[k]]; }

  // The writes so far, to visit those of one execution afterwards (the last kRecent of
  // them at most): each with the slot it went to.
  struct Mark {
    std::size_t ints, bytes;
  };
  Mark mark() const { return {recent_int_count_, recent_byte_count_}; }
  template <class F>
  void for_each_int_since(Mark m, F&& f) const {
    std::size_t from = recent_int_count_ - m.ints > kRecent ? recent_int_count_ - kRecent : m.ints;
    for (std::size_t n = from; n < recent_int_count_; ++n) {
      f(recent_ints_[n % kRecent], ints_[recent_ints_[n % kRecent]]);
    }
  }
  template <class F>
  void for_each_byte_since(Mark m, F&& f) const {
    std::size_t from = recent_byte_count_ - m.bytes > kRecent ? recent_byte_count_ - kRecent : m.bytes;
    for (std::size_t n = from; n < recent_byte_count_; ++n) {
      f(recent_bytes_[n % kRecent], bytes_[recent_bytes_[n % kRecent]]);
    }
  }

 private:
  // Address space randomization moves code and data from run to run; for a --seed run to be
  // repeatable, neither may steer mutation. Sites are hashed by their offset from this
  // table (linked into the executable with the code, so the two move together), and
  // comparisons of two pointers, whose operands are addresses that mean nothing in an
  // input, are not recorded.
  static std::uintptr_t site(std::uintptr_t pc) {
    return pc - reinterpret_cast<std::uintptr_t>(&cmp_table_detail::g_cmp_table);
  }
  [[gnu::always_inline]] void store_int(std::size_t i, std::uintptr_t at, std::uint64_t a, std::uint64_t b, int width,
                                        bool is_const, bool switch_case) {
    IntCmp& s = ints_[i];
    s.a = a;
    s.b = b;
    s.width = static_cast<std::uint8_t>(width);
    s.is_const = is_const ? (switch_case ? 2 : 1) : 0;
    s.site = static_cast<std::uint32_t>(at);
    recent_ints_[recent_int_count_++ % kRecent] = static_cast<std::uint16_t>(i);
  }
  // Into the slot of its group of 4 (see set_probing) when its own holds another
  // comparison. Out of line, so that record_int stays a few stores and inlines.
  [[gnu::noinline]] void store_int_probing(std::size_t i, std::uintptr_t at, std::uint64_t a, std::uint64_t b,
                                           int width, bool is_const, bool switch_case) {
    if (ints_[i].width != 0 && !holds(ints_[i], at, a, b)) {
      std::size_t own = i;
      for (std::size_t d = 1; d < 4; ++d) {
        std::size_t j = own ^ d;
        if (ints_[j].width == 0 || holds(ints_[j], at, a, b)) {
          i = j;
          break;
        }
      }
    }
    store_int(i, at, a, b, width, is_const, switch_case);
  }
  static bool holds(const IntCmp& s, std::uintptr_t at, std::uint64_t a, std::uint64_t b) {
    return s.site == static_cast<std::uint32_t>(at) && s.a == a && s.b == b;
  }
  static std::size_t slot(std::uint64_t h, std::size_t n) {
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return static_cast<std::size_t>(h) & (n - 1);
  }

  bool enabled_;
  bool probing_;
  IntCmp ints_[kIntSlots];
  ByteCmp bytes_[kByteSlots];
  std::uint16_t recent_ints_[kRecent];
  std::uint16_t recent_bytes_[kRecent];
  std::size_t recent_int_count_;
  std::size_t recent_byte_count_;
  Match matches_[kMatches];
  std::size_t match_count_;
};

}  // namespace fuzzer::cfuzz
