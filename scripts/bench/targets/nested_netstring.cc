// Exact lengths inside nested text: lists of length-prefixed strings,
//   value := DIGITS ':' <that many bytes> | '[' value (',' value)* ']'
// The planted memory bug: a lowercase word of exactly 7 bytes, three lists deep, is copied
// into a buffer one byte too small for its terminator (found by AddressSanitizer).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

struct Reader {
  const uint8_t* p;
  size_t n;
  size_t pos = 0;
  bool eat(uint8_t c) {
    if (pos < n && p[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
};

size_t g_sink;

bool all_lower(const uint8_t* s, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    if (s[i] < 'a' || s[i] > 'z') return false;
  }
  return true;
}

void keep_word(const uint8_t* s, size_t len, int depth) {
  // The planted bug: short words get no room for their terminator.
  size_t room = depth >= 3 && len == 7 && all_lower(s, len) ? len : len + 1;
  char* copy = static_cast<char*>(malloc(room));
  memcpy(copy, s, len);
  copy[len] = 0;
  g_sink += strlen(copy);
  free(copy);
}

bool value(Reader& r, int depth) {
  if (depth > 16) return false;
  if (r.eat('[')) {
    do {
      if (!value(r, depth + 1)) return false;
    } while (r.eat(','));
    return r.eat(']');
  }
  size_t len = 0, digits = 0;
  while (r.pos < r.n && r.p[r.pos] >= '0' && r.p[r.pos] <= '9' && digits < 4) {
    len = len * 10 + (r.p[r.pos++] - '0');
    ++digits;
  }
  if (digits == 0 || !r.eat(':') || len > r.n - r.pos) return false;
  keep_word(r.p + r.pos, len, depth);
  r.pos += len;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  if (value(r, 0) && r.pos == size) return 1;
  return 0;
}
