// Deep structure: nested tag-length-value records whose lengths must all agree.
//
// A document is one 'D' record covering the whole input; its payload is 'S' (section)
// records, a section's payload is 'I' (item) records, an item's payload is 'F' (field)
// records. Every record is tag, length byte, payload; a container's children must fill its
// payload exactly. The planted bug needs an item with at least two fields of which one is
// exactly 6 bytes long and starts with '!': four levels of lengths that agree, one exact.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

struct Span {
  const uint8_t* p;
  size_t n;
};

// Splits `s` into records; calls `each(tag, payload)` for each. False if they do not fill `s`.
template <class F>
bool records(Span s, F each) {
  size_t pos = 0;
  while (pos < s.n) {
    if (s.n - pos < 2) return false;
    uint8_t tag = s.p[pos];
    size_t len = s.p[pos + 1];
    if (len > s.n - pos - 2) return false;
    if (!each(tag, Span{s.p + pos + 2, len})) return false;
    pos += 2 + len;
  }
  return true;
}

bool field(uint8_t tag, Span f, int* count, bool* long_bang) {
  if (tag != 'F') return false;
  ++*count;
  if (f.n == 6 && f.p[0] == '!') *long_bang = true;
  return true;
}

bool item(uint8_t tag, Span it) {
  if (tag != 'I') return false;
  int fields = 0;
  bool bang = false;
  if (!records(it, [&](uint8_t t, Span f) { return field(t, f, &fields, &bang); })) return false;
  if (fields >= 2 && bang) abort();
  return true;
}

bool section(uint8_t tag, Span s) {
  if (tag != 'S') return false;
  return records(s, item);
}

bool document(uint8_t tag, Span d) {
  if (tag != 'D') return false;
  return records(d, section);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  int docs = 0;
  records(Span{data, size}, [&](uint8_t t, Span d) { return ++docs == 1 && document(t, d); });
  return 0;
}
