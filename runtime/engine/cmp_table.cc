#include "runtime/engine/cmp_table.h"

#include <cstring>

namespace fuzzer::cfuzz {

CmpTable cmp_table_detail::g_cmp_table;

void CmpTable::record_bytes(std::uintptr_t pc, const void* a, std::size_t a_len, const void* b, std::size_t b_len) {
  if (!enabled_ || a_len == 0 || b_len == 0) return;
  if (a_len > kMaxBytes) a_len = kMaxBytes;
  if (b_len > kMaxBytes) b_len = kMaxBytes;
  std::size_t i = slot(site(pc), kByteSlots);
  ByteCmp& s = bytes_[i];
  recent_bytes_[recent_byte_count_++ % kRecent] = static_cast<std::uint16_t>(i);
  std::memcpy(s.a, a, a_len);
  std::memcpy(s.b, b, b_len);
  s.a_len = static_cast<std::uint8_t>(a_len);
  s.b_len = static_cast<std::uint8_t>(b_len);
}

void CmpTable::record_match(const void* p, std::size_t n) {
  if (!enabled_ || n < 2) return;
  if (n > kMaxBytes) n = kMaxBytes;
  // A loop matching the same keyword again. Compared by hand: this runs inside the memcmp
  // hook, and memcmp (or bcmp) here would be intercepted and call the hook again.
  auto* bytes = static_cast<const std::uint8_t*>(p);
  for (std::size_t k = 0; k < match_count(); ++k) {
    if (matches_[k].len != n) continue;
    std::size_t i = 0;
    while (i < n && matches_[k].bytes[i] == bytes[i]) ++i;
    if (i == n) return;
  }
  Match& m = matches_[match_count_++ % kMatches];
  std::memcpy(m.bytes, p, n);
  m.len = static_cast<std::uint8_t>(n);
}

void CmpTable::clear() {
  std::memset(ints_, 0, sizeof ints_);
  std::memset(bytes_, 0, sizeof bytes_);
  recent_int_count_ = 0;
  recent_byte_count_ = 0;
  match_count_ = 0;
}

}  // namespace fuzzer::cfuzz
