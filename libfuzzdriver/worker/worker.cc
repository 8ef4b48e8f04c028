#include "libfuzzdriver/worker/worker.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <spdlog/spdlog.h>

#include "core/rpc_json.h"
#include "core/run_queue_wait.h"
#include "core/shm_layout.h"
#include "libfuzzdriver/util/budget.h"
#include "libfuzzdriver/worker/sanitizer_env.h"
#include "libfuzzdriver/worker/sanitizer_report.h"
#include "libfuzzdriver/worker/target_info.h"

namespace cfuzz::driver {

namespace rpc = core::rpc;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

WorkerConfig worker_config_for(const TargetInfo& target, const TestInfo& test, bool detect_leaks) {
  WorkerConfig c;
  c.target = target.abs_path;
  c.test = test.name;
  c.env = fuzzing_environment(detect_leaks);
  c.detect_leaks = detect_leaks;
  c.types = test.types;
  c.counters = target.counters;
  return c;
}

Worker::Worker(int index, WorkerConfig config)
    : index_(index), config_(std::move(config)), growth_(config_.growth_limit_mb, config_.max_age) {
  shm_ = std::make_unique<SharedMemory>(config_.slot_capacity, static_cast<std::uint32_t>(config_.types.size()),
                                        config_.counters);
}

Worker::~Worker() {
  kill();
  close_pipes();
}

void Worker::close_pipes() {
  for (int* fd : {&req_w_, &resp_r_, &out_r_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

void Worker::start() {
  kill();
  close_pipes();
  // Whatever the last worker's target wrote over the region: the layout as made, and no
  // counter count until the new worker reports its own.
  shm_->restore_layout();
  shm_->header().counters_len = 0;
  lines_ = rpc::LineBuffer();
  output_.clear();
  killed_for_ = KilledFor::Nothing;
  auto [req_r, req_w] = make_pipe();
  auto [resp_r, resp_w] = make_pipe();
  auto [out_r, out_w] = make_pipe();
  SpawnSpec spec;
  spec.program = config_.target;
  spec.args = {std::string(core::rpc::kWorkerFlag) + "=" + config_.test};
  if (config_.detect_leaks) spec.args.emplace_back(rpc::kDetectLeaksFlag);
  if (config_.stack_limit_kb) {
    spec.args.push_back(std::string(rpc::kStackLimitFlag) + "=" + std::to_string(*config_.stack_limit_kb));
  }
  spec.env = config_.env;
  spec.fds = {{req_r, rpc::kRequestFd}, {resp_w, rpc::kResponseFd}, {shm_->fd(), rpc::kShmFd}, {out_w, 1}, {out_w, 2}};
  auto spawned = Clock::now();
  try {
    process_ = Process::spawn(spec);
  } catch (...) {
    for (int fd : {req_r, req_w, resp_r, resp_w, out_r, out_w}) ::close(fd);
    throw;
  }
  for (int fd : {req_r, resp_w, out_w}) ::close(fd);
  req_w_ = req_w;
  resp_r_ = resp_r;
  out_r_ = out_r;
  set_nonblocking(resp_r_);
  set_nonblocking(out_r_);

  // Worker start-up includes the target's own initialization, and a sanitizer's.
  Reply<rpc::PingResult> ping = call<rpc::PingResult>(rpc::Method::Ping, rpc::PingParams{}, 0, milliseconds(60000));
  auto last_lines = [this] {
    std::string out = output_;
    while (!out.empty() && out.back() == '\n') out.pop_back();
    if (out.size() > 2000) out = "..." + out.substr(out.size() - 2000);
    return out.empty() ? std::string() : "; its output:\n" + out;
  };
  if (ping.kind != CallOutcome::Kind::Ok) {
    std::string why = ping.error;
    kill();
    read_output(out_r_);  // all it wrote before it died
    throw std::runtime_error("worker for " + config_.test + " did not start (" + why + ")" + last_lines());
  }
  const rpc::PingResult& p = ping.result;
  if (p.protocol != rpc::kProtocolVersion) {
    kill();
    throw std::runtime_error("worker speaks protocol " + std::to_string(p.protocol) + ", expected " +
                             std::to_string(rpc::kProtocolVersion));
  }
  std::vector<corpus::Type> types;
  for (const auto& n : p.types) types.push_back(type_from_go_name(n));
  if (types != config_.types || p.counters != config_.counters) {
    kill();
    throw std::runtime_error("worker for " + config_.test +
                             " describes itself differently from the target (was it rebuilt during the run?)");
  }
  growth_.started(WorkerGrowth::Clock::now(), WorkerGrowth::Clock::now() - spawned);
  next_growth_check_ = {};  // the first call's size is the one growth is measured from
}

bool Worker::outgrown() {
  if (config_.growth_limit_mb == 0 && config_.max_age.count() == 0) return false;
  // /proc/<pid>/statm is read at most once a second, not after every call (one lasts about
  // 20 ms): growth worth a restart takes far longer than that, and a young worker is never
  // replaced anyway.
  auto now = WorkerGrowth::Clock::now();
  if (now < next_growth_check_) return false;
  next_growth_check_ = now + std::chrono::seconds(1);
  return growth_.outgrown(process_.rss_mb(), now);
}

void Worker::stop(milliseconds grace) {
  if (!process_.running()) return;
  if (req_w_ >= 0) {
    ::close(req_w_);
    req_w_ = -1;
  }
  auto deadline = Clock::now() + grace;
  while (Clock::now() < deadline) {
    if (out_r_ >= 0) read_output(out_r_);
    if (process_.poll_exit()) return;
    std::this_thread::sleep_for(milliseconds(5));
  }
  kill();
}

void Worker::kill() {
  if (process_.running()) {
    process_.kill_group();
    process_.wait();
  }
}

void Worker::read_output(int fd) {
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return;
    output_.append(buf, static_cast<std::size_t>(n));
    if (output_.size() > kMaxCapturedOutput) {
      output_.erase(0, output_.size() - kMaxCapturedOutput / 2);
    }
  }
}

Reply<rpc::FuzzResult> Worker::fuzz(const rpc::FuzzParams& p, milliseconds expected) {
  return call<rpc::FuzzResult>(rpc::Method::Fuzz, p, p.limit, expected);
}

Reply<rpc::ExecResult> Worker::exec(milliseconds expected) {
  return call<rpc::ExecResult>(rpc::Method::Exec, rpc::ExecParams{}, 0, expected);
}

Reply<rpc::ExecBatchResult> Worker::exec_batch(const rpc::ExecBatchParams& p, milliseconds expected) {
  return call<rpc::ExecBatchResult>(rpc::Method::ExecBatch, p, 0, expected);
}

Reply<rpc::MinimizeResult> Worker::minimize(const rpc::MinimizeParams& p, milliseconds expected) {
  return call<rpc::MinimizeResult>(rpc::Method::Minimize, p, p.limit, expected);
}

namespace {

template <class Result>
rpc::Status status_of(const Result& r) {
  return r.status;
}
rpc::Status status_of(const rpc::PingResult&) { return rpc::Status::Ok; }

}  // namespace

template <class Result, class Params>
Reply<Result> Worker::call(rpc::Method method, const Params& params, std::uint64_t limit, milliseconds expected) {
  Reply<Result> out;
  nlohmann::json result;
  static_cast<CallOutcome&>(out) = exchange(method, nlohmann::json(params), limit, expected, result);
  if (out.kind != CallOutcome::Kind::Ok) return out;
  try {
    result.get_to(out.result);
    out.status = status_of(out.result);
    if (!rpc::status_allowed(method, out.status)) {
      throw rpc::ProtocolError("status \"" + std::string(rpc::wire_name(out.status)) + "\"");
    }
  } catch (const std::exception& e) {
    // Well framed but not this method's result: the target wrote it onto the response pipe.
    static_cast<CallOutcome&>(out) =
        drop_for_protocol_error("malformed " + std::string(rpc::wire_name(method)) + " result: " + e.what());
    out.result = Result{};
    return out;
  }
  if (out.status == rpc::Status::Failure) {
    out.input_fault = true;
    out.failure = core::failure_from_worker(shm_->header().failure);
    refine_from_sanitizer_report(out.failure, output_);
  }
  return out;
}

CallOutcome Worker::exchange(rpc::Method method, const nlohmann::json& params, std::uint64_t limit,
                             milliseconds expected, nlohmann::json& result) {
  auto start = Clock::now();
  CallOutcome out = call_unchecked(method, params, expected, result);
  if (!shm_->layout_intact()) {
    out.layout_damaged = true;
    shm_->restore_layout();
  }
  // The execution count comes from shared memory, which the target may have written over:
  // no more than the call was allowed, nor than one execution per 10 ns of the call.
  auto elapsed_ns =
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
  std::uint64_t plausible = elapsed_ns / 10 + 1;
  if (limit != 0) plausible = std::min(plausible, limit);
  out.execs = std::min(out.execs, plausible);
  return out;
}

CallOutcome Worker::call_unchecked(rpc::Method method, const nlohmann::json& params, milliseconds expected,
                                   nlohmann::json& result) {
  CallOutcome out;
  if (!process_.running()) {
    out.kind = CallOutcome::Kind::Died;
    out.error = "worker is not running";
    return out;
  }
  core::ShmHeader& hdr = shm_->header();
  core::failure_clear(hdr.failure);
  hdr.exec_count.store(0);
  if (method != rpc::Method::Ping) output_.clear();
  killed_for_ = KilledFor::Nothing;

  rpc::Request req{next_id_++, method, params};
  if (!rpc::write_all(req_w_, rpc::encode_request(req))) {
    // EPIPE: the worker is gone (SIGPIPE is ignored by the coordinator).
    process_.wait();
    return classify_death(CallOutcome::Kind::Died, "worker exited before the call");
  }

  auto start = Clock::now();
  // Both deadlines run on the worker's runnable time (core/run_queue_wait.h): on a machine
  // with more busy processes than cores, time the worker spent waiting for a CPU is not
  // the input's.
  core::RunnableDeadline since_start(process_.pid(), process_.pid(), start);
  core::RunnableDeadline since_progress = since_start;
  std::uint64_t last_count = 0;
  pollfd fds[2] = {{resp_r_, POLLIN, 0}, {out_r_, POLLIN, 0}};
  char buf[65536];
  for (;;) {
    // Memory is checked every 100 ms across calls, not within each: a fuzzing call lasts
    // 20 ms, and a worker that grows a little in each would never be seen past the limit.
    if (config_.rss_limit_mb != 0 && Clock::now() >= next_rss_check_) {
      next_rss_check_ = Clock::now() + milliseconds(100);
      std::uint64_t rss = process_.rss_mb();
      if (rss > config_.rss_limit_mb) {
        killed_for_ = KilledFor::Memory;
        rss_at_kill_ = rss;
        return kill_during_call();
      }
    }
    int r = poll(fds, 2, 50);
    if (r < 0 && errno != EINTR) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    if (fds[1].revents != 0) read_output(out_r_);
    if (fds[0].revents != 0) {
      ssize_t n = ::read(resp_r_, buf, sizeof buf);
      if (n > 0) {
        lines_.append(buf, static_cast<std::size_t>(n));
        std::optional<std::string> line;
        try {
          line = lines_.next_line();
          if (line) {
            rpc::Response resp = rpc::decode_response(*line);
            if (resp.id != req.id)
              throw rpc::ProtocolError("response to call " + std::to_string(resp.id) + ", expected " +
                                       std::to_string(req.id));
            if (!lines_.empty()) throw rpc::ProtocolError("unexpected bytes after the response");
            read_output(out_r_);
            out.execs = hdr.exec_count.load();
            if (!resp.ok) {
              out.kind = CallOutcome::Kind::Error;
              out.error = resp.error_message;
              out.error_code = resp.error_code;
              return out;
            }
            out.kind = CallOutcome::Kind::Ok;
            result = std::move(resp.result);
            return out;
          }
        } catch (const rpc::ProtocolError& e) {
          std::string what = e.what();
          if (line && !line->empty()) {
            std::string shown = line->size() > 80 ? line->substr(0, 80) + "..." : *line;
            what += ": " + shown;
          }
          return drop_for_protocol_error(what);
        }
      } else if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        // The response pipe closed: the worker is dead (or dying).
        process_.wait();
        read_output(out_r_);
        return classify_death(CallOutcome::Kind::Died, "worker died: " + describe_status(process_.status()));
      }
    }

    // Death is read from the process, not only from the pipe: a child the target forked
    // holds the pipes open after the worker itself has died.
    if (fds[0].revents == 0 && process_.poll_exit()) {
      process_.kill_group();
      read_output(out_r_);
      return classify_death(CallOutcome::Kind::Died, "worker died: " + describe_status(process_.status()));
    }

    // The watchdog: one input running too long, too much memory, a stuck worker.
    auto now = Clock::now();
    std::uint64_t count = hdr.exec_count.load(std::memory_order_relaxed);
    auto phase = static_cast<core::Phase>(hdr.phase.load(std::memory_order_relaxed));
    if (count != last_count || phase != core::Phase::Executing) {
      last_count = count;
      since_progress.restart(now);
    }
    if (phase == core::Phase::Executing && since_progress.exceeded(config_.timeout, now)) {
      killed_for_ = KilledFor::Timeout;
    } else if (phase != core::Phase::Executing &&
               since_start.exceeded(expected + config_.timeout + milliseconds(10000), now)) {
      killed_for_ = KilledFor::Stuck;
    }
    if (killed_for_ != KilledFor::Nothing) return kill_during_call();
  }
}

CallOutcome Worker::kill_during_call() {
  process_.kill_group();
  process_.wait();
  read_output(out_r_);
  return classify_death(CallOutcome::Kind::Died, "worker killed");
}

CallOutcome Worker::drop_for_protocol_error(const std::string& why) {
  killed_for_ = KilledFor::Protocol;
  process_.kill_group();
  process_.wait();
  read_output(out_r_);
  return classify_death(CallOutcome::Kind::ProtocolError, why);
}

CallOutcome Worker::classify_death(CallOutcome::Kind kind, const std::string& why) {
  CallOutcome out;
  out.kind = kind;
  out.error = why;
  core::ShmHeader& hdr = shm_->header();
  out.execs = hdr.exec_count.load();
  core::FailureRecord rec = core::failure_from_worker(hdr.failure);
  auto phase = static_cast<core::Phase>(hdr.phase.load());
  int status = process_.status();
  auto set = [&](core::FailureKind k, const std::string& detail, const std::string& message) {
    core::failure_clear(rec);
    rec.kind = static_cast<std::uint32_t>(k);
    core::failure_set(rec.detail, detail);
    core::failure_set(rec.message, message);
    out.input_fault = true;
  };

  switch (killed_for_) {
    case KilledFor::Timeout:
      set(core::FailureKind::Timeout, "timeout",
          "an input ran for more than " + format_elapsed(config_.timeout) + " (--timeout)");
      break;
    case KilledFor::Memory:
      set(core::FailureKind::OutOfMemory, "out-of-memory",
          "the target used " + std::to_string(rss_at_kill_) + " MB of memory, over the " +
              std::to_string(config_.rss_limit_mb) + " MB limit (--rss-limit-mb)");
      break;
    case KilledFor::Stuck: out.error = "worker stopped answering outside the fuzz function"; break;
    case KilledFor::Protocol:
      // Garbage on the response pipe: the target wrote to fd 4, somewhere in this call.
      set(core::FailureKind::RpcCorrupted, "rpc-corrupted", "the target wrote to the RPC descriptor (fd 4): " + why);
      out.exact_input = false;
      break;
    case KilledFor::Nothing:
      if (rec.kind != static_cast<std::uint32_t>(core::FailureKind::None)) {
        // The runtime described it before dying (signal handler, sanitizer callback, exit
        // hook, or a lost RPC channel).
        out.input_fault = true;
        if (rec.kind == static_cast<std::uint32_t>(core::FailureKind::RpcCorrupted)) {
          out.exact_input = (rec.flags & core::kFailureExactInput) != 0;
        }
        if (rec.kind == static_cast<std::uint32_t>(core::FailureKind::Exit) && WIFEXITED(status)) {
          rec.exit_code = WEXITSTATUS(status);
        }
      } else if (phase == core::Phase::Executing) {
        if (WIFEXITED(status)) {
          set(core::FailureKind::Exit, "exit", "");
          rec.exit_code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
          int sig = WTERMSIG(status);
          if (sig == SIGKILL || sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT) {
            // Killed from outside (the user, the OOM killer): like Go, not the input's fault.
            out.error = "worker was terminated by " + describe_status(status) + "; no failure is recorded";
          } else {
            set(core::FailureKind::Signal, describe_status(status).substr(7), "");
            rec.signal = sig;
          }
        }
      } else if (WIFEXITED(status) && WEXITSTATUS(status) == rpc::kWorkerExitInternal) {
        // The worker gave up and said why on its last line.
        std::string why_line = output_;
        while (!why_line.empty() && why_line.back() == '\n') why_line.pop_back();
        if (auto nl = why_line.rfind('\n'); nl != std::string::npos) why_line.erase(0, nl + 1);
        out.error = "worker failed: " + (why_line.empty() ? describe_status(status) : why_line);
      } else {
        out.error = "worker died outside the fuzz function: " + describe_status(status);
      }
      break;
  }
  if (out.input_fault) refine_from_sanitizer_report(rec, output_);
  out.failure = rec;
  return out;
}

}  // namespace cfuzz::driver
