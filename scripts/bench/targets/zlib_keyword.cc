// Structure-aware fuzzing (the "structure" part): the input is a zlib stream, and the planted
// bug needs the decompressed text to hold a command line "SET depth=" with a value over
// 4000. Raw mutations of a compressed stream almost never decompress; the harness's custom
// mutator decompresses, lets the engine mutate the text (LLVMFuzzerMutate), and compresses
// again, as libFuzzer's structure-aware fuzzing guide does it. Links with -lz.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

constexpr size_t kMaxText = 4096;

bool inflate_all(const uint8_t* data, size_t size, std::string* text) {
  std::vector<uint8_t> out(kMaxText);
  uLongf len = out.size();
  if (uncompress(out.data(), &len, data, size) != Z_OK) return false;
  text->assign(reinterpret_cast<const char*>(out.data()), len);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text;
  if (!inflate_all(data, size, &text)) return 0;
  size_t at = text.find("SET ");
  if (at == std::string::npos) return 0;
  if (text.compare(at + 4, 6, "depth=") != 0) return 0;
  long depth = std::strtol(text.c_str() + at + 10, nullptr, 10);
  if (depth > 4000) std::abort();  // the planted bug
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  (void)seed;
  std::string text;
  if (!inflate_all(data, size, &text)) text = "hello";
  std::vector<uint8_t> buf(kMaxText);
  std::memcpy(buf.data(), text.data(), text.size());
  size_t n = LLVMFuzzerMutate(buf.data(), text.size(), buf.size());
  uLongf len = max_size;
  if (compress(data, &len, buf.data(), n) != Z_OK) return 0;
  return len;
}
