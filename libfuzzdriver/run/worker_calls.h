// What the parts that handle findings and run the baseline ask of a worker: execute this
// input (or this batch), shrink this one, run this one again in a fresh process; what was
// executing when the last call ended and what it covered. `ProcessWorker` asks a real
// worker process (worker.h) through its shared memory and RPC; a unit test gives a fake,
// so that the decisions around these calls are tested without processes.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/failure_record.h"
#include "core/rpc.h"
#include "corpus_format/value.h"
#include "libfuzzdriver/minimize/minimize_driver.h"
#include "libfuzzdriver/worker/worker.h"

namespace cfuzz::driver {

// A batch of inputs executed in one call (core/exec_batch.h).
struct BatchRun {
  std::size_t sent = 0;  // how many of the inputs fit in the batch area (0: not even the first)
  Reply<core::rpc::ExecBatchResult> reply;
  // The features the worker recorded for the inputs that passed, in order; none: the area
  // does not hold together (the target wrote over it).
  std::optional<std::vector<std::vector<std::uint32_t>>> features;
};

class WorkerCalls {
 public:
  virtual ~WorkerCalls() = default;

  virtual int index() const = 0;
  virtual bool running() const = 0;
  virtual void stop() = 0;
  virtual void kill() = 0;
  // The target's output since the current or last call began.
  virtual std::string output() const = 0;

  // The input in the current area, the one executing when the last call ended; throws
  // core::CorruptInput when the target wrote over it.
  virtual corpus::Entry current_input() = 0;
  // The bucketed counters of the last execution, one byte per counter of the target.
  virtual const std::uint8_t* coverage() = 0;
  // Whether the current area holds `values` (false for an area written over).
  virtual bool current_holds(const corpus::Entry& values) = 0;

  // One execution of `values`, within the per-input timeout.
  virtual CallOutcome exec(const corpus::Entry& values) = 0;
  // As many of `values` as fit, in one call.
  virtual BatchRun exec_batch(const std::vector<const corpus::Entry*>& values) = 0;
  // minimize_driver.h's minimizations and reproduction, on this worker.
  virtual MinimizeOutcome minimize_coverage(const corpus::Entry& input, const std::vector<std::uint8_t>& keep,
                                            const MinimizeLimits& limits) = 0;
  virtual MinimizeOutcome minimize_failure(const corpus::Entry& input, const core::FailureRecord& failure,
                                           const MinimizeLimits& limits) = 0;
  virtual Reproduction reproduce(const corpus::Entry& input) = 0;
};

// A worker process. `timeout`: the per-input timeout (--timeout); a call of n inputs is
// expected to take n times that, and a second each more, before the worker counts as stuck.
class ProcessWorker final : public WorkerCalls {
 public:
  ProcessWorker(Worker& w, std::chrono::milliseconds timeout) : w_(w), timeout_(timeout) {}

  int index() const override { return w_.index(); }
  bool running() const override { return w_.running(); }
  void stop() override { w_.stop(); }
  void kill() override { w_.kill(); }
  std::string output() const override { return w_.output(); }

  corpus::Entry current_input() override;
  const std::uint8_t* coverage() override;
  bool current_holds(const corpus::Entry& values) override;

  CallOutcome exec(const corpus::Entry& values) override;
  BatchRun exec_batch(const std::vector<const corpus::Entry*>& values) override;
  MinimizeOutcome minimize_coverage(const corpus::Entry& input, const std::vector<std::uint8_t>& keep,
                                    const MinimizeLimits& limits) override;
  MinimizeOutcome minimize_failure(const corpus::Entry& input, const core::FailureRecord& failure,
                                   const MinimizeLimits& limits) override;
  Reproduction reproduce(const corpus::Entry& input) override;

 private:
  Worker& w_;
  std::chrono::milliseconds timeout_;
};

}  // namespace cfuzz::driver
