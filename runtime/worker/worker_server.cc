#include "runtime/worker/worker_server.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/corpus.h"
#include "core/coverage.h"
#include "core/exec_batch.h"
#include "core/input_area.h"
#include "core/minimizer.h"
#include "core/rpc_json.h"
#include "core/shm_layout.h"
#include "corpus_format/value.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/custom_mutator.h"
#include "runtime/engine/fuzz_engine.h"
#include "runtime/engine/input_shrink.h"
#include "runtime/engine/test_body.h"
#include "runtime/failure/crash_handler.h"
#include "runtime/failure/leak_check.h"
#include "runtime/worker/rpc_guard.h"
#include "runtime/worker/source_profile.h"

namespace fuzzer::cfuzz {

namespace {

namespace rpc = core::rpc;
using core::FailureKind;
using core::FailureRecord;

[[noreturn]] void die_internal(const std::string& why) {
  std::fprintf(stderr, "cfuzz worker: %s\n", why.c_str());
  std::fflush(stderr);
  _exit(rpc::kWorkerExitInternal);
}

constexpr const char* kDamagedChannel = "the target wrote to, closed or replaced the RPC descriptors (fd 3 and 4)";
constexpr const char* kDamagedMemory = "the target wrote over cfuzz's shared memory";

}  // namespace

WorkerServer::WorkerServer(const RegisteredTest& test, detail::TestState& f, core::ShmView shm)
    : engine_(test, f, shm),
      shapes_(f.fuzz_function() ? f.fuzz_function()->shapes : detail::Shapes{}),
      shm_(shm),
      hdr_(shm.header()),
      area_size_(shm.header().input_area_size) {
  std::memcpy(layout_, &hdr_, sizeof layout_);
  if (!in_id_.read(rpc::kRequestFd) || !out_id_.read(rpc::kResponseFd)) {
    die_internal("the RPC descriptors 3 and 4 are not open; workers are started by `cfuzz run`");
  }
}

void WorkerServer::serve() {
  char buf[65536];
  rpc::LineBuffer lines;
  for (;;) {
    std::optional<std::string> line;
    try {
      line = lines.next_line();
    } catch (const rpc::ProtocolError& e) {
      die_internal(e.what());
    }
    if (!line) {
      ssize_t n = ::read(rpc::kRequestFd, buf, sizeof buf);
      if (n == 0) {  // the coordinator closed the pipe: shut down
        write_source_profile();
        _exit(0);
      }
      if (n < 0) {
        if (errno == EINTR) continue;
        rpc_lost("cannot read RPC requests from fd 3 (closed by the target?)");
      }
      lines.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    rpc::Response response = handle(*line);
    reply(response);
  }
}

nlohmann::json WorkerServer::dispatch(const rpc::Request& req) {
  switch (req.method) {
    case rpc::Method::Ping: return ping();
    case rpc::Method::Fuzz: return fuzz(req.params.get<rpc::FuzzParams>());
    case rpc::Method::Exec: return exec();
    case rpc::Method::ExecBatch: return exec_batch(req.params.get<rpc::ExecBatchParams>());
    case rpc::Method::Minimize: return minimize(req.params.get<rpc::MinimizeParams>());
  }
  throw std::logic_error("a method without a handler");
}

rpc::PingResult WorkerServer::ping() const {
  rpc::PingResult r;
  r.pid = getpid();
  r.test = engine_.executor().last_input().test_name();
  for (auto t : engine_.executor().types()) r.types.emplace_back(corpus::go_type_name(t));
  r.counters = coverage_registry().total_counters;
  return r;
}

rpc::Response WorkerServer::handle(const std::string& line) {
  rpc::Response resp;
  rpc::Request req;
  try {
    req = rpc::decode_request(line);
  } catch (const rpc::UnknownMethod& e) {
    resp.id = e.id();
    resp.error_code = rpc::kMethodNotFound;
    resp.error_message = e.what();
    return resp;
  } catch (const rpc::ProtocolError& e) {
    die_internal(std::string("bad request from the coordinator: ") + e.what());
  }
  resp.id = req.id;
  try {
    resp.result = dispatch(req);
    resp.ok = true;
  } catch (const nlohmann::json::exception& e) {
    resp.ok = false;
    resp.error_code = rpc::kInvalidParams;
    resp.error_message = e.what();
  } catch (const HarnessContractError& e) {
    resp.ok = false;
    resp.error_code = rpc::kHarnessError;
    resp.error_message = e.what();
  } catch (const std::exception& e) {
    resp.ok = false;
    resp.error_code = rpc::kServerError;
    resp.error_message = e.what();
  }
  return resp;
}

void WorkerServer::reply(const rpc::Response& r) {
  if (!in_id_.same_as(rpc::kRequestFd) || !out_id_.same_as(rpc::kResponseFd)) {
    rpc_lost("the target closed or replaced the RPC descriptors (fd 3 and 4)");
  }
  if (!rpc::write_all(rpc::kResponseFd, rpc::encode_response(r))) {
    rpc_lost("cannot write RPC responses to fd 4");
  }
}

void WorkerServer::rpc_lost(const char* why, bool exact) {
  if (hdr_.failure.kind == static_cast<std::uint32_t>(FailureKind::None)) {
    hdr_.failure.kind = static_cast<std::uint32_t>(FailureKind::RpcCorrupted);
    hdr_.failure.flags = exact ? core::kFailureExactInput : 0;
    core::failure_set(hdr_.failure.detail, "rpc-corrupted");
    core::failure_set(hdr_.failure.message, why);
  }
  std::fprintf(stderr, "cfuzz worker: %s\n", why);
  std::fflush(stderr);
  _exit(rpc::kWorkerExitRpcLost);
}

void WorkerServer::after_execution() {
  if (!guard_->intact()) rpc_lost(kDamagedChannel, true);
  if (std::memcmp(layout_, &hdr_, sizeof layout_) == 0 &&
      std::memcmp(aside_.data(), &shm_.current(), area_size_) == 0) {
    return;
  }
  std::memcpy(static_cast<void*>(&hdr_), layout_, sizeof layout_);  // raw bytes back over the header
  std::memcpy(&shm_.current(), aside_.data(), area_size_);
  blame_input_for_damaged_memory();
}

void WorkerServer::blame_input_for_damaged_memory() {
  core::failure_clear(hdr_.failure);
  hdr_.failure.kind = static_cast<std::uint32_t>(FailureKind::RpcCorrupted);
  hdr_.failure.flags = core::kFailureExactInput;
  core::failure_set(hdr_.failure.detail, "shm-corrupted");
  core::failure_set(hdr_.failure.message, kDamagedMemory);
  std::fprintf(stderr, "cfuzz worker: %s\n", kDamagedMemory);
  std::fflush(stderr);
  _exit(rpc::kWorkerExitRpcLost);
}

rpc::FuzzResult WorkerServer::fuzz(const rpc::FuzzParams& p) {
  if (!p.paranoid) return engine_.fuzz(p);
  // Paranoid mode: a replay of a damaged call.
  RpcGuard guard;
  guard_ = &guard;
  aside_.resize(area_size_);
  rpc::FuzzResult res = engine_.fuzz(p, this);
  guard_ = nullptr;
  return res;
}

rpc::ExecResult WorkerServer::exec() {
  // One execution: check it as a paranoid call does.
  RpcGuard guard;
  guard_ = &guard;
  aside_.resize(area_size_);
  rpc::ExecResult res = engine_.exec(this);
  guard_ = nullptr;
  return res;
}

rpc::ExecBatchResult WorkerServer::exec_batch(const rpc::ExecBatchParams& p) {
  // The inputs are copied out before any runs: one of them may write over the others.
  std::vector<corpus::Entry> inputs = core::unpack_batch(shm_.batch(), shm_.batch_size());
  if (inputs.size() != p.count) {
    throw std::invalid_argument("the batch area holds " + std::to_string(inputs.size()) + " inputs, not " +
                                std::to_string(p.count));
  }
  core::BatchFeatureWriter out(shm_.features(), shm_.features_size());
  // Each input is checked as exec checks it, with one guard for the whole call.
  RpcGuard guard;
  guard_ = &guard;
  aside_.resize(area_size_);
  rpc::ExecBatchResult res;
  res.status = rpc::Status::Ok;
  for (; res.done < inputs.size(); ++res.done) {
    core::store_entry(shm_.base(), inputs[res.done], area_size_);
    if (engine_.exec(this, res.done + 1).status == rpc::Status::Failure) {
      res.status = rpc::Status::Failure;
      break;
    }
    // Full: the coordinator sends the rest again.
    if (!out.add(core::Corpus::features_of(shm_.snapshot(), hdr_.counters_len))) break;
  }
  guard_ = nullptr;
  return res;
}

bool WorkerServer::minimize_area_intact(const corpus::Entry& candidate, const std::array<std::uint64_t, 6>& position) {
  if (std::memcmp(layout_, &hdr_, sizeof layout_) != 0 || hdr_.minimize.active != 1 ||
      !std::equal(position.begin(), position.end(), std::begin(hdr_.minimize.state))) {
    return false;
  }
  try {
    return corpus::same_entry(core::load_entry(shm_.current(), area_size_), candidate);
  } catch (const std::exception&) {
    return false;
  }
}

void WorkerServer::shm_lost_while_minimizing(const core::Minimizer& m, const corpus::Entry& candidate,
                                             const std::array<std::uint64_t, 6>& position) {
  std::memcpy(static_cast<void*>(&hdr_), layout_, sizeof layout_);  // raw bytes back over the header
  core::store_entry(shm_.current(), candidate, area_size_);
  core::store_entry(shm_.best(), m.best(), area_size_);
  std::copy(position.begin(), position.end(), hdr_.minimize.state);
  hdr_.minimize.active = 1;
  blame_input_for_damaged_memory();
}

rpc::MinimizeResult WorkerServer::minimize(const rpc::MinimizeParams& p) {
  engine_.check_every_input(true);
  engine_.check_area(shm_.base(), "base");
  bool coverage_mode = p.mode == rpc::MinimizeMode::Coverage;
  FailureRecord target{};
  target.kind = p.target.kind;
  target.exit_code = p.target.exit_code;
  core::failure_set(target.detail, p.target.detail);
  core::failure_set(target.site, p.target.site);
  // The bits to keep are in the mask area; keep a private copy, since the snapshot
  // comparison reads the mask area too.
  std::vector<std::uint8_t> keep(shm_.mask(), shm_.mask() + hdr_.counters_len);

  engine_.start_call();
  std::uint64_t packed[6];
  std::copy(p.state.begin(), p.state.end(), packed);
  core::Minimizer m(core::load_entry(shm_.base(), area_size_), core::MinimizerState::unpack(packed));
  m.set_shapes(shapes_);  // typed values are minimized by their structure
  if (p.resume_verdict.has_value()) m.report(*p.resume_verdict);
  core::copy_input_area(shm_.base(), shm_.best());
  hdr_.minimize.active = 1;

  // One guard for the whole call (the response is written after it is gone), checked after
  // every candidate: setting decoy pipes up per candidate cost more than the candidates.
  RpcGuard guard;
  shrink_guard_ = &guard;
  ShrinkGoal goal;
  if (coverage_mode) {
    goal.keep = keep.data();
    goal.counters = hdr_.counters_len;
  } else {
    goal.target = &target;
  }
  ShrinkOutcome o = shrink_input(engine_, m, goal, p.limit, p.deadline_ms, this);
  shrink_guard_ = nullptr;
  rpc::MinimizeResult res;
  res.status = o.end == ShrinkOutcome::End::Budget    ? rpc::Status::Budget
               : o.end == ShrinkOutcome::End::Failure ? rpc::Status::Failure
                                                      : rpc::Status::Done;
  if (o.end == ShrinkOutcome::End::Failure) hdr_.failure = o.failure;
  res.improved = o.improved;
  hdr_.minimize.active = 0;
  res.execs = o.execs;
  res.duration_ns = o.duration_ns;
  return res;
}

void WorkerServer::before_candidate(const core::Minimizer& m, const corpus::Entry&, std::uint64_t count) {
  shrink_position_ = m.state().pack();
  std::copy(shrink_position_.begin(), shrink_position_.end(), hdr_.minimize.state);
  hdr_.minimize.candidates = count + 1;
}

void WorkerServer::after_candidate(const core::Minimizer& m, const corpus::Entry& candidate) {
  if (!shrink_guard_->intact()) rpc_lost(kDamagedChannel, true);
  if (!minimize_area_intact(candidate, shrink_position_)) shm_lost_while_minimizing(m, candidate, shrink_position_);
  // The check runs library templates that the target may share in instrumented form
  // (one copy per program): what they counted must not be the next candidate's coverage.
  core::CounterScanner::clear(coverage_registry().regions, coverage_registry().region_count);
}

void WorkerServer::improved(const core::Minimizer& m) { core::store_entry(shm_.best(), m.best(), area_size_); }

namespace {

core::ShmView map_shared_memory() {
  struct stat st;
  if (fstat(rpc::kShmFd, &st) != 0) die_internal("no shared memory on fd 5; workers are started by `cfuzz run`");
  auto size = static_cast<std::size_t>(st.st_size);
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, rpc::kShmFd, 0);
  if (p == MAP_FAILED) die_internal(std::string("cannot map shared memory: ") + std::strerror(errno));
  // The mapping stays; the descriptor is not needed any more, and the target cannot harm
  // what it cannot see.
  close(rpc::kShmFd);
  if (!core::shm_header_valid(p, size))
    die_internal("shared memory has an unexpected layout (cfuzz version mismatch?)");
  return core::ShmView(p);
}

}  // namespace

int serve_worker(const RegisteredTest& test, bool detect_leaks) {
  core::ShmView shm = map_shared_memory();
  core::ShmHeader& hdr = shm.header();
  ExecutionState& st = execution_state();
  st.phase = &hdr.phase;
  st.record = &hdr.failure;
  st.worker = true;
  install_crash_handlers();
  if (detect_leaks) enable_leak_detection();

  auto f = run_test_body(test);
  if (!f->fuzz_function()) die_internal(test.name + ": " + body_failure(*f));
  const auto& cov = coverage_registry();
  if (cov.total_counters > hdr.counters_capacity) {
    die_internal("the target has more coverage counters than the shared memory was sized for");
  }
  hdr.counters_len = cov.total_counters;
  WorkerServer server(test, *f, shm);
  server.serve();
}

}  // namespace fuzzer::cfuzz
