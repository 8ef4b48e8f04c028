// Child processes: spawning the target with chosen descriptors in place, and ending it.
//
// Every descriptor the coordinator opens is close-on-exec, so a worker started by one
// thread never inherits another worker's pipes; the child places the ones it should have
// at their fixed numbers. Each child leads its own process group (so that its own children
// are killed with it), and dies with the thread that started it (PR_SET_PDEATHSIG), so a
// coordinator killed outright leaves nothing behind.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace cfuzz::driver {

struct SpawnSpec {
  std::string program;
  std::vector<std::string> args;  // without argv[0]
  // Extra environment entries ("NAME=value"), overriding the inherited environment.
  std::vector<std::string> env;
  // Descriptors to place in the child: {source fd in the parent, fd number in the child}.
  // stdin is /dev/null unless mapped.
  std::vector<std::pair<int, int>> fds;
  std::string cwd;  // empty: the parent's
};

class Process {
 public:
  Process() = default;
  ~Process();  // kills and reaps a still-running child
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  Process(Process&& other) noexcept;
  Process& operator=(Process&& other) noexcept;

  // Throws std::runtime_error naming the program when it cannot be started.
  static Process spawn(const SpawnSpec& spec);

  pid_t pid() const { return pid_; }
  bool running() const { return pid_ > 0 && !reaped_; }

  // SIGKILL to the child's whole process group.
  void kill_group();
  void signal(int sig);

  // Non-blocking: true once the child has exited (status() is then valid).
  bool poll_exit();
  // Blocks until the child exits.
  void wait();
  int status() const { return status_; }  // as from waitpid
  bool reaped() const { return reaped_; }

  // Resident set size in MiB, from /proc; 0 if unknown.
  std::uint64_t rss_mb() const;

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
};

// Runs a program to completion and returns what it wrote on stdout, or on descriptor
// `capture_fd` (stdout is then discarded too); stderr is discarded. Throws
// std::runtime_error if it cannot start; kills it after `timeout`.
std::string run_and_capture(SpawnSpec spec, std::chrono::milliseconds timeout, int* status = nullptr,
                            int capture_fd = 1);

// The full path of a program found in $PATH, or empty.
std::string find_in_path(const std::string& name);

// "exit status 3", "signal SIGSEGV", ...
std::string describe_status(int status);

// A pipe with both ends close-on-exec: {read end, write end}.
std::pair<int, int> make_pipe();

void set_nonblocking(int fd);

}  // namespace cfuzz::driver
