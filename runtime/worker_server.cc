#include "runtime/worker_server.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <vector>

#include "core/coverage.h"
#include "core/input_area.h"
#include "core/minimizer.h"
#include "core/mutator.h"
#include "core/pcg.h"
#include "core/rpc.h"
#include "core/shm_layout.h"
#include "corpus_format/value.h"
#include "runtime/cmp_table.h"
#include "runtime/cmp_words.h"
#include "runtime/coverage_registry.h"
#include "runtime/crash_handler.h"
#include "runtime/custom_mutator.h"
#include "runtime/executor.h"
#include "runtime/leak_check.h"
#include "runtime/rpc_guard.h"
#include "runtime/test_body.h"

namespace cfuzz::runtime {

namespace {

namespace rpc = core::rpc;
using core::FailureKind;
using core::FailureRecord;

std::uint64_t monotonic_ns(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

[[noreturn]] void die_internal(const std::string& why) {
  std::fprintf(stderr, "cfuzz worker: %s\n", why.c_str());
  std::fflush(stderr);
  _exit(rpc::kWorkerExitInternal);
}

constexpr const char* kDamagedChannel =
    "the target wrote to, closed or replaced the RPC descriptors (fd 3 and 4)";
constexpr const char* kDamagedMemory = "the target wrote over cfuzz's shared memory";

class WorkerServer {
 public:
  WorkerServer(const RegisteredTest& test, detail::TestState& f, core::ShmView shm)
      : custom_mutators_(test, f),
        ex_(f),
        shm_(shm),
        hdr_(shm.header()),
        area_size_(shm.header().input_area_size),
        mutator_(kDefaultMaxLen),
        words_(cmp_table(), base_cmps_) {
    mutator_.set_words(&words_);
    if (!custom_mutators_.empty()) mutator_.set_value_mutator(&custom_mutators_);
    std::memcpy(layout_, &hdr_, sizeof layout_);
    const auto& cov = coverage_registry();
    touched_.resize(cov.total_counters / 8 + 16 * cov.region_count + 16);
    if (!in_id_.read(rpc::kRequestFd) || !out_id_.read(rpc::kResponseFd)) {
      die_internal("the RPC descriptors 3 and 4 are not open; workers are started by `cfuzz run`");
    }
  }

  [[noreturn]] void serve() {
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
        if (n == 0) _exit(0);  // the coordinator closed the pipe: shut down
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

 private:
  static constexpr std::uint64_t kDefaultMaxLen = 4096;
  static constexpr std::size_t kNewWordsPerCall = 16;

  rpc::Response handle(const std::string& line) {
    rpc::Response resp;
    rpc::Request req;
    try {
      req = rpc::decode_request(line);
    } catch (const rpc::ProtocolError& e) {
      die_internal(std::string("bad request from the coordinator: ") + e.what());
    }
    resp.id = req.id;
    try {
      nlohmann::json result;
      if (req.method == "ping") {
        rpc::PingResult r;
        r.pid = getpid();
        r.test = ex_types_test_name();
        for (auto t : ex_.types()) r.types.emplace_back(corpus::go_type_name(t));
        r.counters = coverage_registry().total_counters;
        result = r;
      } else if (req.method == "fuzz") {
        result = fuzz(req.params.get<rpc::FuzzParams>());
      } else if (req.method == "exec") {
        result = exec();
      } else if (req.method == "minimize") {
        result = minimize(req.params.get<rpc::MinimizeParams>());
      } else {
        resp.ok = false;
        resp.error_code = rpc::kMethodNotFound;
        resp.error_message = "unknown method " + req.method;
        return resp;
      }
      resp.ok = true;
      resp.result = std::move(result);
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

  std::string ex_types_test_name() const { return ex_.last_input().test_name(); }

  // The target may have closed or replaced the descriptors: then no reply can reach the
  // coordinator, and the worker says so by its exit code and the failure record.
  void reply(const rpc::Response& r) {
    if (!in_id_.same_as(rpc::kRequestFd) || !out_id_.same_as(rpc::kResponseFd)) {
      rpc_lost("the target closed or replaced the RPC descriptors (fd 3 and 4)");
    }
    if (!rpc::write_all(rpc::kResponseFd, rpc::encode_response(r))) {
      rpc_lost("cannot write RPC responses to fd 4");
    }
  }

  [[noreturn]] void rpc_lost(const char* why, bool exact = false) {
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

  // Paranoid replays (the coordinator saw the channel or the shared memory damaged) check
  // after every execution that neither was touched, so that the call stops at the input
  // that did it. The input was put aside before it ran, since the damage may be to it.
  void check_intact(const RpcGuard& guard) {
    if (!guard.intact()) rpc_lost(kDamagedChannel, true);
    if (std::memcmp(layout_, &hdr_, sizeof layout_) == 0 &&
        std::memcmp(aside_.data(), &shm_.current(), area_size_) == 0) {
      return;
    }
    std::memcpy(static_cast<void*>(&hdr_), layout_, sizeof layout_);  // raw bytes back over the header
    std::memcpy(&shm_.current(), aside_.data(), area_size_);
    blame_input_for_damaged_memory();
  }

  // With the layout and the input put back: the input that ran last is the one that wrote
  // over shared memory; say so in the failure record and end the worker.
  [[noreturn]] void blame_input_for_damaged_memory() {
    core::failure_clear(hdr_.failure);
    hdr_.failure.kind = static_cast<std::uint32_t>(FailureKind::RpcCorrupted);
    hdr_.failure.flags = core::kFailureExactInput;
    core::failure_set(hdr_.failure.detail, "shm-corrupted");
    core::failure_set(hdr_.failure.message, kDamagedMemory);
    std::fprintf(stderr, "cfuzz worker: %s\n", kDamagedMemory);
    std::fflush(stderr);
    _exit(rpc::kWorkerExitRpcLost);
  }

  // While minimizing, the coordinator resumes from shared memory after a candidate kills
  // the worker: the layout, the published position and the candidate must be as written.
  bool minimize_area_intact(const corpus::Entry& candidate, const std::array<std::uint64_t, 6>& position) {
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

  // The candidate wrote over shared memory: put back what the coordinator needs to judge it
  // and resume after it (the minimizer's own copies are in this process's memory), blame it
  // exactly, and end the worker.
  [[noreturn]] void shm_lost_while_minimizing(const core::Minimizer& m, const corpus::Entry& candidate,
                                              const std::array<std::uint64_t, 6>& position) {
    std::memcpy(static_cast<void*>(&hdr_), layout_, sizeof layout_);  // raw bytes back over the header
    core::store_entry(shm_.current(), candidate, area_size_);
    core::store_entry(shm_.best(), m.best(), area_size_);
    std::copy(position.begin(), position.end(), hdr_.minimize.state);
    hdr_.minimize.active = 1;
    blame_input_for_damaged_memory();
  }

  // Checks that an input area holds values of the fuzz function's types.
  void check_area(const core::InputAreaHeader& a, const char* what) const {
    const auto& types = ex_.types();
    if (a.count != 0 && (a.slot_capacity > area_size_ || core::kInputDataOffset + a.slot_capacity * a.count > area_size_)) {
      throw std::runtime_error(std::string(what) + " input area is damaged (slots larger than the area)");
    }
    if (a.count != types.size()) {
      throw std::runtime_error(std::string(what) + " input has " + std::to_string(a.count) +
                               " values, the fuzz function takes " + std::to_string(types.size()));
    }
    for (std::uint32_t i = 0; i < a.count; ++i) {
      if (a.slots[i].type != static_cast<std::uint8_t>(types[i]) || a.slots[i].len > a.slot_capacity) {
        throw std::runtime_error(std::string(what) + " input does not match the fuzz function's types");
      }
    }
  }

  void prepare_args(core::InputAreaHeader& a) {
    for (std::uint32_t i = 0; i < a.count; ++i) {
      const core::SlotHeader& s = a.slots[i];
      if (s.type == static_cast<std::uint8_t>(corpus::Type::Bytes) ||
          s.type == static_cast<std::uint8_t>(corpus::Type::String)) {
        args_[i] = detail::ArgView{buffers_.fill(i, core::ShmView::slot_data(a, i), s.len), s.len, 0};
      } else {
        args_[i] = detail::ArgView{nullptr, 0, s.bits};
      }
    }
  }

  // Runs what is in the `current` area, counts it, and scans the coverage it produced.
  RunResult run_current(FailureRecord* failure, std::uint64_t count, bool* fresh) {
    if (!aside_.empty()) std::memcpy(aside_.data(), &shm_.current(), area_size_);
    prepare_args(shm_.current());
    hdr_.exec_count.store(count, std::memory_order_relaxed);
    // Comparisons are recorded while the target runs, not while the runtime itself (the
    // mutator searching the input, say) calls memcmp.
    CmpTable& cmp = cmp_table();
    cmp.set_enabled(true);
    leak_tracking_begin();
    begin_execution();
    RunResult r = ex_.run(args_, {}, failure);
    end_execution();
    leak_tracking_end();
    cmp.set_enabled(false);
    const auto& cov = coverage_registry();
    *fresh = scanner_.scan_and_clear(cov.regions, cov.region_count, shm_.mask(), touched_.data(),
                                     &touched_count_);
    // A leak ends the worker: the leaked blocks would be reported again for later inputs.
    if (r != RunResult::Fail && (*fresh || check_every_input_) && input_leaked()) fail_input_for_leak();
    return r;
  }

  // Writes an input-to-state candidate into an input area holding the base input.
  static bool apply(const CmpWords::Candidate& c, core::InputAreaHeader& a) {
    core::SlotHeader& slot = a.slots[c.value];
    auto type = static_cast<corpus::Type>(slot.type);
    if (type != corpus::Type::Bytes && type != corpus::Type::String) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, c.bytes.data(), std::min<std::size_t>(8, c.bytes.size()));
      // Through the value type and back: truncated and extended as the type wants.
      slot.bits = core::scalar_bits(core::scalar_from_bits(type, bits));
      return true;
    }
    std::uint64_t new_len = slot.len - c.old_len + c.bytes.size();
    if (c.pos + c.old_len > slot.len || new_len > a.slot_capacity) return false;
    std::uint8_t* d = core::ShmView::slot_data(a, c.value);
    std::memmove(d + c.pos + c.bytes.size(), d + c.pos + c.old_len, slot.len - c.pos - c.old_len);
    std::memcpy(d + c.pos, c.bytes.data(), c.bytes.size());
    slot.len = new_len;
    return true;
  }

  void write_snapshot() {
    core::CounterScanner::write_snapshot(touched_.data(), touched_count_, shm_.snapshot(),
                                         hdr_.counters_len);
  }

  std::uint64_t new_bits() const {
    return core::count_new_bits(shm_.snapshot(), shm_.mask(), hdr_.counters_len);
  }

  void start_call() {
    hdr_.exec_count.store(0, std::memory_order_relaxed);
    core::failure_clear(hdr_.failure);
    const auto& cov = coverage_registry();
    core::CounterScanner::clear(cov.regions, cov.region_count);
  }

  rpc::FuzzResult fuzz(const rpc::FuzzParams& p) {
    check_every_input_ = false;  // leaks: only inputs with new coverage, as libFuzzer
    check_area(shm_.base(), "base");
    const core::InputAreaHeader* splice = nullptr;
    if (shm_.splice().count == shm_.base().count) {
      check_area(shm_.splice(), "splice");
      splice = &shm_.splice();
    }
    std::uint64_t max_len = p.max_len != 0 ? p.max_len : kDefaultMaxLen;
    if (max_len != mutator_max_len_) {
      mutator_ = core::Mutator(max_len);
      mutator_.set_words(&words_);
      if (!custom_mutators_.empty()) mutator_.set_value_mutator(&custom_mutators_);
      mutator_max_len_ = max_len;
    }
    std::vector<std::string> dictionary;
    dictionary.reserve(p.dictionary.size());
    for (const auto& hex : p.dictionary) dictionary.push_back(rpc::from_hex(hex));
    words_.set_dictionary(std::move(dictionary));
    start_call();
    rng_.reseed(p.seed, 1);
    // What a call does depends only on its inputs and seed (so it can be replayed): no
    // comparisons carried over from earlier calls.
    cmp_table().clear();
    std::uint64_t start = monotonic_ns(CLOCK_MONOTONIC);
    std::uint64_t deadline = p.deadline_ms != 0 ? monotonic_ns(CLOCK_MONOTONIC_COARSE) + p.deadline_ms * 1000000ULL : 0;
    rpc::FuzzResult res;
    res.status = "ok";
    FailureRecord failure;
    std::uint64_t count = 0;
    aside_.clear();
    std::optional<RpcGuard> guard;  // paranoid mode: a replay of a damaged call
    if (p.paranoid) {
      guard.emplace();
      aside_.resize(area_size_);
    }
    // The base input runs once as it is: its comparisons guide this call's mutations
    // (input-to-state), and the coordinator learns its constants.
    base_cmps_.clear();
    {
      core::copy_input_area(shm_.base(), shm_.current());
      bool fresh = false;
      RunResult r = run_current(&failure, ++count, &fresh);
      if (guard) check_intact(*guard);
      if (r == RunResult::Fail) {
        hdr_.failure = failure;
        res.status = "failure";
        return finish(res, count, start);
      }
      base_cmps_ = cmp_table();
      if (fresh && r == RunResult::Pass) {
        write_snapshot();
        res.new_bits = new_bits();
        res.status = "interesting";
        return finish(res, count, start);
      }
    }
    // LLVMFuzzerMutate mutates with this call's engine (a custom mutator may call it).
    set_llvm_fuzzer_mutate_engine(&mutator_, &rng_);
    if (p.input_to_state != 0) {
      for (const auto& c : words_.input_to_state_candidates(shm_.base(), p.input_to_state)) {
        // Input-to-state rewrites raw bytes; a value with a custom mutator is an encoding the
        // target owns, so (as in libFuzzer) only its mutator changes it.
        if (custom_mutators_.handles(c.value)) continue;
        if ((p.limit != 0 && count >= p.limit) ||
            (deadline != 0 && monotonic_ns(CLOCK_MONOTONIC_COARSE) >= deadline)) {
          break;
        }
        core::copy_input_area(shm_.base(), shm_.current());
        if (!apply(c, shm_.current())) continue;
        bool fresh = false;
        RunResult r = run_current(&failure, ++count, &fresh);
        if (guard) check_intact(*guard);
        if (r == RunResult::Fail) {
          hdr_.failure = failure;
          res.status = "failure";
          return finish(res, count, start);
        }
        if (fresh && r == RunResult::Pass) {
          write_snapshot();
          res.new_bits = new_bits();
          res.status = "interesting";
          if (c.bytes.size() >= 2) res.useful_words.push_back(rpc::to_hex(c.bytes));
          return finish(res, count, start);
        }
      }
    }
    std::uint64_t chain = 0;
    for (;;) {
      if (p.limit != 0 && count >= p.limit) break;
      // Go's chain: five stacked mutations, then back to the original input.
      if (chain++ % 5 == 0) {
        core::copy_input_area(shm_.base(), shm_.current());
        hdr_.rng_state = rng_.state();
        hdr_.rng_inc = rng_.inc();
        words_.begin_chain();
      }
      if (mutator_.mutate(shm_.current(), splice, rng_)) {
        // A custom mutator is the target's instrumented code: what it counted is not the
        // coverage of the input it made (libFuzzer resets its maps before each execution).
        core::CounterScanner::clear(coverage_registry().regions, coverage_registry().region_count);
      }
      bool fresh = false;
      RunResult r = run_current(&failure, ++count, &fresh);
      if (guard) check_intact(*guard);
      if (r == RunResult::Fail) {
        hdr_.failure = failure;
        res.status = "failure";
        break;
      }
      // A skipped input is not worth keeping, whatever it covered (cfuzz.h: skip).
      if (fresh && r == RunResult::Pass) {
        write_snapshot();
        res.new_bits = new_bits();
        res.status = "interesting";
        for (const auto& w : words_.chain_words()) res.useful_words.push_back(rpc::to_hex(w));
        break;
      }
      if (p.limit != 0 && count >= p.limit) break;
      if (deadline != 0 && monotonic_ns(CLOCK_MONOTONIC_COARSE) >= deadline) break;
    }
    return finish(res, count, start);
  }

  // Fills in what every fuzz call reports, however it ended.
  rpc::FuzzResult& finish(rpc::FuzzResult& res, std::uint64_t count, std::uint64_t start) {
    for (const auto& w : words_.new_constants(kNewWordsPerCall)) res.new_words.push_back(rpc::to_hex(w));
    res.execs = count;
    res.duration_ns = monotonic_ns(CLOCK_MONOTONIC) - start;
    res.exec_ns = count != 0 ? res.duration_ns / count : 0;
    return res;
  }

  rpc::ExecResult exec() {
    check_every_input_ = true;
    check_area(shm_.base(), "base");
    start_call();
    core::copy_input_area(shm_.base(), shm_.current());
    FailureRecord failure;
    bool fresh = false;
    std::uint64_t start = monotonic_ns(CLOCK_MONOTONIC);
    RunResult r;
    {
      RpcGuard guard;
      aside_.resize(area_size_);  // one execution: check it as a paranoid call does
      r = run_current(&failure, 1, &fresh);
      check_intact(guard);
      aside_.clear();
    }
    rpc::ExecResult res;
    res.duration_ns = monotonic_ns(CLOCK_MONOTONIC) - start;
    write_snapshot();
    res.new_bits = new_bits();
    if (r == RunResult::Fail) {
      hdr_.failure = failure;
      res.status = "failure";
    } else {
      res.status = r == RunResult::Skip ? "skipped" : "ok";
    }
    return res;
  }

  rpc::MinimizeResult minimize(const rpc::MinimizeParams& p) {
    check_every_input_ = true;
    check_area(shm_.base(), "base");
    bool coverage_mode = p.mode == "coverage";
    if (!coverage_mode && p.mode != "failure") throw std::invalid_argument("unknown minimize mode " + p.mode);
    FailureRecord target{};
    target.kind = p.target.kind;
    target.exit_code = p.target.exit_code;
    core::failure_set(target.detail, p.target.detail);
    core::failure_set(target.site, p.target.site);
    // The bits to keep are in the mask area; keep a private copy, since the snapshot
    // comparison reads the mask area too.
    std::vector<std::uint8_t> keep(shm_.mask(), shm_.mask() + hdr_.counters_len);

    start_call();
    std::uint64_t packed[6];
    std::copy(p.state.begin(), p.state.end(), packed);
    core::Minimizer m(core::load_entry(shm_.base(), area_size_), core::MinimizerState::unpack(packed));
    if (p.resume_verdict.has_value()) m.report(*p.resume_verdict);
    core::copy_input_area(shm_.base(), shm_.best());
    hdr_.minimize.active = 1;

    rpc::MinimizeResult res;
    res.status = "done";
    std::uint64_t start = monotonic_ns(CLOCK_MONOTONIC);
    std::uint64_t deadline = p.deadline_ms != 0 ? start + p.deadline_ms * 1000000ULL : 0;
    std::uint64_t count = 0;
    corpus::Entry candidate;
    FailureRecord failure;
    // One guard for the whole call (the response is written after it is gone), checked after
    // every candidate: setting decoy pipes up per candidate cost more than the candidates.
    RpcGuard guard;
    for (;;) {
      if ((p.limit != 0 && count >= p.limit) ||
          (deadline != 0 && monotonic_ns(CLOCK_MONOTONIC) >= deadline)) {
        res.status = "budget";
        break;
      }
      if (!m.next(&candidate)) break;
      auto packed_state = m.state().pack();
      std::copy(packed_state.begin(), packed_state.end(), hdr_.minimize.state);
      hdr_.minimize.candidates = count + 1;
      core::store_entry(shm_.current(), candidate, area_size_);
      bool fresh = false;
      core::failure_clear(hdr_.failure);
      RunResult r = run_current(&failure, ++count, &fresh);
      if (!guard.intact()) rpc_lost(kDamagedChannel, true);
      if (!minimize_area_intact(candidate, packed_state)) shm_lost_while_minimizing(m, candidate, packed_state);
      // The check runs library templates that the target may share in instrumented form
      // (one copy per program): what they counted must not be the next candidate's coverage.
      core::CounterScanner::clear(coverage_registry().regions, coverage_registry().region_count);
      bool qualifies;
      if (coverage_mode) {
        if (r == RunResult::Fail) {
          // A new failure found while shrinking an interesting input: report it.
          hdr_.failure = failure;
          res.status = "failure";
          break;
        }
        write_snapshot();
        qualifies = core::covers(shm_.snapshot(), keep.data(), hdr_.counters_len);
      } else {
        qualifies = r == RunResult::Fail && core::same_failure(failure, target);
      }
      m.report(qualifies);
      if (qualifies) {
        core::store_entry(shm_.best(), m.best(), area_size_);
        res.improved = true;
      }
    }
    hdr_.minimize.active = 0;
    res.execs = count;
    res.duration_ns = monotonic_ns(CLOCK_MONOTONIC) - start;
    return res;
  }

  CustomMutators custom_mutators_;
  Executor ex_;
  core::ShmView shm_;
  core::ShmHeader& hdr_;
  std::uint64_t area_size_;  // as validated at start-up, before the target ran
  core::Mutator mutator_;
  std::uint64_t mutator_max_len_ = kDefaultMaxLen;
  CmpTable base_cmps_{};
  CmpWords words_;
  core::Pcg rng_;
  InputBuffers buffers_;
  detail::ArgView args_[core::kMaxValues];
  core::CounterScanner scanner_;
  std::vector<core::CounterScanner::Touched> touched_;
  std::size_t touched_count_ = 0;
  FdIdentity in_id_, out_id_;
  // The header's layout fields (magic to counters_capacity), as the coordinator wrote them.
  std::uint8_t layout_[offsetof(core::ShmHeader, counters_len)];
  std::vector<std::uint8_t> aside_;  // paranoid calls: the input about to run
  bool check_every_input_ = true;    // leak checks for every input, not only new coverage
};

core::ShmView map_shared_memory() {
  struct stat st;
  if (fstat(rpc::kShmFd, &st) != 0) die_internal("no shared memory on fd 5; workers are started by `cfuzz run`");
  auto size = static_cast<std::size_t>(st.st_size);
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, rpc::kShmFd, 0);
  if (p == MAP_FAILED) die_internal(std::string("cannot map shared memory: ") + std::strerror(errno));
  // The mapping stays; the descriptor is not needed any more, and the target cannot harm
  // what it cannot see.
  close(rpc::kShmFd);
  if (!core::shm_header_valid(p, size)) die_internal("shared memory has an unexpected layout (cfuzz version mismatch?)");
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

}  // namespace cfuzz::runtime
