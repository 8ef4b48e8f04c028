#include "libfuzzdriver/run/baseline_runner.h"

#include <algorithm>

#include "core/rpc.h"

namespace cfuzz::driver {

namespace rpc = core::rpc;

namespace {

const core::CorpusEntry* as_seed(const core::CorpusEntry& e) {
  // A failing seed or testdata file is reported as a failing test.
  return e.origin == core::Origin::Seed || e.origin == core::Origin::Testdata ? &e : nullptr;
}

// Which entry of a batch failed (`sent` when none did), and why the call's results are
// lost, if they are: what the worker says is checked against what it recorded.
struct BatchVerdict {
  std::size_t failed = 0;
  core::FailureRecord failure{};
  std::string lost;
};

BatchVerdict judge_batch(WorkerCalls& w, const BatchRun& b, const std::vector<core::CorpusEntry>& entries,
                         bool features_intact, std::vector<std::vector<std::uint32_t>>* features) {
  const std::size_t sent = b.sent;
  BatchVerdict v;
  v.failed = sent;
  const Reply<rpc::ExecBatchResult>& r = b.reply;
  if (r.kind == CallOutcome::Kind::Ok) {
    const rpc::ExecBatchResult& res = r.result;
    bool ok = res.status == rpc::Status::Ok && res.done != 0;
    bool failing = res.status == rpc::Status::Failure && res.done < sent;
    if (!features_intact || res.done != features->size() || !(ok || failing)) {
      features->clear();
      v.lost = "exec_batch results that do not hold together";
    } else if (failing) {
      v.failed = res.done;
      v.failure = r.failure;
    }
  } else if (r.input_fault) {
    // The input that was executing is in the current area. Which of the batch it is, the
    // features say, unless the target wrote over them too: then the area itself, and the
    // inputs before it run again.
    v.failed = features->size();
    if (v.failed >= sent || !w.current_holds(entries[v.failed].values)) {
      features->clear();
      v.failed = sent;
      for (std::size_t k = 0; k < sent && v.failed == sent; ++k) {
        if (w.current_holds(entries[k].values)) v.failed = k;
      }
    }
    if (v.failed == sent) {
      v.lost = "the worker died on an input that is not in its batch";
    } else {
      v.failure = r.failure;
    }
  } else {
    v.lost = r.error;
  }
  return v;
}

}  // namespace

void BaselineRunner::passed(std::size_t index, const std::vector<std::uint32_t>& features) {
  state_.session.measured(index, features);
  state_.cache_features(index, features);
  state_.scheduler.baseline_ran(1);
}

void BaselineRunner::run(WorkerCalls& w, const Job& job) {
  std::vector<core::CorpusEntry> entries;
  entries.reserve(job.batch.size());
  {
    MutexLock lock(state_.mu);
    for (std::size_t i : job.batch) entries.push_back(state_.session.corpus().at(i));
  }
  std::vector<const corpus::Entry*> values;
  for (const auto& e : entries) values.push_back(&e.values);
  BatchRun b = w.exec_batch(values);
  if (b.sent == 0) {
    {
      MutexLock lock(state_.mu);
      state_.scheduler.run_again(job.batch.data() + 1, job.batch.data() + job.batch.size());
    }
    run_alone(w, job, job.batch[0], entries[0]);
    return;
  }
  const std::size_t sent = b.sent;

  // What the worker recorded: the inputs before `ran` passed, with their features. Anything
  // it says is checked: a target may have written over shared memory or the pipe.
  bool features_intact =
      b.features.has_value() && std::all_of(b.features->begin(), b.features->end(), [&](const auto& fs) {
        return std::all_of(fs.begin(), fs.end(), [&](std::uint32_t f) { return f / 8 < counters_; });
      });
  std::vector<std::vector<std::uint32_t>> features;
  if (features_intact) features = std::move(*b.features);
  BatchVerdict v = judge_batch(w, b, entries, features_intact, &features);
  std::size_t ran = features.size() + (v.failed < sent ? 1 : 0);
  state_.settle(job.limit, ran);
  std::size_t after = v.failed < sent ? v.failed + 1 : features.size();  // the first input not accounted for
  if (v.failed < sent) {
    // Claimed (and the run stopped) before the entry counts as done, or the last baseline
    // entry would let other workers start fuzzing first.
    const core::CorpusEntry& e = entries[v.failed];
    findings_.input_failed(w, v.failure, e.values, as_seed(e));
  }
  if (!v.lost.empty()) lost_(w, v.lost);
  {
    MutexLock lock(state_.mu);
    for (std::size_t k = 0; k < features.size(); ++k) passed(job.batch[k], features[k]);
    if (v.failed < sent) state_.scheduler.baseline_ran(1);
    // What did not run (after a failure, a lost worker, or a full features area) runs again,
    // and so does what came before a failing input without its features.
    state_.scheduler.run_again(job.batch.data() + after, job.batch.data() + job.batch.size());
    if (v.failed < sent) state_.scheduler.run_again(job.batch.data() + features.size(), job.batch.data() + v.failed);
  }
  state_.cv.notify_all();
}

void BaselineRunner::run_alone(WorkerCalls& w, const Job& job, std::size_t index, const core::CorpusEntry& entry) {
  OnceResult result = run_once(w, job, entry.values, as_seed(entry));
  std::vector<std::uint32_t> features;
  if (result == OnceResult::Passed) features = core::Corpus::features_of(w.coverage(), counters_);
  {
    MutexLock lock(state_.mu);
    if (result == OnceResult::Lost) {
      state_.scheduler.run_again(&index, &index + 1);  // run it again
    } else if (result == OnceResult::Passed) {
      passed(index, features);
    } else {
      state_.scheduler.baseline_ran(1);
    }
  }
  state_.cv.notify_all();
}

void BaselineRunner::run_synced(WorkerCalls& w, const Job& job) {
  const CachedEntry& entry = *job.synced;
  if (run_once(w, job, entry.values, nullptr) != OnceResult::Passed) return;
  MutexLock lock(state_.mu);
  // Kept only for coverage this run lacks, as libFuzzer and Go keep what they reload.
  auto admitted = state_.session.admit(core::make_corpus_entry(entry.name, core::Origin::Cache, entry.values),
                                       w.coverage(), state_.scheduler.execs_done());
  if (!admitted) return;
  state_.cache_features(admitted->index, admitted->features);
}

BaselineRunner::OnceResult BaselineRunner::run_once(WorkerCalls& w, const Job& job, const corpus::Entry& values,
                                                    const core::CorpusEntry* as_seed) {
  CallOutcome r = w.exec(values);
  state_.settle(job.limit, std::max<std::uint64_t>(r.execs, r.kind == CallOutcome::Kind::Ok ? 1 : 0));
  switch (r.verdict()) {
    case CallOutcome::Verdict::Failed:
    case CallOutcome::Verdict::OutOfDomain:
      return findings_.input_failed(w, r.failure, values, as_seed) ? OnceResult::Failed : OnceResult::OutOfDomain;
    case CallOutcome::Verdict::Fine:
    case CallOutcome::Verdict::Interesting: return OnceResult::Passed;
    case CallOutcome::Verdict::NotTheInput: break;
  }
  // The worker died for some other reason (killed from outside).
  lost_(w, r.error);
  return OnceResult::Lost;
}

}  // namespace cfuzz::driver
