// `cfuzz cover ./target`: replays the whole corpus of one fuzz test (its f.add seeds,
// testdata/fuzz/<Name>/ and the cache) once and reports the source lines and functions it
// reaches: as text or JSON, and as a page (DIR/index.html) with the coverage-over-time
// plot of the runs recorded in the cache.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace cfuzz::driver {

struct CoverOptions {
  std::string target;
  std::string fuzz;
  std::string cachedir;
  bool shared_cache = false;  // the cache root may be another user's (cache_dir.h)
  std::string srcdir;         // testdata/fuzz/<Name>/ lives under it; relative source paths too
  std::string output;         // directory for index.html; empty: no page
  bool json = false;
  int parallel = 0;  // workers; 0: the number of CPUs
  std::chrono::milliseconds timeout{10000};
  std::uint64_t rss_limit_mb = 2048;
};

// Returns 0; throws std::runtime_error for what the user must fix (exit 2).
int cover_target(const CoverOptions& options);

}  // namespace cfuzz::driver
