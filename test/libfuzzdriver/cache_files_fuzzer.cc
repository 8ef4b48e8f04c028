// libFuzzer harness for what `cfuzz run` reads from a cache that others may write to: the
// baseline file, the stats file and the failure claims (the corpus entries themselves go
// through the decoder, fuzzed by test/corpus_format/decode_fuzzer.cc). Whatever the bytes,
// the readers must refuse them or read them without a crash, a sanitizer report or an
// allocation the bytes did not pay for, and what they accept must keep their promises.
// Built with -fsanitize=fuzzer,address,undefined (see CMakeLists.txt). The first byte
// picks the reader.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "libfuzzdriver/corpus/baseline_cache.h"
#include "libfuzzdriver/corpus/failure_claim.h"
#include "libfuzzdriver/coverage/stats_log.h"

namespace {

using namespace cfuzz::driver;

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "cache_files_fuzzer: %s\n", what);
  std::abort();
}

const std::string kIdentity = "0123456789abcdef0123456789abcdef";

// A file the reader accepts, written again and read back, is the same file.
void baseline(std::string_view bytes) {
  BaselineCache first = BaselineCache::parse(bytes, kIdentity);
  // Past the header too: most bytes would stop at the magic line.
  std::string with_header = "cfuzz-baseline-1\n" + kIdentity + "\n" + std::string(bytes);
  BaselineCache cache = BaselineCache::parse(with_header, kIdentity);
  if (cache.size() == 0) return;
  std::vector<std::uint64_t> keys = cache.keys();
  std::string again = cache.serialize(kIdentity, keys);
  BaselineCache back = BaselineCache::parse(again, kIdentity);
  if (back.size() != cache.size()) broken("baseline lost entries in a round trip");
  for (std::uint64_t key : keys) {
    const auto* b = back.find(key);
    if (b == nullptr || *b != *cache.find(key)) broken("baseline changed in a round trip");
  }
  static_cast<void>(first);
}

// Accepted records are finite, and print again as JSON (the thinning rewrites them).
void stats(std::string_view text) {
  for (const StatsRecord& r : parse_stats(text)) {
    if (!std::isfinite(r.time) || !std::isfinite(r.elapsed) || r.time < 0 || r.elapsed < 0) {
      broken("a record with a time that is not a finite count of seconds");
    }
    nlohmann::json j = {{"run", r.run}, {"time", r.time}, {"elapsed", r.elapsed}, {"execs", r.execs}};
    std::string line = j.dump();  // throws on a run id that is not UTF-8
    if (!parse_stats_line(line)) broken("a record written again does not read back");
  }
}

// An accepted claim names a real process id and a path that prints safely in a command.
void claim(std::string_view text) {
  auto c = parse_claim(text);
  if (!c) return;
  if (c->pid <= 0) broken("a claim with no process");
  if (!c->path.empty() && c->path[0] != '/') broken("a claim with a relative path");
  for (char ch : c->path + c->host) {
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f || ch == '$' || ch == '`' || ch == ';' || ch == '\n') {
      broken("a claim with a character a shell or a terminal acts on");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0: baseline(rest); break;
    case 1: stats(rest); break;
    default: claim(rest); break;
  }
  return 0;
}
