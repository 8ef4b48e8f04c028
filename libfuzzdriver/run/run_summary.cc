#include "libfuzzdriver/run/run_summary.h"

#include <nlohmann/json.hpp>

namespace cfuzz::driver {

using nlohmann::json;

namespace {

double seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

std::string verdict(const FuzzTestResult& r) { return !r.error.empty() ? "ERROR" : r.failed() ? "FAIL" : "PASS"; }

std::string summary_line(const FuzzTestResult& r) {
  std::string line = verdict(r);
  line.resize(6, ' ');
  line += r.test + " (" + r.target + "): ";
  if (!r.error.empty()) return line + r.error + "\n";
  if (r.change && r.change->skipped) {
    return line + "not fuzzed: reaches no changed function, " + format_elapsed(r.time) + "\n";
  }
  std::string reach;
  if (r.change) {
    reach =
        ", changed lines reached: " + std::to_string(r.change->lines_reached) + "/" + std::to_string(r.change->lines);
  }
  if (!r.finished) return line + "not fuzzed, " + format_elapsed(r.time) + reach + "\n";
  return line + "execs: " + std::to_string(r.execs) + ", corpus: " + std::to_string(r.corpus) +
         ", new interesting: " + std::to_string(r.new_interesting) + ", " + format_elapsed(r.time) + reach + "\n";
}

json summary_event(const FuzzTestResult& r) {
  json j{{"event", "result"},
         {"target", r.target},
         {"test", r.test},
         {"result", verdict(r) == "PASS"   ? "pass"
                    : verdict(r) == "FAIL" ? "fail"
                                           : "error"},
         {"elapsed", seconds(r.time)},
         {"execs", r.execs},
         {"corpus", r.corpus},
         {"new_interesting", r.new_interesting},
         {"failures", r.failures.size()}};
  if (!r.error.empty()) j["error"] = r.error;
  if (r.change) {
    j["reaches_change"] = r.change->reaches_function;
    j["fuzzed"] = !r.change->skipped;
    j["changed_lines"] = r.change->lines;
    j["changed_lines_reached"] = r.change->lines_reached;
  }
  return j;
}

}  // namespace

void print_slice_start(std::FILE* out, bool json_lines, const FuzzTestResult& test, int round, const Budget& budget) {
  std::string line;
  if (json_lines) {
    line = json{{"event", "slice"},
                {"target", test.target},
                {"test", test.test},
                {"round", round},
                {"fuzztime", round == 0 ? "seeds" : budget.describe()}}
               .dump();
  } else if (round == 0) {
    line = "=== RUN   " + test.test + " (" + test.target + "): seed corpus";
  } else {
    line =
        "=== FUZZ  " + test.test + " (" + test.target + "): round " + std::to_string(round) + ", " + budget.describe();
  }
  std::fputs((line + "\n").c_str(), out);
  std::fflush(out);
}

void print_summary(std::FILE* out, bool json_lines, const std::vector<FuzzTestResult>& results,
                   std::chrono::nanoseconds elapsed, const ChangeSummary* change) {
  std::size_t failed = 0, errors = 0;
  for (const auto& r : results) {
    errors += r.error.empty() ? 0 : 1;
    failed += r.error.empty() && r.failed() ? 1 : 0;
  }
  std::string text;
  if (json_lines) {
    for (const auto& r : results) text += summary_event(r).dump() + "\n";
    json done{{"event", "done"},
              {"elapsed", seconds(elapsed)},
              {"tests", results.size()},
              {"failed", failed},
              {"errors", errors}};
    if (change) {
      done["since"] = change->since;
      done["changed_lines"] = change->lines;
      done["changed_lines_with_code"] = change->with_code;
      done["changed_lines_reached"] = change->reached;
      done["changed_functions"] = change->functions;
    }
    text += done.dump() + "\n";
  } else {
    text = "--- summary: " + std::to_string(results.size()) + " fuzz tests, " + format_elapsed(elapsed) + "\n";
    if (change) {
      std::string in;
      for (const auto& f : change->functions) in += (in.empty() ? "" : ", ") + f;
      text += "--- changed since " + change->since + ": " + std::to_string(change->lines) + " lines, " +
              std::to_string(change->with_code) + " with code" + (in.empty() ? "" : " (in " + in + ")") + ", " +
              std::to_string(change->reached) + " reached\n";
    }
    for (const auto& r : results) text += summary_line(r);
    text += failed + errors > 0 ? "FAIL\n" : "PASS\n";
  }
  std::fputs(text.c_str(), out);
  std::fflush(out);
}

}  // namespace cfuzz::driver
