#include "libfuzzdriver/run/coordinator.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <unordered_set>

#include <spdlog/spdlog.h>

#include "core/coverage.h"
#include "core/input_area.h"
#include "core/rpc.h"
#include "corpus_format/codec.h"
#include "libfuzzdriver/corpus/cache_dir.h"
#include "libfuzzdriver/corpus/testdata_corpus.h"
#include "libfuzzdriver/coverage/stats_log.h"
#include "libfuzzdriver/run/run_reports.h"
#include "libfuzzdriver/util/file_io.h"
#include "libfuzzdriver/worker/sanitizer_env.h"

namespace cfuzz::driver {

namespace rpc = core::rpc;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// How often the cache directory is checked for entries other runs wrote.
constexpr std::chrono::seconds kSyncInterval{2};

}  // namespace

namespace {

// What the run came to, for --junit and --sarif (run_reports.h).
FuzzTestResult result_of(const RunOptions& options, const Coordinator& c, std::chrono::nanoseconds elapsed,
                         const std::string& error) {
  Reporter::Record record = c.record();
  FuzzTestResult r;
  r.target = options.target;
  r.test = !c.test_name().empty() ? c.test_name() : !options.fuzz.empty() ? options.fuzz : "fuzz";
  r.failures = std::move(record.failures);
  r.error = error;
  r.time = elapsed;
  if (record.done) {
    r.finished = true;
    r.execs = record.done->execs;
    r.new_interesting = record.done->new_interesting;
    r.corpus = record.done->total;
  }
  return r;
}

}  // namespace

int run_fuzzing(const RunOptions& options) {
  auto started = Clock::now();
  auto c = std::make_unique<Coordinator>(options);
  int code = 0;
  try {
    code = c->run();
  } catch (const std::exception& e) {
    write_reports(options, {result_of(options, *c, Clock::now() - started, e.what())});
    throw;
  }
  if (!write_reports(options, {result_of(options, *c, Clock::now() - started, "")}) && code == 0) code = 2;
  // The process ends next, and its workers are gone: freeing a corpus of 10^5 entries one
  // by one would only hold up the exit (a quarter of a second), as compilers that skip
  // freeing at exit know.
  static_cast<void>(c.release());
  return code;
}

Coordinator::Coordinator(RunOptions options) : opts_(std::move(options)), reporter_(opts_.json, stdout) {}

Coordinator::~Coordinator() {
  state_.stop();
  // Joined before the pool goes: a thread still in a fuzz call reaches it through pool_.
  if (pool_) pool_->join();
  pool_.reset();
}

WorkerConfig Coordinator::worker_config() const {
  WorkerConfig c = worker_config_for(setup_.target, setup_.test, opts_.detect_leaks);
  c.timeout = opts_.timeout;
  c.rss_limit_mb = opts_.rss_limit_mb;
  c.growth_limit_mb = opts_.worker_growth_mb;
  c.max_age = opts_.worker_max_age;
  c.stack_limit_kb = opts_.stack_limit_kb;
  c.slot_capacity = setup_.slot_capacity;
  return c;
}

core::Corpus Coordinator::load_corpus() {
  core::Corpus loaded;
  core::Corpus* corpus = &loaded;
  auto add = [&](std::string name, core::Origin origin, corpus::Entry values) {
    corpus->add(core::make_corpus_entry(std::move(name), origin, std::move(values)));
  };
  for (std::size_t i = 0; i < setup_.test.seeds.size(); ++i) {
    add("seed#" + std::to_string(i), core::Origin::Seed, setup_.test.seeds[i]);
  }
  std::error_code ec;
  std::string testdata = testdata_dir(setup_.target, setup_.test);
  if (std::filesystem::exists(std::filesystem::symlink_status(testdata, ec))) remove_stale_temporary_files(testdata);
  for (auto& [name, values] : read_testdata(setup_.target, setup_.test))
    add(name, core::Origin::Testdata, std::move(values));
  // The cache is the fuzzer's own: files it cannot use are skipped, as Go skips them.
  // Its files may be anyone's (a shared cache): one too large to be an entry is not read.
  const std::uint64_t limit = cache_entry_limit(opts_.max_len);
  SkippedFiles skipped = read_cache(
      setup_.cache_dir, setup_.test.types, setup_.test.shapes,
      [&](CachedEntry&& c) {
        watcher_->note_known(c.name);
        corpus->add(c.key ? core::make_corpus_entry(c.name, core::Origin::Cache, std::move(c.values), *c.key)
                          : core::make_corpus_entry(c.name, core::Origin::Cache, std::move(c.values)));
      },
      [&](std::size_t files) { corpus->reserve(corpus->size() + files + 1024); },  // and room to grow
      limit);
  if (!skipped.unusable.empty()) {
    reporter_.warning("skipped " + std::to_string(skipped.unusable.size()) + " unusable cache file(s) in " +
                      setup_.cache_dir + " (first: " + skipped.unusable.front() + ")");
  }
  if (!skipped.too_large.empty()) {
    reporter_.warning("skipped " + std::to_string(skipped.too_large.size()) + " cache file(s) over " +
                      std::to_string(limit >> 20) + " MiB in " + setup_.cache_dir +
                      ", unread (first: " + skipped.too_large.front() + ")");
  }
  return loaded;
}

int Coordinator::run() {
  setup_.start = Clock::now();
  setup_.wall_start = std::chrono::system_clock::now();
  setup_.target = describe_target(opts_.target, opts_.srcdir, fuzzing_environment());
  setup_.test = setup_.target.select(opts_.fuzz);
  if (opts_.slice) reporter_.tag(opts_.target, setup_.test.name);
  if (!setup_.test.error.empty()) {
    // The test body failed before f.fuzz (f.fail, f.skip, an exception): a test failure.
    FailureReport r;
    r.test = setup_.test.name;
    r.failure.kind = static_cast<std::uint32_t>(core::FailureKind::Returned);
    core::failure_set(r.failure.message, setup_.test.error);
    reporter_.failure(r);
    return 1;
  }
  if (setup_.test.types.empty())
    throw std::runtime_error(setup_.test.name + "'s fuzz function takes no values to fuzz");
  setup_.cache_dir = cache_dir_for(opts_.cachedir, setup_.target.abs_path, setup_.test.name);
  const std::string root = cache_root(opts_.cachedir);
  check_cache_root_owner(root, opts_.shared_cache);
  cache_writes_ = std::make_unique<CacheWrites>(root, [this](const std::string& text) { reporter_.warning(text); });
  watcher_ = std::make_unique<CacheWatcher>(setup_.cache_dir, setup_.test.types, cache_entry_limit(opts_.max_len));
  setup_.parallel =
      opts_.parallel > 0 ? opts_.parallel : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (opts_.fuzztime.count && *opts_.fuzztime.count < static_cast<std::uint64_t>(setup_.parallel)) {
    setup_.parallel = static_cast<int>(std::max<std::uint64_t>(1, *opts_.fuzztime.count));
  }
  {
    MutexLock lock(state_.mu);  // no other thread yet: for the analysis' sake
    std::vector<std::string> words;
    for (const auto& path : opts_.dictionaries) {
      std::vector<std::string> more = core::parse_dictionary_file(path);
      words.insert(words.end(), more.begin(), more.end());
    }
    core::Corpus loaded = load_corpus();
    std::uint64_t largest = loaded.longest_byte_value();
    setup_.max_len = opts_.max_len != 0 ? opts_.max_len : core::default_max_len(largest);
    setup_.slot_capacity = std::max(setup_.max_len, largest);
    core::FuzzSession::Settings search;
    search.counters = setup_.target.counters;
    search.max_len = setup_.max_len;
    search.len_control = opts_.len_control;
    search.master_seed = opts_.seed ? *opts_.seed
                                    : static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) ^
                                          (static_cast<std::uint64_t>(getpid()) << 32);
    search.repeatable = core::repeatable_calls(opts_.seed.has_value(), opts_.fuzztime.count.has_value());
    search.focus = opts_.focus ? &*opts_.focus : nullptr;
    search.value_profile = opts_.value_profile;
    state_.session = core::FuzzSession(search, std::move(loaded));
    state_.session.dictionary().add_user_words(words);
    Scheduler::Settings s;
    s.workers = setup_.parallel;
    s.exec_budget = opts_.fuzztime.count;
    s.seeded = opts_.seed.has_value();
    state_.scheduler = Scheduler(s);
    std::size_t known = use_baseline_cache();
    spdlog::debug("baseline: {} of {} entries known from an earlier run of this binary", known,
                  state_.session.corpus().size());
    spdlog::debug("target {} test {}: {} counters, corpus {} entries, cache {}, max_len {}", setup_.target.abs_path,
                  setup_.test.name, setup_.target.counters, state_.session.corpus().size(), setup_.cache_dir,
                  setup_.max_len);
    reporter_.baseline(Clock::now() - setup_.start, state_.scheduler.baseline_done(),
                       state_.scheduler.baseline_total());  // some known from the last run
  }

  // SIGINT/SIGTERM are taken by the main thread alone (supervise); the workers' threads
  // and processes never see them (worker_pool.h).
  make_parts();
  pool_ = std::make_unique<WorkerPool>();
  signal(SIGPIPE, SIG_IGN);
  pool_->start(setup_.parallel, worker_config(), [this](Worker& w) { worker_main(w); });
  supervise();
  pool_->join();
  pool_.reset();  // the signals as they were

  std::size_t failures = findings_->failures().size();
  bool fuzzed;
  std::size_t baseline_done, baseline_total;
  std::vector<std::pair<std::string, std::uint64_t>> recommended;
  {
    MutexLock lock(state_.mu);  // the worker threads are gone
    if (!state_.fatal_error().empty() && failures == 0) throw std::runtime_error(state_.fatal_error());
    fuzzed = state_.scheduler.fuzzing();
    baseline_done = state_.scheduler.baseline_done();
    baseline_total = state_.scheduler.baseline_total();
    recommended = state_.session.dictionary().recommended();
  }
  Progress p = progress_now(Clock::now() - setup_.start);
  double secs = std::chrono::duration<double>(p.elapsed).count();
  p.rate = secs > 0 ? static_cast<double>(p.execs) / secs : 0;
  p.sync_scans = watcher_->stats().scans;
  p.sync_listings = watcher_->stats().listings;
  p.sync_seconds = std::chrono::duration<double>(watcher_->stats().time).count();
  if (!fuzzed && failures == 0) {
    // PASS alone would read as "fuzzed and found nothing".
    reporter_.warning(std::string(interrupted_ ? "stopped" : "--fuzztime ran out") + " before fuzzing began: " +
                      std::to_string(baseline_done) + " of " + std::to_string(baseline_total) +
                      " corpus entries had their first run, and nothing was fuzzed (give --fuzztime more, or "
                      "distill the corpus with `cfuzz corpus minimize`)");
  }
  record_stats(p);
  save_baseline_cache();
  // A slice of a run of several tests (multi_run.h) leaves libFuzzer's block out: one per
  // slice would bury the summary, and the next slice starts its dictionary afresh anyway.
  if (!opts_.slice) reporter_.recommended_dictionary(recommended);
  reporter_.done(p, static_cast<int>(failures));
  return failures == 0 ? 0 : 1;
}

void Coordinator::make_parts() {
  ReproducerFiles::Settings files;
  files.test = setup_.test.name;
  files.command = opts_.target;
  files.srcdir = setup_.target.srcdir;
  files.srcdir_flag = opts_.srcdir;
  files.cache_root = cache_writes_->root();
  files.cache_dir = setup_.cache_dir;
  files.run_start = setup_.wall_start;
  files.timeout = opts_.timeout;
  files.rss_limit_mb = opts_.rss_limit_mb;
  files.stack_limit_kb = opts_.stack_limit_kb;
  reproducers_ = std::make_unique<ReproducerFiles>(std::move(files));

  FindingHandler::Settings s;
  s.test = setup_.test.name;
  s.shapes = setup_.test.shapes;
  s.target_path = setup_.target.abs_path;
  s.counters = setup_.target.counters;
  s.cache_dir = setup_.cache_dir;
  s.minimize_time = opts_.minimize_time;
  s.minimize_time_given = opts_.minimize_time_given;
  s.keep_fuzzing = opts_.keep_fuzzing;
  s.counted = opts_.fuzztime.count.has_value();
  s.start = setup_.start;
  findings_ = std::make_unique<FindingHandler>(
      std::move(s), FindingHandler::Parts{state_, reporter_, *cache_writes_, *reproducers_, interrupted_,
                                          [this](std::string_view name) { watcher_->note_known(name); }});
  baseline_ = std::make_unique<BaselineRunner>(state_, *findings_, setup_.target.counters,
                                               [this](WorkerCalls& w, const std::string& why) { lost_worker(w, why); });
}

void Coordinator::supervise() {
  auto next_line = setup_.start + std::chrono::seconds(3);
  auto next_sync = setup_.start + kSyncInterval;
  std::uint64_t last_execs = 0;
  auto last_time = setup_.start;
  int interrupts = 0;
  bool recorded_fuzzing_start = false;
  while (pool_->running()) {
    if (pool_->wait(milliseconds(50)) != 0) {
      interrupted_ = true;
      if (++interrupts > 1) pool_->kill_all();  // a second interrupt: no more waiting
      state_.stop();
    }
    auto now = Clock::now();
    if (opts_.fuzztime.time && now - setup_.start >= *opts_.fuzztime.time) state_.stop();
    if (now >= next_sync) {
      sync_from_cache();
      next_sync = Clock::now() + kSyncInterval;
    }
    bool fuzzing_began;
    std::size_t done, total;
    std::vector<MinimizeProgress> minimizing;
    {
      MutexLock lock(state_.mu);
      fuzzing_began = state_.scheduler.fuzzing();
      done = state_.scheduler.baseline_done();
      total = state_.scheduler.baseline_total();
    }
    minimizing = findings_->failures().minimizing_now();
    if (fuzzing_began && !recorded_fuzzing_start) {
      // The first point of this run's line in cover's plot: the baseline's coverage.
      recorded_fuzzing_start = true;
      record_stats(progress_now(now - setup_.start));
      save_baseline_cache();  // a run killed later still spares the next one its baseline
    }
    if (now >= next_line) {
      Progress p = progress_now(now - setup_.start);
      double secs = std::chrono::duration<double>(now - last_time).count();
      p.rate = secs > 0 ? static_cast<double>(p.execs - std::min(p.execs, last_execs)) / secs : 0;
      last_execs = p.execs;
      last_time = now;
      // While a failing input is minimized, that is what the line says; the fuzzing line
      // only while other workers still fuzz (--keepfuzzing).
      for (auto& m : minimizing) {
        m.elapsed = now - setup_.start;
        reporter_.minimize_progress(m);
      }
      if (!fuzzing_began) {
        reporter_.baseline(now - setup_.start, done, total);
      } else if (minimizing.empty() || opts_.keep_fuzzing) {
        reporter_.progress(p);
      }
      record_stats(p);
      next_line = now + std::chrono::seconds(3);
    }
  }
}

void Coordinator::sync_from_cache() {
  {
    MutexLock lock(state_.mu);
    if (!state_.scheduler.takes_synced_entries()) return;
  }
  std::vector<CachedEntry> found = watcher_->new_entries();
  if (found.empty()) return;
  {
    MutexLock lock(state_.mu);
    for (auto& e : found) state_.scheduler.add_synced(std::make_shared<const CachedEntry>(std::move(e)));
  }
  state_.cv.notify_all();
}

std::vector<bool> Coordinator::reached_counters() {
  MutexLock lock(state_.mu);
  const std::vector<std::uint8_t>& mask = state_.session.mask();
  std::vector<bool> reached(mask.size(), false);
  for (std::size_t c = 0; c < mask.size(); ++c) reached[c] = mask[c] != 0;
  return reached;
}

std::size_t Coordinator::use_baseline_cache() {
  setup_.binary_identity = BaselineCache::binary_identity(setup_.target.abs_path, setup_.target.counters);
  // Only the entries of this cache are kept: the file may be anyone's, of any size.
  const core::Corpus& corpus = state_.session.corpus();
  std::unordered_set<std::uint64_t> cached;
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    if (corpus.at(i).origin == core::Origin::Cache) cached.insert(corpus.at(i).key);
  }
  state_.baseline_cache = BaselineCache::load(BaselineCache::path_for(setup_.cache_dir), setup_.binary_identity,
                                              [&](std::uint64_t key) { return cached.count(key) != 0; });
  std::size_t known = 0;
  std::vector<std::size_t> queue;  // the entries the baseline runs
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    const core::CorpusEntry& e = corpus.at(i);
    // Seeds and testdata always run: a failing one is a failing test, and they are few.
    const std::vector<std::uint32_t>* features =
        e.origin == core::Origin::Cache ? state_.baseline_cache.find(e.key) : nullptr;
    bool fits = features != nullptr && std::all_of(features->begin(), features->end(),
                                                   [&](std::uint32_t f) { return f / 8 < setup_.target.counters; });
    if (!fits) {
      queue.push_back(i);
      continue;
    }
    state_.session.measured(i, *features);
    ++known;
  }
  state_.scheduler.plan_baseline(corpus.size(), std::move(queue));
  return known;
}

void Coordinator::save_baseline_cache() {
  // Only this corpus's entries: one that left the cache (corpus minimize, a user's rm)
  // leaves the file too, so that it does not grow run after run.
  if (setup_.binary_identity.empty()) return;
  std::string bytes;
  {
    MutexLock lock(state_.mu);
    std::vector<std::uint64_t> kept;
    const core::Corpus& corpus = state_.session.corpus();
    for (std::size_t i = 0; i < corpus.size(); ++i) {
      std::uint64_t key = corpus.at(i).key;
      if (state_.baseline_cache.find(key) != nullptr) kept.push_back(key);
    }
    if (!state_.baseline_cache.changed() && kept.size() == state_.baseline_cache.size()) return;
    bytes = state_.baseline_cache.serialize(setup_.binary_identity, kept);
    state_.baseline_cache.mark_written();
  }
  cache_writes_->attempt("the baseline (kept for the next run)", [&] {
    BaselineCache::write(cache_writes_->root(), BaselineCache::path_for(setup_.cache_dir), bytes);
  });
}

void Coordinator::record_stats(const Progress& p) {
  if (run_id_.empty()) run_id_ = new_run_id();
  StatsRecord r;
  r.run = run_id_;
  r.time = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  r.elapsed = std::chrono::duration<double>(p.elapsed).count();
  r.execs = p.execs;
  r.corpus = p.total;
  r.edges = p.covered_counters;
  r.features = p.coverage_bits;
  cache_writes_->attempt("the run's figures (for cfuzz cover)",
                         [&] { append_stats(cache_writes_->root(), stats_path(setup_.cache_dir), r); });
}

Progress Coordinator::progress_now(std::chrono::nanoseconds elapsed) {
  Progress p;
  p.elapsed = elapsed;
  MutexLock lock(state_.mu);
  p.execs = state_.scheduler.execs_done();
  // Executions of calls still running, read live from shared memory.
  // (A count a target wrote over is bounded: no more than one execution per 10 ns of the run.)
  auto plausible = static_cast<std::uint64_t>(elapsed.count()) / 10 + 1;
  if (pool_) p.execs += pool_->executions_in_flight(plausible);
  p.new_interesting = state_.session.admitted(core::Origin::Found);
  p.synced = state_.session.admitted(core::Origin::Cache);
  p.total = state_.session.corpus().size();
  const std::vector<std::uint8_t>& mask = state_.session.mask();
  p.coverage_bits = core::count_bits(mask.data(), mask.size());
  p.covered_counters = core::count_covered(mask.data(), mask.size());
  p.len_limit = state_.session.len_limit();
  p.input_to_state_execs = state_.session.input_to_state_execs();
  return p;
}

Job Coordinator::next_job() {
  MutexLock lock(state_.mu);
  for (;;) {
    Job j;
    switch (state_.scheduler.next(state_.session, &j)) {
      case Scheduler::Step::Job: return j;
      case Scheduler::Step::Wait: lock.wait_for(state_.cv, milliseconds(50)); break;
      case Scheduler::Step::BeginFuzzing:
        if (opts_.seeds_only) {
          state_.scheduler.stop();
          state_.cv.notify_all();
          break;
        }
        if (state_.session.begin_fuzzing(setup_.test.types)) reporter_.warning("starting with empty corpus");
        // Said before the first fuzz job goes out, with the lock held, so that no failure
        // found while fuzzing can be reported ahead of it (the reporter takes no other lock).
        reporter_.fuzzing_started(Clock::now() - setup_.start, state_.scheduler.baseline_total(), setup_.parallel);
        state_.cv.notify_all();
        break;
    }
  }
}

bool Coordinator::start_worker(Worker& w) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    try {
      w.start();
      return true;
    } catch (const std::exception& e) {
      if (attempt == 2) {
        // One line: what went wrong, and the last line the worker wrote (Worker::start's
        // message has all of its output, for the warnings above).
        std::string why = e.what();
        why = why.substr(0, why.find("; its output:"));
        state_.stop_with_error(worker_error(w.output(), why));
        return false;
      }
      reporter_.warning("worker " + std::to_string(w.index()) + ": " + e.what() + "; retrying");
      std::this_thread::sleep_for(milliseconds(100 * (attempt + 1)));
    }
  }
  return false;
}

std::string Coordinator::worker_error(const std::string& output, const std::string& why) const {
  // A sanitizer's SUMMARY line if the worker wrote one (what follows it is the runtime's
  // own epilogue), else its last line: an assertion, the target's own complaint.
  std::string out = output;
  std::string last;
  if (auto at = out.rfind("SUMMARY: "); at != std::string::npos && (at == 0 || out[at - 1] == '\n')) {
    last = out.substr(at, out.find('\n', at) - at);
  } else {
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    last = out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
  }
  if (last.size() > 300) last = last.substr(0, 300) + "...";
  std::string text = setup_.target.path + ": " + why;
  if (!last.empty()) text += "; the worker said: " + last;
  return text;
}

void Coordinator::lost_worker(WorkerCalls& w, const std::string& why) {
  // Three deaths a worker, none of them after an input ran: the workers cannot run this
  // target. (Deaths after inputs have run are a flaky target's, and the run goes on.)
  bool give_up = false;
  if (!state_.ran_an_input()) {
    MutexLock lock(state_.mu);
    give_up = ++lost_before_any_input_ >= 3 * static_cast<std::uint64_t>(setup_.parallel);
  }
  if (give_up) {
    state_.stop_with_error(worker_error(w.output(), "the workers died before running any input (" + why + ")"));
  } else {
    reporter_.warning("worker " + std::to_string(w.index()) + ": " + why + "; restarting it");
  }
  w.kill();
}

void Coordinator::worker_main(Worker& w) {
  for (;;) {
    Job job = next_job();
    if (job.kind == Job::Kind::Stop) break;
    if (!w.running() && !start_worker(w)) {
      if (job.kind == Job::Kind::Baseline) {
        MutexLock lock(state_.mu);
        state_.scheduler.run_again(job.batch.data(), job.batch.data() + job.batch.size());
      }
      state_.settle(job.limit, 0);
      break;
    }
    try {
      if (job.kind == Job::Kind::Baseline) {
        ProcessWorker c = calls(w);
        baseline_->run(c, job);
      } else if (job.kind == Job::Kind::Sync) {
        ProcessWorker c = calls(w);
        baseline_->run_synced(c, job);
      } else {
        run_fuzz(w, job);
      }
    } catch (const core::CorruptInput& e) {
      // Shared memory the target wrote over, found where no replay can tell which input did
      // it: the worker starts afresh, the run goes on.
      reporter_.warning("worker " + std::to_string(w.index()) + ": " + e.what() + "; restarting it");
      w.kill();
    } catch (const std::exception& e) {
      state_.stop_with_error(e.what());
    }
    if (w.running() && w.outgrown()) replace_outgrown(w);
  }
  state_.cv.notify_all();
}

void Coordinator::replace_outgrown(Worker& w) {
  std::uint64_t from = w.first_call_rss_mb(), to = w.rss_mb();
  auto age = std::chrono::duration_cast<std::chrono::seconds>(w.age());
  auto began = Clock::now();
  w.stop();
  if (!start_worker(w)) return;  // the run stops, saying why
  spdlog::debug("worker {}: {} s old, grew from {} to {} MiB since its first call; replaced in {} ms", w.index(),
                age.count(), from, to, std::chrono::duration_cast<milliseconds>(Clock::now() - began).count());
}

void Coordinator::run_fuzz(Worker& w, const Job& job) {
  corpus::Entry base, splice;
  {
    MutexLock lock(state_.mu);
    base = state_.session.corpus().at(job.call.plan.entry).values;
    splice = state_.session.corpus().at(job.call.plan.splice).values;
    std::memcpy(w.shm().view().mask(), state_.session.mask().data(), state_.session.mask().size());
  }
  rpc::FuzzParams params = prepare_fuzz_call(w, job, base, splice);
  Reply<rpc::FuzzResult> r;
  {
    WorkerPool::InCall in_call(*pool_, static_cast<std::size_t>(w.index()));
    r = w.fuzz(params, milliseconds(params.deadline_ms != 0 ? params.deadline_ms : 600000));
  }
  state_.settle(job.limit, r.execs);

  // Everything a worker hands back is checked before it is used: a target that writes over
  // shared memory or onto the response pipe must not take the coordinator down with it. A
  // call whose results do not hold together is replayed to find the input that did it.
  try {
    handle_fuzz_outcome(w, job, base, splice, r);
  } catch (const core::CorruptInput& e) {
    replay_damaged_call(w, job, base, splice, damaged_call(r, e.what()));
  }
}

void Coordinator::replay_damaged_call(Worker& w, const Job& job, const corpus::Entry& base, const corpus::Entry& splice,
                                      const CallOutcome& first) {
  // Calls are deterministic in their seed and inputs, so the same call in a fresh worker,
  // checking the channel after every execution, stops at the input that does it.
  spdlog::debug("worker {}: {}; replaying the call to find the input", w.index(), first.error);
  w.kill();
  if (!start_worker(w)) return;
  core::ShmView shm = w.shm().view();
  {
    MutexLock lock(state_.mu);
    std::memcpy(shm.mask(), state_.session.mask().data(), state_.session.mask().size());
  }
  rpc::FuzzParams params = prepare_fuzz_call(w, job, base, splice);
  params.limit = std::max<std::uint64_t>(first.execs, 1);  // up to where the first call got, checking each input
  params.deadline_ms = 0;
  params.paranoid = true;
  CallOutcome r = w.fuzz(params, milliseconds(600000));
  if (r.verdict() == CallOutcome::Verdict::Failed) {
    // Not exact only if the damage escaped the decoy descriptors: report the last input.
    ProcessWorker c = calls(w);
    findings_->failure(c, r.failure, c.current_input(), w.output(), nullptr);
    return;
  }
  reporter_.warning("worker " + std::to_string(w.index()) + ": " + first.error +
                    " (not reproducible; the worker was restarted)");
  w.kill();
}

rpc::FuzzParams Coordinator::prepare_fuzz_call(Worker& w, const Job& job, const corpus::Entry& base,
                                               const corpus::Entry& splice) {
  core::ShmView shm = w.shm().view();
  core::store_entry(shm.base(), base, w.shm().input_area_size());
  if (job.call.plan.splice != job.call.plan.entry) {
    core::store_entry(shm.splice(), splice, w.shm().input_area_size());
  } else {
    shm.splice().count = 0;
  }
  return job.call.params;
}

CallOutcome Coordinator::damaged_call(const CallOutcome& r, const std::string& why) {
  CallOutcome d = r;
  d.kind = CallOutcome::Kind::ProtocolError;
  d.error = why;
  d.input_fault = true;
  d.exact_input = false;
  core::failure_clear(d.failure);
  d.failure.kind = static_cast<std::uint32_t>(core::FailureKind::RpcCorrupted);
  core::failure_set(d.failure.detail, "shm-corrupted");
  core::failure_set(d.failure.message, "the target wrote over cfuzz's shared memory or its RPC pipe: " + why);
  return d;
}

void Coordinator::handle_fuzz_outcome(Worker& w, const Job& job, const corpus::Entry& base, const corpus::Entry& splice,
                                      const Reply<rpc::FuzzResult>& r) {
  core::ShmView shm = w.shm().view();
  ProcessWorker c = calls(w);
  if (r.layout_damaged) throw core::CorruptInput("the target wrote over cfuzz's shared memory");
  switch (r.kind) {
    case CallOutcome::Kind::Ok: {
      const rpc::FuzzResult& res = r.result;
      {
        MutexLock lock(state_.mu);
        state_.session.absorb(job.call, res);
      }
      if (r.verdict() == CallOutcome::Verdict::Interesting) {
        findings_->new_coverage(c, job.call.plan.entry);
      } else if (r.verdict() == CallOutcome::Verdict::Failed) {
        findings_->failure(c, r.failure, c.current_input(), w.output(), nullptr);
      }
      return;
    }
    case CallOutcome::Kind::Error:
      // A harness that breaks its contract would break every call: stop, saying why.
      if (r.error_code == rpc::kHarnessError) throw std::runtime_error(setup_.target.path + ": " + r.error);
      lost_worker(c, r.error);
      return;
    case CallOutcome::Kind::Died:
    case CallOutcome::Kind::ProtocolError:
      if (r.verdict() == CallOutcome::Verdict::Failed && r.exact_input && shm.current().count == 0) {
        // No input was ever put in the current area (a fuzz test takes at least one value):
        // the worker died in its own code before the call's first execution, a failure it
        // described, but of no input. (A count the target wrote over is damage, replayed
        // below like any other.)
        std::string what = r.failure.detail;
        lost_worker(c, "the worker failed before running an input" + (what.empty() ? "" : " (" + what + ")"));
      } else if (r.verdict() == CallOutcome::Verdict::Failed && r.exact_input) {
        findings_->failure(c, r.failure, c.current_input(), w.output(), nullptr);
      } else if (r.verdict() == CallOutcome::Verdict::Failed) {
        replay_damaged_call(w, job, base, splice, r);
      } else {
        lost_worker(c, r.error);
      }
      return;
  }
}

}  // namespace cfuzz::driver
