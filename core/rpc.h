// The RPC protocol between the coordinator and a worker: JSON-RPC 2.0, one JSON object
// per line, on two pipes of their own (the worker reads requests on fd 3 and writes
// responses on fd 4; fd 5 is the shared memory). Calls are strictly sequential: the
// coordinator sends one request and waits for its response.
//
// Inputs, coverage and failure details are not in the messages: they live in shared
// memory (core/shm_layout.h), where they survive the worker's death.
//
// This header holds the messages as plain structs and enums, with no JSON in sight: the
// engine's hot path (runtime/engine/fuzz_engine.h) takes and returns them. Their JSON form, the
// envelopes and the encoding are in core/rpc_json.h, included only where messages are
// encoded or decoded.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cfuzz::core::rpc {

inline constexpr int kProtocolVersion = 1;
// The flag the coordinator runs a target with to learn its fuzz tests (the describe step).
inline constexpr const char* kDescribeFlag = "--cfuzz-describe";
// The flag the coordinator runs a target with as a worker: --cfuzz-worker=<Name>.
inline constexpr const char* kWorkerFlag = "--cfuzz-worker";
// Set to 1 in the environment of every process of a target that `cfuzz run --value-profile`
// starts: the runtime then counts the value profile's counters (runtime/engine/value_profile.h).
// "auto" (`--value-profile=auto`): it registers them, and counts them once a fuzz call asks.
inline constexpr const char* kValueProfileEnv = "CFUZZ_VALUE_PROFILE";
// Added to --cfuzz-worker=<Name> when inputs are to be checked for memory leaks.
inline constexpr const char* kDetectLeaksFlag = "--cfuzz-detect-leaks";
// Added to --cfuzz-worker=<Name> as --cfuzz-stack-limit-kb=N when the user gave a stack limit.
inline constexpr const char* kStackLimitFlag = "--cfuzz-stack-limit-kb";
// The flag `cfuzz cover` runs a target with to learn where each coverage counter sits in
// the code: the PC table (runtime/modes/pc_table.h).
inline constexpr const char* kPcTableFlag = "--cfuzz-pc-table";
// Descriptors in the worker, fixed like Go's (fuzz_in = 3, fuzz_out = 4, memory = 5).
inline constexpr int kRequestFd = 3;
inline constexpr int kResponseFd = 4;
inline constexpr int kShmFd = 5;
// Exit codes of a worker that gives up between executions (the target's own exits happen
// while an input is executing, which the coordinator sees in shared memory).
inline constexpr int kWorkerExitInternal = 70;  // as Go's: setup or protocol failure
inline constexpr int kWorkerExitRpcLost = 71;   // the target broke the RPC descriptors
// A message longer than this is a protocol error, not a reason to buffer forever.
inline constexpr std::size_t kMaxMessageBytes = 1 << 20;

// JSON-RPC error codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kServerError = -32000;
// The target's harness broke its contract (a custom mutator's size over max_size): the run
// cannot go on, and the message says why.
inline constexpr int kHarnessError = -32001;

// --- Methods -------------------------------------------------------------------------

// The methods, the statuses of their results, and the modes of "minimize". On the wire each
// is a string (core/rpc_json.h names them); a string that names none is a protocol error.
enum class Method { Ping, Fuzz, Exec, ExecBatch, Minimize };
enum class Status {
  Ok,
  Interesting,
  Failure,
  Skipped,  // exec: the input was out of the fuzz function's domains
  Done,     // minimize: no candidate is left
  Budget,   // minimize: the limit or the deadline was reached
};
enum class MinimizeMode {
  Failure,   // keep failing the same way
  Coverage,  // keep the coverage bits given in the mask
};

// Whether `method`'s result may have `status` (a fuzz call is never "done", ...). Ping's
// result has none: only Ok.
bool status_allowed(Method method, Status status);

// Arbitrary byte strings (dictionary words), raw in memory. A type of their own so that the
// JSON codec can give them an encoding of their own: JSON strings must be valid UTF-8.
struct ByteWords : std::vector<std::string> {
  using std::vector<std::string>::vector;
  ByteWords() = default;
  // Implicit, so that the words a dictionary holds can be assigned as they are.
  ByteWords(std::vector<std::string> words) : std::vector<std::string>(std::move(words)) {}
};

// "ping": the worker is up and has reached its fuzz function.
struct PingParams {};
struct PingResult {
  int protocol = kProtocolVersion;
  std::int64_t pid = 0;
  std::string test;
  std::vector<std::string> types;  // Go type names of the fuzz function's parameters
  std::uint64_t counters = 0;      // coverage counters in the target
};

// "fuzz": mutate the base input and run it until new coverage (against the mask in shared
// memory), a failure, `limit` executions or `deadline_ms`, whichever comes first.
struct FuzzParams {
  std::uint64_t seed = 0;         // PRNG seed for this call
  std::uint64_t limit = 0;        // most executions; 0 = no limit
  std::uint64_t deadline_ms = 0;  // most wall time; 0 = none
  std::uint64_t max_len = 0;      // longest byte value the mutator may produce
  // Check the RPC descriptors after every execution: used to replay a call during which
  // the target damaged them, to find the exact input that did it.
  bool paranoid = false;
  // Before mutating at random, try up to this many input-to-state replacements of the base
  // input (its comparison operands written where they occur): for an entry's first calls.
  std::uint64_t input_to_state = 0;
  // The first of them to try: the ones before it ran in earlier calls on this entry.
  std::uint64_t input_to_state_from = 0;
  // Words the mutator may insert: the user's dictionaries and the constants the target
  // was seen comparing with.
  ByteWords dictionary;
  // libFuzzer's -only_ascii: every mutated input is made of printable ASCII and spaces.
  bool only_ascii = false;
  // Count the value profile from this call on (core/value_profile_switch.h): once on in a
  // process, it stays on for everything the process runs after.
  bool value_profile = false;
};
struct FuzzResult {
  Status status = Status::Ok;  // Ok, Interesting or Failure
  std::uint64_t execs = 0;
  std::uint64_t duration_ns = 0;
  // For Interesting: new coverage bits.
  std::uint64_t new_bits = 0;
  // The mean time of one execution in this call.
  std::uint64_t exec_ns = 0;
  // Constants the target compared with during this call that were not in the dictionary
  // for the coordinator's automatic dictionary.
  ByteWords new_words;
  // For Interesting: the dictionary words the mutations that found it inserted.
  ByteWords useful_words;
  // Where the input-to-state stage stopped (the next call on the entry starts there), and
  // whether it got through all its candidates.
  std::uint64_t input_to_state_next = 0;
  bool input_to_state_done = false;
  // Executions the stage made in this call (of `execs`), counted against its share of the run.
  std::uint64_t input_to_state_execs = 0;
};

// "exec": run the base input once, unchanged (seeds, candidates, replays).
struct ExecParams {};
struct ExecResult {
  Status status = Status::Ok;  // Ok, Skipped or Failure
  std::uint64_t duration_ns = 0;
  std::uint64_t new_bits = 0;  // against the mask; the snapshot is in shared memory
};

// "exec_batch": run each input of the batch area once (core/exec_batch.h), as exec would,
// writing each one's features to the features area. Stops at the first failure (that input
// is then in the current area, its record in the header) or when the features area is full.
struct ExecBatchParams {
  std::uint64_t count = 0;  // inputs in the batch area
};
struct ExecBatchResult {
  Status status = Status::Ok;  // Ok or Failure
  std::uint64_t done = 0;      // inputs run and recorded; with Failure, the failing one's index
};

// The describe handshake: what `target --cfuzz-describe` writes, one JSON line.
struct DescribedTest {
  std::string name;
  std::string error;               // the test body failed before f.fuzz (then no types)
  std::vector<std::string> types;  // Go's type names, in parameter order
  std::vector<std::string> seeds;  // f.add values, as v1 files ("" for no values)
  // The shapes of typed values (core/value_shape.h), "" for Go's types; empty when none.
  std::vector<std::string> shapes;
};
struct DescribeReply {
  int protocol = 0;
  std::uint64_t counters = 0;  // SanitizerCoverage counters of all modules
  std::uint64_t modules = 0;
  std::string srcdir;  // the root of testdata/fuzz/ the target uses
  std::vector<DescribedTest> tests;
  bool source_coverage = false;  // also built with clang's -fprofile-instr-generate
};

// The failure a minimization must preserve.
struct FailureSignature {
  std::uint32_t kind = 0;
  std::int32_t exit_code = 0;
  std::string detail;
  std::string site;
};

// "minimize": shrink the base input while it keeps failing the same way (Failure) or keeps
// the coverage bits given in the mask area (Coverage). The best input so far is
// kept in the `best` area, the minimizer's position in the header.
struct MinimizeParams {
  MinimizeMode mode = MinimizeMode::Failure;
  std::uint64_t limit = 0;
  std::uint64_t deadline_ms = 0;
  std::array<std::uint64_t, 6> state{};  // where to resume (all zero: from the start)
  std::optional<bool> resume_verdict;    // verdict on the candidate that killed the last worker
  FailureSignature target;               // for MinimizeMode::Failure
};
struct MinimizeResult {
  Status status = Status::Done;  // Done, Budget (limit or deadline reached), Failure (a new,
                                 // different failure, found while minimizing coverage: in `current`)
  std::uint64_t execs = 0;
  std::uint64_t duration_ns = 0;
  bool improved = false;
};

// --- Framing ---------------------------------------------------------------------------

class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A well-formed request for a method this side does not know: answered with
// kMethodNotFound, where other malformed requests end the worker.
class UnknownMethod : public ProtocolError {
 public:
  UnknownMethod(std::uint64_t id, const std::string& name) : ProtocolError("unknown method " + name), id_(id) {}
  std::uint64_t id() const { return id_; }

 private:
  std::uint64_t id_;
};

// Splits a byte stream into lines. Bytes arrive in any chunks; complete lines come out.
class LineBuffer {
 public:
  void append(const char* data, std::size_t n) { buf_.append(data, n); }
  // The next complete line (without its newline), if any. Throws ProtocolError when more
  // than kMaxMessageBytes arrive without a newline.
  std::optional<std::string> next_line();
  bool empty() const { return buf_.empty(); }

 private:
  std::string buf_;
};

// Writes all of `data` to `fd`, retrying on EINTR and short writes. False on error.
bool write_all(int fd, std::string_view data);

}  // namespace cfuzz::core::rpc
