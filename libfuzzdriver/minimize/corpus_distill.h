// `cfuzz corpus minimize` (libFuzzer's -merge=1, AFL's afl-cmin): the smallest set of
// entries, preferring small and fast ones, that keeps all the coverage of a corpus.
//
// Every input runs once in a worker; its coverage is a set of features (counter, hit-count
// bucket). For each feature the smallest (then fastest) input reaching it is chosen, as
// afl-cmin does; then chosen inputs whose features the others already cover are dropped,
// largest first. Inputs that fail are reported and left out.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace cfuzz::driver {

struct DistillOptions {
  std::string target;
  std::string fuzz;
  std::vector<std::string> inputs;  // directories (their regular files) and files
  std::string output;               // directory to write the kept entries to
  bool raw = false;                 // inputs are raw bytes for a single []byte/string test
  int parallel = 0;                 // workers; 0: the number of CPUs
  std::chrono::milliseconds timeout{10000};
  std::uint64_t rss_limit_mb = 2048;
  bool json = false;
};

// Returns 0; throws std::runtime_error for usage errors (exit 2).
int distill_corpus(const DistillOptions& options);

}  // namespace cfuzz::driver
