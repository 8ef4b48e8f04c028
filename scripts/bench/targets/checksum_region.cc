// A packet whose payload is covered by a checksum: magic "CK", a count, that many 16-bit
// big-endian values, then a 16-bit checksum (a rotate-and-add over every byte before it).
// Packets with a wrong checksum are dropped before the values are looked at; the planted
// bug needs a valid checksum over values that count up from 0x0102 in steps of 0x0101.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

uint16_t checksum(const uint8_t* p, size_t n) {
  uint16_t sum = 0x5a5a;
  for (size_t i = 0; i < n; ++i) sum = static_cast<uint16_t>(((sum << 3) | (sum >> 13)) + p[i]);
  return sum;
}

uint16_t be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3 || data[0] != 'C' || data[1] != 'K') return 0;
  size_t count = data[2];
  if (count < 2 || count > 16) return 0;
  size_t body = 3 + 2 * count;
  if (size != body + 2) return 0;
  if (checksum(data, body) != be16(data + body)) return 0;
  int ok = 0;
  for (size_t i = 0; i < count; ++i) {
    if (be16(data + 3 + 2 * i) != 0x0102 + 0x0101 * i) break;
    ++ok;
  }
  if (ok >= 4) abort();
  return ok;
}
