// What happens when the target kills its own process: a deadly signal (SIGSEGV, SIGBUS,
// SIGFPE, SIGILL, SIGABRT, SIGTRAP, stack overflow), a sanitizer report, an uncaught
// exception outside the fuzz function (std::terminate), or a call to exit().
//
// Before the process dies, the handlers describe the failure in a FailureRecord (in
// shared memory when serving a coordinator) and print one line naming the input that was
// running, so that even a crashing seed run says which seed it was.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

#include "core/failure_record.h"
#include "runtime/engine/engine_namespace.h"

namespace fuzzer::cfuzz {

struct ExecutionState {
  // Phase of the current input (core::Phase); shared memory in worker mode.
  std::atomic<std::uint32_t>* phase = nullptr;
  // Where death paths describe the failure; shared memory in worker mode.
  core::FailureRecord* record = nullptr;
  // "FuzzX/seed#1" while a standalone seed runs, for the dying words.
  const char* input_name = nullptr;
  bool worker = false;
  // Executions begun, for the watchdog (input_limits.h) to tell a hang from a stream of
  // fast inputs without a clock read per input. Only the executing thread writes it.
  std::atomic<std::uint64_t> started{0};
  // Set by the libFuzzer-style front end: prints libFuzzer's report of a failure and writes
  // the input as an artifact, in place of the dying words below; returns the exit status.
  // It must be safe to call from a signal handler.
  int (*report_failure)(const core::FailureRecord& r) = nullptr;
};

ExecutionState& execution_state();

// Installs the handlers. Deadly-signal handlers are installed only for signals that have
// no handler yet, so a sanitizer's own handlers (which print the better report) stay.
void install_crash_handlers();

// Marks the start and end of one execution of the fuzz function.
inline void begin_execution() {
  ExecutionState& st = execution_state();
  st.started.store(st.started.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  st.phase->store(1, std::memory_order_relaxed);
}
inline void end_execution() { execution_state().phase->store(0, std::memory_order_relaxed); }

// Fills the record's site with the innermost frames of the target's own code, as
// "module+0xoffset" words. Skips the runtime's frames and system libraries.
void describe_site_from_backtrace(core::FailureRecord& r);

// Writes the stack of the failure being handled to `fd`, one frame a line, as sanitizers
// write unsymbolized frames: "    #0 0x55d4b0470eb9 in (/path/to/target+0xaceb9)".
void print_stack_trace(int fd);

// Called when the process exits (exit() or _exit()): if an input is executing, that is its
// failure.
void note_exit(int status);

// Ends the process for a failure that no signal or sanitizer raised (a seed run's watchdog,
// a leak check): describes it as the running input's failure, says so, and exits (status 1;
// a worker's coordinator reads the record).
[[noreturn]] void fail_running_input(core::FailureKind kind, std::string_view detail, std::string_view message);

// Remembers the kind and location of an UndefinedBehaviorSanitizer report.
void note_ubsan_report();

// If UBSan reported while the last input executed (and let it go on), describes that as
// the input's failure and returns true.
bool take_ubsan_report(core::FailureRecord* r);

}  // namespace fuzzer::cfuzz
