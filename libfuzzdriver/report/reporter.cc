#include "libfuzzdriver/report/reporter.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "core/dictionary.h"
#include "libfuzzdriver/util/budget.h"

namespace cfuzz::driver {

using nlohmann::json;

namespace {

double seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

std::string indent(const std::string& text, const std::string& pad) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out += pad + line + "\n";
  return out;
}

}  // namespace

void Reporter::emit(const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  std::fputs(text.c_str(), out_);
  std::fflush(out_);
}

void Reporter::emit_json(json event) {
  std::string target, test;
  {
    std::lock_guard<std::mutex> lock(mu_);
    target = tag_target_;
    test = tag_test_;
  }
  if (!test.empty()) {
    event["target"] = target;
    event["test"] = test;
  }
  emit(event.dump() + "\n");
}

void Reporter::tag(std::string target, std::string test) {
  std::lock_guard<std::mutex> lock(mu_);
  tag_target_ = std::move(target);
  tag_test_ = std::move(test);
}

void Reporter::baseline(std::chrono::nanoseconds elapsed, std::uint64_t done, std::uint64_t total) {
  if (json_) {
    emit_json(json{{"event", "baseline"}, {"elapsed", seconds(elapsed)}, {"done", done}, {"total", total}});
  } else {
    emit("fuzz: elapsed: " + format_elapsed(elapsed) + ", gathering baseline coverage: " + std::to_string(done) + "/" +
         std::to_string(total) + " completed\n");
  }
}

void Reporter::fuzzing_started(std::chrono::nanoseconds elapsed, std::uint64_t total, int workers) {
  if (json_) {
    emit_json(json{{"event", "fuzzing"}, {"elapsed", seconds(elapsed)}, {"corpus", total}, {"workers", workers}});
  } else {
    emit("fuzz: elapsed: " + format_elapsed(elapsed) + ", gathering baseline coverage: " + std::to_string(total) + "/" +
         std::to_string(total) + " completed, now fuzzing with " + std::to_string(workers) +
         (workers == 1 ? " worker\n" : " workers\n"));
  }
}

void Reporter::progress(const Progress& p) {
  if (json_) {
    emit_json(json{{"event", "progress"},
                   {"elapsed", seconds(p.elapsed)},
                   {"execs", p.execs},
                   {"execs_per_sec", static_cast<std::uint64_t>(p.rate + 0.5)},
                   {"new_interesting", p.new_interesting},
                   {"synced", p.synced},
                   {"corpus", p.total},
                   {"coverage_bits", p.coverage_bits},
                   {"covered_counters", p.covered_counters},
                   {"len_limit", p.len_limit},
                   {"input_to_state_execs", p.input_to_state_execs}});
  } else {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.0f", p.rate);
    emit("fuzz: elapsed: " + format_elapsed(p.elapsed) + ", execs: " + std::to_string(p.execs) + " (" + rate +
         "/sec), new interesting: " + std::to_string(p.new_interesting) + " (total: " + std::to_string(p.total) + ")" +
         // libFuzzer's cov: (edges reached) and ft: (features: edges by hit-count bucket)
         ", cov: " + std::to_string(p.covered_counters) + ", ft: " + std::to_string(p.coverage_bits) +
         (p.synced > 0 ? ", synced from other runs: " + std::to_string(p.synced) : "") + "\n");
  }
}

void Reporter::minimizing(std::chrono::nanoseconds elapsed, std::uint64_t bytes) {
  if (json_) {
    emit_json(json{{"event", "minimizing"}, {"elapsed", seconds(elapsed)}, {"bytes", bytes}});
  } else {
    emit("fuzz: elapsed: " + format_elapsed(elapsed) + ", minimizing a failing input of " + std::to_string(bytes) +
         " bytes\n");
  }
}

void Reporter::minimize_progress(const MinimizeProgress& m) {
  if (json_) {
    emit_json(json{{"event", "minimize_progress"},
                   {"elapsed", seconds(m.elapsed)},
                   {"bytes_before", m.bytes_before},
                   {"bytes", m.bytes_now},
                   {"execs", m.execs},
                   {"restarts", m.restarts}});
  } else {
    emit("fuzz: elapsed: " + format_elapsed(m.elapsed) + ", minimizing: " + std::to_string(m.bytes_before) + " -> " +
         std::to_string(m.bytes_now) + " bytes, " + std::to_string(m.execs) + " execs" +
         (m.restarts > 0 ? ", " + std::to_string(m.restarts) + " worker restarts" : "") + "\n");
  }
}

void Reporter::warning(const std::string& text) {
  if (json_) {
    emit_json(json{{"event", "warning"}, {"message", text}});
  } else {
    std::lock_guard<std::mutex> lock(mu_);
    // In a run of several tests, which one it is about.
    std::string about = tag_test_.empty() ? "" : tag_test_ + ": ";
    std::fprintf(stderr, "warning: %s%s\n", about.c_str(), text.c_str());
  }
}

void Reporter::new_entry(const std::string& name, std::uint64_t bits, std::uint64_t execs) {
  if (json_) emit_json(json{{"event", "new_entry"}, {"name", name}, {"new_bits", bits}, {"execs", execs}});
}

Reporter::Record Reporter::record() const {
  std::lock_guard<std::mutex> lock(mu_);
  return record_;
}

void Reporter::failure(const FailureReport& r) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    record_.failures.push_back(r);
  }
  if (!r.write_error.empty() && r.written_to.empty()) {
    // Saved nowhere (a full or read-only disk): the report is all that is left of the
    // input, and standard output may be a file on that same disk. Standard error gets it too.
    std::lock_guard<std::mutex> lock(mu_);
    std::fprintf(stderr, "cfuzz: the failing input of %s could not be saved (%s); here it is in full:\n%s",
                 r.test.c_str(), r.write_error.c_str(), r.input_v1.c_str());
    std::fflush(stderr);
  }
  std::string summary = core::failure_summary(r.failure, r.stack.empty());
  if (json_) {
    json j{{"event", "failure"},
           {"test", r.test},
           {"elapsed", seconds(r.elapsed)},
           {"kind", std::string(core::failure_kind_name(static_cast<core::FailureKind>(r.failure.kind)))},
           {"summary", summary},
           {"detail", r.failure.detail},
           {"site", r.failure.site},
           {"stack", r.stack},
           {"message", r.failure.message},
           {"output", r.output},
           {"input", r.input_summary}};
    if (r.seed) j["seed"] = r.seed_name;
    if (r.in_custom_mutator) {
      j["in_custom_mutator"] = true;
      j["input_v1"] = r.input_v1;
      j["input_base64"] = r.input_base64;
    }
    if (!r.written_to.empty()) j["written_to"] = r.written_to;
    if (r.written_by_other_run) j["written_by_other_run"] = true;
    if (!r.rerun.empty()) j["rerun"] = r.rerun;
    if (!r.minimized.empty()) j["minimized"] = r.minimized;
    if (!r.write_error.empty()) {
      j["write_error"] = r.write_error;
      j["input_v1"] = r.input_v1;
      j["input_base64"] = r.input_base64;
    }
    emit_json(std::move(j));
    return;
  }
  std::string text = "--- FAIL: " + r.test + " (" + format_elapsed(r.elapsed) + ")\n";
  if (r.seed) text += "    failure while testing seed corpus entry: " + r.test + "/" + r.seed_name + "\n";
  std::string message = r.failure.message;
  if (r.failure.kind == static_cast<std::uint32_t>(core::FailureKind::Returned) && !message.empty()) {
    text += indent(message, "    ");
  } else {
    text += "    " + summary + (r.in_custom_mutator ? ", in the custom mutator (not in the fuzz target)" : "") + "\n";
    for (std::size_t i = 0; i < r.stack.size(); ++i)
      text += (i == 0 ? "        at " : "        in ") + r.stack[i] + "\n";
    if (r.failure.kind == static_cast<std::uint32_t>(core::FailureKind::Exception) && !message.empty()) {
      text += indent(message, "    ");
    }
  }
  if (!r.output.empty()) {
    text += "\n    Output of the target:\n" + indent(r.output, "        ");
  }
  if (r.in_custom_mutator) {
    text += "\n    The custom mutator was mutating: " + r.input_summary + "\n";
    text += "    Nothing is written to testdata: the fuzz target is not known to fail on it.\n";
    text += "    The input, as a corpus file:\n" + indent(r.input_v1, "        ");
    text += "    The same file in base64: " + r.input_base64 + "\n";
    emit(text);
    return;
  }
  if (!r.input_summary.empty()) text += "\n    Failing input: " + r.input_summary + "\n";
  if (!r.minimized.empty()) text += "    (" + r.minimized + ")\n";
  if (!r.write_error.empty()) {
    text += "\n    The failing input could not be saved under testdata: " + r.write_error + "\n";
    text += "    The input, as a corpus file:\n" + indent(r.input_v1, "        ");
    text += "    The same file in base64: " + r.input_base64 + "\n";
  }
  if (r.written_by_other_run) {
    text += "\n    Another run sharing the cache found this failure first; its input is " + r.written_to + "\n";
    text += "    To re-run:\n    " + r.rerun + "\n";
  } else if (!r.written_to.empty()) {
    text += "\n    Failing input written to " + r.written_to + "\n";
    text += "    To re-run:\n    " + r.rerun + "\n";
  }
  emit(text);
}

void Reporter::recommended_dictionary(const std::vector<std::pair<std::string, std::uint64_t>>& words) {
  if (words.empty()) return;
  if (json_) {
    json list = json::array();
    for (const auto& [w, uses] : words) list.push_back(json{{"word", core::quote_dictionary_word(w)}, {"uses", uses}});
    emit_json(json{{"event", "recommended_dictionary"}, {"words", list}});
    return;
  }
  std::string text = "###### Recommended dictionary. ######\n";
  for (const auto& [w, uses] : words)
    text += core::quote_dictionary_word(w) + " # Uses: " + std::to_string(uses) + "\n";
  text += "###### End of recommended dictionary. ######\n";
  emit(text);
}

void Reporter::done(const Progress& p, int failures) {
  bool slice;
  {
    std::lock_guard<std::mutex> lock(mu_);
    record_.done = p;
    slice = !tag_test_.empty();
  }
  if (json_) {
    // A slice of a run of several tests ends with "slice_done": "done" stays the end of the
    // whole run, for readers that stop there.
    emit_json(json{{"event", slice ? "slice_done" : "done"},
                   {"elapsed", seconds(p.elapsed)},
                   {"execs", p.execs},
                   {"new_interesting", p.new_interesting},
                   {"synced", p.synced},
                   {"sync_scans", p.sync_scans},
                   {"sync_listings", p.sync_listings},
                   {"sync_seconds", p.sync_seconds},
                   {"corpus", p.total},
                   {"coverage_bits", p.coverage_bits},
                   {"covered_counters", p.covered_counters},
                   {"input_to_state_execs", p.input_to_state_execs},
                   {"failures", failures}});
  } else {
    progress(p);
    if (!slice) emit(failures > 0 ? "FAIL\n" : "PASS\n");  // a slice's verdict is in the run's summary
  }
}

}  // namespace cfuzz::driver
