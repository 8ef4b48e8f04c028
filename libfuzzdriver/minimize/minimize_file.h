// `cfuzz minimize FILE --target ./target`: shrink one failing input by hand, keeping the
// failure the same (same kind, same message or crash site where comparable), in a worker
// process of the target, as `cfuzz run` shrinks the failures it finds.
#pragma once

#include <chrono>
#include <string>

#include "libfuzzdriver/util/budget.h"

namespace cfuzz::driver {

struct MinimizeFileOptions {
  std::string input;  // a v1 corpus file, or a raw file with `raw`
  std::string target;
  std::string fuzz;    // regexp selecting the fuzz test; empty: the only one
  std::string output;  // default: <input>.min
  bool raw = false;    // the input (and output) are raw bytes for a single []byte/string test
  Budget budget = Budget{std::chrono::seconds(60), std::nullopt};
  std::chrono::milliseconds timeout{10000};
  std::uint64_t rss_limit_mb = 2048;
  bool json = false;
};

// Returns 0 when a failing input no larger than the original was written, 1 when the
// input does not fail at all; throws std::runtime_error for usage errors (exit 2).
int minimize_file(const MinimizeFileOptions& options);

}  // namespace cfuzz::driver
