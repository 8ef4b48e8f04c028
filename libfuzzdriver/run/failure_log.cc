#include "libfuzzdriver/run/failure_log.h"

namespace cfuzz::driver {

FailureLog::Claim FailureLog::claim(const core::FailureRecord& failure, bool seed) {
  MutexLock lock(mu_);
  Claim c;
  if (keep_fuzzing_ && !seed) {
    c.handle = signatures_.insert(core::failure_signature(failure)).second;
    return c;
  }
  if (run_ended_) return c;
  run_ended_ = true;
  c.handle = true;
  c.ends_run = true;
  return c;
}

void FailureLog::add(const FailureReport& r) {
  MutexLock lock(mu_);
  reports_.push_back(r);
}

std::size_t FailureLog::size() const {
  MutexLock lock(mu_);
  return reports_.size();
}

void FailureLog::minimizing(std::size_t worker, const MinimizeProgress& p) {
  MutexLock lock(mu_);
  minimizing_[worker] = p;
}

void FailureLog::done_minimizing(std::size_t worker) {
  MutexLock lock(mu_);
  minimizing_.erase(worker);
}

std::vector<MinimizeProgress> FailureLog::minimizing_now() const {
  MutexLock lock(mu_);
  std::vector<MinimizeProgress> out;
  for (const auto& [worker, p] : minimizing_) out.push_back(p);
  return out;
}

}  // namespace cfuzz::driver
