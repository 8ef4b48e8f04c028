// Runs one input of a seed run (or a worker) in a forked child, as the runtime runs a fuzz
// function: the execution state's phase and failure record in shared memory (as a worker's
// are), the child's standard error in a pipe. What the crash handler or the watchdog wrote
// before the child died is read back in the parent.
#pragma once

#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "core/failure_record.h"
#include "runtime/failure/crash_handler.h"

namespace fuzzer::cfuzz::testing {

struct SharedState {
  std::atomic<std::uint32_t> phase;
  core::FailureRecord record;
};

struct ChildOutcome {
  int status = 0;       // as waitpid returns it
  std::string stderr_;  // everything the child wrote to fd 2
  core::FailureRecord record{};

  bool exited_with(int code) const { return WIFEXITED(status) && WEXITSTATUS(status) == code; }
  bool killed_by(int sig) const { return WIFSIGNALED(status) && WTERMSIG(status) == sig; }
  core::FailureKind kind() const { return static_cast<core::FailureKind>(record.kind); }
};

struct ChildOptions {
  bool worker = false;                      // a worker dies of the signal; a seed run exits 1
  const char* input_name = "FuzzX/seed#1";  // the seed named in the dying words
  bool begin_execution = true;              // run `body` as an executing input
  // The test fails (the child dies of SIGALRM) rather than hangs if nothing ends the child.
  unsigned alarm_seconds = 60;
};

// Forks; the child installs the crash handlers and runs `setup` (before the input begins)
// and `body` (as the running input), then exits with status 0 if both return.
template <class Setup, class Body>
ChildOutcome run_in_child(const ChildOptions& options, Setup setup, Body body) {
  void* mem = ::mmap(nullptr, sizeof(SharedState), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    ADD_FAILURE() << "mmap failed";
    return {};
  }
  auto* shared = new (mem) SharedState{};
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) {
    ADD_FAILURE() << "pipe failed";
    ::munmap(mem, sizeof(SharedState));
    return {};
  }
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(options.alarm_seconds);
    ::dup2(pipe_fds[1], 2);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    ExecutionState& st = execution_state();
    st.phase = &shared->phase;
    st.record = &shared->record;
    st.worker = options.worker;
    st.input_name = options.input_name;
    install_crash_handlers();
    // noexcept: an exception that escapes the input reaches std::terminate, as it does in
    // the runtime, instead of GoogleTest's handler (which would go on with the next test in
    // the child).
    [&]() noexcept {
      setup();
      if (options.begin_execution) begin_execution();
      body();
      end_execution();
    }();
    ::syscall(SYS_exit_group, 0);
  }
  ::close(pipe_fds[1]);
  ChildOutcome out;
  if (pid < 0) {
    ADD_FAILURE() << "fork failed";
    ::close(pipe_fds[0]);
    ::munmap(mem, sizeof(SharedState));
    return out;
  }
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(pipe_fds[0], buf, sizeof buf);
    if (n > 0) {
      out.stderr_.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      break;
    }
  }
  ::close(pipe_fds[0]);
  while (::waitpid(pid, &out.status, 0) < 0 && errno == EINTR) {
  }
  out.record = shared->record;
  ::munmap(mem, sizeof(SharedState));
  return out;
}

template <class Body>
ChildOutcome run_in_child(const ChildOptions& options, Body body) {
  return run_in_child(
      options, [] {}, body);
}

inline std::string describe(const ChildOutcome& out) {
  std::string s = "status ";
  if (WIFEXITED(out.status)) {
    s += "exit " + std::to_string(WEXITSTATUS(out.status));
  } else if (WIFSIGNALED(out.status)) {
    s += "signal " + std::to_string(WTERMSIG(out.status));
  } else {
    s += std::to_string(out.status);
  }
  s += ", kind " + std::to_string(out.record.kind) + ", detail \"" + out.record.detail + "\", site \"" +
       out.record.site + "\", message \"" + out.record.message + "\", stderr:\n" + out.stderr_;
  return s;
}

}  // namespace fuzzer::cfuzz::testing
