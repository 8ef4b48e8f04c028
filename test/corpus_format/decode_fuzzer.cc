// libFuzzer harness for the decoder: arbitrary bytes must never crash it, and whatever
// it accepts must survive encode -> decode unchanged, with the encoding a fixed point.
// Built with -fsanitize=fuzzer,address,undefined (see CMakeLists.txt).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "corpus_format/codec.h"

namespace {

[[noreturn]] void mismatch(const char* what, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "decode_fuzzer: %s\n--- first:\n%s\n--- second:\n%s\n", what, a.c_str(), b.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cfuzz::corpus;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Entry entry;
  try {
    entry = decode(text, "fuzz");
  } catch (const CorpusError& e) {
    // Rejections are fine, but their message must be one printable line of modest length
    // whatever the input held.
    const std::string_view what = e.what();
    for (const char c : what) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
        mismatch("control character in error message", e.what(), "");
      }
    }
    if (what.size() > 600) mismatch("error message too long", e.what(), "");
    return 0;
  }
  if (entry.empty()) return 0;  // header only: nothing to encode

  const std::string first = encode(entry);
  Entry again;
  try {
    again = decode(first, "re-encoded");
  } catch (const CorpusError& e) {
    mismatch("the encoding of an accepted entry does not decode", first, e.what());
  }
  if (!same_entry(entry, again)) mismatch("values changed in the round trip", first, encode(again));
  const std::string second = encode(again);
  if (second != first) mismatch("encoding is not a fixed point", first, second);
  return 0;
}
