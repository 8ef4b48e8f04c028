// Helpers shared by the core unit tests: input areas on the heap, shaped exactly like the
// ones in shared memory, and small utilities for building entries.
#pragma once

#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

#include "core/input_area.h"
#include "core/shm_layout.h"
#include "corpus_format/value.h"

namespace cfuzz::core_test {

// An input area in a heap block of exactly core::input_area_size(capacity, slots) bytes
// (plus `guard` bytes after it, filled with kGuardByte), zeroed, with slot_capacity set.
// The exact size lets AddressSanitizer see any write past the last slot; the guard bytes
// let a plain build see it too.
class HeapArea {
 public:
  static constexpr std::uint8_t kGuardByte = 0xA5;

  HeapArea(std::uint64_t capacity, std::uint32_t slots, std::size_t guard = 0)
      : capacity_(capacity), slots_(slots), size_(core::input_area_size(capacity, slots)), guard_(guard) {
    mem_ =
        static_cast<std::uint8_t*>(::operator new (size_ + guard_, std::align_val_t{alignof(core::InputAreaHeader)}));
    std::memset(mem_, 0, size_);
    std::memset(mem_ + size_, kGuardByte, guard_);
    new (mem_) core::InputAreaHeader{};
    header().slot_capacity = capacity;
  }
  HeapArea(const HeapArea& other) : HeapArea(other.capacity_, other.slots_, other.guard_) {
    std::memcpy(mem_, other.mem_, size_ + guard_);
  }
  HeapArea& operator=(const HeapArea&) = delete;
  ~HeapArea() { ::operator delete (mem_, std::align_val_t{alignof(core::InputAreaHeader)}); }

  core::InputAreaHeader& header() const { return *reinterpret_cast<core::InputAreaHeader*>(mem_); }
  std::uint8_t* data(std::uint32_t i) const { return core::ShmView::slot_data(header(), i); }
  std::string_view bytes(std::uint32_t i) const {
    return {reinterpret_cast<const char*>(data(i)), header().slots[i].len};
  }
  const std::uint8_t* raw() const { return mem_; }
  std::size_t size() const { return size_; }

  bool guard_intact() const {
    for (std::size_t i = 0; i < guard_; ++i) {
      if (mem_[size_ + i] != kGuardByte) return false;
    }
    return true;
  }
  bool same_bytes(const HeapArea& other) const {
    return size_ == other.size_ && std::memcmp(mem_, other.mem_, size_) == 0;
  }

 private:
  std::uint64_t capacity_;
  std::uint32_t slots_;
  std::size_t size_;
  std::size_t guard_;
  std::uint8_t* mem_ = nullptr;
};

// An area holding `entry`, with room for `capacity` bytes per value.
inline HeapArea area_with(const corpus::Entry& entry, std::uint64_t capacity, std::size_t guard = 0) {
  HeapArea a(capacity, static_cast<std::uint32_t>(entry.size()), guard);
  core::store_entry(a.header(), entry);
  return a;
}

inline corpus::Bytes bytes_of(std::string_view s) { return corpus::Bytes(s.begin(), s.end()); }

inline std::string_view view_of(const corpus::Value& v) {
  if (const auto* b = std::get_if<corpus::Bytes>(&v)) {
    return {reinterpret_cast<const char*>(b->data()), b->size()};
  }
  return std::get<std::string>(v);
}

// An independent UTF-8 validator (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).
inline bool is_valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::uint32_t cp;
    std::size_t n;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      cp = c & 0x1f, n = 2;
    } else if ((c & 0xf0) == 0xe0) {
      cp = c & 0x0f, n = 3;
    } else if ((c & 0xf8) == 0xf0) {
      cp = c & 0x07, n = 4;
    } else {
      return false;
    }
    if (i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n;
  }
  return true;
}

}  // namespace cfuzz::core_test
