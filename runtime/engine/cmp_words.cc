#include "runtime/engine/cmp_words.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "core/decimal_text.h"
#include "core/shm_layout.h"

namespace fuzzer::cfuzz {

namespace {

void encode_int(std::uint64_t v, int width, bool big_endian, std::uint8_t* out) {
  for (int i = 0; i < width; ++i) {
    auto byte = static_cast<std::uint8_t>(v >> (8 * i));
    out[big_endian ? width - 1 - i : i] = byte;
  }
}

std::uint64_t decode_int(const std::uint8_t* in, int width, bool big_endian) {
  std::uint64_t v = 0;
  for (int i = 0; i < width; ++i) v |= std::uint64_t{in[big_endian ? width - 1 - i : i]} << (8 * i);
  return v;
}

// The widths to look for a comparison's operands in: the comparison's own, and each
// narrower one both operands fit in. A byte or a 16-bit field compared after C's integer
// promotion (a checksum against the two bytes that carry it, a count byte against its
// bounds) is a 4- or 8-byte comparison whose operands are 1 or 2 bytes in the input.
int narrower_widths(std::uint64_t a, std::uint64_t b, int width, int* out) {
  int n = 0;
  out[n++] = width;
  for (int w = width / 2; w >= 1; w /= 2) {
    if ((a >> (8 * w)) != 0 || (b >> (8 * w)) != 0) break;
    out[n++] = w;
  }
  return n;
}

std::uint64_t width_mask(int width) { return width == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * width)) - 1; }

// Whether `n` bytes at `a` and at `b` are the same. By hand, not memcmp: memcmp from here
// is the interceptor that the runtime or a sanitizer installs (a call and a comparison hook
// each time), and the scans below compare at every place of the input, once per operand,
// width, byte order and value. A 4880-byte WebP seed ran at 10 execs/s with memcmp there.
bool same_bytes(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// The first place at or after `pos` where `data` holds `needle`; SIZE_MAX if none. memchr
// skips to each place of the needle's first byte (vectorized, and no sanitizer calls a
// comparison hook for it), where the rest is compared.
std::size_t next_occurrence(const std::uint8_t* data, std::size_t len, const std::uint8_t* needle, std::size_t n,
                            std::size_t pos) {
  if (n == 0 || n > len) return SIZE_MAX;
  const std::size_t starts = len - n + 1;
  while (pos < starts) {
    const void* first = std::memchr(data + pos, needle[0], starts - pos);
    if (first == nullptr) return SIZE_MAX;
    pos = static_cast<std::size_t>(static_cast<const std::uint8_t*>(first) - data);
    if (same_bytes(data + pos + 1, needle + 1, n - 1)) return pos;
    ++pos;
  }
  return SIZE_MAX;
}

// Where `from` occurs in a value: the first kFirst times, and the last time if there are more
// (of a run of equal fields, the last may be a checksum stored after them).
struct Occurrences {
  static constexpr int kFirst = 3;
  std::size_t at[kFirst + 1];
  int count = 0;
};

Occurrences occurrences(const std::uint8_t* data, std::size_t len, const std::uint8_t* from, std::size_t from_len) {
  Occurrences found;
  std::size_t last = SIZE_MAX;
  for (std::size_t pos = next_occurrence(data, len, from, from_len, 0); pos != SIZE_MAX;
       pos = next_occurrence(data, len, from, from_len, pos + 1)) {
    if (found.count < Occurrences::kFirst) {
      found.at[found.count++] = pos;
    } else {
      last = pos;
    }
  }
  if (last != SIZE_MAX) found.at[found.count++] = last;
  return found;
}

// The position of `needle` in `data`, searching from a random starting point (and wrapping)
// so that repeated occurrences all get their turn; SIZE_MAX if absent.
std::size_t find_from(const std::uint8_t* data, std::size_t len, const std::uint8_t* needle, std::size_t n,
                      core::Pcg& rng) {
  if (n == 0 || n > len) return SIZE_MAX;
  std::size_t start = rng.below(len - n + 1);
  std::size_t at = next_occurrence(data, len, needle, n, start);
  // Wrapped: the places before `start` (the last of them ends before start + n - 1).
  return at != SIZE_MAX ? at : next_occurrence(data, start + n - 1, needle, n, 0);
}

// Where `value` (an operand of `width` bytes) is written in decimal in `data`, searching
// from a random run and wrapping: a number the target parsed from text before comparing.
bool find_decimal(const std::uint8_t* data, std::size_t len, std::uint64_t value, int width, core::Pcg& rng,
                  core::DecimalRun* run, core::DecimalMatch* how) {
  std::size_t start = rng.below(len + 1);
  for (int pass = 0; pass < 2; ++pass) {
    std::size_t from = pass == 0 ? start : 0;
    while (core::next_decimal_run(data, len, from, run)) {
      if (pass == 1 && run->begin >= start) return false;
      *how = core::decimal_run_matches(*run, value, width);
      if (*how != core::DecimalMatch::None) return true;
      from = run->end;
    }
  }
  return false;
}

}  // namespace

void CmpWords::set_dictionary(std::vector<std::string> words) {
  dict_ = std::move(words);
  dict_set_.clear();
  dict_set_.insert(dict_.begin(), dict_.end());
}

std::string_view CmpWords::pick_word(core::Pcg& rng) const {
  std::string_view w;
  if (!dict_.empty() && rng.coin()) {
    w = dict_[rng.below(dict_.size())];
  } else {
    // An operand of a recent comparison, in either byte order.
    const CmpTable& t = rng.coin() ? base_ : table_;
    std::size_t ints = t.recent_int_count(), bytes = t.recent_byte_count();
    if (ints + bytes == 0) {
      if (dict_.empty()) return {};
      w = dict_[rng.below(dict_.size())];
    } else {
      std::size_t k = rng.below(ints + bytes);
      if (k < ints) {
        const CmpTable::IntCmp& c = t.recent_int(k);
        encode_int(rng.coin() ? c.a : c.b, c.width, c.width > 1 && rng.coin(), scratch_);
        w = std::string_view(reinterpret_cast<const char*>(scratch_), c.width);
      } else {
        const CmpTable::ByteCmp& c = t.recent_byte(k - ints);
        bool side = rng.coin();
        std::memcpy(scratch_, side ? c.a : c.b, side ? c.a_len : c.b_len);
        w = std::string_view(reinterpret_cast<const char*>(scratch_), side ? c.a_len : c.b_len);
      }
    }
  }
  note_used(w);
  return w;
}

void CmpWords::note_used(std::string_view w) const {
  if (used_count_ == std::size(used_) || w.empty() || w.size() > CmpTable::kMaxBytes) return;
  Used& u = used_[used_count_++];
  u.len = static_cast<std::uint8_t>(w.size());
  std::memcpy(u.bytes, w.data(), w.size());
}

std::vector<std::string> CmpWords::chain_words() const {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < used_count_; ++i) words.emplace_back(used_[i].bytes, used_[i].len);
  return words;
}

bool CmpWords::replace_int(const CmpTable::IntCmp& c, const std::uint8_t* data, std::size_t len, core::Pcg& rng,
                           Replacement* out) const {
  int width = c.width;
  bool swap_sides = rng.coin();
  std::uint64_t from = swap_sides ? c.b : c.a;
  std::uint64_t to = swap_sides ? c.a : c.b;
  // Ordering comparisons (<, >) are won by the neighbours of the other operand.
  std::uint32_t variant = rng.below(8);
  if (variant == 0) to += 1;
  if (variant == 1) to -= 1;
  bool big_endian_first = rng.coin();
  int widths[4];
  int n_widths = narrower_widths(from & width_mask(width), to & width_mask(width), width, widths);
  for (int wi = 0; wi < n_widths; ++wi) {
    int w = widths[wi];
    for (int attempt = 0; attempt < 2; ++attempt) {
      bool big_endian = attempt == 0 ? big_endian_first : !big_endian_first;
      if (w == 1 && attempt == 1) break;
      std::uint8_t needle[8];
      encode_int(from, w, big_endian, needle);
      std::size_t pos = find_from(data, len, needle, static_cast<std::size_t>(w), rng);
      if (pos == SIZE_MAX) continue;
      encode_int(to, w, big_endian, scratch_);
      *out = Replacement{pos, static_cast<std::size_t>(w),
                         std::string_view(reinterpret_cast<const char*>(scratch_), static_cast<std::size_t>(w))};
      note_used(out->bytes);
      return true;
    }
  }
  // Neither byte order: the operand may have been parsed from decimal text.
  core::DecimalRun run;
  core::DecimalMatch how;
  if (find_decimal(data, len, from, width, rng, &run, &how)) {
    auto* text = reinterpret_cast<char*>(scratch_);
    std::size_t n = core::format_decimal(to, width, how, text);
    *out = Replacement{run.begin, run.end - run.begin, std::string_view(text, n)};
    note_used(out->bytes);
    return true;
  }
  // Nor is it there in decimal: it may be a transform of an input
  // field (a dense switch compares x - K with the table size). Adding the difference the
  // comparison wants to a field at a random place moves such an operand to the other side.
  if (width < 2 || len < static_cast<std::size_t>(width)) return false;
  std::size_t pos = rng.below(len - static_cast<std::size_t>(width) + 1);
  bool big_endian = rng.coin();
  std::uint64_t field = decode_int(data + pos, width, big_endian);
  encode_int(field + (to - from), width, big_endian, scratch_);
  *out = Replacement{pos, static_cast<std::size_t>(width),
                     std::string_view(reinterpret_cast<const char*>(scratch_), static_cast<std::size_t>(width))};
  return true;
}

bool CmpWords::replace_bytes(const CmpTable::ByteCmp& c, const std::uint8_t* data, std::size_t len, core::Pcg& rng,
                             Replacement* out) const {
  bool swap_sides = rng.coin();
  const std::uint8_t* from = swap_sides ? c.b : c.a;
  std::size_t from_len = swap_sides ? c.b_len : c.a_len;
  const std::uint8_t* to = swap_sides ? c.a : c.b;
  std::size_t to_len = swap_sides ? c.a_len : c.b_len;
  std::size_t pos = find_from(data, len, from, from_len, rng);
  if (pos == SIZE_MAX) return false;
  std::memcpy(scratch_, to, to_len);
  *out = Replacement{pos, from_len, std::string_view(reinterpret_cast<const char*>(scratch_), to_len)};
  note_used(out->bytes);
  return true;
}

bool CmpWords::replacement_for(const std::uint8_t* data, std::size_t len, core::Pcg& rng, Replacement* out) const {
  if (len == 0) return false;
  // Mostly the base input's comparisons (consistent with the bytes being mutated), else
  // the latest ones (which include comparisons only mutated inputs reach).
  const CmpTable& t = rng.below(4) != 0 ? base_ : table_;
  std::size_t ints = t.recent_int_count(), bytes = t.recent_byte_count();
  if (ints + bytes == 0) return false;
  // A few of them, until one applies to this input.
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::size_t k = rng.below(ints + bytes);
    if (k < ints) {
      if (replace_int(t.recent_int(k), data, len, rng, out)) return true;
    } else {
      const CmpTable::ByteCmp& c = t.recent_byte(k - ints);
      if (c.a_len != 0 && replace_bytes(c, data, len, rng, out)) return true;
    }
  }
  return false;
}

bool CmpWords::position_after_match(const std::uint8_t* data, std::size_t len, core::Pcg& rng, std::size_t* pos) const {
  // A keyword the base input matched, where it is in the input being mutated.
  std::size_t n = base_.match_count();
  if (n == 0) return false;
  std::size_t start = rng.below(n);
  for (std::size_t k = 0; k < n; ++k) {
    const CmpTable::Match& m = base_.match((start + k) % n);
    std::size_t at = find_from(data, len, m.bytes, m.len, rng);
    if (at == SIZE_MAX) continue;
    *pos = at + m.len;
    return true;
  }
  return false;
}

bool CmpWords::integer_for(std::uint64_t current, int width_bytes, core::Pcg& rng, std::uint64_t* out) const {
  std::uint64_t mask = width_mask(width_bytes);
  // Best: a comparison of this very value; else any operand of the same width.
  const CmpTable& t = rng.coin() ? base_ : table_;
  std::size_t n = t.recent_int_count();
  if (n == 0) return false;
  std::size_t start = rng.below(n);
  bool found_any = false;
  std::uint64_t any = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const CmpTable::IntCmp& c = t.recent_int((start + k) % n);
    if (c.width == 0) continue;
    if ((c.a & mask) == current) {
      *out = c.b;
      return true;
    }
    if ((c.b & mask) == current) {
      *out = c.a;
      return true;
    }
    if (!found_any && c.width == width_bytes) {
      found_any = true;
      any = c.is_const != 0 ? c.a : c.b;
    }
  }
  if (found_any) *out = any;
  return found_any;
}

std::vector<CmpWords::Candidate> CmpWords::input_to_state_candidates(const core::InputAreaHeader& base,
                                                                     std::size_t max) const {
  std::vector<Candidate> out;
  auto add = [&](Candidate c) {
    for (const auto& o : out) {
      if (o.value == c.value && o.pos == c.pos && o.old_len == c.old_len && o.bytes == c.bytes) return;
    }
    out.push_back(std::move(c));
  };
  // Each place where value `v` holds an operand (occurrences() above) becomes the other.
  auto replace_at = [&](std::uint32_t v, const Occurrences& found, std::size_t from_len, const std::uint8_t* to,
                        std::size_t to_len) {
    for (int i = 0; i < found.count && out.size() < max; ++i) {
      add(Candidate{v, found.at[i], from_len, std::string(reinterpret_cast<const char*>(to), to_len)});
    }
  };
  auto& area = const_cast<core::InputAreaHeader&>(base);
  std::size_t ints = base_.recent_int_count(), bytes = base_.recent_byte_count();
  for (std::uint32_t v = 0; v < base.count && out.size() < max; ++v) {
    const core::SlotHeader& slot = base.slots[v];
    bool is_bytes = slot.type == 0 || slot.type == 1;  // []byte, string
    const std::uint8_t* data = core::ShmView::slot_data(area, v);
    for (std::size_t k = 0; k < ints && out.size() < max; ++k) {
      const CmpTable::IntCmp& c = base_.recent_int(k);
      if (c.width == 0) continue;
      for (int side = 0; side < 2; ++side) {
        std::uint64_t from = side == 0 ? c.b : c.a, to = side == 0 ? c.a : c.b;
        if (is_bytes) {
          int widths[4];
          int n_widths = narrower_widths(from & width_mask(c.width), to & width_mask(c.width), c.width, widths);
          for (int wi = 0; wi < n_widths; ++wi) {
            auto w = static_cast<std::size_t>(widths[wi]);
            // The operand is looked for once in each byte order, then replaced by each value.
            Occurrences found[2];
            for (bool big_endian : {false, true}) {
              if (w == 1 && big_endian) continue;
              std::uint8_t f[8];
              encode_int(from, static_cast<int>(w), big_endian, f);
              found[big_endian] = occurrences(data, slot.len, f, w);
            }
            for (std::uint64_t t : {to, to + 1, to - 1}) {
              for (bool big_endian : {false, true}) {
                if (w == 1 && big_endian) continue;
                std::uint8_t r[8];
                encode_int(t, static_cast<int>(w), big_endian, r);
                replace_at(v, found[big_endian], w, r, w);
              }
            }
          }
        } else {
          std::uint64_t mask = width_mask(c.width);
          if ((slot.bits & mask) != (from & mask)) continue;
          std::uint8_t r[8];
          encode_int(to, 8, false, r);
          add(Candidate{v, 0, 0, std::string(reinterpret_cast<const char*>(r), 8)});
        }
      }
    }
    if (!is_bytes) continue;
    add_decimal_candidates(v, data, slot.len, max, &out);
    for (std::size_t k = 0; k < bytes && out.size() < max; ++k) {
      const CmpTable::ByteCmp& c = base_.recent_byte(k);
      if (c.a_len == 0) continue;
      replace_at(v, occurrences(data, slot.len, c.a, c.a_len), c.a_len, c.b, c.b_len);
      replace_at(v, occurrences(data, slot.len, c.b, c.b_len), c.b_len, c.a, c.a_len);
    }
  }
  // The guesses last: each transformed comparison yields hundreds of them, which must not
  // crowd out the exact replacements of a later value.
  for (std::uint32_t v = 0; v < base.count && out.size() < max; ++v) {
    const core::SlotHeader& slot = base.slots[v];
    if (slot.type == 0 || slot.type == 1) {
      const std::uint8_t* data = core::ShmView::slot_data(area, v);
      add_length_candidates(v, data, slot.len, std::min(max, out.size() + kLengthCandidates), &out);
      add_arithmetic_candidates(v, data, slot.len, max, &out);
    }
  }
  return out;
}

std::size_t CmpWords::follow_ups(const core::InputAreaHeader& input, const core::InputAreaHeader& base,
                                 CmpTable::Mark since, const Kept* kept, ByteOrder prefer, FollowUp* out,
                                 std::size_t max) const {
  const bool big_endian_first = prefer == ByteOrder::Big;
  std::size_t n = 0;
  auto& area = const_cast<core::InputAreaHeader&>(input);
  std::uint32_t comparison = 0;  // the one being looked at
  ByteOrder order = ByteOrder::Unknown;
  auto add = [&](std::uint32_t v, std::size_t pos, std::size_t old_len, const std::uint8_t* to, std::size_t to_len) {
    for (std::size_t k = 0; k < n; ++k) {
      if (out[k].value == v && out[k].pos == pos &&
          out[k].replacement() == std::string_view(reinterpret_cast<const char*>(to), to_len))
        return;
    }
    FollowUp& f = out[n++];
    f.value = v;
    f.pos = pos;
    f.old_len = old_len;
    f.len = static_cast<std::uint8_t>(to_len);
    std::memcpy(f.bytes, to, to_len);
    f.comparison = comparison;
    f.order = order;
  };
  // A step that puts back the base input's bytes, or rewrites the step before it, undoes
  // the chain rather than taking it further.
  auto undoes = [&](std::uint32_t v, std::size_t pos, std::size_t len, const std::uint8_t* to, std::size_t to_len) {
    if (kept != nullptr && kept->value == v && pos < kept->pos + kept->len && kept->pos < pos + len) return true;
    const std::uint8_t* was = core::ShmView::slot_data(const_cast<core::InputAreaHeader&>(base), v);
    return to_len == len && pos + len <= base.slots[v].len && same_bytes(was + pos, to, len);
  };
  // The first occurrence of `from` in value `v` becomes `to`, and so does the last, where
  // that is another: of a run of equal fields, the first is a value read first and the last
  // may be the checksum stored after them.
  auto replace_first_and_last = [&](std::uint32_t v, const std::uint8_t* from, std::size_t from_len,
                                    const std::uint8_t* to, std::size_t to_len) {
    const core::SlotHeader& slot = input.slots[v];
    const std::uint8_t* data = core::ShmView::slot_data(area, v);
    if (from_len == 0 || from_len > slot.len || n >= max) return false;
    std::size_t first = SIZE_MAX, last = SIZE_MAX;
    for (std::size_t pos = next_occurrence(data, slot.len, from, from_len, 0); pos != SIZE_MAX;
         pos = next_occurrence(data, slot.len, from, from_len, pos + 1)) {
      if (undoes(v, pos, from_len, to, to_len)) continue;
      if (first == SIZE_MAX) first = pos;
      last = pos;
    }
    if (first == SIZE_MAX) return false;
    add(v, first, from_len, to, to_len);
    if (last != first && n < max) add(v, last, from_len, to, to_len);
    return true;
  };
  table_.for_each_int_since(since, [&](std::size_t slot_index, const CmpTable::IntCmp& c) {
    // A constant's comparison is left to the candidates (and to random mutation): what breaks
    // when a field changes is a check of one input-derived value against another, a
    // checksum over the field or a count.
    if (n >= max || c.width == 0 || c.is_const != 0 || base_.group_holds(slot_index, c)) return;
    comparison = c.site & 0x7fffffffU;
    for (std::uint32_t v = 0; v < input.count; ++v) {
      const core::SlotHeader& slot = input.slots[v];
      for (int side = 0; side < 2; ++side) {
        std::uint64_t from = side == 0 ? c.b : c.a, to = side == 0 ? c.a : c.b;
        if (slot.type != 0 && slot.type != 1) {  // a scalar: the operand is its value
          std::uint64_t mask = width_mask(c.width);
          std::uint8_t r[8];
          encode_int(to, 8, false, r);
          if ((slot.bits & mask) == (from & mask) && n < max) add(v, 0, 0, r, 8);
          continue;
        }
        int widths[4];
        int n_widths = narrower_widths(from & width_mask(c.width), to & width_mask(c.width), c.width, widths);
        bool found = false;
        for (int wi = 0; wi < n_widths && !found; ++wi) {
          // A single byte equal to the operand is everywhere by chance (a length, a count); a
          // follow-up wants the field that was read.
          const int w = widths[wi];
          if (w == 1) continue;
          // Both byte orders, the preferred first: a match in one does not rule out the other,
          // since the operand may read the same in both (0xefef) or match by chance across two
          // fields in the wrong one (0x0830's "30 08" in "...0 0 08 30").
          for (bool big_endian : {big_endian_first, !big_endian_first}) {
            std::uint8_t f[8], r[8], f_swapped[8];
            encode_int(from, w, big_endian, f);
            encode_int(to, w, big_endian, r);
            encode_int(from, w, !big_endian, f_swapped);
            // Which byte order the input uses shows only where the operand reads differently in
            // the two (0x3030 does not tell).
            order = std::memcmp(f, f_swapped, static_cast<std::size_t>(w)) == 0 ? ByteOrder::Unknown
                    : big_endian                                                ? ByteOrder::Big
                                                                                : ByteOrder::Little;
            found = replace_first_and_last(v, f, static_cast<std::size_t>(w), r, static_cast<std::size_t>(w)) || found;
          }
        }
      }
    }
  });
  table_.for_each_byte_since(since, [&](std::size_t slot_index, const CmpTable::ByteCmp& c) {
    const CmpTable::ByteCmp& seen = base_.byte_slot(slot_index);
    if (n >= max || c.a_len < 2 || c.b_len < 2 ||
        (seen.a_len == c.a_len && seen.b_len == c.b_len && std::memcmp(seen.a, c.a, c.a_len) == 0 &&
         std::memcmp(seen.b, c.b, c.b_len) == 0)) {
      return;
    }
    comparison = 0x80000000U | static_cast<std::uint32_t>(slot_index);
    order = ByteOrder::Unknown;
    for (std::uint32_t v = 0; v < input.count; ++v) {
      if (input.slots[v].type != 0 && input.slots[v].type != 1) continue;
      if (!replace_first_and_last(v, c.a, c.a_len, c.b, c.b_len)) replace_first_and_last(v, c.b, c.b_len, c.a, c.a_len);
    }
  });
  return n;
}

void CmpWords::add_decimal_candidates(std::uint32_t v, const std::uint8_t* data, std::size_t len, std::size_t max,
                                      std::vector<Candidate>* out) const {
  // Numbers the target parsed from text and then compared: the digits that spell one
  // operand are rewritten to spell the other, or its neighbours for an ordering comparison.
  constexpr std::size_t kMaxRuns = 64;
  std::vector<core::DecimalRun> runs;
  core::DecimalRun run;
  for (std::size_t from = 0; runs.size() < kMaxRuns && core::next_decimal_run(data, len, from, &run); from = run.end) {
    runs.push_back(run);
  }
  if (runs.empty()) return;
  std::size_t ints = base_.recent_int_count();
  for (std::size_t k = 0; k < ints && out->size() < max; ++k) {
    const CmpTable::IntCmp& c = base_.recent_int(k);
    if (c.width == 0) continue;
    for (int side = 0; side < 2; ++side) {
      std::uint64_t from = side == 0 ? c.b : c.a, to = side == 0 ? c.a : c.b;
      for (const auto& r : runs) {
        core::DecimalMatch how = core::decimal_run_matches(r, from, c.width);
        if (how == core::DecimalMatch::None) continue;
        // The neighbours first: the exact value wins an equality, but an ordering
        // comparison (the bound of a range check) only by one of them.
        for (std::uint64_t t : {to - 1, to + 1, to}) {
          if (out->size() >= max) return;
          char text[24];
          std::size_t n = core::format_decimal(t, c.width, how, text);
          out->push_back(Candidate{v, r.begin, r.end - r.begin, std::string(text, n)});
        }
      }
    }
  }
}

void CmpWords::add_arithmetic_candidates(std::uint32_t v, const std::uint8_t* data, std::size_t len, std::size_t max,
                                         std::vector<Candidate>* out) const {
  // For comparisons whose operands are nowhere in the value (x - K against a table size, a
  // length computed from the input), each field of the comparison's width at the first
  // kArithmeticReach positions gets the difference added: the field that x was read from
  // makes the comparison come out the other way (REDQUEEN's arithmetic transforms).
  // The comparisons take turns, one guess each, so that the first guesses of every one
  // come within `max`: in a sanitizer build, from 17 bytes on, the guesses for the
  // eight-byte bounds checks that came first left no room for the range check after them.
  constexpr std::size_t kArithmeticReach = 64;
  constexpr std::uint64_t kSmallBound = 8;
  struct Guesses {
    const CmpTable::IntCmp* c;
    std::uint64_t from;
    std::uint64_t wants[3 + kSmallBound];  // the other operand, its neighbours, a small bound's values
    std::size_t n_wants;
    std::size_t positions;
  };
  std::vector<Guesses> all;
  std::size_t ints = base_.recent_int_count();
  for (std::size_t k = 0; k < ints; ++k) {
    const CmpTable::IntCmp& c = base_.recent_int(k);
    auto width = static_cast<std::size_t>(c.width);
    if (width < 2 || width > len) continue;
    std::uint8_t a[8], b[8], a_be[8], b_be[8];
    encode_int(c.a, c.width, false, a);
    encode_int(c.b, c.width, false, b);
    encode_int(c.a, c.width, true, a_be);
    encode_int(c.b, c.width, true, b_be);
    auto occurs = [&](const std::uint8_t* needle) { return next_occurrence(data, len, needle, width, 0) != SIZE_MAX; };
    if (occurs(a) || occurs(b) || occurs(a_be) || occurs(b_be)) continue;  // a plain replacement does it
    // The side that varies with the input: the one that is not a constant, or either.
    for (int side = 0; side < (c.is_const != 0 ? 1 : 2); ++side) {
      Guesses g{&c, side == 0 ? c.b : c.a, {}, 3, std::min(len - width + 1, kArithmeticReach)};
      std::uint64_t to = side == 0 ? c.a : c.b;
      g.wants[0] = to;
      g.wants[1] = to - 1;
      g.wants[2] = to + 1;
      if (to >= 2 && to <= kSmallBound) {
        for (std::uint64_t w = 0; w + 1 < to; ++w) g.wants[g.n_wants++] = w;
      }
      all.push_back(g);
    }
  }
  // Guess number `r` of a comparison: its r-th (want, position, byte order), want by want.
  for (std::size_t r = 0, left = all.size(); left > 0 && out->size() < max; ++r) {
    left = 0;
    for (const Guesses& g : all) {
      std::size_t per_want = g.positions * 2;
      if (r >= g.n_wants * per_want) continue;
      ++left;
      if (out->size() >= max) return;
      std::uint64_t delta = g.wants[r / per_want] - g.from;
      std::size_t pos = r % per_want / 2;
      bool big_endian = r % 2 == 1;
      std::uint8_t bytes[8];
      encode_int(decode_int(data + pos, g.c->width, big_endian) + delta, g.c->width, big_endian, bytes);
      out->push_back(Candidate{v, pos, g.c->width, std::string(reinterpret_cast<const char*>(bytes), g.c->width)});
    }
  }
}

void CmpWords::add_length_candidates(std::uint32_t v, const std::uint8_t* data, std::size_t len, std::size_t max,
                                     std::vector<Candidate>* out) const {
  // A size the target measured and compared with a constant (a name of exactly six
  // characters) is in no byte of the input: the fix is to make something that long, by
  // inserting or deleting the difference. Where: before the byte at that offset (the
  // operand may be where a closing quote is), and at the end of each word that long now (a
  // run of letters and digits; for a size of 0, the empty one between two equal bytes, as
  // in `""`).
  // Such a size is less than the value's length (a comparison of the whole length needs no
  // help); a small operand that occurs as a byte is more likely that byte (a character a
  // parser looked at) than a size, and the cases of a switch are kinds, not sizes.
  constexpr std::size_t kMaxPairs = 16, kPlacesPerSize = 16;
  struct Pair {
    std::uint64_t size, wanted;
  } pairs[kMaxPairs];
  std::size_t n_pairs = 0;
  auto add_pair = [&](std::uint64_t size, std::uint64_t wanted) {
    if (wanted == size || wanted > size + CmpTable::kMaxBytes) return;
    for (std::size_t k = 0; k < n_pairs; ++k) {
      if (pairs[k].size == size && pairs[k].wanted == wanted) return;
    }
    if (n_pairs < kMaxPairs) pairs[n_pairs++] = Pair{size, wanted};
  };
  bool seen_byte[256] = {};
  for (std::size_t i = 0; i < len; ++i) seen_byte[data[i]] = true;
  for (std::size_t i = 0; i < CmpTable::kIntSlots && n_pairs < kMaxPairs; ++i) {
    const CmpTable::IntCmp& c = base_.int_slot(i);
    if (c.width < 2 || c.is_const != 1) continue;
    std::uint64_t size = c.b & width_mask(c.width), wanted = c.a & width_mask(c.width);
    if (size >= len || (size < 256 && seen_byte[size])) continue;
    add_pair(size, wanted);
  }
  // The smallest changes first.
  auto change = [](const Pair& p) { return p.wanted > p.size ? p.wanted - p.size : p.size - p.wanted; };
  std::sort(pairs, pairs + n_pairs, [&](const Pair& x, const Pair& y) { return change(x) < change(y); });
  auto is_word_byte = [&](std::size_t i) { return std::isalnum(data[i]) != 0; };
  for (std::size_t k = 0; k < n_pairs && out->size() < max; ++k) {
    const Pair& pr = pairs[k];
    std::size_t places = 0;
    if (pr.wanted > pr.size) {
      std::uint8_t fill = pr.size > 0 && is_word_byte(pr.size - 1) ? data[pr.size - 1] : 'a';
      out->push_back(Candidate{v, pr.size, 0, std::string(pr.wanted - pr.size, static_cast<char>(fill)), false});
    } else {
      out->push_back(Candidate{v, pr.wanted, pr.size - pr.wanted, std::string(), false});
    }
    // Each word [start, end), between two other bytes or an end of the value.
    for (std::size_t start = 0; start <= len && places < kPlacesPerSize && out->size() < max;) {
      std::size_t end = start;
      while (end < len && is_word_byte(end)) ++end;
      std::size_t word = end - start;
      bool empty_quoted = start > 0 && start < len && data[start - 1] == data[start];
      if (word == pr.size && (word > 0 || empty_quoted)) {
        if (pr.wanted > pr.size) {
          std::uint8_t fill = word > 0 ? data[end - 1] : 'a';
          out->push_back(Candidate{v, end, 0, std::string(pr.wanted - pr.size, static_cast<char>(fill)), false});
          ++places;
        } else if (pr.size - pr.wanted <= word) {
          std::size_t cut = pr.size - pr.wanted;
          out->push_back(Candidate{v, end - cut, cut, std::string(), false});
          ++places;
        }
      }
      start = end + 1;
    }
  }
}

std::vector<std::string> CmpWords::new_constants(std::size_t max) const {
  std::vector<std::string> words;
  auto consider = [&](std::string w) {
    if (words.size() >= max || w.size() < 2 || dict_set_.count(w) != 0) return;
    if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(std::move(w));
  };
  for (std::size_t i = 0; i < CmpTable::kIntSlots && words.size() < max; ++i) {
    const CmpTable::IntCmp& c = table_.int_slot(i);
    if (c.width < 2 || c.is_const == 0 || c.a == 0) continue;
    std::uint8_t bytes[8];
    encode_int(c.a, c.width, false, bytes);
    consider(std::string(reinterpret_cast<const char*>(bytes), c.width));
  }
  for (std::size_t i = 0; i < CmpTable::kByteSlots && words.size() < max; ++i) {
    const CmpTable::ByteCmp& c = table_.byte_slot(i);
    // Which side is the constant is unknown; the coordinator keeps only words that recur.
    if (c.a_len != 0) consider(std::string(reinterpret_cast<const char*>(c.a), c.a_len));
    if (c.b_len != 0) consider(std::string(reinterpret_cast<const char*>(c.b), c.b_len));
  }
  return words;
}

}  // namespace fuzzer::cfuzz
