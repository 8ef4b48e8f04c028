#include "libfuzzdriver/run/worker_calls.h"

#include "core/exec_batch.h"
#include "core/input_area.h"

namespace cfuzz::driver {

using std::chrono::milliseconds;

corpus::Entry ProcessWorker::current_input() {
  return core::load_entry(w_.shm().view().current(), w_.shm().input_area_size());
}

const std::uint8_t* ProcessWorker::coverage() { return w_.shm().view().snapshot(); }

bool ProcessWorker::current_holds(const corpus::Entry& values) {
  try {
    return corpus::same_entry(current_input(), values);
  } catch (const core::CorruptInput&) {
    return false;
  }
}

CallOutcome ProcessWorker::exec(const corpus::Entry& values) {
  core::store_entry(w_.shm().view().base(), values, w_.shm().input_area_size());
  return w_.exec(timeout_ + milliseconds(1000));
}

BatchRun ProcessWorker::exec_batch(const std::vector<const corpus::Entry*>& values) {
  core::ShmView shm = w_.shm().view();
  BatchRun b;
  b.sent = core::pack_batch(shm.batch(), shm.batch_size(), values);
  if (b.sent == 0) return b;
  core::rpc::ExecBatchParams params;
  params.count = b.sent;
  b.reply = w_.exec_batch(params, static_cast<int>(b.sent) * (timeout_ + milliseconds(1000)));
  try {
    b.features = core::read_batch_features(shm.features(), shm.features_size(), b.sent);
  } catch (const core::CorruptInput&) {
    b.features.reset();
  }
  return b;
}

MinimizeOutcome ProcessWorker::minimize_coverage(const corpus::Entry& input, const std::vector<std::uint8_t>& keep,
                                                 const MinimizeLimits& limits) {
  return driver::minimize_coverage(w_, input, keep, limits);
}

MinimizeOutcome ProcessWorker::minimize_failure(const corpus::Entry& input, const core::FailureRecord& failure,
                                                const MinimizeLimits& limits) {
  return driver::minimize_failure(w_, input, failure, limits);
}

Reproduction ProcessWorker::reproduce(const corpus::Entry& input) { return driver::reproduce(w_, input); }

}  // namespace cfuzz::driver
