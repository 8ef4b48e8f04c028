// The engine's per-execution path allocates nothing (CONTRIBUTING.md, "Rules of the hot
// path"; runtime/engine/fuzz_engine.h). A real FuzzEngine, set up in this process as the
// libFuzzer-style front end sets it up (runtime/libfuzzer/libfuzzer_front_end.cc), runs the harness
// of engine_harness.cc, compiled with SanitizerCoverage, over a private region of the
// shared-memory layout. This file replaces the global operator new to count allocations,
// so it is a binary of its own, without sanitizers (they bring their own allocator).
#include "runtime/engine/fuzz_engine.h"

// The engine's header keeps JSON out of the hot path (core/rpc.h holds the messages as plain
// structs; their JSON form is core/rpc_json.h).
#if defined(INCLUDE_NLOHMANN_JSON_HPP_) || defined(INCLUDE_NLOHMANN_JSON_FWD_HPP_)
#error "runtime/engine/fuzz_engine.h pulls in nlohmann/json"
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "core/coverage.h"
#include "core/input_area.h"
#include "core/pcg.h"
#include "core/rpc.h"
#include "core/shm_layout.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/private_region.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/stack_depth_feature.h"
#include "test/runtime/engine_harness.h"

namespace {
std::atomic<std::uint64_t> g_allocations{0};

void* counted_allocation(std::size_t n, std::size_t alignment) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (n == 0) n = 1;
  void* p = alignment <= alignof(std::max_align_t)
                ? std::malloc(n)
                : std::aligned_alloc(alignment, (n + alignment - 1) / alignment * alignment);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return counted_allocation(n, 0); }
void* operator new[](std::size_t n) { return counted_allocation(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_allocation(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_allocation(n, static_cast<std::size_t>(a)); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace fuzzer::cfuzz {
namespace {

namespace rpc = core::rpc;
using engine_test::g_harness_runs;
using engine_test::kEngineHarnessSeeds;
using engine_test::kEveryComparison;

// The region's slot capacity and the mutator's length limit.
constexpr std::uint64_t kMaxLen = 256;
// Executions of each measured fuzz call.
constexpr std::uint64_t kLimit = 20000;

corpus::Entry entry_of(std::string_view bytes) { return {corpus::Bytes(bytes.begin(), bytes.end())}; }

// A call with every stage: input-to-state replacements, a dictionary, chained mutations.
rpc::FuzzParams params_with_everything(std::uint64_t seed) {
  rpc::FuzzParams p;
  p.seed = seed;
  p.limit = kLimit;
  p.max_len = kMaxLen;
  p.input_to_state = 64;
  p.dictionary = {"EGN", "INE!"};
  return p;
}

// The engine and its region, made once per process (ctest runs each test in a process of
// its own) and brought to where the hot path begins: coverage saturated, buffers grown.
class EngineUnderTest {
 public:
  static EngineUnderTest& get() {
    static EngineUnderTest e;
    return e;
  }

  FuzzEngine& engine() { return *engine_; }
  core::ShmView shm() const { return shm_; }

  void store(core::InputAreaHeader& area, const corpus::Entry& e) const {
    core::store_entry(area, e, geometry_.input_area_size);
  }

  // Runs the base input once and adds its coverage to the mask, as the coordinator merges
  // what a worker found.
  rpc::ExecResult exec_and_merge(const corpus::Entry& e) {
    store(shm_.base(), e);
    rpc::ExecResult r = engine_->exec();
    core::merge_into_mask(shm_.mask(), shm_.snapshot(), shm_.header().counters_len);
    return r;
  }

  // Sets the base input of the next fuzz calls (kEveryComparison) and their crossover partner.
  void prepare_fuzz_calls() {
    store(shm_.base(), entry_of(kEveryComparison));
    store(shm_.splice(), entry_of("EGNaINE!"));
  }

 private:
  EngineUnderTest() {
    engine_test::HarnessUnderTest harness = engine_test::set_up_harness("fuzz_engine_test");
    f_ = std::move(harness.state);

    // As the libFuzzer front end maps its input areas.
    if (coverage_registry().total_counters <= kStackDepthCounters) {
      throw std::runtime_error("the harness has no coverage counters");
    }
    shm_ = map_private_region(kMaxLen, static_cast<std::uint32_t>(f_->fuzz_function()->types.size()), &geometry_);
    engine_.emplace(harness.test, *f_, shm_);
    engine_->check_const_input(true);

    // Every block of the harness, so that no input is new any more.
    for (std::string_view seed : kEngineHarnessSeeds) exec_and_merge(entry_of(seed));
    // The engine's copy of an input's bytes grows to the longest input it has seen: to the
    // limit, here, as it would over the first calls.
    exec_and_merge(entry_of(std::string(kMaxLen, 'E')));
    // The first call: whatever the engine sets up once.
    prepare_fuzz_calls();
    engine_->fuzz(params_with_everything(1));
  }

  std::unique_ptr<detail::TestState> f_;
  core::ShmGeometry geometry_{};
  core::ShmView shm_{nullptr, core::ShmGeometry{}};
  std::optional<FuzzEngine> engine_;
};

// Counts allocations from the start of one execution of a fuzz call (the `from`th, from 1)
// to the end of its last, through the engine's checks around each execution.
class AllocationsBetweenExecutions final : public ExecutionCheck {
 public:
  explicit AllocationsBetweenExecutions(std::uint64_t from) : from_(from) {}
  void before_execution() override {
    if (++started_ == from_) first_ = g_allocations.load();
  }
  void after_execution() override { last_ = g_allocations.load(); }
  std::uint64_t allocations() const { return last_ - first_; }
  std::uint64_t executions() const { return started_; }

 private:
  std::uint64_t from_;
  std::uint64_t started_ = 0;
  std::uint64_t first_ = 0, last_ = 0;
};

TEST(FuzzEngineInputToState, ReportsWhereTheStageStoppedAndTheNextCallGoesOnThere) {
  // The coordinator keeps the index a call reports and passes it to the entry's next call;
  // the candidate list, made from the base input's own run, is the same each time.
  EngineUnderTest& e = EngineUnderTest::get();
  e.prepare_fuzz_calls();
  const rpc::FuzzResult whole = e.engine().fuzz(params_with_everything(7));
  ASSERT_TRUE(whole.input_to_state_done);
  const std::uint64_t total = whole.input_to_state_next;
  ASSERT_GE(total, 4u) << "the harness's comparisons should give candidates";

  rpc::FuzzParams cut = params_with_everything(7);
  cut.limit = 3;  // the base run and at most two candidates (or one and its chain)
  const rpc::FuzzResult first = e.engine().fuzz(cut);
  EXPECT_FALSE(first.input_to_state_done);
  EXPECT_GE(first.input_to_state_next, 1u);
  EXPECT_LE(first.input_to_state_next, 2u);
  EXPECT_EQ(first.input_to_state_execs, first.execs - 1) << "all but the base run were the stage's";

  rpc::FuzzParams rest = params_with_everything(7);
  rest.input_to_state_from = first.input_to_state_next;
  const rpc::FuzzResult second = e.engine().fuzz(rest);
  EXPECT_TRUE(second.input_to_state_done);
  EXPECT_EQ(second.input_to_state_next, total);

  rpc::FuzzParams last_one = params_with_everything(7);
  last_one.input_to_state_from = total - 1;
  last_one.limit = 2;  // the base run and the last candidate
  const rpc::FuzzResult last = e.engine().fuzz(last_one);
  EXPECT_EQ(last.input_to_state_next, total);

  rpc::FuzzParams none_left = params_with_everything(7);
  none_left.input_to_state_from = total;
  const rpc::FuzzResult third = e.engine().fuzz(none_left);
  EXPECT_TRUE(third.input_to_state_done);
  EXPECT_EQ(third.input_to_state_next, total);
  EXPECT_EQ(third.input_to_state_execs, 0u);
}

TEST(FuzzEngineHotPath, CountingAllocationsWorks) {
  // The counter sees an allocation, so a zero below means something.
  const std::uint64_t before = g_allocations.load();
  auto* p = new std::string(100, 'x');
  delete p;
  EXPECT_GT(g_allocations.load() - before, 0u);
}

TEST(FuzzEngineHotPath, TheSeedsReachEveryBlockOfTheHarness) {
  // Every counter of the harness is in the mask, and none counts past 1 (no loops): no input
  // can have new coverage, so every fuzz call below runs to its limit.
  EngineUnderTest& e = EngineUnderTest::get();
  const auto& cov = coverage_registry();
  const std::uint8_t* mask = e.shm().mask();
  std::size_t counters = 0, missing = 0;
  for (std::size_t r = 0; r < cov.region_count; ++r) {
    const core::CounterRegion& region = cov.regions[r];
    if (is_stack_depth_region(region)) continue;
    for (std::size_t k = 0; k < region.size; ++k) {
      ++counters;
      if (mask[region.offset + k] == 0) ++missing;
    }
  }
  EXPECT_GT(counters, 0u);
  EXPECT_EQ(missing, 0u) << "of " << counters << " counters";
}

TEST(FuzzEngineHotPath, RunCurrentAllocatesNothing) {
  EngineUnderTest& e = EngineUnderTest::get();
  FuzzEngine& engine = e.engine();
  const core::ShmView shm = e.shm();
  std::vector<corpus::Entry> inputs;
  for (std::string_view seed : kEngineHarnessSeeds) inputs.push_back(entry_of(seed));
  core::FailureRecord failure{};
  core::Pcg rng(7, 1);
  std::uint64_t failures = 0, fresh_inputs = 0;
  engine.start_call();
  const std::uint64_t runs_before = g_harness_runs;
  const std::uint64_t before = g_allocations.load();
  for (std::uint64_t i = 1; i <= kLimit; ++i) {
    // A seed with one byte changed, written in place as the mutator writes its inputs.
    e.store(shm.current(), inputs[i % inputs.size()]);
    core::InputAreaHeader& a = shm.current();
    if (a.slots[0].len != 0) {
      core::ShmView::slot_data(a, 0)[rng.below(a.slots[0].len)] = static_cast<std::uint8_t>(rng.below(256));
    }
    bool fresh = false;
    if (engine.run_current(&failure, i, &fresh) == RunResult::Fail) ++failures;
    if (fresh) ++fresh_inputs;
  }
  const std::uint64_t allocations = g_allocations.load() - before;
  EXPECT_EQ(g_harness_runs - runs_before, kLimit);
  EXPECT_EQ(allocations, 0u) << "in " << kLimit << " executions of run_current";
  EXPECT_EQ(failures, 0u);
  EXPECT_EQ(fresh_inputs, 0u);
}

TEST(FuzzEngineHotPath, ExecAllocatesNothing) {
  EngineUnderTest& e = EngineUnderTest::get();
  const core::ShmView shm = e.shm();
  std::vector<corpus::Entry> inputs;
  for (std::string_view seed : kEngineHarnessSeeds) inputs.push_back(entry_of(seed));
  std::uint64_t not_ok = 0;
  const std::uint64_t before = g_allocations.load();
  for (std::uint64_t i = 0; i < 5000; ++i) {
    e.store(shm.base(), inputs[i % inputs.size()]);
    if (e.engine().exec().status != rpc::Status::Ok) ++not_ok;
  }
  const std::uint64_t allocations = g_allocations.load() - before;
  EXPECT_EQ(allocations, 0u) << "in 5000 exec calls";
  EXPECT_EQ(not_ok, 0u);
}

TEST(FuzzEngineHotPath, FuzzCallExecutionsAllocateNothing) {
  // From the first input-to-state candidate to the last chained mutation: every execution,
  // mutation (with dictionary words, comparison operands and crossover) and counter scan of
  // whole calls. The candidates are listed before the second execution, outside the count.
  EngineUnderTest& e = EngineUnderTest::get();
  e.prepare_fuzz_calls();
  for (std::uint64_t seed = 2; seed < 5; ++seed) {
    const rpc::FuzzParams p = params_with_everything(seed);
    AllocationsBetweenExecutions count(2);
    const std::uint64_t runs_before = g_harness_runs;
    rpc::FuzzResult res = e.engine().fuzz(p, &count);
    EXPECT_EQ(g_harness_runs - runs_before, res.execs) << "seed " << seed;
    EXPECT_EQ(res.status, rpc::Status::Ok) << "seed " << seed << ": the call should run to its limit";
    EXPECT_EQ(res.execs, kLimit) << "seed " << seed;
    EXPECT_EQ(count.executions(), res.execs) << "seed " << seed;
    EXPECT_EQ(count.allocations(), 0u) << "seed " << seed << ": in executions 2 to " << res.execs << " of a fuzz call";
  }
}

TEST(FuzzEngineHotPath, AFuzzCallAllocatesTheSameWhateverItsExecutions) {
  // A whole call, set-up and result included. What it allocates is for its result's words (the
  // constants the harness compared with, for the coordinator's dictionary), the same for
  // one execution and for 20000.
  EngineUnderTest& e = EngineUnderTest::get();
  e.prepare_fuzz_calls();
  for (std::uint64_t seed = 5; seed < 8; ++seed) {
    rpc::FuzzParams one;
    one.seed = seed;
    one.limit = 1;
    one.max_len = kMaxLen;
    rpc::FuzzParams p = one;
    p.limit = kLimit;

    std::uint64_t before = g_allocations.load();
    rpc::FuzzResult short_call = e.engine().fuzz(one);
    const std::uint64_t allocations_of_one = g_allocations.load() - before;
    ASSERT_EQ(short_call.execs, 1u);

    before = g_allocations.load();
    rpc::FuzzResult res = e.engine().fuzz(p);
    const std::uint64_t allocations = g_allocations.load() - before;
    EXPECT_EQ(res.status, rpc::Status::Ok) << "seed " << seed << ": the call should run to its limit";
    EXPECT_EQ(res.execs, kLimit) << "seed " << seed;
    std::sort(res.new_words.begin(), res.new_words.end());
    std::sort(short_call.new_words.begin(), short_call.new_words.end());
    EXPECT_EQ(res.new_words, short_call.new_words) << "seed " << seed;
    EXPECT_EQ(allocations, allocations_of_one)
        << "seed " << seed << ": a call of " << res.execs << " executions against a call of one";
  }
}

}  // namespace
}  // namespace fuzzer::cfuzz
