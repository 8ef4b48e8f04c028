#include "libfuzzdriver/minimize/minimize_driver.h"

#include <cstdio>
#include <cstring>

#include "core/coverage.h"
#include "core/input_area.h"
#include "core/rpc.h"

namespace cfuzz::driver {

namespace rpc = core::rpc;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// A minimize call runs at most this long, so that progress is reported and an interrupt
// is honoured promptly; the next call resumes where it stopped.
constexpr milliseconds kMinimizeSlice{1000};

rpc::FailureSignature signature_of(const core::FailureRecord& r) {
  rpc::FailureSignature s;
  s.kind = r.kind;
  s.exit_code = r.exit_code;
  s.detail = r.detail;
  s.site = r.site;
  return s;
}

void warn(const MinimizeLimits& limits, const std::string& text) {
  if (limits.warn) {
    limits.warn(text);
  } else {
    std::fprintf(stderr, "warning: %s\n", text.c_str());
  }
}

bool ensure_running(Worker& w, const MinimizeLimits& limits) {
  if (w.running()) return true;
  try {
    w.start();
    return true;
  } catch (const std::exception& e) {
    warn(limits, "worker " + std::to_string(w.index()) + ": cannot restart while minimizing: " + e.what());
    return false;
  }
}

MinimizeOutcome& out_of_budget(MinimizeOutcome& out) {
  out.out_of_budget = true;
  return out;
}

// The shared loop of both modes. `keep` is empty in failure mode.
MinimizeOutcome run_minimize(Worker& w, const corpus::Entry& input, const core::FailureRecord* target,
                             const std::vector<std::uint8_t>* keep, const MinimizeLimits& limits) {
  MinimizeOutcome out;
  out.best = input;
  rpc::MinimizeParams params;
  params.mode = target != nullptr ? rpc::MinimizeMode::Failure : rpc::MinimizeMode::Coverage;
  if (target != nullptr) params.target = signature_of(*target);

  for (;;) {
    if (limits.cancelled && limits.cancelled()) return out;
    std::uint64_t limit = 0, deadline_ms = static_cast<std::uint64_t>(kMinimizeSlice.count());
    if (limits.execs) {
      if (out.execs >= *limits.execs) return out_of_budget(out);
      limit = *limits.execs - out.execs;
    }
    if (limits.restarts && out.restarts >= *limits.restarts) return out_of_budget(out);
    if (limits.deadline) {
      auto left = std::chrono::duration_cast<milliseconds>(*limits.deadline - Clock::now()).count();
      if (left <= 0) return out_of_budget(out);
      deadline_ms = std::min<std::uint64_t>(deadline_ms, static_cast<std::uint64_t>(left));
    }
    if (!ensure_running(w, limits)) return out;
    core::ShmView shm = w.shm().view();
    try {
      core::store_entry(shm.base(), out.best, w.shm().input_area_size());
    } catch (const std::exception& e) {
      warn(limits, std::string("cannot minimize: ") + e.what());
      return out;
    }
    if (keep != nullptr) std::memcpy(shm.mask(), keep->data(), keep->size());
    params.limit = limit;
    params.deadline_ms = deadline_ms;
    Reply<rpc::MinimizeResult> r = w.minimize(params, milliseconds(deadline_ms));
    out.execs += r.execs;
    if (r.kind == CallOutcome::Kind::Ok) {
      const rpc::MinimizeResult& res = r.result;
      if (res.improved) out.best = core::load_entry(shm.best(), w.shm().input_area_size());
      if (r.verdict() == CallOutcome::Verdict::Failed) {
        // Coverage mode: a candidate failed. It is in `current`.
        out.found_failure = true;
        out.failure = r.failure;
        out.failing_input = core::load_entry(shm.current(), w.shm().input_area_size());
        return out;
      }
      if (res.status == rpc::Status::Done) {
        out.complete = true;
        return out;
      }
      // The slice ended: go on from where the minimizer stopped. Its published position is
      // that of the last candidate, which is tried again (its verdict was not kept).
      if (limits.on_progress) limits.on_progress(out.best, out.execs, out.restarts);
      std::copy(std::begin(shm.header().minimize.state), std::end(shm.header().minimize.state), params.state.begin());
      params.resume_verdict.reset();
      continue;
    }
    if (r.kind == CallOutcome::Kind::Error) {
      warn(limits, "worker " + std::to_string(w.index()) + ": minimize failed: " + r.error);
      return out;
    }
    // The worker died on a candidate (or was killed for a hang or memory). Judge that
    // candidate, then resume right after it in a new worker.
    core::ShmHeader& hdr = shm.header();
    if (hdr.minimize.active == 0) return out;  // died before minimizing began
    corpus::Entry candidate;
    corpus::Entry best_so_far;
    try {
      candidate = core::load_entry(shm.current(), w.shm().input_area_size());
      best_so_far = core::load_entry(shm.best(), w.shm().input_area_size());
    } catch (const std::exception& e) {
      warn(limits, "worker " + std::to_string(w.index()) + ": shared memory unreadable after a crash: " + e.what());
      return out;
    }
    bool qualifies = false;
    if (r.verdict() == CallOutcome::Verdict::Failed && r.exact_input) {
      if (target != nullptr) {
        qualifies = core::same_failure(r.failure, *target);
      } else {
        // A new failure while minimizing coverage.
        out.found_failure = true;
        out.failure = r.failure;
        out.failing_input = candidate;
        out.best = best_so_far;
        return out;
      }
    }
    out.best = qualifies ? candidate : best_so_far;
    std::copy(std::begin(hdr.minimize.state), std::end(hdr.minimize.state), params.state.begin());
    params.resume_verdict = qualifies;
    ++out.restarts;
    hdr.minimize.active = 0;
    if (limits.on_progress) limits.on_progress(out.best, out.execs, out.restarts);
  }
}

}  // namespace

std::uint64_t minimize_restart_budget(std::uint64_t bytes) { return 8 + 4 * bytes; }

MinimizeOutcome minimize_failure(Worker& worker, const corpus::Entry& input, const core::FailureRecord& target,
                                 const MinimizeLimits& limits) {
  return run_minimize(worker, input, &target, nullptr, limits);
}

MinimizeOutcome minimize_coverage(Worker& worker, const corpus::Entry& input, const std::vector<std::uint8_t>& keep,
                                  const MinimizeLimits& limits) {
  return run_minimize(worker, input, nullptr, &keep, limits);
}

Reproduction reproduce(Worker& w, const corpus::Entry& input) {
  Reproduction rep;
  if (!ensure_running(w, MinimizeLimits{})) return rep;  // a warning, if any, on stderr
  core::ShmView shm = w.shm().view();
  core::store_entry(shm.base(), input, w.shm().input_area_size());
  CallOutcome r = w.exec(milliseconds(60000));
  rep.output = w.output();
  CallOutcome::Verdict v = r.verdict();
  rep.ran = v != CallOutcome::Verdict::NotTheInput;
  if (v == CallOutcome::Verdict::Failed) rep.failure = r.failure;
  return rep;
}

}  // namespace cfuzz::driver
