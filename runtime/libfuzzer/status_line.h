// libFuzzer's status lines, "#N\tNEW    cov: C ft: F corp: U/S lim: L exec/s: E rss: RMb",
// byte for byte as libFuzzer prints them: ClusterFuzz and OSS-Fuzz's tools parse them (the
// engine's executions, its coverage, its corpus), and so do users' scripts. Apart from the
// front end so that their format is one function a test can hold to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

// What a status line says.
struct StatusFigures {
  std::uint64_t execs = 0;
  std::size_t cov = 0;           // the modules' counters reached; 0: no "cov:"
  std::size_t ft = 0;            // the features (every bit of the mask); 0: no "ft:"
  std::size_t corpus_units = 0;  // 0: no "corp:"
  std::uint64_t corpus_bytes = 0;
  std::uint64_t len_limit = 0;  // -len_control's limit; 0: no "lim:"
  std::uint64_t seconds = 0;    // since the start; exec/s is 0 in the first second
  std::uint64_t rss_mb = 0;
};

// "#N\tWHAT..." for a `what` as libFuzzer pads it ("NEW   ", "pulse ", "DONE  ", "INITED",
// "RELOAD"), then `extra` (a NEW line's " L: 4/4096 MS: ..."). The INITED line has no
// "lim:": libFuzzer sets its limit after printing it.
std::string status_line(std::string_view what, const StatusFigures& f, std::string_view extra = "");

// A size as libFuzzer writes it: bytes below 16 KiB ("16383b"), then Kb, then from 16 MiB Mb.
std::string size_text(std::uint64_t bytes);

// The process's peak resident set, in MB (libFuzzer's "rss:").
std::uint64_t peak_rss_mb();

// libFuzzer's cov: of a coverage mask of `n` counters in the coverage registry's order, the
// modules' counters set; the runtime's own (stack depth, value profile) are features only.
std::size_t covered_module_counters(const std::uint8_t* mask, std::size_t n);

// libFuzzer's pulse: a status line at every power of two of the executions (with
// -verbosity, once the run is 2 s old). A fuzz call is cut to stop at the next one, so that
// the line comes at that count.
class Pulse {
 public:
  // The first pulse is the first power of two above `execs`.
  explicit Pulse(std::uint64_t execs);
  std::uint64_t next() const { return next_; }
  // A call's execution limit (0: none) cut so that it ends at the next pulse at the latest.
  std::uint64_t call_limit(std::uint64_t limit, std::uint64_t execs) const;
  // True when the run is at a pulse's count exactly; from `execs` on, the next pulse is the
  // power of two above. A count that jumped past a pulse (a shrink) skips that pulse.
  bool reached(std::uint64_t execs);

 private:
  std::uint64_t next_ = 1;
};

}  // namespace fuzzer::cfuzz
