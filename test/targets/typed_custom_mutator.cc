// A typed fuzz test with a custom mutator for one argument: `record` is a checksummed,
// scrambled string (4 bytes of FNV-1a over the payload, then the payload XORed with 0x5A),
// and `level` an ordinary int64. The planted bug needs "FUZZ!" in the payload and a level
// of 7: the record through its custom mutator (decode, cfuzz::mutate_bytes, encode), the
// level through cfuzz's own mutations.
// CFUZZ_TEST_MUTATOR=wrong_arg puts the custom mutator on the int64 argument instead.
#include <cfuzz/cfuzz.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "scrambled_record.h"

using scrambled_record::decode;
using scrambled_record::encode;

namespace {

std::string record_of(const std::string& payload) {
  std::string r(payload.size() + 4, '\0');
  r.resize(encode(payload, reinterpret_cast<std::uint8_t*>(r.data()), r.size()));
  return r;
}

std::size_t mutate_record(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int) {
  std::string payload;
  if (!decode(data, size, &payload)) payload.clear();
  std::size_t room = max_size > 4 ? max_size - 4 : 0;
  std::size_t used = std::min(payload.size(), room);
  payload.resize(room);
  std::size_t n = cfuzz::mutate_bytes(reinterpret_cast<std::uint8_t*>(payload.data()), used, room);
  payload.resize(n);
  return encode(payload, data, max_size);
}

}  // namespace

CFUZZ_TEST(FuzzRecord, f) {
  f.add(record_of("hello"), std::int64_t{1});
  const char* mode = std::getenv("CFUZZ_TEST_MUTATOR");
  f.custom_mutator(mode != nullptr && std::strcmp(mode, "wrong_arg") == 0 ? 1 : 0, &mutate_record);
  f.fuzz([](cfuzz::T& t, const std::string& record, std::int64_t level) {
    std::string payload;
    if (!decode(reinterpret_cast<const std::uint8_t*>(record.data()), record.size(), &payload)) return;
    if (level == 7 && payload.find("FUZZ!") != std::string::npos) t.fatalf("planted bug: %s", payload.c_str());
  });
}
