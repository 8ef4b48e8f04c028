// A worker without a process, for the unit tests of the parts that ask workers to run and
// shrink inputs (finding_handler.h, baseline_runner.h): each call does what the test set
// it to do, and what was asked is recorded.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "libfuzzdriver/run/worker_calls.h"

namespace cfuzz::driver::fakes {

inline corpus::Entry bytes_entry(const std::string& s) { return {corpus::Bytes(s.begin(), s.end())}; }

// A minimization that kept `input` as it was.
inline MinimizeOutcome kept(const corpus::Entry& input) {
  MinimizeOutcome mo;
  mo.best = input;
  mo.complete = true;
  return mo;
}

class FakeWorker final : public WorkerCalls {
 public:
  explicit FakeWorker(std::size_t counters) : cov(counters, 0) {}

  int index() const override { return 0; }
  bool running() const override { return alive; }
  void stop() override { alive = false; }
  void kill() override {
    alive = false;
    ++kills;
  }
  std::string output() const override { return out; }

  corpus::Entry current_input() override { return current; }
  const std::uint8_t* coverage() override { return cov.data(); }
  bool current_holds(const corpus::Entry& values) override { return corpus::same_entry(current, values); }

  CallOutcome exec(const corpus::Entry& values) override {
    executed.push_back(values);
    current = values;
    return on_exec ? on_exec(values) : CallOutcome{};
  }
  BatchRun exec_batch(const std::vector<const corpus::Entry*>& values) override { return on_batch(values); }
  MinimizeOutcome minimize_coverage(const corpus::Entry& input, const std::vector<std::uint8_t>&,
                                    const MinimizeLimits&) override {
    ++coverage_shrinks;
    return on_shrink ? on_shrink(input) : kept(input);
  }
  MinimizeOutcome minimize_failure(const corpus::Entry& input, const core::FailureRecord&,
                                   const MinimizeLimits&) override {
    ++failure_minimizations;
    return on_minimize ? on_minimize(input) : kept(input);
  }
  Reproduction reproduce(const corpus::Entry& input) override {
    alive = true;
    return on_reproduce ? on_reproduce(input) : Reproduction{};
  }

  // What the calls do.
  bool alive = true;
  corpus::Entry current;
  std::vector<std::uint8_t> cov;  // the last execution's bucketed counters
  std::string out;
  std::function<CallOutcome(const corpus::Entry&)> on_exec;
  std::function<BatchRun(const std::vector<const corpus::Entry*>&)> on_batch;
  std::function<MinimizeOutcome(const corpus::Entry&)> on_shrink;
  std::function<MinimizeOutcome(const corpus::Entry&)> on_minimize;
  std::function<Reproduction(const corpus::Entry&)> on_reproduce;
  // What was asked.
  std::vector<corpus::Entry> executed;
  int kills = 0, coverage_shrinks = 0, failure_minimizations = 0;
};

// A failure of kind `kind` at `site`.
inline core::FailureRecord failure_of(core::FailureKind kind, const char* site = "target.cc:12") {
  core::FailureRecord f{};
  f.kind = static_cast<std::uint32_t>(kind);
  core::failure_set(f.site, site);
  return f;
}

// A Reporter's JSON lines, read back from a temporary file.
class ReporterOutput {
 public:
  ReporterOutput() : file_(std::tmpfile()) {}
  ~ReporterOutput() { std::fclose(file_); }
  ReporterOutput(const ReporterOutput&) = delete;
  ReporterOutput& operator=(const ReporterOutput&) = delete;
  std::FILE* file() { return file_; }
  std::string text() {
    std::fflush(file_);
    std::rewind(file_);
    std::string s;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, file_)) > 0;) s.append(buf, n);
    return s;
  }

 private:
  std::FILE* file_;
};

}  // namespace cfuzz::driver::fakes
