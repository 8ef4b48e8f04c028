// Running this binary again as a child process, as libFuzzer's -merge, -minimize_crash,
// -cleanse_crash, -jobs and -fork do: the child runs one step, the parent survives
// whatever the target does to it.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

struct ChildResult {
  int exit_code = -1;  // the exit status, or 128 + the signal that killed it
  std::string output;  // stdout and stderr together, when captured
};

enum class ChildOutput {
  Inherit,  // the child writes where the parent does
  Capture,  // into ChildResult::output
  File,     // into `path`, stdout and stderr together
  Discard,  // /dev/null
};

// Runs this binary with argv (argv[0] is only its name) and waits for it.
ChildResult run_child(const std::vector<std::string>& argv, ChildOutput output, const std::string& path = "");

// Starts this binary with argv and `env` added to the environment ("NAME=value"), its
// output going to a file (File) or where the parent's goes (Inherit); -1 if it cannot.
pid_t start_child(const std::vector<std::string>& argv, ChildOutput output, const std::string& path,
                  const std::vector<std::string>& env = {});

// Waits for any child started so; returns its pid and sets `exit_code` as ChildResult's.
pid_t wait_any_child(int* exit_code);

// The argv this process was started with, minus the flags named in `drop` (`-merge`
// drops -merge=...), plus `add`.
std::vector<std::string> own_command(int argc, char** argv, const std::vector<std::string>& drop,
                                     const std::vector<std::string>& add);

}  // namespace fuzzer::cfuzz
