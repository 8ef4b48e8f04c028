// Where a failing input found while fuzzing is written, and the command that runs it
// again: SRCDIR/testdata/fuzz/<Name>/<content name>, as Go writes it. A finding is never
// lost: when testdata/ cannot take it (read-only, a directory in the way), it goes to a
// fallback tree beside the cache, laid out like a source directory so that the re-run
// command works, and the report carries the input itself. Runs sharing the cache that find
// the same failure write one reproducer between them (failure_claim.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "corpus_format/value.h"
#include "libfuzzdriver/report/reporter.h"

namespace cfuzz::driver {

class ReproducerFiles {
 public:
  struct Settings {
    std::string test;         // the fuzz test's name
    std::string command;      // the target as the user named it, to start the re-run command
    std::string srcdir;       // the target's source directory, which holds testdata/
    std::string srcdir_flag;  // --srcdir as the user gave it, repeated in the re-run command
    std::string cache_root;   // the cache root, below which the fallback tree follows no link
    std::string cache_dir;    // the test's cache directory: the claims and the fallback tree are beside it
    std::chrono::system_clock::time_point run_start;  // for claims shared with other runs
    // The limits that caught a hang or a memory failure, which its re-run carries (a seed
    // run has none unless told).
    std::chrono::milliseconds timeout{10000};
    std::uint64_t rss_limit_mb = 2048;
    std::optional<std::uint64_t> stack_limit_kb;
  };
  explicit ReproducerFiles(Settings s) : s_(std::move(s)) {}

  // Saves `input`, which failed as r->failure says, and fills in r: where it went
  // (written_to), the re-run command, and when testdata/ refused it, why and the input.
  void save(const corpus::Entry& input, FailureReport* r) const;

 private:
  // The command that runs the file `name` of SRCDIR/testdata/fuzz/<test>/ alone.
  std::string rerun_command(const std::string& name, const std::string& srcdir) const;
  // Writes the input under SRCDIR/testdata/fuzz/<test>/; returns the path to show. With
  // `confine_below`, no symbolic link below it is followed.
  std::string write(const corpus::Entry& input, const std::string& srcdir, std::string* rerun,
                    const std::string& confine_below = {}) const;
  std::string limit_flags(const core::FailureRecord& f) const;

  Settings s_;
};

}  // namespace cfuzz::driver
