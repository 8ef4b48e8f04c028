// The engine's inner loop, shared by both front ends: a fuzz call (the base input as it is,
// its input-to-state candidates, then Go's chains of five stacked mutations) and single
// executions, over input areas laid out as core/shm_layout.h describes. A worker serving
// `cfuzz run` runs it over the region shared with its coordinator; the libFuzzer-style front
// end (libfuzzer_front_end.h) over a private region of the same layout.
//
// It is the hot path: after the first call it allocates nothing and takes no locks.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/coverage.h"
#include "core/length_control.h"
#include "core/mutator.h"
#include "core/pcg.h"
#include "core/rpc.h"
#include "core/shm_layout.h"
#include "core/structure_mutator.h"
#include "runtime/engine/cmp_table.h"
#include "runtime/engine/cmp_words.h"
#include "runtime/engine/custom_mutator.h"
#include "runtime/engine/engine_namespace.h"
#include "runtime/engine/executor.h"
#include "runtime/engine/registry.h"

namespace fuzzer::cfuzz {

// What a worker checks around each execution when it replays a call that damaged its RPC
// descriptors or shared memory (the engine itself checks nothing).
class ExecutionCheck {
 public:
  virtual void before_execution() = 0;
  virtual void after_execution() = 0;

 protected:
  ~ExecutionCheck() = default;
};

// The failure detail of an input the fuzz function wrote to (check_const_input).
inline constexpr const char* kOverwritesConstInput = "overwrites-const-input";

class FuzzEngine {
 public:
  // The mutations that made the current input (libFuzzer's "MS:" lines).
  const core::Mutator& mutator() const { return mutator_; }
  // The words the current mutation chain used (the crash line's "DE:").
  const CmpWords& words() const { return words_; }
  // `f` must hold the fuzz function; `shm` is a region of the layout, header validated.
  FuzzEngine(const RegisteredTest& test, detail::TestState& f, core::ShmView shm);

  // One fuzz call of the entry in the base area (with the splice area as the crossover
  // partner when it holds an entry). Ends on the first failure or new coverage (then the
  // input is in the current area and, for new coverage, its bucketed counters in the
  // snapshot area), or when the limit or the deadline is reached.
  core::rpc::FuzzResult fuzz(const core::rpc::FuzzParams& p, ExecutionCheck* check = nullptr);

  // Runs the base input once; its bucketed counters go to the snapshot area. `count` is
  // the execution count published for it (an input's place in a batch, from 1).
  core::rpc::ExecResult exec(ExecutionCheck* check = nullptr, std::uint64_t count = 1);

  // Runs what is in the current area, counts it, and scans the coverage it produced;
  // `fresh` says whether it has coverage the mask lacks.
  RunResult run_current(core::FailureRecord* failure, std::uint64_t count, bool* fresh);

  // Clears the per-call state: execution count, failure record, counters.
  void start_call();
  // Writes the bucketed counters of the last execution into the snapshot area.
  void write_snapshot();
  // Checks that an input area holds values of the fuzz function's types (throws).
  void check_area(const core::InputAreaHeader& a, const char* what) const;

  // Leak checks after every input (single executions, minimization), or only after inputs
  // with new coverage (fuzz calls), as libFuzzer does.
  void check_every_input(bool on) { check_every_input_ = on; }
  // Fail an input whose bytes the fuzz function wrote to (they are its const input), as
  // libFuzzer does. Off under `cfuzz run`, where the fuzz function only ever sees a copy.
  void check_const_input(bool on) { check_const_input_ = on; }

  const Executor& executor() const { return ex_; }
  core::ShmView shm() const { return shm_; }
  std::uint64_t area_size() const { return area_size_; }

 private:
  static constexpr std::size_t kNewWordsPerCall = 16;
  // Second replacements tried after each input-to-state candidate (CmpWords::follow_ups),
  // and how many replacements one chain of them may stack.
  static constexpr std::size_t kFollowUps = 2;
  static constexpr std::size_t kChainDepth = 12;

  // How one execution in a fuzz call ended.
  enum class Step { Continue, Failure, Interesting };
  // A call's limit on executions and its deadline (CLOCK_MONOTONIC_COARSE ns); 0: none.
  struct CallBudget {
    std::uint64_t limit, deadline;
    bool over(std::uint64_t count) const;
  };
  // The input-to-state candidates of the base input and the chains of replacements they
  // start (CmpWords::follow_ups).
  Step input_to_state_stage(const core::rpc::FuzzParams& p, const CallBudget& budget, core::FailureRecord* failure,
                            std::uint64_t* count, ExecutionCheck* check, core::rpc::FuzzResult& res);
  // Makes a replacement in the current input, keeping a typed value canonical; false if
  // the value may not be rewritten so or the replacement does not fit.
  bool replace(const core::rpc::FuzzParams& p, std::uint32_t value, std::size_t pos, std::size_t old_len,
               std::string_view bytes);
  Step execute(core::FailureRecord* failure, std::uint64_t* count, ExecutionCheck* check, core::rpc::FuzzResult& res);
  void prepare_args(core::InputAreaHeader& a);
  bool input_overwritten(const core::InputAreaHeader& a) const;
  // Makes an input-to-state replacement; false if it does not fit.
  static bool apply(std::uint32_t value, std::size_t pos, std::size_t old_len, std::string_view bytes,
                    core::InputAreaHeader& a);
  static void to_ascii(core::InputAreaHeader& a);
  std::uint64_t new_bits() const;
  // The call's result, completed (moved out: it holds the words found).
  core::rpc::FuzzResult finish(core::rpc::FuzzResult&& res, std::uint64_t count, std::uint64_t start);

  CustomMutators custom_mutators_;
  Executor ex_;
  core::ShmView shm_;
  core::ShmHeader& hdr_;
  std::uint64_t area_size_;  // as validated at start-up, before the target ran
  core::Mutator mutator_;
  core::StructureMutator structure_{mutator_};  // typed values (cfuzz/typed_values.h)
  CmpTable base_cmps_{};
  CmpWords words_;
  CmpWords::FollowUp follow_ups_[kFollowUps];
  CmpWords::FollowUp next_follow_up_;
  core::Pcg rng_;
  InputBuffers buffers_;
  detail::ArgView args_[core::kMaxValues];
  core::CounterScanner scanner_;
  std::vector<core::CounterScanner::Touched> touched_;
  std::size_t touched_count_ = 0;
  bool check_every_input_ = true;
  bool check_const_input_ = false;
};

}  // namespace fuzzer::cfuzz
