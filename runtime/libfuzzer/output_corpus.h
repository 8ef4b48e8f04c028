// Where the libFuzzer front end's new units go, as libFuzzer's: the first corpus directory
// on the command line is the run's output. A unit that joins the corpus is written there
// under the SHA-1 of its bytes (unit_name), so that processes sharing the directory (-jobs,
// -fork, another run) write one file for one input; with -reload=N, the units they wrote
// are read back every N seconds. Apart from the fuzz loop so that what reaches the disk
// can be tested alone.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

class OutputCorpus {
 public:
  // No directory: nothing is written or read back.
  OutputCorpus() = default;
  // `reload`: -reload's seconds (0 or less: never read back).
  OutputCorpus(std::filesystem::path dir, std::int64_t reload) : dir_(std::move(dir)), reload_(reload) {}

  // A unit file this run already has (from any corpus directory), by its file name: never
  // read back.
  void note(const std::string& file_name) { known_.insert(file_name); }

  // Writes a new unit `unit` as `file_name` (noted), if there is a directory; a run ended by
  // a signal leaves no torn file (write_unit). Throws std::string naming the file.
  void write(const std::string& file_name, const std::string& unit);

  // -reload: the units (file name, bytes) that appeared in the directory since the last
  // look and were not noted, each once. Looks when -reload's interval has passed and the
  // directory's modification time moved; else nothing.
  std::vector<std::pair<std::string, std::string>> take_new_units();

 private:
  using Clock = std::chrono::steady_clock;

  std::filesystem::path dir_;
  std::int64_t reload_ = 0;
  std::unordered_set<std::string> known_;  // file names in the directory
  std::filesystem::file_time_type mtime_{};
  Clock::time_point next_look_{};
};

}  // namespace fuzzer::cfuzz
