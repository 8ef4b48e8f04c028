// What the coordinator does with what workers find: inputs with new coverage join the
// corpus (minimized first, as Go does), and failures are minimized, saved to
// testdata/fuzz/<Name>/ and reported.
#include <filesystem>

#include <spdlog/spdlog.h>

#include "core/coverage.h"
#include "core/fuzz_call_plan.h"
#include "core/input_area.h"
#include "core/rpc.h"
#include "core/value_shape.h"
#include "corpus_format/codec.h"
#include "corpus_format/value_line.h"
#include "libfuzzdriver/corpus/cache_dir.h"
#include "libfuzzdriver/corpus/content_name.h"
#include "libfuzzdriver/corpus/failure_claim.h"
#include "libfuzzdriver/minimize/minimize_driver.h"
#include "libfuzzdriver/report/symbolizer.h"
#include "libfuzzdriver/run/coordinator.h"
#include "libfuzzdriver/util/base64.h"
#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {

namespace rpc = core::rpc;
namespace fs = std::filesystem;
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

}  // namespace

void Coordinator::handle_interesting(Worker& w, std::size_t parent) {
  core::ShmView shm = w.shm().view();
  std::size_t n = setup_.target.counters;
  corpus::Entry values = core::load_entry(shm.current(), w.shm().input_area_size());
  std::vector<std::uint8_t> snapshot(shm.snapshot(), shm.snapshot() + n);
  core::NewCoverage fresh;
  std::uint64_t shrink_budget;
  {
    // Another worker may have found the same coverage meanwhile (Go's stale reports).
    MutexLock lock(mu_);
    fresh = session_.new_coverage(snapshot.data());
    shrink_budget = session_.shrink_grant(scheduler_.execs_done());
  }
  if (fresh.counters == 0) return;
  const std::vector<std::uint8_t>& keep = fresh.keep;

  corpus::Entry best = values;
  if (!opts_.minimize_time.is_zero() && shrink_budget != 0) {
    std::uint64_t granted = reserve(shrink_budget);
    if (granted > 1) {
      MinimizeLimits limits;
      limits.deadline = Clock::now() + milliseconds(core::kInterestingMinimizeMillis);
      limits.execs = granted - 1;  // one left to measure the result
      limits.cancelled = [this] { return interrupted_.load(); };
      limits.warn = [this](const std::string& text) { reporter_.warning(text); };
      MinimizeOutcome mo = minimize_coverage(w, values, keep, limits);
      std::uint64_t used = mo.execs;
      if (mo.found_failure) {
        settle(granted, used);  // not counted as shrinking: it found a bug
        handle_failure(w, mo.failure, mo.failing_input, w.output(), nullptr);
        return;
      }
      if (!corpus::same_entry(mo.best, values) && w.running()) {
        // The smaller input's own coverage is what joins the mask.
        core::store_entry(shm.base(), mo.best, w.shm().input_area_size());
        CallOutcome r = w.exec(opts_.timeout + milliseconds(1000));
        used += std::max<std::uint64_t>(r.execs, 1);
        CallOutcome::Verdict v = r.verdict();
        if (v == CallOutcome::Verdict::Failed && r.exact_input) {
          settle(granted, used);
          handle_failure(w, r.failure, mo.best, w.output(), nullptr);
          return;
        }
        // Kept only if it ran clean (not out of the domains either) with the new coverage.
        bool clean = v == CallOutcome::Verdict::Fine || v == CallOutcome::Verdict::Interesting;
        if (clean && core::covers(shm.snapshot(), keep.data(), n)) {
          best = mo.best;
          snapshot.assign(shm.snapshot(), shm.snapshot() + n);
        }
      }
      settle(granted, used, /*shrinking=*/true);
    } else {
      settle(granted, 0);
    }
  }

  core::CorpusEntry e = core::make_corpus_entry("", core::Origin::Found, best);
  e.name = content_name(e.key);
  std::size_t added;
  std::uint64_t execs;
  {
    MutexLock lock(mu_);
    execs = scheduler_.execs_done();
    auto admitted = session_.admit(e, snapshot.data(), execs, parent);
    if (!admitted) return;
    added = admitted->bits;
    cache_features(admitted->index, admitted->features);
  }
  // Known before it is on disk: the cache watcher must not take it for another run's.
  watcher_->note_known(e.name);
  cache_writes_->attempt("a new entry", [&] { save_to_cache(cache_writes_->root(), setup_.cache_dir, best); });
  reporter_.new_entry(e.name, added, execs);
  spdlog::debug("worker {}: new interesting input {} ({} bytes, {} new bits)", w.index(), e.name, e.size, added);
}

std::string Coordinator::rerun_command(const std::string& name, const std::string& srcdir) const {
  std::string cmd = opts_.target + " --run " + setup_.test.name + "/" + name;
  if (srcdir != setup_.target.srcdir) {
    cmd += " --srcdir " + srcdir;
  } else if (!opts_.srcdir.empty()) {
    cmd += " --srcdir " + opts_.srcdir;
  }
  return cmd;
}

std::string Coordinator::write_failing_input(const corpus::Entry& input, const std::string& srcdir, std::string* rerun,
                                             const std::string& confine_below) {
  std::string dir = srcdir + "/testdata/fuzz/" + setup_.test.name;
  std::string text = corpus::encode(input);
  std::string name = content_name(text);
  fs::path path = fs::path(dir) / name;
  if (confine_below.empty()) {
    make_directories(dir);
    write_file_atomic(path, text);
  } else {
    Directory::open_below(confine_below, dir, /*create=*/true).write_file_atomic(name, text);
  }
  *rerun = rerun_command(name, srcdir);
  std::error_code ec;
  fs::path shown = fs::proximate(path, ec);
  if (ec || shown.string().starts_with("../..")) shown = path;
  return shown.string();
}

namespace {

// What a minimization was allowed, as the report says it: "the budget of 60s and 128 worker
// restarts (for 30 bytes)".
std::string describe_budget(const MinimizeLimits& limits, std::uint64_t bytes, const Budget& flag) {
  std::string what = "the budget of " + flag.describe();
  if (limits.restarts) {
    what += " and " + std::to_string(*limits.restarts) + " worker restarts (for " + std::to_string(bytes) + " bytes)";
  }
  return what;
}

// A seed run has no per-input limits unless told: the re-run command of a hang or a memory
// failure carries the limit that caught it, so that it fails the same way.
std::string limit_flags(const core::FailureRecord& f, const RunOptions& o) {
  switch (static_cast<core::FailureKind>(f.kind)) {
    case core::FailureKind::Timeout: return " --timeout " + core::format_duration(o.timeout);
    case core::FailureKind::OutOfMemory: return " --rss-limit-mb " + std::to_string(o.rss_limit_mb);
    case core::FailureKind::StackLimit:  // the seed run has the same default
      return o.stack_limit_kb ? " --stack-limit-kb " + std::to_string(*o.stack_limit_kb) : "";
    default: return "";
  }
}

}  // namespace

void Coordinator::save_failing_input(const corpus::Entry& input, FailureReport* r) {
  // Runs sharing the cache that find the same failure write one reproducer between them.
  FailureClaim claim(cache_writes_->root(), (fs::path(setup_.cache_dir).parent_path() / ".claims").string(),
                     setup_.test.name, core::failure_signature(r->failure), setup_.wall_start);
  if (!claim.acquire()) {
    fs::path other = claim.other_path();
    r->written_by_other_run = true;
    r->written_to = other.string();
    // <srcdir>/testdata/fuzz/<Name>/<file>
    fs::path srcdir = other.parent_path().parent_path().parent_path().parent_path();
    std::error_code ec;
    r->rerun =
        rerun_command(other.filename().string(),
                      fs::equivalent(srcdir, setup_.target.srcdir, ec) ? setup_.target.srcdir : srcdir.string()) +
        limit_flags(r->failure, opts_);
    return;
  }
  // A finding is never lost: when testdata/ cannot take it (read-only, a directory in the
  // way), it goes to a fallback tree beside the cache, laid out like a source directory so
  // that the re-run command works, and the input itself is printed in the report.
  try {
    r->written_to = write_failing_input(input, setup_.target.srcdir, &r->rerun);
    claim.record(r->written_to);
  } catch (const std::exception& e) {
    r->write_error = e.what();
    std::string text = corpus::encode(input);
    r->input_v1 = text;
    r->input_base64 = base64_encode(text);
    std::string fallback = (fs::path(setup_.cache_dir).parent_path() / "failures").string();
    try {
      r->written_to = write_failing_input(input, fallback, &r->rerun, cache_writes_->root());
      claim.record(r->written_to);
    } catch (const std::exception& e2) {
      r->write_error += "; and not under " + fallback + " either: " + e2.what();
    }
  }
  if (!r->rerun.empty()) r->rerun += limit_flags(r->failure, opts_);
}

// Minimizes a failing input within --fuzzminimizetime, showing its progress, and says in
// `r` how it went; returns the smallest input that still failed as `failure` did.
corpus::Entry Coordinator::minimize_for_report(Worker& w, const corpus::Entry& input,
                                               const core::FailureRecord& failure, FailureReport* r) {
  std::uint64_t bytes = core::entry_size(input);
  reporter_.minimizing(Clock::now() - setup_.start, bytes);
  MinimizeLimits limits;
  if (opts_.minimize_time.time) limits.deadline = Clock::now() + *opts_.minimize_time.time;
  if (opts_.minimize_time.count) limits.execs = *opts_.minimize_time.count;
  if (!opts_.minimize_time_given) limits.restarts = minimize_restart_budget(bytes);
  // An interrupt ends minimization: the smallest input so far is what gets saved.
  limits.cancelled = [this] { return interrupted_.load(); };
  limits.warn = [this](const std::string& text) { reporter_.warning(text); };
  // The progress line says what minimization is doing (coordinator.cc, supervise).
  limits.on_progress = [this, &w, bytes](const corpus::Entry& now, std::uint64_t execs, std::uint64_t restarts) {
    failures_.minimizing(w.index(), MinimizeProgress{{}, bytes, core::entry_size(now), execs, restarts});
  };
  failures_.minimizing(w.index(), MinimizeProgress{{}, bytes, bytes, 0, 0});
  std::uint64_t granted = 0;
  if (opts_.fuzztime.count) {
    granted = reserve(limits.execs.value_or(~std::uint64_t{0}));
    limits.execs = granted;
  }
  MinimizeOutcome mo;
  try {
    mo = minimize_failure(w, input, failure, limits);
  } catch (const core::CorruptInput&) {
    // The target wrote over shared memory while a candidate ran: keep the input as found.
    w.kill();
    mo.best = input;
  }
  failures_.done_minimizing(w.index());
  if (opts_.fuzztime.count) settle(granted, mo.execs);
  std::uint64_t after = core::entry_size(mo.best);
  r->minimized = "minimized from " + std::to_string(bytes) + " to " + std::to_string(after) + " bytes in " +
                 std::to_string(mo.execs) + " executions" +
                 (mo.restarts > 0 ? ", " + std::to_string(mo.restarts) + " worker restarts" : "");
  if (mo.out_of_budget)
    r->minimized += "; stopped: " + describe_budget(limits, bytes, opts_.minimize_time) + " used up";
  if (!mo.complete && !mo.out_of_budget && interrupted_.load()) r->minimized += "; stopped by the interrupt";
  return mo.best;
}

void Coordinator::handle_failure(Worker& w, const core::FailureRecord& failure, const corpus::Entry& input,
                                 std::string output, const core::CorpusEntry* seed) {
  FailureLog::Claim claim = failures_.claim(failure, seed != nullptr);
  if (!claim.handle) return;  // seen it (--keepfuzzing), or another worker's failure ends the run
  if (claim.ends_run) {
    MutexLock lock(mu_);
    scheduler_.stop();
  }
  cv_.notify_all();

  FailureReport r;
  r.test = setup_.test.name;
  r.failure = failure;
  r.output = std::move(output);
  if (seed != nullptr) {
    // A failing seed stops the run as in Go; it is already on disk (or in the source).
    r.seed = true;
    r.seed_name = seed->name;
    r.input_summary = input_summary(input, setup_.test.shapes);
    r.elapsed = Clock::now() - setup_.start;
    add_failure_report(r);
    return;
  }
  if ((failure.flags & core::kFailureInCustomMutator) != 0) {
    // The harness's mutator died while mutating `input`, which the fuzz target may well
    // pass: nothing to minimize or to save under testdata. The report carries the input so
    // that the mutator can be run on it.
    r.in_custom_mutator = true;
    r.stack = symbolize_site(setup_.target.abs_path, r.failure.site);
    r.input_summary = input_summary(input, setup_.test.shapes);
    r.input_v1 = corpus::encode(input);
    r.input_base64 = base64_encode(r.input_v1);
    r.elapsed = Clock::now() - setup_.start;
    add_failure_report(r);
    w.kill();
    return;
  }

  corpus::Entry best = opts_.minimize_time.is_zero() ? input : minimize_for_report(w, input, failure, &r);

  // One clean run of the final input in a fresh worker: the report shows its output alone.
  // (Not after an interrupt: the user wants out, and the input is saved either way.)
  if (w.running()) w.stop();
  Reproduction rep;
  if (!interrupted_.load()) {
    try {
      rep = reproduce(w, best);
    } catch (const core::CorruptInput&) {
      w.kill();
      rep = Reproduction{};
    }
  }
  if (rep.ran && core::same_failure(rep.failure, failure)) {
    r.failure = rep.failure;
    r.output = rep.output;
  } else if (!interrupted_.load() && !corpus::same_entry(best, input)) {
    // What is saved and what the report says must agree: the original, as it was found.
    reporter_.warning("the minimized input did not fail again; saving the original");
    r.minimized = "not minimized: the " + std::to_string(core::entry_size(best)) +
                  "-byte result did not fail again, so the original " + std::to_string(core::entry_size(input)) +
                  " bytes are saved";
    best = input;
  }
  if (r.failure.kind != static_cast<std::uint32_t>(core::FailureKind::Returned)) {
    r.stack = symbolize_site(setup_.target.abs_path, r.failure.site);
  }
  save_failing_input(best, &r);
  r.input_summary = input_summary(best, setup_.test.shapes);
  r.elapsed = Clock::now() - setup_.start;
  add_failure_report(r);
  w.kill();  // a fresh worker for whatever comes next (--keepfuzzing)
}

void Coordinator::add_failure_report(const FailureReport& r) {
  failures_.add(r);
  reporter_.failure(r);
}

void Coordinator::replay_damaged_call(Worker& w, const Job& job, const corpus::Entry& base, const corpus::Entry& splice,
                                      const CallOutcome& first) {
  // The target broke the RPC channel during a call of many executions. Calls are
  // deterministic in their seed and inputs, so the same call in a fresh worker, checking
  // the channel after every execution, stops at the input that does it.
  spdlog::debug("worker {}: {}; replaying the call to find the input", w.index(), first.error);
  w.kill();
  if (!start_worker(w)) return;
  core::ShmView shm = w.shm().view();
  {
    MutexLock lock(mu_);
    std::memcpy(shm.mask(), session_.mask().data(), session_.mask().size());
  }
  rpc::FuzzParams params = prepare_fuzz_call(w, job, base, splice);
  params.limit = std::max<std::uint64_t>(first.execs, 1);  // up to where the first call got, checking each input
  params.deadline_ms = 0;
  params.paranoid = true;
  CallOutcome r = w.fuzz(params, milliseconds(600000));
  if (r.verdict() == CallOutcome::Verdict::Failed) {
    // Not exact only if the damage escaped the decoy descriptors: report the last input.
    handle_failure(w, r.failure, core::load_entry(shm.current(), w.shm().input_area_size()), w.output(), nullptr);
    return;
  }
  reporter_.warning("worker " + std::to_string(w.index()) + ": " + first.error +
                    " (not reproducible; the worker was restarted)");
  w.kill();
}

}  // namespace cfuzz::driver
