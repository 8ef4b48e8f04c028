#include "runtime/libfuzzer/libfuzzer_report.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

#include "core/input_area.h"
#include "core/sha1.h"
#include "corpus_format/codec.h"
#include "runtime/engine/fuzz_engine.h"
#include "runtime/failure/crash_handler.h"
#include "runtime/failure/input_limits.h"
#include "runtime/failure/malloc_limit.h"

namespace fuzzer::cfuzz {

namespace {

ArtifactSettings g_settings;
core::ShmView g_shm(nullptr, core::ShmGeometry{});
// The crash line's figures (set_libfuzzer_mutation_sequence).
constexpr const char* kNoBaseUnit = "0000000000000000000000000000000000000000";
const core::Mutator* g_mutator = nullptr;
const CmpWords* g_words = nullptr;
char g_base_unit[core::kSha1HexSize + 1] = "0000000000000000000000000000000000000000";
bool g_reported = false;  // a failure found while reporting one is not reported again

// A line built in a fixed buffer and written with one write(2).
class Line {
 public:
  Line& add(std::string_view s) {
    for (char c : s) {
      if (len_ < sizeof buf_) buf_[len_++] = c;
    }
    return *this;
  }
  Line& num(std::uint64_t v) {
    char tmp[24];
    int n = 0;
    do {
      tmp[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0) add(std::string_view(&tmp[--n], 1));
    return *this;
  }
  void write_to(int fd) {
    std::size_t off = 0;
    while (off < len_) {
      ssize_t n = ::write(fd, buf_ + off, len_ - off);
      if (n <= 0) break;
      off += static_cast<std::size_t>(n);
    }
    len_ = 0;
  }

 private:
  char buf_[1024];
  std::size_t len_ = 0;
};

void write_base64(int fd, const std::uint8_t* data, std::size_t size) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  Line l;
  l.add("Base64: ");
  for (std::size_t i = 0; i < size; i += 3) {
    std::uint32_t v = static_cast<std::uint32_t>(data[i]) << 16;
    if (i + 1 < size) v |= static_cast<std::uint32_t>(data[i + 1]) << 8;
    if (i + 2 < size) v |= data[i + 2];
    char out[4] = {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], i + 1 < size ? kAlphabet[(v >> 6) & 63] : '=',
                   i + 2 < size ? kAlphabet[v & 63] : '='};
    l.add(std::string_view(out, 4));
    if (i % 600 == 597) l.write_to(fd);
  }
  l.add("\n").write_to(fd);
}

const char* artifact_kind(const core::FailureRecord& r) {
  switch (static_cast<core::FailureKind>(r.kind)) {
    case core::FailureKind::Timeout: return "timeout-";
    case core::FailureKind::OutOfMemory: return "oom-";
    default: return std::string_view(r.detail).starts_with("LeakSanitizer") ? "leak-" : "crash-";
  }
}

// libFuzzer's ERROR and SUMMARY lines, where libFuzzer itself (not a sanitizer) reports.
void print_error_lines(const core::FailureRecord& r, int fd) {
  Line l;
  auto head = [&] { l.add("==").num(static_cast<std::uint64_t>(getpid())).add("== ERROR: "); };
  std::string_view summary;
  switch (static_cast<core::FailureKind>(r.kind)) {
    case core::FailureKind::Signal:
      head();
      l.add("libFuzzer: deadly signal\n");
      summary = "libFuzzer: deadly signal";
      break;
    case core::FailureKind::Timeout:
      l.add("ALARM: working on the last Unit for ").num(static_cast<std::uint64_t>(g_settings.timeout_secs));
      l.add(" seconds\n       and the timeout value is ").num(static_cast<std::uint64_t>(g_settings.timeout_secs));
      l.add(" (use -timeout=N to change)\n");
      head();
      l.add("libFuzzer: timeout after ").num(static_cast<std::uint64_t>(g_settings.timeout_secs)).add(" seconds\n");
      summary = "libFuzzer: timeout";
      break;
    case core::FailureKind::OutOfMemory:
      head();
      if (std::string_view(r.detail) == kMallocLimitDetail) {
        l.add("libFuzzer: out-of-memory (").add(r.message).add(")\n");
        l.add("   To change the out-of-memory limit use -rss_limit_mb=<N>\n\n");
        summary = "libFuzzer: out-of-memory";
        break;
      }
      l.add("libFuzzer: out-of-memory (used: ").num(watchdog_last_rss_mb()).add("Mb; limit: ");
      l.num(static_cast<std::uint64_t>(g_settings.rss_limit_mb)).add("Mb)\n");
      l.add("   To change the out-of-memory limit use -rss_limit_mb=<N>\n\n");
      summary = "libFuzzer: out-of-memory";
      break;
    case core::FailureKind::Exit:
      head();
      l.add("libFuzzer: fuzz target exited\n");
      summary = "libFuzzer: fuzz target exited";
      break;
    case core::FailureKind::Sanitizer: return;  // the sanitizer printed its report
    case core::FailureKind::Returned:
      if (std::string_view(r.detail) == kOverwritesConstInput) {
        head();
        l.add("libFuzzer: fuzz target overwrites its const input\n");
        summary = "libFuzzer: overwrites-const-input";
        break;
      }
      [[fallthrough]];
    default:
      // Failures libFuzzer has no word for: a failed check of a typed test, an exception
      // the runtime caught.
      head();
      l.add("cfuzz: fuzz target failed\n");
      summary = "cfuzz: fuzz target failed";
      break;
  }
  if (r.kind == static_cast<std::uint32_t>(core::FailureKind::Signal)) {
    l.write_to(fd);
    print_stack_trace(fd);  // libFuzzer prints the stack of a deadly signal too
    l.add("NOTE: libFuzzer has rudimentary signal handlers.\n");
    l.add("      Combine libFuzzer with AddressSanitizer or similar for better crash reports.\n");
  }
  // cfuzz's own one-line description: what, and where in the target.
  l.add("    ").add(r.kind == static_cast<std::uint32_t>(core::FailureKind::Signal) ? "deadly signal " : "");
  l.add(r.detail);
  if (r.message[0] != '\0') l.add(": ").add(std::string_view(r.message).substr(0, 300));
  if (r.site[0] != '\0') l.add(" at ").add(r.site);
  l.add("\nSUMMARY: ").add(summary).add("\n");
  l.write_to(fd);
}

}  // namespace

std::string unit_bytes(const core::InputAreaHeader& area, bool raw_unit) {
  if (raw_unit) {
    return std::string(reinterpret_cast<const char*>(core::ShmView::slot_data(area, 0)), area.slots[0].len);
  }
  return corpus::encode(core::load_entry(area));
}

void print_unit(int fd, const std::uint8_t* data, std::size_t size) {
  // libFuzzer prints units of up to 64 bytes (kMaxUnitSizeToPrint is larger, but long
  // units make unreadable logs; the artifact has them).
  if (size > 64) return;
  Line l;
  static const char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < size; ++i) {
    // libFuzzer's "0x%x,": no leading zero ("0xa," for a newline).
    char b[5] = {'0', 'x', kHex[data[i] >> 4], kHex[data[i] & 15], ','};
    if (data[i] < 16) {
      l.add(std::string_view(b, 2)).add(std::string_view(b + 3, 2));
    } else {
      l.add(std::string_view(b, 5));
    }
  }
  l.add("\n");
  for (std::size_t i = 0; i < size; ++i) {
    char e[4];
    l.add(std::string_view(e, escape_libfuzzer_byte(data[i], e)));
  }
  l.add("\n").write_to(fd);
}

std::size_t escape_libfuzzer_byte(std::uint8_t b, char out[4]) {
  static const char kHex[] = "0123456789abcdef";
  if (b == '\\' || b == '"') {
    out[0] = '\\';
    out[1] = static_cast<char>(b);
    return 2;
  }
  if (b >= 32 && b < 127) {
    out[0] = static_cast<char>(b);
    return 1;
  }
  out[0] = '\\';
  out[1] = 'x';
  out[2] = kHex[b >> 4];
  out[3] = kHex[b & 15];
  return 4;
}

int report_libfuzzer_failure(const core::FailureRecord& r) {
  bool timeout = r.kind == static_cast<std::uint32_t>(core::FailureKind::Timeout);
  bool oom = r.kind == static_cast<std::uint32_t>(core::FailureKind::OutOfMemory);
  int status = timeout ? g_settings.timeout_exitcode : oom ? 71 : g_settings.error_exitcode;
  if (g_reported) return status;
  g_reported = true;
  int fd = g_settings.report_fd;
  bool claims =
      !g_settings.claim_path.empty() && (!timeout || g_settings.claim_timeouts) && (!oom || g_settings.claim_ooms);
  if (claims) {
    int claim = ::open(g_settings.claim_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (claim < 0) {
      Line l;
      l.add("INFO: another process of this run reported a failure first; exiting\n").write_to(fd);
      return kReportedByAnotherExitCode;
    }
    ::close(claim);
  }
  print_error_lines(r, fd);

  char raw_name[core::kSha1HexSize + 1];
  std::string encoded;  // a typed test's unit
  const std::uint8_t* data;
  std::size_t size;
  const core::InputAreaHeader& current = g_shm.current();
  if (g_settings.raw_unit) {
    data = core::ShmView::slot_data(current, 0);
    size = current.slots[0].len;
  } else {
    encoded = unit_bytes(current, false);
    data = reinterpret_cast<const std::uint8_t*>(encoded.data());
    size = encoded.size();
  }
  core::sha1_hex(data, size, raw_name);
  Line l;
  if (std::string_view(artifact_kind(r)) == "leak-") {
    l.add("INFO: to ignore leaks on libFuzzer side use -detect_leaks=0.\n\n").write_to(fd);
  }
  // As libFuzzer: an input given as a file is not a unit of the run, and gets none of this.
  if (g_settings.save_artifacts) {
    char mutations[core::Mutator::kMaxSequence * 24 + 24] = "0 ";
    if (g_mutator != nullptr) g_mutator->describe_sequence(mutations, sizeof mutations);
    l.add("MS: ").add(mutations);
    // The words the chain of mutations used, as on a NEW line: ` DE: "word"-`.
    if (g_words != nullptr && g_words->chain_word_count() != 0) {
      l.add(" DE: ");
      for (std::size_t i = 0; i < g_words->chain_word_count(); ++i) {
        l.add("\"");
        for (char c : g_words->chain_word(i)) {
          char e[4];
          l.add(std::string_view(e, escape_libfuzzer_byte(static_cast<std::uint8_t>(c), e)));
        }
        l.add("\"-");
      }
    }
    l.add("; base unit: ").add(g_base_unit).add("\n");
    l.write_to(fd);
    print_unit(fd, data, size);
  }

  if (!g_settings.save_artifacts) {
    if (g_settings.final_stats != nullptr) g_settings.final_stats(fd);
    return status;
  }
  char path[4096];
  std::size_t n = 0;
  auto put = [&](std::string_view s) {
    for (char c : s) {
      if (n + 1 < sizeof path) path[n++] = c;
    }
  };
  if (!g_settings.exact_path.empty()) {
    put(g_settings.exact_path);
  } else {
    put(g_settings.prefix);
    put(artifact_kind(r));
    put(raw_name);
  }
  path[n] = '\0';
  int out = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out >= 0) {
    std::size_t off = 0;
    while (off < size) {
      ssize_t w = ::write(out, data + off, size - off);
      if (w <= 0) break;
      off += static_cast<std::size_t>(w);
    }
    ::close(out);
    l.add("artifact_prefix='").add(g_settings.prefix).add("'; Test unit written to ").add(path).add("\n");
  } else {
    l.add("ERROR: cannot write the test unit to ").add(path).add(": ").add(std::strerror(errno)).add("\n");
  }
  l.write_to(fd);
  write_base64(fd, data, size);
  if (g_settings.final_stats != nullptr) g_settings.final_stats(fd);
  return status;
}

void set_libfuzzer_mutation_source(const core::Mutator* mutator, const CmpWords* words, const char* base_sha1) {
  g_mutator = mutator;
  g_words = words;
  core::failure_set(g_base_unit, base_sha1 != nullptr ? base_sha1 : kNoBaseUnit);
}

void install_libfuzzer_report(const ArtifactSettings& settings, core::ShmView shm) {
  g_settings = settings;
  g_shm = shm;
  execution_state().report_failure = report_libfuzzer_failure;
}

}  // namespace fuzzer::cfuzz
