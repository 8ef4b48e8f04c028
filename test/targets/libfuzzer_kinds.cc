// A libFuzzer harness as OSS-Fuzz projects write them: a small record parser with a planted
// failure of each kind the infrastructure tells apart, each behind its own keyword:
//   "CRSH" then a length past the buffer   heap-buffer-overflow (or SIGSEGV without ASan)
//   "HANG"                                 an endless loop
//   "OOMM"                                 allocates without bound
//   "BIGM"                                 allocates 200 MB at once
//   "LEAK"                                 loses an allocation
//   "OVWR"                                 writes to its const input
// There is enough parsing code around them for OSS-Fuzz's bad-build check (over 100
// edges). It builds with clang -fsanitize=fuzzer as well as with cfuzz-clang++.
// LIBFUZZER_KINDS_ARMED=CRSH,HANG (say) arms only those, so that a test can ask fuzzing to
// find one kind; all are armed by default.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

volatile int g_sink;
const char* g_armed = nullptr;

bool armed(const uint8_t* keyword) {
  return g_armed == nullptr || std::strstr(g_armed, std::string(reinterpret_cast<const char*>(keyword), 4).c_str());
}

// Tokens of a tiny text format: numbers, names, strings, punctuation.
// The lexer's case labels read best as rows.
// clang-format off
int classify(const uint8_t* p, size_t n, size_t* used) {
  if (n == 0) return 0;
  uint8_t c = p[0];
  size_t i = 1;
  switch (c) {
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      while (i < n && p[i] >= '0' && p[i] <= '9') ++i;
      *used = i;
      return 1;
    case '"':
      while (i < n && p[i] != '"') {
        if (p[i] == '\\' && i + 1 < n) ++i;
        ++i;
      }
      *used = i < n ? i + 1 : n;
      return 2;
    case '{': case '}': case '[': case ']': case ',': case ':': case '=': case ';':
      *used = 1;
      return 3;
    case ' ': case '\t': case '\n': case '\r':
      *used = 1;
      return 4;
    default:
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
        while (i < n && ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') || p[i] == '_' ||
                         (p[i] >= '0' && p[i] <= '9'))) {
          ++i;
        }
        *used = i;
        return 5;
      }
      *used = 1;
      return 6;
  }
}
// clang-format on

// Balance of brackets and a running sum of numbers, so that structure matters.
int parse_text(const uint8_t* data, size_t size) {
  int depth = 0, numbers = 0, strings = 0, names = 0, bad = 0;
  size_t pos = 0;
  while (pos < size) {
    size_t used = 1;
    int kind = classify(data + pos, size - pos, &used);
    if (kind == 1) ++numbers;
    else if (kind == 2) ++strings;
    else if (kind == 5) ++names;
    else if (kind == 6) ++bad;
    if (kind == 3) {
      if (data[pos] == '{' || data[pos] == '[') ++depth;
      if (data[pos] == '}' || data[pos] == ']') --depth;
      if (depth < 0) return -1;
      if (depth > 8) return -2;
    }
    pos += used;
  }
  if (depth != 0) return -3;
  return numbers * 7 + strings * 5 + names * 3 - bad;
}

// key=value; records, each key checked by its first letter and its value by kind.
int parse_records(const uint8_t* data, size_t size) {
  int score = 0;
  size_t pos = 0;
  while (pos < size) {
    size_t eq = pos;
    while (eq < size && data[eq] != '=' && data[eq] != ';') ++eq;
    if (eq >= size || data[eq] != '=') break;
    size_t end = eq + 1;
    while (end < size && data[end] != ';') ++end;
    size_t key_len = eq - pos, value_len = end - eq - 1;
    if (key_len == 0) return -1;
    switch (data[pos]) {
      case 'a': score += value_len > 2 ? 1 : 2; break;
      case 'b': score += data[eq + 1 < size ? eq + 1 : eq] == 't' ? 3 : 4; break;
      case 'c': score += key_len == 5 ? 5 : 6; break;
      case 'd': score -= 1; break;
      case 'e': score *= 2; break;
      case 'n': {
        int v = 0;
        for (size_t i = eq + 1; i < end; ++i) {
          if (data[i] < '0' || data[i] > '9') return -2;
          v = v * 10 + (data[i] - '0');
          if (v > 100000) return -3;
        }
        score += v % 7;
        break;
      }
      case 's':
        for (size_t i = eq + 1; i < end; ++i) {
          if (data[i] == '\\') ++i;
          else if (data[i] < 32) return -4;
        }
        score += 9;
        break;
      default: score += 11; break;
    }
    pos = end + 1;
  }
  return score;
}

void planted(const uint8_t* data, size_t size) {
  if (size < 4 || !armed(data)) return;
  if (std::memcmp(data, "CRSH", 4) == 0 && size >= 5) {
    std::vector<uint8_t> buf(8);
    size_t n = data[4];
    if (n > 8) g_sink = buf.data()[n];  // reads past the buffer: the length is trusted
  } else if (std::memcmp(data, "HANG", 4) == 0) {
    for (;;) g_sink = g_sink + 1;
  } else if (std::memcmp(data, "OOMM", 4) == 0) {
    for (;;) {
      auto* p = static_cast<char*>(std::malloc(1 << 20));
      std::memset(p, 1, 1 << 20);
      g_sink = p[g_sink & 1023];
    }
  } else if (std::memcmp(data, "BIGM", 4) == 0) {
    volatile std::size_t n = std::size_t{200} << 20;
    auto* p = static_cast<char*>(std::malloc(n));
    std::memset(p, 1, 4096);
    g_sink = p[100];
    std::free(p);
  } else if (std::memcmp(data, "OVWR", 4) == 0) {
    const_cast<uint8_t*>(data)[0] ^= 1;
  } else if (std::memcmp(data, "LEAK", 4) == 0) {
    auto* p = static_cast<char*>(std::malloc(64));
    std::memcpy(p, data, 4);
    g_sink = p[0];
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_armed = std::getenv("LIBFUZZER_KINDS_ARMED");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  g_sink = parse_text(data, size);
  g_sink = parse_records(data, size);
  planted(data, size);
  return 0;
}
