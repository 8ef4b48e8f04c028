// Running every input of a corpus once, spread over workers, and collecting what each one
// reached: what `cfuzz corpus minimize` chooses from and what `cfuzz cover` reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "corpus_format/value.h"
#include "libfuzzdriver/worker/target_info.h"
#include "libfuzzdriver/worker/worker.h"

namespace cfuzz::driver {

struct ReplayResult {
  bool ran = false;     // false: a worker broke down for reasons of its own; no verdict
  bool failed = false;  // the input fails: `failure` says how, and `features` is empty
  std::string failure;
  std::uint64_t exec_ns = 0;
  std::vector<std::uint32_t> features;  // counter index * 8 + hit-count bucket bit
};

struct ReplaySetup {
  std::vector<std::string> env;  // the workers' environment
  std::chrono::milliseconds timeout{10000};
  std::uint64_t rss_limit_mb = 2048;
  int parallel = 0;  // workers; 0: the number of CPUs
  // How long a worker may take to exit once the corpus is done: longer when it writes a
  // source-coverage profile, which would be lost if it were killed.
  std::chrono::milliseconds exit_grace{1000};
};

// Runs each of `inputs` once in workers serving `test`. One result per input, in order.
// Throws std::runtime_error when a worker cannot start at all.
std::vector<ReplayResult> replay_corpus(const TargetInfo& target, const TestInfo& test,
                                        const std::vector<corpus::Entry>& inputs, const ReplaySetup& setup);

}  // namespace cfuzz::driver
