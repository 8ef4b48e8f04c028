// The worker's RPC server (runtime/worker/worker_server.h) without a coordinator: a real
// WorkerServer over the harness of engine_harness.cc (compiled with SanitizerCoverage, as
// targets are), its input areas in private memory, its RPC descriptors 3 and 4 opened on
// pipes of this process. Each request line goes through WorkerServer::handle as the
// coordinator's would, and the answer is read as the coordinator reads it.
#include "runtime/worker/worker_server.h"

#include <unistd.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "core/coverage.h"
#include "core/exec_batch.h"
#include "core/input_area.h"
#include "core/rpc.h"
#include "core/rpc_json.h"
#include "core/shm_layout.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/private_region.h"
#include "runtime/engine/registry.h"
#include "test/runtime/engine_harness.h"

namespace fuzzer::cfuzz {
namespace {

namespace rpc = core::rpc;
using engine_test::g_harness_runs;

constexpr std::uint64_t kMaxLen = 256;

corpus::Entry entry_of(std::string_view bytes) { return {corpus::Bytes(bytes.begin(), bytes.end())}; }

// The server and its region, made once per process (ctest runs each test in a process of
// its own), as serve_worker makes them in a worker.
class ServerUnderTest {
 public:
  static ServerUnderTest& get() {
    static ServerUnderTest s;
    return s;
  }

  rpc::Response call(rpc::Method method, nlohmann::json params) {
    return call_line(rpc::encode_request({++id_, method, std::move(params)}));
  }
  rpc::Response call_line(const std::string& line) {
    std::string text = line;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return server_->handle(text);
  }
  void store_base(const corpus::Entry& e) { core::store_entry(shm_.base(), e, geometry_.input_area_size); }
  core::ShmView shm() const { return shm_; }
  const core::ShmGeometry& geometry() const { return geometry_; }

 private:
  ServerUnderTest() {
    engine_test::HarnessUnderTest harness = engine_test::set_up_harness("worker_server_test");
    f_ = std::move(harness.state);
    shm_ = map_private_region(kMaxLen, static_cast<std::uint32_t>(f_->fuzz_function()->types.size()), &geometry_);
    // The RPC descriptors, as the coordinator opens them in a worker.
    int request[2], response[2];
    if (pipe(request) != 0 || pipe(response) != 0) throw std::runtime_error("pipe");
    dup2(request[0], rpc::kRequestFd);
    dup2(response[1], rpc::kResponseFd);
    server_.emplace(harness.test, *f_, shm_);
  }

  std::unique_ptr<detail::TestState> f_;
  core::ShmGeometry geometry_{};
  core::ShmView shm_{nullptr, core::ShmGeometry{}};
  std::optional<WorkerServer> server_;
  std::uint64_t id_ = 0;
};

TEST(WorkerServer, PingDescribesTheWorker) {
  auto& s = ServerUnderTest::get();
  rpc::Response r = s.call(rpc::Method::Ping, rpc::PingParams{});
  ASSERT_TRUE(r.ok) << r.error_message;
  auto ping = r.result.get<rpc::PingResult>();
  EXPECT_EQ(ping.protocol, rpc::kProtocolVersion);
  EXPECT_EQ(ping.pid, getpid());
  EXPECT_EQ(ping.test, kHarnessTestName);
  EXPECT_EQ(ping.types, std::vector<std::string>{"[]uint8"});  // Go's name of []byte
  EXPECT_EQ(ping.counters, coverage_registry().total_counters);
}

TEST(WorkerServer, ExecRunsTheBaseInputOnceAndCountsItsNewCoverage) {
  auto& s = ServerUnderTest::get();
  s.store_base(entry_of("EGNa"));
  std::uint64_t runs = g_harness_runs;
  rpc::Response first = s.call(rpc::Method::Exec, rpc::ExecParams{});
  ASSERT_TRUE(first.ok) << first.error_message;
  EXPECT_EQ(g_harness_runs, runs + 1);
  auto r = first.result.get<rpc::ExecResult>();
  EXPECT_EQ(r.status, rpc::Status::Ok);
  EXPECT_GT(r.new_bits, 0u);  // against an empty mask
  // Its coverage merged into the mask, as the coordinator merges it: nothing new again.
  core::merge_into_mask(s.shm().mask(), s.shm().snapshot(), s.shm().header().counters_len);
  rpc::Response again = s.call(rpc::Method::Exec, rpc::ExecParams{});
  ASSERT_TRUE(again.ok) << again.error_message;
  EXPECT_EQ(again.result.get<rpc::ExecResult>().new_bits, 0u);
  EXPECT_EQ(g_harness_runs, runs + 2);
}

TEST(WorkerServer, FuzzRunsExactlyTheExecutionsAsked) {
  auto& s = ServerUnderTest::get();
  s.store_base(entry_of("XXXX"));
  // The mask full: nothing is new, so the call runs to its limit.
  std::fill_n(s.shm().mask(), s.shm().header().counters_len, 0xff);
  rpc::FuzzParams p;
  p.seed = 7;
  p.limit = 500;
  p.max_len = kMaxLen;
  std::uint64_t runs = g_harness_runs;
  rpc::Response resp = s.call(rpc::Method::Fuzz, p);
  ASSERT_TRUE(resp.ok) << resp.error_message;
  auto r = resp.result.get<rpc::FuzzResult>();
  EXPECT_EQ(r.status, rpc::Status::Ok);
  EXPECT_EQ(r.execs, 500u);
  EXPECT_EQ(g_harness_runs, runs + 500);
}

TEST(WorkerServer, ExecBatchRunsEachInputAndWritesItsFeatures) {
  auto& s = ServerUnderTest::get();
  corpus::Entry a = entry_of("EABcXXXX"), b = entry_of("");
  std::size_t packed = core::pack_batch(s.shm().batch(), s.shm().batch_size(), {&a, &b});
  ASSERT_EQ(packed, 2u);
  std::uint64_t runs = g_harness_runs;
  rpc::Response resp = s.call(rpc::Method::ExecBatch, rpc::ExecBatchParams{2});
  ASSERT_TRUE(resp.ok) << resp.error_message;
  auto r = resp.result.get<rpc::ExecBatchResult>();
  EXPECT_EQ(r.status, rpc::Status::Ok);
  EXPECT_EQ(r.done, 2u);
  EXPECT_EQ(g_harness_runs, runs + 2);
  auto features = core::read_batch_features(s.shm().features(), s.shm().features_size(), 2);
  ASSERT_EQ(features.size(), 2u);
  EXPECT_FALSE(features[0].empty());
  EXPECT_GT(features[0].size(), features[1].size());  // the first reaches more of the harness
}

TEST(WorkerServer, ABatchCountTheAreaDoesNotHoldIsAServerError) {
  auto& s = ServerUnderTest::get();
  corpus::Entry a = entry_of("XXXX");
  core::pack_batch(s.shm().batch(), s.shm().batch_size(), {&a});
  rpc::Response r = s.call(rpc::Method::ExecBatch, rpc::ExecBatchParams{3});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_code, rpc::kServerError);
  EXPECT_EQ(r.error_message, "the batch area holds 1 inputs, not 3");
}

TEST(WorkerServer, AnUnknownMethodIsMethodNotFoundWithTheRequestsId) {
  auto& s = ServerUnderTest::get();
  std::string line = rpc::encode_request({41, rpc::Method::Ping, rpc::PingParams{}});
  auto at = line.find("\"ping\"");
  ASSERT_NE(at, std::string::npos) << line;
  line.replace(at, 6, "\"launch\"");
  rpc::Response r = s.call_line(line);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.id, 41u);
  EXPECT_EQ(r.error_code, rpc::kMethodNotFound);
}

TEST(WorkerServer, ParametersOfTheWrongTypeAreInvalidParams) {
  auto& s = ServerUnderTest::get();
  std::uint64_t runs = g_harness_runs;
  rpc::Response r = s.call(rpc::Method::Fuzz, nlohmann::json{{"seed", "seven"}, {"limit", 10}});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_code, rpc::kInvalidParams);
  EXPECT_EQ(g_harness_runs, runs);  // nothing ran
}

}  // namespace
}  // namespace fuzzer::cfuzz
