// Worker mode: the target re-executed by the coordinator (`--cfuzz-worker=<FuzzName>`)
// serves its RPC calls until the request pipe closes. The fuzzing loop (mutate, run,
// check coverage) lives here and stays allocation-free.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/rpc_json.h"
#include "core/shm_layout.h"
#include "corpus_format/value.h"
#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/fuzz_engine.h"
#include "runtime/engine/input_shrink.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/test_body.h"
#include "runtime/worker/rpc_guard.h"

namespace cfuzz::core {
class Minimizer;
}

namespace fuzzer::cfuzz {

// The RPC server of one worker: a typed handler per method over the fuzz engine, and the
// checks that tell the coordinator which input damaged the RPC channel or the shared
// memory. (Public for its unit test; serve_worker below is how a worker runs it.)
class WorkerServer final : private ExecutionCheck, private ShrinkWatch {
 public:
  // Serves `test` (its body already run into `f`) over the RPC descriptors 3 and 4, with
  // the input areas of `shm`. Ends the process when the descriptors are not open.
  WorkerServer(const RegisteredTest& test, detail::TestState& f, core::ShmView shm);

  // Reads requests and answers them until the coordinator closes the request pipe, then
  // exits the process.
  [[noreturn]] void serve();

  // One request line answered: the method's result, or a JSON-RPC error for an unknown
  // method, invalid parameters or a handler's exception. (A line that is not a request ends
  // the process: the coordinator sent garbage.)
  core::rpc::Response handle(const std::string& line);

 private:
  // One typed handler per method, as Go's workerServer has.
  nlohmann::json dispatch(const core::rpc::Request& req);

  core::rpc::PingResult ping() const;

  // The target may have closed or replaced the descriptors: then no reply can reach the
  // coordinator, and the worker says so by its exit code and the failure record.
  void reply(const core::rpc::Response& r);

  [[noreturn]] void rpc_lost(const char* why, bool exact = false);

  // Paranoid replays (the coordinator saw the channel or the shared memory damaged) check
  // after every execution that neither was touched, so that the call stops at the input
  // that did it. The input is put aside before it runs, since the damage may be to it.
  void before_execution() override { std::memcpy(aside_.data(), &shm_.current(), area_size_); }
  void after_execution() override;

  // With the layout and the input put back: the input that ran last is the one that wrote
  // over shared memory; say so in the failure record and end the worker.
  [[noreturn]] void blame_input_for_damaged_memory();

  core::rpc::FuzzResult fuzz(const core::rpc::FuzzParams& p);

  core::rpc::ExecResult exec();

  core::rpc::ExecBatchResult exec_batch(const core::rpc::ExecBatchParams& p);

  // While minimizing, the coordinator resumes from shared memory after a candidate kills
  // the worker: the layout, the published position and the candidate must be as written.
  bool minimize_area_intact(const corpus::Entry& candidate, const std::array<std::uint64_t, 6>& position);

  // The candidate wrote over shared memory: put back what the coordinator needs to judge it
  // and resume after it (the minimizer's own copies are in this process's memory), blame it
  // exactly, and end the worker.
  [[noreturn]] void shm_lost_while_minimizing(const core::Minimizer& m, const corpus::Entry& candidate,
                                              const std::array<std::uint64_t, 6>& position);

  core::rpc::MinimizeResult minimize(const core::rpc::MinimizeParams& p);
  // Around each candidate of a minimize call (input_shrink.h): where to resume is published
  // before it runs; the channel and the shared memory are checked after.
  void before_candidate(const core::Minimizer& m, const corpus::Entry& candidate, std::uint64_t count) override;
  void after_candidate(const core::Minimizer& m, const corpus::Entry& candidate) override;
  void improved(const core::Minimizer& m) override;

  FuzzEngine engine_;
  detail::Shapes shapes_;  // of the typed values, for the minimizer
  core::ShmView shm_;
  core::ShmHeader& hdr_;
  std::uint64_t area_size_;  // as validated at start-up, before the target ran
  FdIdentity in_id_, out_id_;
  // The header's layout fields (magic to counters_capacity), as the coordinator wrote them.
  std::uint8_t layout_[offsetof(core::ShmHeader, counters_len)];
  std::vector<std::uint8_t> aside_;                 // paranoid calls: the input about to run
  RpcGuard* guard_ = nullptr;                       // paranoid calls: the descriptors' decoys
  RpcGuard* shrink_guard_ = nullptr;                // minimize calls: the descriptors' decoys
  std::array<std::uint64_t, 6> shrink_position_{};  // minimize calls: the candidate's, as published
};

// `detect_leaks`: check inputs for memory leaks (leak_check.h); `cfuzz run` passes
// --cfuzz-detect-leaks unless told --detect-leaks=false.
int serve_worker(const RegisteredTest& test, bool detect_leaks);

}  // namespace fuzzer::cfuzz
