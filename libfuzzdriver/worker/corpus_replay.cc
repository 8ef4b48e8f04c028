#include "libfuzzdriver/worker/corpus_replay.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/failure_record.h"
#include "core/input_area.h"
#include "core/rpc.h"

namespace cfuzz::driver {

std::vector<ReplayResult> replay_corpus(const TargetInfo& target, const TestInfo& test,
                                        const std::vector<corpus::Entry>& inputs, const ReplaySetup& setup) {
  std::uint64_t largest = 4096;
  for (const auto& in : inputs) largest = std::max(largest, core::entry_size(in));
  WorkerConfig config = worker_config_for(target, test);
  config.env = setup.env;
  config.timeout = setup.timeout;
  config.rss_limit_mb = setup.rss_limit_mb;
  config.slot_capacity = largest;
  int parallel =
      setup.parallel > 0 ? setup.parallel : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  parallel = std::max(1, std::min<int>(parallel, static_cast<int>(inputs.size())));
  std::vector<ReplayResult> results(inputs.size());
  std::atomic<std::size_t> next{0};
  std::mutex error_mu;
  std::string fatal;
  std::vector<std::thread> threads;
  for (int t = 0; t < parallel; ++t) {
    threads.emplace_back([&, t] {
      Worker w(t, config);
      for (std::size_t i = next++; i < inputs.size(); i = next++) {
        ReplayResult& out = results[i];
        if (!w.running()) {
          try {
            w.start();
          } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lock(error_mu);
            if (fatal.empty()) fatal = e.what();
            return;
          }
        }
        core::ShmView shm = w.shm().view();
        core::store_entry(shm.base(), inputs[i], w.shm().input_area_size());
        std::memset(shm.mask(), 0, config.counters);
        Reply<core::rpc::ExecResult> r = w.exec(config.timeout + std::chrono::milliseconds(1000));
        CallOutcome::Verdict v = r.verdict();
        if (v == CallOutcome::Verdict::Failed || v == CallOutcome::Verdict::OutOfDomain) {
          out.ran = true;
          out.failed = true;
          out.failure = core::failure_summary(r.failure);
          if (r.kind == CallOutcome::Kind::Ok) out.exec_ns = r.result.duration_ns;
        } else if (v == CallOutcome::Verdict::NotTheInput) {
          w.kill();  // not the input's fault: leave it without a verdict, try the next
        } else {
          out.ran = true;
          out.exec_ns = r.result.duration_ns;
          const std::uint8_t* snap = shm.snapshot();
          for (std::uint64_t c = 0; c < config.counters; ++c) {
            for (int bit = 0; snap[c] >> bit; ++bit) {
              if ((snap[c] >> bit) & 1)
                out.features.push_back(static_cast<std::uint32_t>(c * 8 + static_cast<std::uint64_t>(bit)));
            }
          }
        }
      }
      w.stop(setup.exit_grace);
    });
  }
  for (auto& t : threads) t.join();
  if (!fatal.empty()) throw std::runtime_error(fatal);
  return results;
}

}  // namespace cfuzz::driver
