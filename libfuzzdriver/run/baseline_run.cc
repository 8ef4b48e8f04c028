// The baseline: before fuzzing, every corpus entry the last run of this binary did not
// measure runs once, and its coverage goes into the mask and the entry's schedule. Entries
// go to workers in batches (core/exec_batch.h), one RPC call per batch; the scheduler
// (scheduler.h) says which entries, and how many at a time.
#include <algorithm>

#include "core/exec_batch.h"
#include "core/input_area.h"
#include "core/rpc.h"
#include "libfuzzdriver/run/coordinator.h"

namespace cfuzz::driver {

namespace rpc = core::rpc;
using std::chrono::milliseconds;

namespace {

const core::CorpusEntry* as_seed(const core::CorpusEntry& e) {
  // A failing seed or testdata file is reported as a failing test.
  return e.origin == core::Origin::Seed || e.origin == core::Origin::Testdata ? &e : nullptr;
}

// Whether the worker's current area holds `values` (false for an area written over).
bool current_holds(SharedMemory& shm, const corpus::Entry& values) {
  try {
    return corpus::same_entry(core::load_entry(shm.view().current(), shm.input_area_size()), values);
  } catch (const core::CorruptInput&) {
    return false;
  }
}

}  // namespace

void Coordinator::baseline_passed(std::size_t index, const std::vector<std::uint32_t>& features) {
  session_.measured(index, features);
  cache_features(index, features);
  scheduler_.baseline_ran(1);
}

void Coordinator::run_baseline(Worker& w, const Job& job) {
  std::vector<core::CorpusEntry> entries;
  entries.reserve(job.batch.size());
  {
    MutexLock lock(mu_);
    for (std::size_t i : job.batch) entries.push_back(session_.corpus().at(i));
  }
  std::vector<const corpus::Entry*> values;
  for (const auto& e : entries) values.push_back(&e.values);
  core::ShmView shm = w.shm().view();
  std::size_t sent = core::pack_batch(shm.batch(), shm.batch_size(), values);
  if (sent == 0) {
    {
      MutexLock lock(mu_);
      scheduler_.run_again(job.batch.data() + 1, job.batch.data() + job.batch.size());
    }
    run_baseline_alone(w, job, job.batch[0], entries[0]);
    return;
  }

  rpc::ExecBatchParams params;
  params.count = sent;
  Reply<rpc::ExecBatchResult> r = w.exec_batch(params, static_cast<int>(sent) * (opts_.timeout + milliseconds(1000)));

  // What the worker recorded: the inputs before `ran` passed, with their features. Anything
  // it says is checked: a target may have written over shared memory or the pipe.
  std::vector<std::vector<std::uint32_t>> features;
  bool features_intact = true;
  try {
    features = core::read_batch_features(shm.features(), shm.features_size(), sent);
    for (const auto& fs : features) {
      for (std::uint32_t f : fs) {
        if (f / 8 >= setup_.target.counters) throw core::CorruptInput("a baseline feature past the target's counters");
      }
    }
  } catch (const core::CorruptInput&) {
    features.clear();
    features_intact = false;
  }
  std::size_t failed = sent;  // the index of the input that failed, if one did
  core::FailureRecord failure{};
  std::string lost;  // why the call's results are lost, if they are
  if (r.kind == CallOutcome::Kind::Ok) {
    const rpc::ExecBatchResult& res = r.result;
    bool ok = res.status == rpc::Status::Ok && res.done != 0;
    bool failing = res.status == rpc::Status::Failure && res.done < sent;
    if (!features_intact || res.done != features.size() || !(ok || failing)) {
      features.clear();
      lost = "exec_batch results that do not hold together";
    } else if (failing) {
      failed = res.done;
      failure = r.failure;
    }
  } else if (r.input_fault) {
    // The input that was executing is in the current area. Which of the batch it is, the
    // features say, unless the target wrote over them too: then the area itself, and the
    // inputs before it run again.
    failed = features.size();
    if (failed >= sent || !current_holds(w.shm(), entries[failed].values)) {
      features.clear();
      failed = sent;
      for (std::size_t k = 0; k < sent && failed == sent; ++k) {
        if (current_holds(w.shm(), entries[k].values)) failed = k;
      }
    }
    if (failed == sent) {
      lost = "the worker died on an input that is not in its batch";
    } else {
      failure = r.failure;
    }
  } else {
    lost = r.error;
  }
  std::size_t ran = features.size() + (failed < sent ? 1 : 0);
  settle(job.limit, ran);
  std::size_t after = failed < sent ? failed + 1 : features.size();  // the first input not accounted for
  if (failed < sent) {
    // Claimed (and the run stopped) before the entry counts as done, or the last baseline
    // entry would let other workers start fuzzing first.
    const core::CorpusEntry& e = entries[failed];
    handle_input_failure(w, failure, e.values, as_seed(e));
  }
  if (!lost.empty()) lost_worker(w, lost);
  {
    MutexLock lock(mu_);
    for (std::size_t k = 0; k < features.size(); ++k) baseline_passed(job.batch[k], features[k]);
    if (failed < sent) scheduler_.baseline_ran(1);
    // What did not run (after a failure, a lost worker, or a full features area) runs again,
    // and so does what came before a failing input without its features.
    scheduler_.run_again(job.batch.data() + after, job.batch.data() + job.batch.size());
    if (failed < sent) scheduler_.run_again(job.batch.data() + features.size(), job.batch.data() + failed);
  }
  cv_.notify_all();
}

void Coordinator::run_baseline_alone(Worker& w, const Job& job, std::size_t index, const core::CorpusEntry& entry) {
  OnceResult result = run_once(w, job, entry.values, as_seed(entry));
  core::ShmView shm = w.shm().view();
  std::vector<std::uint32_t> features;
  if (result == OnceResult::Passed) features = core::Corpus::features_of(shm.snapshot(), setup_.target.counters);
  {
    MutexLock lock(mu_);
    if (result == OnceResult::Lost) {
      scheduler_.run_again(&index, &index + 1);  // run it again
    } else if (result == OnceResult::Passed) {
      baseline_passed(index, features);
    } else {
      scheduler_.baseline_ran(1);
    }
  }
  cv_.notify_all();
}

}  // namespace cfuzz::driver
