// What the libFuzzer-style front end prints and writes when an input fails, line for line
// where OSS-Fuzz and ClusterFuzz parse it:
//
//   ==PID== ERROR: libFuzzer: deadly signal | timeout after N seconds |
//                  out-of-memory (used: NMb; limit: NMb) | fuzz target exited
//   SUMMARY: libFuzzer: ...
//   MS: N Mutation-...; base unit: <sha1>   (not for inputs given as files)
//   0x41,0x42,...                            the unit, and as text
//   artifact_prefix='PREFIX'; Test unit written to PREFIXcrash-<sha1>
//   Base64: ...
//
// and the exit status libFuzzer would end with. A sanitizer's own report (ASan, UBSan,
// LeakSanitizer) stands in for the ERROR line, as it does under libFuzzer. Everything here
// may run in a signal handler: nothing allocates, except encoding a typed test's input as
// `go test fuzz v1` text.
#pragma once

#include <cstdint>
#include <string>

#include "core/failure_record.h"
#include "core/mutator.h"
#include "core/shm_layout.h"
#include "runtime/engine/cmp_words.h"
#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

struct ArtifactSettings {
  std::string prefix;      // -artifact_prefix
  std::string exact_path;  // -exact_artifact_path
  int error_exitcode = 77;
  int timeout_exitcode = 70;
  std::int64_t timeout_secs = 0;
  std::int64_t rss_limit_mb = 0;
  int report_fd = 2;                      // stderr, kept open when -close_fd_mask closes it
  bool raw_unit = true;                   // false: the unit is the input's `go test fuzz v1` text
  bool save_artifacts = true;             // false when running given files, as libFuzzer does
  void (*final_stats)(int fd) = nullptr;  // -print_final_stats, after the artifact
  // Under -jobs and -fork: a file the first failing process creates, so that a failure
  // found by several at once is reported once. Timeouts and out-of-memory claim it only
  // when they stop the run (-ignore_timeouts=0, -ignore_ooms=0).
  std::string claim_path;
  bool claim_timeouts = true;
  bool claim_ooms = true;
};

// The environment variable through which -jobs and -fork give their children claim_path.
inline constexpr const char* kFailureClaimEnv = "CFUZZ_FAILURE_CLAIM";
// The exit status of a child that found a failure another child had reported first.
inline constexpr int kReportedByAnotherExitCode = 72;

// From now on, failures are reported libFuzzer's way and the failing input (what is in
// `shm`'s current area) is written as an artifact.
void install_libfuzzer_report(const ArtifactSettings& settings, core::ShmView shm);

// What the crash line "MS: N Name-... DE: "word"-; base unit: <sha1>" says about the input
// being run: the mutations `mutator` made since its sequence began and the words `words`
// says the chain used, from the unit `base_sha1` (40 hex digits, copied), or (null, null,
// null) for a unit run as it is (a seed: "MS: 0 ; base unit: 000...").
void set_libfuzzer_mutation_source(const core::Mutator* mutator, const CmpWords* words, const char* base_sha1);

// Reports a failure that did not end the process (a failed check, an exception the runtime
// caught, a UBSan report that let the input go on); returns the exit status.
int report_libfuzzer_failure(const core::FailureRecord& r);

// The bytes of a unit: the raw bytes of a []byte or string test, else v1 text.
std::string unit_bytes(const core::InputAreaHeader& area, bool raw_unit);

// The unit with libFuzzer's output spelling: "0x41,0xa," and the escaped text.
void print_unit(int fd, const std::uint8_t* data, std::size_t size);

// One byte as libFuzzer prints units and dictionary words: printable ASCII as it is, `\\`
// and `\"`, anything else `\xNN`. (clang 14's libFuzzer wrote octal `\NNN` there; later
// ones write hex, which is also what their -dict parser reads back, and ClusterFuzz feeds
// the recommended dictionary back as -dict.) Writes 1 to 4 chars to `out`; returns how many.
std::size_t escape_libfuzzer_byte(std::uint8_t b, char out[4]);

}  // namespace fuzzer::cfuzz
