// One worker process, seen from the coordinator: spawning it with its pipes and shared
// memory, making one RPC call at a time, watching it while the call runs (a hang past the
// per-input timeout, memory past the RSS limit, death, garbage on the pipe), and telling
// what a death means: a failure caused by the input that was executing, or not.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/failure_record.h"
#include "core/rpc.h"
#include "corpus_format/value.h"
#include "libfuzzdriver/util/process.h"
#include "libfuzzdriver/worker/shared_memory.h"
#include "libfuzzdriver/worker/worker_growth.h"

namespace cfuzz::driver {

struct WorkerConfig {
  std::string target;  // absolute path of the target binary
  std::string test;    // the fuzz test to serve
  std::vector<std::string> env;
  std::vector<corpus::Type> types;
  std::chrono::milliseconds timeout{10000};  // per input
  std::uint64_t rss_limit_mb = 2048;         // 0: no limit
  std::uint64_t growth_limit_mb = 0;         // replace past this growth (worker_growth.h); 0: never
  std::chrono::milliseconds max_age{0};      // replace at this age (worker_growth.h); 0: never
  std::uint64_t slot_capacity = 1 << 20;
  std::uint64_t counters = 0;
  bool detect_leaks = false;                    // check inputs for memory leaks (needs LeakSanitizer in the target)
  std::optional<std::uint64_t> stack_limit_kb;  // none: the target's default
};

// What every worker session fills alike: the test of the target it serves, its types and
// counters, and the sanitizers' environment (with leak checks when `detect_leaks`). The
// caller adds its limits and slot size.
struct TargetInfo;
struct TestInfo;
WorkerConfig worker_config_for(const TargetInfo& target, const TestInfo& test, bool detect_leaks = false);

struct CallOutcome {
  enum class Kind {
    Ok,             // the worker answered with a result of the method's type
    Error,          // the worker answered with a JSON-RPC error (a bug, or a bad request)
    Died,           // the worker died or was killed during the call
    ProtocolError,  // the worker wrote something that is not a response to this call
  };
  Kind kind = Kind::Ok;
  std::string error;   // for Error, Died and ProtocolError: what happened, in a few words
  int error_code = 0;  // for Error: the JSON-RPC error code (rpc::kHarnessError, ...)
  // The shared memory's layout was not as the coordinator made it when the call ended: the
  // target wrote over it (it is put back before anything else reads the region).
  bool layout_damaged = false;

  // Whether the input executing when the call ended failed, and how: an answer whose
  // status is "failure" (the failure as the worker recorded it in shared memory), or a
  // death the input caused (Died, ProtocolError). `failure` is refined with what a
  // sanitizer printed. When the target broke the RPC channel somewhere during a call of
  // many executions, `failure` is RpcCorrupted and `exact_input` is false: the coordinator
  // replays the call to find the input.
  bool input_fault = false;
  bool exact_input = true;
  core::FailureRecord failure{};
  core::rpc::Status status = core::rpc::Status::Ok;  // Ok: the result's status (Ok for ping)
  std::uint64_t execs = 0;                           // executions the call made before it ended

  // What the call says of its input: the one rule for every method and every way a call
  // ends. OutOfDomain: a single execution of values the fuzz function's domains exclude (a
  // failure for a seed, a skip for anything else). NotTheInput: an error answer, or a
  // worker lost to something else (killed from outside, stuck outside the fuzz function).
  enum class Verdict { Fine, Interesting, Failed, OutOfDomain, NotTheInput };
  Verdict verdict() const {
    if (input_fault) return (failure.flags & core::kFailureOutOfDomain) != 0 ? Verdict::OutOfDomain : Verdict::Failed;
    if (kind != Kind::Ok) return Verdict::NotTheInput;
    return status == core::rpc::Status::Interesting ? Verdict::Interesting : Verdict::Fine;
  }
};

// A call of one method: how it ended and, when the worker answered (Kind::Ok), its result.
template <class Result>
struct Reply : CallOutcome {
  Result result{};
};

class Worker {
 public:
  Worker(int index, WorkerConfig config);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Spawns the process and waits for its ping. Throws std::runtime_error when the worker
  // cannot start (its last output lines in the message).
  void start();
  bool running() const { return process_.running(); }
  // Asks the worker to exit (closes its request pipe); kills it if it has not exited after
  // `grace` (a worker writing a source-coverage profile at exit needs longer than one that
  // only exits).
  void stop(std::chrono::milliseconds grace = std::chrono::milliseconds(1000));
  void kill();

  // Between calls: whether the worker has grown more than `growth_limit_mb` past its size
  // after its first call, or reached `max_age` (worker_growth.h), and is to be replaced by a
  // fresh one. Measured after the first call and then at most once a second; false in
  // between.
  bool outgrown();
  // Its resident memory after its first call, and now, in MiB; the time since it started.
  std::uint64_t first_call_rss_mb() const { return growth_.base_mb(); }
  std::uint64_t rss_mb() const { return process_.rss_mb(); }
  WorkerGrowth::Clock::duration age() const { return growth_.age(WorkerGrowth::Clock::now()); }

  int index() const { return index_; }
  pid_t pid() const { return process_.pid(); }
  SharedMemory& shm() { return *shm_; }
  const WorkerConfig& config() const { return config_; }

  // One typed call per method, as Go's workerClient has. `expected` bounds how long the
  // call may take before the worker itself is considered stuck (the per-input timeout is
  // watched separately). An answer that is not a result of the method's type (a status the
  // method never has, a field of the wrong type) is a ProtocolError, as garbage is.
  Reply<core::rpc::FuzzResult> fuzz(const core::rpc::FuzzParams& p, std::chrono::milliseconds expected);
  Reply<core::rpc::ExecResult> exec(std::chrono::milliseconds expected);
  Reply<core::rpc::ExecBatchResult> exec_batch(const core::rpc::ExecBatchParams& p, std::chrono::milliseconds expected);
  Reply<core::rpc::MinimizeResult> minimize(const core::rpc::MinimizeParams& p, std::chrono::milliseconds expected);

  // The target's output (stdout and stderr together) since the current or last call began.
  const std::string& output() const { return output_; }

 private:
  void close_pipes();
  void read_output(int fd);
  CallOutcome classify_death(CallOutcome::Kind kind, const std::string& why);
  // The watchdog's verdict (killed_for_) carried out: the process group killed, the call's
  // outcome told.
  CallOutcome kill_during_call();
  // The worker wrote something that is not the answer to the call: it is killed.
  CallOutcome drop_for_protocol_error(const std::string& why);
  // The typed calls' shared part (worker.cc). `limit` bounds the plausible execution count
  // (0: none).
  template <class Result, class Params>
  Reply<Result> call(core::rpc::Method method, const Params& params, std::uint64_t limit,
                     std::chrono::milliseconds expected);
  CallOutcome exchange(core::rpc::Method method, const nlohmann::json& params, std::uint64_t limit,
                       std::chrono::milliseconds expected, nlohmann::json& result);
  CallOutcome call_unchecked(core::rpc::Method method, const nlohmann::json& params, std::chrono::milliseconds expected,
                             nlohmann::json& result);
  enum class KilledFor { Nothing, Timeout, Memory, Stuck, Protocol };

  int index_;
  WorkerConfig config_;
  std::unique_ptr<SharedMemory> shm_;
  Process process_;
  int req_w_ = -1, resp_r_ = -1, out_r_ = -1;
  std::uint64_t next_id_ = 1;
  core::rpc::LineBuffer lines_;
  std::string output_;
  KilledFor killed_for_ = KilledFor::Nothing;
  std::uint64_t rss_at_kill_ = 0;
  std::chrono::steady_clock::time_point next_rss_check_{};
  WorkerGrowth growth_;
  WorkerGrowth::Clock::time_point next_growth_check_{};
};

// The target's output keeps only its last part (sanitizer reports end with what matters).
inline constexpr std::size_t kMaxCapturedOutput = 256 * 1024;

}  // namespace cfuzz::driver
