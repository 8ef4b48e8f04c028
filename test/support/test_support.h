// What the end-to-end tests share: running the real binaries and looking at the results
// (and, from test/support/, the temporary directories and file helpers every test uses).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test/support/files.h"     // read_file, write_file, files_in
#include "test/support/temp_dir.h"  // TempDir

namespace cfuzz::test {

// Where CMake put things (set by test/CMakeLists.txt).
std::string bin_dir();                        // build/bin: cfuzz, cfuzz-clang++
std::string targets_dir();                    // build/test/targets
std::string source_dir();                     // the repository
std::string cfuzz();                          // build/bin/cfuzz
std::string target(const std::string& name);  // build/test/targets/<name>

struct CommandResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  bool timed_out = false;
  std::string out, err;
  std::string all() const { return out + err; }
};

struct CommandOptions {
  std::string cwd;
  std::vector<std::string> env;  // "NAME=value" added to the environment
  std::chrono::seconds timeout{300};
};

CommandResult run(const std::vector<std::string>& argv, const CommandOptions& options = {});

// A command running in the background, its output going to files.
class Background {
 public:
  Background(const std::vector<std::string>& argv, const CommandOptions& options = {});
  ~Background();
  pid_t pid() const;
  void signal(int sig);
  // Waits for the command to end (killing it after `timeout`) and collects its output.
  CommandResult wait(std::chrono::seconds timeout = std::chrono::seconds(300));
  // What it has written to stdout so far.
  std::string out_so_far() const;
  // Waits until stdout holds `text`, for at most `within`; whether it came.
  bool wait_for_output(const std::string& text, std::chrono::milliseconds within) const;

 private:
  struct Impl;
  Impl* impl_;
};

// Processes (other than zombies) whose executable is `exe` and that this test process
// started, directly or not (orphans included: the test process is their subreaper).
std::vector<pid_t> processes_running(const std::string& exe);

// The text after `prefix` up to the end of that line, in `text`; empty if absent.
std::string line_after(const std::string& text, const std::string& prefix);

// Every line of a --json run's output, parsed (the test fails on one that is not JSON).
std::vector<nlohmann::json> json_lines(const std::string& out);

// The last `--json` line of `out` whose "event" is `event`; null if there is none.
nlohmann::json last_event(const std::string& out, const std::string& event);

}  // namespace cfuzz::test
