// How a failure is described between the worker and the coordinator.
//
// The worker fills a FailureRecord in shared memory at the moment it sees the failure:
// when the fuzz function reports an error, when an exception escapes, and from inside the
// deadly-signal handler or the sanitizer's death callback, just before the process dies.
// Plain fixed-size fields, so that writing it is async-signal-safe. The coordinator adds
// the kinds only it can see (timeouts, memory limit, a corrupted RPC channel, exit statuses).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cfuzz::core {

enum class FailureKind : std::uint32_t {
  None = 0,
  Returned,      // t.error / t.fatal / t.fail in the fuzz function
  Exception,     // a C++ exception escaped the fuzz function
  Signal,        // a deadly signal: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, stack overflow
  Sanitizer,     // an AddressSanitizer, UndefinedBehaviorSanitizer or ThreadSanitizer report
  Exit,          // the target called exit() or _exit()
  Timeout,       // one input ran longer than --timeout (seen by the coordinator)
  OutOfMemory,   // the worker's RSS went past --rss-limit-mb (seen by the coordinator)
  RpcCorrupted,  // the target closed, replaced or wrote to the RPC descriptors
  StackLimit,    // the fuzz function used more stack than --stack-limit-kb
  // (failure_from_worker takes a kind past the last one for damage to shared memory)
};

std::string_view failure_kind_name(FailureKind k);

// The `current` input is exactly the one that failed. Set for RpcCorrupted when the worker
// caught the damage right after the execution that did it (it cannot know otherwise).
inline constexpr std::uint32_t kFailureExactInput = 1;
// The target's custom mutator failed, not an execution: `current` is the input it was
// mutating, which the fuzz target itself may well pass.
inline constexpr std::uint32_t kFailureInCustomMutator = 2;
// Not a failure of the target: a value of the input is out of its domain (cfuzz/domains.h),
// so the fuzz function was not called. A seed or testdata file fails for it; a cache file
// is skipped.
inline constexpr std::uint32_t kFailureOutOfDomain = 4;

struct FailureRecord {
  std::uint32_t kind;      // FailureKind
  std::int32_t signal;     // the signal, for Signal (and sanitizer reports on a signal)
  std::int32_t exit_code;  // for Exit
  std::uint32_t flags;     // kFailureExactInput, ...
  // What failed, in a few words: the signal name, the sanitizer's error type
  // ("heap-buffer-overflow"), the exception's type.
  char detail[128];
  // Where it failed, to tell one bug from another: "file.cc:12" for a returned failure,
  // otherwise the innermost frames of the target's own code as "module+0xoffset" words.
  char site[384];
  // The failure message (t.error text, exception what()), truncated.
  char message[3072];
};

// Async-signal-safe setters (no allocation, no locale): copy with truncation.
void failure_set_text(char* field, std::size_t field_size, std::string_view text);
template <std::size_t N>
void failure_set(char (&field)[N], std::string_view text) {
  failure_set_text(field, N, text);
}
void failure_clear(FailureRecord& r);

// A copy of a record that a worker wrote into shared memory, made safe to read: the target
// may have written over it, so every text ends within its field, holds no control
// characters, and an unknown kind becomes a corrupted-channel failure.
FailureRecord failure_from_worker(const FailureRecord& shared);

// The one rule for "the same bug": kind and detail agree, an exit's code too, and the
// function of the failing site, except for a stack overflow, which strikes wherever the
// stack runs out. `failure_signature` is that as a key (--keepfuzzing saves one input per
// key; runs sharing a cache claim one reproducer per key). `same_failure` also accepts a
// record that does not know its site (minimization compares with what it first saw).
std::string failure_signature(const FailureRecord& r);
bool same_failure(const FailureRecord& a, const FailureRecord& b);

// One line: "deadly signal SIGSEGV at target+0x1234", "AddressSanitizer: heap-buffer-overflow
// at ...", "parse.cc:12: ...". Without `with_site`, the " at ..." part is left out.
std::string failure_summary(const FailureRecord& r, bool with_site = true);

}  // namespace cfuzz::core
