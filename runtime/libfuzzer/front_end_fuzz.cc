// FrontEnd's executions (front_end.h): the input files, the seed corpus, the fuzz loop and
// -reload, and the one path by which an input joins the corpus (keep_if_new). Its set-up is
// front_end.cc.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "core/corpus.h"
#include "core/coverage.h"
#include "core/input_area.h"
#include "core/minimizer.h"
#include "corpus_format/codec.h"
#include "runtime/engine/input_shrink.h"
#include "runtime/libfuzzer/final_stats.h"
#include "runtime/libfuzzer/front_end.h"
#include "runtime/libfuzzer/libfuzzer_report.h"
#include "runtime/libfuzzer/status_line.h"

namespace fuzzer::cfuzz {

namespace {

namespace fs = std::filesystem;
namespace rpc = core::rpc;
using Clock = StopConditions::Clock;

// A word as libFuzzer prints dictionary entries (escape_libfuzzer_byte).
std::string escaped_word(const std::string& w) {
  std::string out;
  for (unsigned char ch : w) {
    char e[4];
    out.append(e, escape_libfuzzer_byte(ch, e));
  }
  return out;
}

}  // namespace

// A failure the engine returned (the process is still alive): reported, then the end.
void FrontEnd::fail() {
  std::fflush(stdout);
  int status = report_libfuzzer_failure(shm_.header().failure);
  std::fflush(nullptr);
  _exit(status);
}

// Adds finished executions to the run's count. The engine's count of the call in progress
// goes back to 0: the final stats of a process that dies mid-call add that count, so it
// must only ever hold executions not counted here.
void FrontEnd::count_executions(std::uint64_t n) {
  tally_.execs += n;
  shm_.header().exec_count.store(0, std::memory_order_relaxed);
}

// Runs one input as it is; a failure ends the process. Its bucketed counters are left in
// the snapshot area.
rpc::ExecResult FrontEnd::run_once(const corpus::Entry& entry) {
  core::store_entry(shm_.base(), entry, geometry_.input_area_size);
  rpc::ExecResult r = engine_->exec();
  count_executions(1);
  tally_.slowest_ns = std::max(tally_.slowest_ns, r.duration_ns);
  if (r.status == rpc::Status::Failure) fail();
  return r;
}

int FrontEnd::run_files(const std::vector<std::pair<std::string, std::string>>& units) {
  std::int64_t runs = std::max<std::int64_t>(o_.runs, 1);
  say(std::string(program_) + ": Running " + std::to_string(units.size()) + " inputs " + std::to_string(runs) +
      " time(s) each.");
  for (const auto& [name, bytes] : units) {
    say("Running: " + name);
    auto entry = form_->entry(bytes, bytes.size());
    if (!entry) {
      std::fprintf(stderr, "ERROR: %s: not a `go test fuzz v1` file for %s(%s)\n", name.c_str(), test_.name.c_str(),
                   corpus::format_type_list(form_->types).c_str());
      return 1;
    }
    auto t0 = Clock::now();
    for (std::int64_t i = 0; i < runs; ++i) run_once(*entry);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
    say("Executed " + name + " in " + std::to_string(ms) + " ms");
  }
  say("***\n*** NOTE: fuzzing was not performed, you have only\n***       executed the target code on a fixed set of "
      "inputs.\n***");
  print_final_stats();
  return 0;
}

// Every corpus unit runs once, smallest first; those with coverage no smaller one had
// join the corpus (libFuzzer's INITED).
void FrontEnd::initial_runs(std::vector<std::pair<std::string, std::string>> units) {
  std::stable_sort(units.begin(), units.end(),
                   [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
  std::uint64_t total = 0, smallest = UINT64_MAX, biggest = 0;
  for (const auto& u : units) {
    total += u.second.size();
    smallest = std::min<std::uint64_t>(smallest, u.second.size());
    biggest = std::max<std::uint64_t>(biggest, u.second.size());
  }
  // The empty input first, run once and never kept, as libFuzzer does (and counts).
  corpus::Entry zero;
  for (auto t : form_->types) zero.push_back(corpus::zero_value(t));
  run_once(zero);
  if (units.empty()) {
    say("INFO: A corpus is not provided, starting from an empty corpus");
    run_initial(zero, "");
  } else {
    say("INFO: seed corpus: files: " + std::to_string(units.size()) + " min: " + std::to_string(smallest) +
        "b max: " + std::to_string(biggest) + "b total: " + std::to_string(total) +
        "b rss: " + std::to_string(peak_rss_mb()) + "Mb");
    for (const auto& [name, bytes] : units) {
      if (bytes.empty()) continue;  // libFuzzer runs no empty unit (the first run was one)
      auto entry = form_->entry(bytes, max_len_);
      if (!entry) {
        say("INFO: skipping " + name + ": not a `go test fuzz v1` file for " + test_.name);
        continue;
      }
      run_initial(*entry, fs::path(name).filename().string());
    }
    for (const auto& u : units) output_.note(fs::path(u.first).filename().string());
  }
  session_->begin_fuzzing(form_->types);  // from the zero values when nothing was kept
  if (covered_counters() == 0) {
    say("ERROR: no interesting inputs were found. Is the code instrumented for coverage? Exiting.");
    std::fflush(nullptr);
    _exit(1);
  }
  say_status("INITED");
}

void FrontEnd::run_initial(const corpus::Entry& entry, const std::string& name) {
  set_libfuzzer_mutation_source(nullptr, nullptr, nullptr);  // a unit as it is: "MS: 0 ;"
  if (run_once(entry).status == rpc::Status::Skipped) return;
  keep_if_new(entry, name, false);
}

// Adds an input whose bucketed counters are in the snapshot area, if they add to the
// mask; writes it to the output corpus directory when it is new to this run. `parent`:
// the entry whose fuzz call found it.
bool FrontEnd::keep_if_new(const corpus::Entry& entry, const std::string& name, bool write,
                           std::optional<std::size_t> parent) {
  std::size_t n = geometry_.counters_capacity;
  core::CorpusEntry e = core::make_corpus_entry(name, write ? core::Origin::Found : core::Origin::Testdata, entry);
  std::string unit = form_->unit(entry);
  if (e.name.empty()) e.name = unit_name(unit);
  std::string file_name = e.name;
  if (!session_->admit(std::move(e), shm_.snapshot(), tally_.execs, parent)) return false;
  // Before the NEW line, as libFuzzer prints them; the seeds' functions are only noted.
  for (const auto& line : new_functions_->observe(shm_.snapshot(), n, !seeds_done_)) say(line);
  tally_.corpus_bytes += unit.size();
  if (write) output_.write(file_name, unit);
  return true;
}

// -reload: units other processes (-jobs, -fork, another run) wrote to the output corpus
// directory since the last look run once, and join the corpus if they add coverage.
void FrontEnd::reload() {
  std::size_t before = session_->corpus().size();
  for (const auto& [name, bytes] : output_.take_new_units()) {
    auto entry = bytes.empty() ? std::nullopt : form_->entry(bytes, max_len_);
    if (entry) run_initial(*entry, name);
  }
  if (session_->corpus().size() != before) say_status("RELOAD");
}

void FrontEnd::fuzz() {
  Pulse pulse(tally_.execs);
  while (!stop_.done(tally_.execs)) {
    fuzz_call(o_.verbosity > 0 ? pulse.call_limit(0, tally_.execs) : 0);
    // A minimization that went past the power of two skips that pulse.
    if (pulse.reached(tally_.execs) && o_.verbosity > 0 && stop_.elapsed_seconds() >= 2) say_status("pulse ");
  }
}

// One fuzz call of the session's planning, and the new input it found, if any, shrunk and
// kept. `pulse_limit`: the executions to the next pulse line (0: none).
void FrontEnd::fuzz_call(std::uint64_t pulse_limit) {
  core::FuzzCall call = session_->next_call(tally_.execs);
  const core::CorpusEntry& base = session_->corpus().at(call.plan.entry);
  core::store_entry(shm_.base(), base.values, geometry_.input_area_size);
  note_base_unit(base.values);  // here: reload() below may grow the corpus under `base`
  if (call.plan.splice != call.plan.entry) {
    core::store_entry(shm_.splice(), session_->corpus().at(call.plan.splice).values, geometry_.input_area_size);
  } else {
    shm_.splice().count = 0;
  }
  rpc::FuzzParams& p = call.params;
  p.limit = stop_.call_limit(p.limit, tally_.execs);
  if (pulse_limit != 0) p.limit = p.limit != 0 ? std::min(p.limit, pulse_limit) : pulse_limit;
  reload();
  // The engine tells new coverage by the mask area (as a worker's, set before each call).
  std::copy(session_->mask().begin(), session_->mask().end(), shm_.mask());
  rpc::FuzzResult r = engine_->fuzz(p);
  count_executions(r.execs);
  session_->absorb(call, r);
  if (r.status == rpc::Status::Failure) fail();
  if (r.status != rpc::Status::Interesting) return;
  std::string mutations = mutation_sequence(r.useful_words);  // before minimizing runs other inputs
  corpus::Entry found =
      minimize_interesting(core::load_entry(shm_.current(), geometry_.input_area_size), call.plan.entry);
  std::uint64_t len = core::entry_size(found);
  if (keep_if_new(found, "", true, call.plan.entry)) {
    say_status("NEW   ", " L: " + std::to_string(len) + "/" + std::to_string(max_len_) + " MS: " + mutations);
  }
}

// libFuzzer's "2 EraseBytes-DictInsert- DE: \"key\"-": the mutations that made the new
// unit, and the dictionary words its chain of mutations used.
std::string FrontEnd::mutation_sequence(const std::vector<std::string>& words) const {
  char ops[core::Mutator::kMaxSequence * 24 + 24];
  engine_->mutator().describe_sequence(ops, sizeof ops);
  std::string text = ops;
  if (words.empty()) return text;
  if (text.back() == ' ') text.pop_back();  // "0 ": no mutation (the base unit itself)
  text += " DE: ";
  for (const auto& w : words) text += "\"" + escaped_word(w) + "\"-";
  return text;
}

// The crash line's "base unit": the unit a fuzz call mutates, named as its file would be.
void FrontEnd::note_base_unit(const corpus::Entry& base) {
  set_libfuzzer_mutation_source(&engine_->mutator(), &engine_->words(), unit_name(form_->unit(base)).c_str());
}

// As `cfuzz run` does (and Go): an input with new coverage is shrunk to the smallest
// input keeping that new coverage, within a small budget, before it joins the corpus;
// unless it keeps a long file's structure (FuzzSession::shrink_grant), when it joins as
// found. `base`: the entry it was mutated from.
// Leaves the bucketed counters of the input it returns in the snapshot area.
corpus::Entry FrontEnd::minimize_interesting(const corpus::Entry& found, std::size_t base) {
  std::size_t n = geometry_.counters_capacity;
  std::vector<std::uint8_t> keep = session_->new_coverage(shm_.snapshot()).keep;
  std::vector<std::uint8_t> found_snapshot(shm_.snapshot(), shm_.snapshot() + n);
  // Within -runs too: one execution is kept back for the result's own coverage.
  std::uint64_t budget =
      stop_.shrink_budget(session_->shrink_grant(tally_.execs, core::entry_size(found), base), tally_.execs);
  if (budget == 0) return found;  // the snapshot area still holds its coverage
  core::Minimizer m(found);
  ShrinkGoal goal;
  goal.keep = keep.data();
  goal.counters = n;
  ShrinkOutcome o = shrink_input(*engine_, m, goal, budget, core::kInterestingMinimizeMillis);
  count_executions(o.execs);
  if (o.end == ShrinkOutcome::End::Failure) {
    shm_.header().failure = o.failure;
    fail();  // a new failure found while shrinking: reported as any other
  }
  session_->shrink_spent(o.execs);
  if (corpus::same_entry(m.best(), found)) {
    std::copy(found_snapshot.begin(), found_snapshot.end(), shm_.snapshot());
    return found;
  }
  // The smaller input's own coverage is what joins the mask.
  rpc::ExecResult r = run_once(m.best());
  if (r.status == rpc::Status::Ok && core::covers(shm_.snapshot(), keep.data(), n)) return m.best();
  std::copy(found_snapshot.begin(), found_snapshot.end(), shm_.snapshot());
  return found;
}

// libFuzzer's cov: the modules' counters (edges) reached, not the runtime's own.
std::size_t FrontEnd::covered_counters() const {
  const std::vector<std::uint8_t>& mask = session_->mask();
  return covered_module_counters(mask.data(), std::min<std::size_t>(mask.size(), geometry_.counters_capacity));
}

void FrontEnd::say_status(const char* what, const std::string& extra) {
  const std::vector<std::uint8_t>& mask = session_->mask();
  StatusFigures f;
  f.execs = tally_.execs;
  f.cov = covered_counters();
  f.ft = core::count_bits(mask.data(), mask.size());
  f.corpus_units = session_->corpus().size();
  f.corpus_bytes = tally_.corpus_bytes;
  f.len_limit = o_.len_control > 0 ? session_->len_limit() : 0;
  f.seconds = stop_.elapsed_seconds();
  f.rss_mb = peak_rss_mb();
  say(status_line(what, f, extra));
}

// The automatic dictionary's words that found new coverage, as libFuzzer recommends its
// own for -dict (between the DONE line and "Done N runs").
void FrontEnd::print_recommended_dictionary() {
  auto words = session_->dictionary().recommended();
  if (words.empty()) return;
  say("###### Recommended dictionary. ######");
  for (const auto& [word, uses] : words) say("\"" + escaped_word(word) + "\" # Uses: " + std::to_string(uses));
  say("###### End of recommended dictionary. ######");
}

void FrontEnd::print_final_stats() {
  std::fflush(stdout);
  print_final_stats_to(2);
}

void FrontEnd::print_final_stats_to(int fd) const {
  if (!o_.print_final_stats) return;
  FinalStats s;
  // With the executions of a call a failure cut short (count_executions).
  s.execs = tally_.execs + shm_.header().exec_count.load(std::memory_order_relaxed);
  s.seconds = std::chrono::duration<double>(Clock::now() - stop_.start()).count();
  s.new_units = session_ ? session_->admitted(core::Origin::Found) : 0;
  s.slowest_ns = tally_.slowest_ns;
  s.peak_rss_mb = peak_rss_mb();
  write_final_stats(fd, s);
}

}  // namespace fuzzer::cfuzz
