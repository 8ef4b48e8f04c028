#include "libfuzzdriver/run/scheduler.h"

#include <algorithm>

#include "core/fuzz_call_plan.h"

namespace cfuzz::driver {

namespace {

// Enough to make the call's own cost small beside the entries' on the emptiest target.
constexpr std::size_t kBaselineBatch = 256;

}  // namespace

Scheduler::Scheduler(Settings s) : settings_(s) {}

void Scheduler::plan_baseline(std::size_t total, std::vector<std::size_t> queue) {
  baseline_total_ = total;
  baseline_done_ = total - std::min(total, queue.size());
  queue_ = std::move(queue);
  queue_next_ = 0;
}

std::uint64_t Scheduler::budget_left() const {
  if (!settings_.exec_budget) return UINT64_MAX;
  return *settings_.exec_budget - std::min(*settings_.exec_budget, execs_done_ + execs_reserved_);
}

std::uint64_t Scheduler::reserve(std::uint64_t wanted) {
  if (!settings_.exec_budget) return wanted;
  std::uint64_t granted = std::min(wanted, budget_left());
  execs_reserved_ += granted;
  return granted;
}

void Scheduler::settle(std::uint64_t reserved, std::uint64_t used) {
  if (settings_.exec_budget) {
    execs_reserved_ -= std::min(execs_reserved_, reserved);
    used = std::min(used, reserved);
  }
  execs_done_ += used;
  if (settings_.exec_budget && execs_done_ >= *settings_.exec_budget) stop_ = true;
}

Job Scheduler::baseline_batch(std::uint64_t budget) {
  std::size_t left = retry_.size() + (queue_.size() - queue_next_);
  // Guided self-scheduling: a share of what is left, so that the last batches are small
  // and no worker waits on another's last one.
  std::size_t want =
      std::clamp<std::size_t>(left / (2 * static_cast<std::size_t>(settings_.workers)), 1, kBaselineBatch);
  want = static_cast<std::size_t>(std::min<std::uint64_t>(want, budget));
  Job j;
  j.kind = Job::Kind::Baseline;
  while (j.batch.size() < want && !retry_.empty()) {
    j.batch.push_back(retry_.back());
    retry_.pop_back();
  }
  while (j.batch.size() < want && queue_next_ < queue_.size()) j.batch.push_back(queue_[queue_next_++]);
  j.limit = reserve(j.batch.size());
  return j;
}

Scheduler::Step Scheduler::next(core::FuzzSession& session, Job* job) {
  *job = Job{};
  if (stop_) return Step::Job;
  // Baseline first: every corpus entry runs once, and its coverage goes into the mask.
  if (baseline_queued()) {
    std::uint64_t budget = budget_left();
    if (budget != 0) {
      *job = baseline_batch(budget);
      return Step::Job;
    }
    if (execs_reserved_ == 0) {
      stop_ = true;
      return Step::Job;
    }
    return Step::Wait;  // what other workers run may be settled unused
  }
  if (!fuzzing_) {
    if (baseline_done_ < baseline_total_) return Step::Wait;  // still running in other workers
    fuzzing_ = true;
    return Step::BeginFuzzing;
  }
  if (!pending_sync_.empty()) {
    if (reserve(1) == 1) {
      job->kind = Job::Kind::Sync;
      job->synced = pending_sync_.back();
      pending_sync_.pop_back();
      job->limit = 1;
      return Step::Job;
    }
    pending_sync_.clear();
  }
  std::uint64_t per_call = repeatable() ? core::kSeededCallExecs : 0;
  if (settings_.exec_budget) {
    std::uint64_t left = budget_left();
    if (left == 0) {
      if (execs_reserved_ != 0) return Step::Wait;
      stop_ = true;
      return Step::Job;
    }
    std::uint64_t workers = static_cast<std::uint64_t>(settings_.workers);
    std::uint64_t share = (left + workers - 1) / workers;
    per_call = reserve(per_call != 0 ? std::min(per_call, share) : share);
  }
  job->kind = Job::Kind::Fuzz;
  job->limit = per_call;
  job->call = session.next_call(execs_done_);
  job->call.params.limit = per_call;
  return Step::Job;
}

}  // namespace cfuzz::driver
