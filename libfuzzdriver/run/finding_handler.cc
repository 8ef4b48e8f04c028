#include "libfuzzdriver/run/finding_handler.h"

#include <spdlog/spdlog.h>

#include "core/coverage.h"
#include "core/fuzz_call_plan.h"
#include "core/input_area.h"
#include "core/value_shape.h"
#include "corpus_format/codec.h"
#include "corpus_format/value_line.h"
#include "libfuzzdriver/corpus/cache_dir.h"
#include "libfuzzdriver/corpus/content_name.h"
#include "libfuzzdriver/report/symbolizer.h"
#include "libfuzzdriver/util/base64.h"

namespace cfuzz::driver {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// The input's values as v1 lines on one line; a typed value (one with a shape) as the value
// it encodes.
std::string input_summary(const corpus::Entry& e, const std::vector<std::string>& shapes) {
  std::string lines;
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (i != 0) lines += ' ';
    const auto* bytes = std::get_if<corpus::Bytes>(&e[i]);
    if (bytes != nullptr && i < shapes.size() && !shapes[i].empty()) {
      lines += core::render_value(core::ValueShape::parse(shapes[i]), bytes->data(), bytes->size());
    } else {
      lines += corpus::format_value_line(e[i]);
    }
  }
  if (lines.size() > 300) lines = lines.substr(0, 300) + "...";
  return lines + " (" + std::to_string(core::entry_size(e)) + " bytes)";
}

// What a minimization was allowed, as the report says it: "the budget of 60s and 128 worker
// restarts (for 30 bytes)".
std::string describe_budget(const MinimizeLimits& limits, std::uint64_t bytes, const Budget& flag) {
  std::string what = "the budget of " + flag.describe();
  if (limits.restarts) {
    what += " and " + std::to_string(*limits.restarts) + " worker restarts (for " + std::to_string(bytes) + " bytes)";
  }
  return what;
}

}  // namespace

void FindingHandler::new_coverage(WorkerCalls& w, std::size_t parent) {
  RunState& state = p_.state;
  corpus::Entry values = w.current_input();
  std::vector<std::uint8_t> snapshot(w.coverage(), w.coverage() + s_.counters);
  core::NewCoverage fresh;
  std::uint64_t shrink_budget;
  {
    // Another worker may have found the same coverage meanwhile (Go's stale reports).
    MutexLock lock(state.mu);
    fresh = state.session.new_coverage(snapshot.data());
    shrink_budget = state.session.shrink_grant(state.scheduler.execs_done(), core::entry_size(values), parent);
  }
  if (fresh.counters == 0) return;

  corpus::Entry best = values;
  if (!s_.minimize_time.is_zero() && shrink_budget != 0 &&
      !shrink_new_input(w, values, fresh.keep, shrink_budget, &best, &snapshot)) {
    return;
  }

  core::CorpusEntry e = core::make_corpus_entry("", core::Origin::Found, best);
  e.name = content_name(e.key);
  std::size_t added;
  std::uint64_t execs;
  {
    MutexLock lock(state.mu);
    execs = state.scheduler.execs_done();
    auto admitted = state.session.admit(e, snapshot.data(), execs, parent);
    if (!admitted) return;
    added = admitted->bits;
    state.cache_features(admitted->index, admitted->features);
  }
  // Known before it is on disk: the cache watcher must not take it for another run's.
  if (p_.note_known) p_.note_known(e.name);
  p_.cache_writes.attempt("a new entry", [&] { save_to_cache(p_.cache_writes.root(), s_.cache_dir, best); });
  p_.reporter.new_entry(e.name, added, execs);
  spdlog::debug("worker {}: new interesting input {} ({} bytes, {} new bits)", w.index(), e.name, e.size, added);
}

bool FindingHandler::shrink_new_input(WorkerCalls& w, const corpus::Entry& values,
                                      const std::vector<std::uint8_t>& keep, std::uint64_t budget, corpus::Entry* best,
                                      std::vector<std::uint8_t>* snapshot) {
  std::uint64_t granted = p_.state.reserve(budget);
  if (granted <= 1) {
    p_.state.settle(granted, 0);
    return true;
  }
  MinimizeLimits limits;
  limits.deadline = Clock::now() + milliseconds(core::kInterestingMinimizeMillis);
  limits.execs = granted - 1;  // one left to measure the result
  limits.cancelled = [this] { return p_.interrupted.load(); };
  limits.warn = [this](const std::string& text) { p_.reporter.warning(text); };
  MinimizeOutcome mo = w.minimize_coverage(values, keep, limits);
  std::uint64_t used = mo.execs;
  if (mo.found_failure) {
    p_.state.settle(granted, used);  // not counted as shrinking: it found a bug
    failure(w, mo.failure, mo.failing_input, w.output(), nullptr);
    return false;
  }
  if (!corpus::same_entry(mo.best, values) && w.running()) {
    // The smaller input's own coverage is what joins the mask.
    CallOutcome r = w.exec(mo.best);
    used += std::max<std::uint64_t>(r.execs, 1);
    CallOutcome::Verdict v = r.verdict();
    if (v == CallOutcome::Verdict::Failed && r.exact_input) {
      p_.state.settle(granted, used);
      failure(w, r.failure, mo.best, w.output(), nullptr);
      return false;
    }
    // Kept only if it ran clean (not out of the domains either) with the new coverage.
    bool clean = v == CallOutcome::Verdict::Fine || v == CallOutcome::Verdict::Interesting;
    if (clean && core::covers(w.coverage(), keep.data(), s_.counters)) {
      *best = mo.best;
      snapshot->assign(w.coverage(), w.coverage() + s_.counters);
    }
  }
  p_.state.settle(granted, used, /*shrinking=*/true);
  return true;
}

corpus::Entry FindingHandler::minimize_for_report(WorkerCalls& w, const corpus::Entry& input,
                                                  const core::FailureRecord& failure, FailureReport* r) {
  std::uint64_t bytes = core::entry_size(input);
  p_.reporter.minimizing(Clock::now() - s_.start, bytes);
  MinimizeLimits limits;
  if (s_.minimize_time.time) limits.deadline = Clock::now() + *s_.minimize_time.time;
  if (s_.minimize_time.count) limits.execs = *s_.minimize_time.count;
  if (!s_.minimize_time_given) limits.restarts = minimize_restart_budget(bytes);
  // An interrupt ends minimization: the smallest input so far is what gets saved.
  limits.cancelled = [this] { return p_.interrupted.load(); };
  limits.warn = [this](const std::string& text) { p_.reporter.warning(text); };
  // The progress line says what minimization is doing (coordinator.cc, supervise).
  std::size_t worker = static_cast<std::size_t>(w.index());
  limits.on_progress = [this, worker, bytes](const corpus::Entry& now, std::uint64_t execs, std::uint64_t restarts) {
    failures_.minimizing(worker, MinimizeProgress{{}, bytes, core::entry_size(now), execs, restarts});
  };
  failures_.minimizing(worker, MinimizeProgress{{}, bytes, bytes, 0, 0});
  std::uint64_t granted = 0;
  if (s_.counted) {
    granted = p_.state.reserve(limits.execs.value_or(~std::uint64_t{0}));
    limits.execs = granted;
  }
  MinimizeOutcome mo;
  try {
    mo = w.minimize_failure(input, failure, limits);
  } catch (const core::CorruptInput&) {
    // The target wrote over shared memory while a candidate ran: keep the input as found.
    w.kill();
    mo.best = input;
  }
  failures_.done_minimizing(worker);
  if (s_.counted) p_.state.settle(granted, mo.execs);
  std::uint64_t after = core::entry_size(mo.best);
  r->minimized = "minimized from " + std::to_string(bytes) + " to " + std::to_string(after) + " bytes in " +
                 std::to_string(mo.execs) + " executions" +
                 (mo.restarts > 0 ? ", " + std::to_string(mo.restarts) + " worker restarts" : "");
  if (mo.out_of_budget) r->minimized += "; stopped: " + describe_budget(limits, bytes, s_.minimize_time) + " used up";
  if (!mo.complete && !mo.out_of_budget && p_.interrupted.load()) r->minimized += "; stopped by the interrupt";
  return mo.best;
}

corpus::Entry FindingHandler::reproduce_for_report(WorkerCalls& w, const corpus::Entry& input, corpus::Entry best,
                                                   FailureReport* r) {
  // (Not after an interrupt: the user wants out, and the input is saved either way.)
  if (w.running()) w.stop();
  Reproduction rep;
  if (!p_.interrupted.load()) {
    try {
      rep = w.reproduce(best);
    } catch (const core::CorruptInput&) {
      w.kill();
      rep = Reproduction{};
    }
  }
  if (rep.ran && core::same_failure(rep.failure, r->failure)) {
    r->failure = rep.failure;
    r->output = rep.output;
  } else if (!p_.interrupted.load() && !corpus::same_entry(best, input)) {
    // What is saved and what the report says must agree: the original, as it was found.
    p_.reporter.warning("the minimized input did not fail again; saving the original");
    r->minimized = "not minimized: the " + std::to_string(core::entry_size(best)) +
                   "-byte result did not fail again, so the original " + std::to_string(core::entry_size(input)) +
                   " bytes are saved";
    best = input;
  }
  return best;
}

void FindingHandler::failure(WorkerCalls& w, const core::FailureRecord& failure, const corpus::Entry& input,
                             std::string output, const core::CorpusEntry* seed) {
  FailureLog::Claim claim = failures_.claim(failure, seed != nullptr);
  if (!claim.handle) return;  // seen it (--keepfuzzing), or another worker's failure ends the run
  if (claim.ends_run) {
    MutexLock lock(p_.state.mu);
    p_.state.scheduler.stop();
  }
  p_.state.cv.notify_all();

  FailureReport r;
  r.test = s_.test;
  r.failure = failure;
  r.output = std::move(output);
  if (seed != nullptr) {
    // A failing seed stops the run as in Go; it is already on disk (or in the source).
    r.seed = true;
    r.seed_name = seed->name;
    r.input_summary = input_summary(input, s_.shapes);
    r.elapsed = Clock::now() - s_.start;
    add_report(r);
    return;
  }
  if ((failure.flags & core::kFailureInCustomMutator) != 0) {
    // The harness's mutator died while mutating `input`, which the fuzz target may well
    // pass: nothing to minimize or to save under testdata. The report carries the input so
    // that the mutator can be run on it.
    r.in_custom_mutator = true;
    r.stack = symbolize_site(s_.target_path, r.failure.site);
    r.input_summary = input_summary(input, s_.shapes);
    r.input_v1 = corpus::encode(input);
    r.input_base64 = base64_encode(r.input_v1);
    r.elapsed = Clock::now() - s_.start;
    add_report(r);
    w.kill();
    return;
  }

  corpus::Entry best = s_.minimize_time.is_zero() ? input : minimize_for_report(w, input, failure, &r);
  best = reproduce_for_report(w, input, std::move(best), &r);
  if (r.failure.kind != static_cast<std::uint32_t>(core::FailureKind::Returned)) {
    r.stack = symbolize_site(s_.target_path, r.failure.site);
  }
  p_.reproducers.save(best, &r);
  r.input_summary = input_summary(best, s_.shapes);
  r.elapsed = Clock::now() - s_.start;
  add_report(r);
  w.kill();  // a fresh worker for whatever comes next (--keepfuzzing)
}

bool FindingHandler::input_failed(WorkerCalls& w, const core::FailureRecord& rec, const corpus::Entry& values,
                                  const core::CorpusEntry* seed) {
  // An input this fuzz function's domains exclude fails as a seed; anything else (the
  // cache, after the domains changed) is skipped.
  if ((rec.flags & core::kFailureOutOfDomain) != 0 && seed == nullptr) {
    std::string why = rec.message;
    while (!why.empty() && why.back() == '\n') why.pop_back();
    p_.reporter.warning("skipped an input out of the fuzz function's domains: " + why);
    return false;
  }
  failure(w, rec, values, w.output(), seed);
  return true;
}

void FindingHandler::add_report(const FailureReport& r) {
  failures_.add(r);
  p_.reporter.failure(r);
}

}  // namespace cfuzz::driver
