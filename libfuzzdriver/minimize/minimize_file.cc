#include "libfuzzdriver/minimize/minimize_file.h"

#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/input_area.h"
#include "corpus_format/codec.h"
#include "libfuzzdriver/minimize/minimize_driver.h"
#include "libfuzzdriver/util/file_io.h"
#include "libfuzzdriver/worker/sanitizer_env.h"
#include "libfuzzdriver/worker/target_info.h"
#include "libfuzzdriver/worker/worker.h"

namespace cfuzz::driver {

namespace {

using Clock = std::chrono::steady_clock;

corpus::Entry load_input(const MinimizeFileOptions& o, const TestInfo& test) {
  if (!o.raw) {
    corpus::Entry e = corpus::read_file(o.input);
    corpus::check_types(e, test.types, o.input);
    return e;
  }
  if (test.types.size() != 1 || (test.types[0] != corpus::Type::Bytes && test.types[0] != corpus::Type::String)) {
    throw std::runtime_error("--raw needs a fuzz test taking one []byte or string; " + test.name + " takes " +
                             corpus::format_type_list(test.types));
  }
  std::string bytes = read_file_bytes(o.input);
  corpus::Entry e;
  if (test.types[0] == corpus::Type::Bytes) {
    e.emplace_back(corpus::Bytes(bytes.begin(), bytes.end()));
  } else {
    e.emplace_back(bytes);
  }
  return e;
}

std::string output_bytes(const MinimizeFileOptions& o, const corpus::Entry& e) {
  if (!o.raw) return corpus::encode(e);
  if (const auto* b = std::get_if<corpus::Bytes>(&e[0])) return std::string(b->begin(), b->end());
  return std::get<std::string>(e[0]);
}

}  // namespace

int minimize_file(const MinimizeFileOptions& o) {
  auto start = Clock::now();
  TargetInfo target = describe_target(o.target, "", fuzzing_environment());
  const TestInfo& test = target.select(o.fuzz);
  if (!test.error.empty()) throw std::runtime_error(test.name + " cannot run: " + test.error);
  corpus::Entry input = load_input(o, test);
  std::uint64_t largest = core::entry_size(input);

  // Leak checks on, so that a leak's reproducer minimizes like any other failure.
  WorkerConfig config = worker_config_for(target, test, /*detect_leaks=*/true);
  config.timeout = o.timeout;
  config.rss_limit_mb = o.rss_limit_mb;
  config.slot_capacity = std::max<std::uint64_t>(largest, 4096);
  Worker worker(0, config);
  worker.start();

  auto say = [&](const std::string& text, nlohmann::json event) {
    if (o.json) {
      std::printf("%s\n", event.dump().c_str());
    } else {
      std::printf("%s\n", text.c_str());
    }
    std::fflush(stdout);
  };

  Reproduction first = reproduce(worker, input);
  if (!first.ran || first.failure.kind == static_cast<std::uint32_t>(core::FailureKind::None)) {
    worker.stop();
    say("minimize: " + o.input + " does not fail: " + test.name + " passes on it, so there is nothing to minimize",
        {{"event", "not_failing"}, {"input", o.input}});
    return 1;
  }
  std::string failure = core::failure_summary(first.failure);
  say("minimize: " + o.input + " (" + std::to_string(largest) + " bytes) fails with: " + failure,
      {{"event", "start"}, {"input", o.input}, {"bytes", largest}, {"failure", failure}});

  MinimizeLimits limits;
  if (o.budget.time) limits.deadline = Clock::now() + *o.budget.time;
  if (o.budget.count) limits.execs = *o.budget.count;
  auto last_line = Clock::now();
  limits.on_progress = [&](const corpus::Entry& best, std::uint64_t execs, std::uint64_t) {
    if (Clock::now() - last_line < std::chrono::seconds(1)) return;
    last_line = Clock::now();
    auto elapsed = Clock::now() - start;
    say("minimize: elapsed: " + format_elapsed(elapsed) + ", execs: " + std::to_string(execs) +
            ", size: " + std::to_string(core::entry_size(best)) + " bytes",
        {{"event", "progress"}, {"execs", execs}, {"bytes", core::entry_size(best)}});
  };
  limits.warn = [&](const std::string& text) {
    if (o.json) {
      say("", {{"event", "warning"}, {"message", text}});
    } else {
      std::fprintf(stderr, "warning: %s\n", text.c_str());
    }
  };
  MinimizeOutcome mo = minimize_failure(worker, input, first.failure, limits);

  // The result must fail the same way in a fresh worker; if it does not (a flaky
  // failure), the original is what we have.
  worker.stop();
  corpus::Entry best = mo.best;
  Reproduction check = reproduce(worker, best);
  if (!check.ran || !core::same_failure(check.failure, first.failure)) best = input;
  worker.stop();

  std::string out = o.output.empty() ? o.input + ".min" : o.output;
  write_file_atomic(out, output_bytes(o, best));
  auto elapsed = Clock::now() - start;
  std::uint64_t after = core::entry_size(best);
  say("minimize: " + o.input + ": " + std::to_string(largest) + " -> " + std::to_string(after) + " bytes in " +
          std::to_string(mo.execs) + " executions (" + format_elapsed(elapsed) +
          (mo.complete ? "" : ", budget reached") + "); written to " + out,
      {{"event", "done"},
       {"input", o.input},
       {"output", out},
       {"bytes_before", largest},
       {"bytes_after", after},
       {"execs", mo.execs},
       {"restarts", mo.restarts},
       {"complete", mo.complete},
       {"seconds", std::chrono::duration<double>(elapsed).count()}});
  return 0;
}

}  // namespace cfuzz::driver
