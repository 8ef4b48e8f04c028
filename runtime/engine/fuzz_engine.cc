#include "runtime/engine/fuzz_engine.h"

#include <time.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/input_area.h"
#include "corpus_format/value.h"
#include "runtime/engine/coverage_registry.h"
#include "runtime/engine/value_profile.h"
#include "runtime/failure/crash_handler.h"
#include "runtime/failure/leak_check.h"

namespace fuzzer::cfuzz {

namespace rpc = core::rpc;
using core::FailureRecord;

namespace {

std::uint64_t monotonic_ns(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace

FuzzEngine::FuzzEngine(const RegisteredTest& test, detail::TestState& f, core::ShmView shm)
    : custom_mutators_(test, f),
      ex_(f),
      shm_(shm),
      hdr_(shm.header()),
      area_size_(shm.header().input_area_size),
      mutator_(core::kDefaultMaxLen),
      words_(cmp_table(), base_cmps_) {
  mutator_.set_words(&words_);
  bool typed = false;
  if (const auto& fn = f.fuzz_function()) {
    for (std::uint32_t i = 0; i < fn->shapes.size(); ++i) {
      // A value with a domain is mutated within its constraints; one of Go's types without
      // a shape of its own stays as it is (plain), with the constraints only.
      const std::string& text = !fn->constraints[i].empty() ? fn->constraints[i] : fn->shapes[i];
      if (text.empty()) continue;
      structure_.set_shape(i, core::ValueShape::parse(text), fn->shapes[i].empty());
      typed = true;
    }
  }
  structure_.set_words(&words_);
  // What decoding covered (std::map inserts, string copies) and compared is not the
  // input's: coverage and comparisons start again once the values are built.
  ex_.set_after_decode(
      [](void*) {
        const auto& cov = coverage_registry();
        core::CounterScanner::clear(cov.regions, cov.region_count);
        cmp_table().set_enabled(true);
      },
      nullptr);
  if (typed) {
    if (!custom_mutators_.empty()) structure_.set_next(&custom_mutators_);
    mutator_.set_value_mutator(&structure_);
  } else if (!custom_mutators_.empty()) {
    mutator_.set_value_mutator(&custom_mutators_);
  }
  const auto& cov = coverage_registry();
  touched_.resize(cov.total_counters / 8 + 16 * cov.region_count + 16);
}

void FuzzEngine::check_area(const core::InputAreaHeader& a, const char* what) const {
  const auto& types = ex_.types();
  if (a.count != 0 &&
      (a.slot_capacity > area_size_ || core::kInputDataOffset + a.slot_capacity * a.count > area_size_)) {
    throw std::runtime_error(std::string(what) + " input area is damaged (slots larger than the area)");
  }
  if (a.count != types.size()) {
    throw std::runtime_error(std::string(what) + " input has " + std::to_string(a.count) +
                             " values, the fuzz function takes " + std::to_string(types.size()));
  }
  for (std::uint32_t i = 0; i < a.count; ++i) {
    if (a.slots[i].type != static_cast<std::uint8_t>(types[i]) || a.slots[i].len > a.slot_capacity) {
      throw std::runtime_error(std::string(what) + " input does not match the fuzz function's types");
    }
  }
}

void FuzzEngine::prepare_args(core::InputAreaHeader& a) {
  for (std::uint32_t i = 0; i < a.count; ++i) {
    const core::SlotHeader& s = a.slots[i];
    if (s.type == static_cast<std::uint8_t>(corpus::Type::Bytes) ||
        s.type == static_cast<std::uint8_t>(corpus::Type::String)) {
      args_[i] = detail::ArgView{buffers_.fill(i, core::ShmView::slot_data(a, i), s.len), s.len, 0};
    } else {
      args_[i] = detail::ArgView{nullptr, 0, s.bits};
    }
  }
}

RunResult FuzzEngine::run_current(FailureRecord* failure, std::uint64_t count, bool* fresh) {
  prepare_args(shm_.current());
  hdr_.exec_count.store(count, std::memory_order_relaxed);
  // Comparisons are recorded while the target runs, not while the runtime itself (the
  // mutator searching the input, say) calls memcmp.
  CmpTable& cmp = cmp_table();
  cmp.set_enabled(!ex_.decodes());  // else once the values are decoded
  leak_tracking_begin();
  begin_execution();
  RunResult r = ex_.run(args_, {}, failure);
  end_execution();
  if (check_const_input_ && r != RunResult::Fail && input_overwritten(shm_.current())) {
    core::failure_clear(*failure);
    failure->kind = static_cast<std::uint32_t>(core::FailureKind::Returned);
    core::failure_set(failure->detail, kOverwritesConstInput);
    core::failure_set(failure->message, "the fuzz target wrote to the input it was given");
    r = RunResult::Fail;
  }
  leak_tracking_end();
  cmp.set_enabled(false);
  const auto& cov = coverage_registry();
  *fresh = scanner_.scan_and_clear(cov.regions, regions_to_scan(cov), shm_.mask(), touched_.data(), &touched_count_);
  // A leak ends the process: the leaked blocks would be reported again for later inputs.
  if (r != RunResult::Fail && (*fresh || check_every_input_) && input_leaked()) fail_input_for_leak();
  return r;
}

bool FuzzEngine::input_overwritten(const core::InputAreaHeader& a) const {
  for (std::uint32_t i = 0; i < a.count; ++i) {
    if (args_[i].data != nullptr && std::memcmp(args_[i].data, core::ShmView::slot_data(a, i), a.slots[i].len) != 0) {
      return true;
    }
  }
  return false;
}

void FuzzEngine::to_ascii(core::InputAreaHeader& a) {
  for (std::uint32_t i = 0; i < a.count; ++i) {
    auto type = static_cast<corpus::Type>(a.slots[i].type);
    if (type != corpus::Type::Bytes && type != corpus::Type::String) continue;
    std::uint8_t* d = core::ShmView::slot_data(a, i);
    for (std::uint64_t k = 0; k < a.slots[i].len; ++k) {
      std::uint8_t c = d[k] & 127;
      d[k] = std::isprint(c) || std::isspace(c) ? c : ' ';
    }
  }
}

bool FuzzEngine::apply(std::uint32_t value, std::size_t pos, std::size_t old_len, std::string_view bytes,
                       core::InputAreaHeader& a) {
  core::SlotHeader& slot = a.slots[value];
  auto type = static_cast<corpus::Type>(slot.type);
  if (type != corpus::Type::Bytes && type != corpus::Type::String) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, bytes.data(), std::min<std::size_t>(8, bytes.size()));
    // Through the value type and back: truncated and extended as the type wants.
    slot.bits = core::scalar_bits(core::scalar_from_bits(type, bits));
    return true;
  }
  std::uint64_t new_len = slot.len - old_len + bytes.size();
  // Not held to the length limit: a replacement is aimed at one comparison, and a number
  // that must get longer ("1" → "1234567") is worth it whatever the limit.
  if (pos + old_len > slot.len || new_len > a.slot_capacity) return false;
  std::uint8_t* d = core::ShmView::slot_data(a, value);
  std::memmove(d + pos + bytes.size(), d + pos + old_len, slot.len - pos - old_len);
  std::memcpy(d + pos, bytes.data(), bytes.size());
  slot.len = new_len;
  return true;
}

void FuzzEngine::write_snapshot() {
  core::CounterScanner::write_snapshot(touched_.data(), touched_count_, shm_.snapshot(), hdr_.counters_len);
}

std::uint64_t FuzzEngine::new_bits() const {
  return core::count_new_bits(shm_.snapshot(), shm_.mask(), hdr_.counters_len);
}

void FuzzEngine::start_call() {
  hdr_.exec_count.store(0, std::memory_order_relaxed);
  core::failure_clear(hdr_.failure);
  const auto& cov = coverage_registry();
  core::CounterScanner::clear(cov.regions, cov.region_count);
}

FuzzEngine::Step FuzzEngine::execute(FailureRecord* failure, std::uint64_t* count, ExecutionCheck* check,
                                     rpc::FuzzResult& res) {
  if (check != nullptr) check->before_execution();
  bool fresh = false;
  RunResult r = run_current(failure, ++*count, &fresh);
  if (check != nullptr) check->after_execution();
  if (r == RunResult::Fail) {
    hdr_.failure = *failure;
    res.status = rpc::Status::Failure;
    return Step::Failure;
  }
  // A skipped input is not worth keeping, whatever it covered (cfuzz.h: skip).
  if (fresh && r == RunResult::Pass) {
    write_snapshot();
    res.new_bits = new_bits();
    res.status = rpc::Status::Interesting;
    return Step::Interesting;
  }
  return Step::Continue;
}

rpc::FuzzResult FuzzEngine::fuzz(const rpc::FuzzParams& p, ExecutionCheck* check) {
  check_every_input_ = false;        // leaks: only inputs with new coverage, as libFuzzer
  ex_.set_skip_out_of_domain(true);  // the mutator made them; exec reports them
  check_area(shm_.base(), "base");
  const core::InputAreaHeader* splice = nullptr;
  if (shm_.splice().count == shm_.base().count) {
    check_area(shm_.splice(), "splice");
    splice = &shm_.splice();
  }
  std::uint64_t max_len = p.max_len != 0 ? p.max_len : core::kDefaultMaxLen;
  // A custom mutator makes an encoding of its own, which a short length limit only starves
  // (a compressed stream does not fit in the first 4 bytes, and each mutation then fails its
  // 100 attempts): such a test gets the run's whole length, as libFuzzer gives it.
  if (!custom_mutators_.empty()) max_len = std::max<std::uint64_t>(max_len, shm_.base().slot_capacity);
  mutator_.set_max_len(max_len);
  words_.set_dictionary(p.dictionary);
  if (p.value_profile) record_value_profile();  // for good: the search asked for it
  start_call();
  rng_.reseed(p.seed, 1);
  // What a call does depends only on its inputs and seed (so it can be replayed): no
  // comparisons carried over from earlier calls.
  cmp_table().clear();
  std::uint64_t start = monotonic_ns(CLOCK_MONOTONIC);
  const CallBudget budget{p.limit,
                          p.deadline_ms != 0 ? monotonic_ns(CLOCK_MONOTONIC_COARSE) + p.deadline_ms * 1000000ULL : 0};
  rpc::FuzzResult res;
  res.status = rpc::Status::Ok;
  FailureRecord failure;
  std::uint64_t count = 0;

  // The base input runs once as it is: its comparisons guide this call's mutations
  // (input-to-state), and the front end learns its constants.
  base_cmps_.clear();
  core::copy_input_area(shm_.base(), shm_.current());
  mutator_.begin_sequence();
  words_.begin_chain();  // what a failure's report names: none for the base input
  cmp_table().set_probing(true);
  Step base_step = execute(&failure, &count, check, res);
  cmp_table().set_probing(false);
  if (base_step != Step::Continue) return finish(std::move(res), count, start);
  base_cmps_ = cmp_table();

  // LLVMFuzzerMutate mutates with this call's engine (a custom mutator may call it).
  set_llvm_fuzzer_mutate_engine(&mutator_, &rng_);
  if (p.input_to_state != 0) {
    std::uint64_t before = count;
    Step step = input_to_state_stage(p, budget, &failure, &count, check, res);
    res.input_to_state_execs = count - before;
    if (step != Step::Continue) return finish(std::move(res), count, start);
  }
  std::uint64_t chain = 0;
  while (!(p.limit != 0 && count >= p.limit)) {
    // Go's chain: five stacked mutations, then back to the original input.
    if (chain++ % 5 == 0) {
      core::copy_input_area(shm_.base(), shm_.current());
      mutator_.begin_sequence();
      hdr_.rng_state = rng_.state();
      hdr_.rng_inc = rng_.inc();
      words_.begin_chain();
    }
    bool custom = mutator_.mutate(shm_.current(), splice, rng_);
    if (p.only_ascii) to_ascii(shm_.current());
    if (custom && mutator_.value_mutator()->ran_target_code()) {
      // A custom mutator is the target's instrumented code: what it counted is not the
      // coverage of the input it made (libFuzzer resets its maps before each execution).
      core::CounterScanner::clear(coverage_registry().regions, coverage_registry().region_count);
    }
    Step step = execute(&failure, &count, check, res);
    if (step == Step::Interesting) {
      for (const auto& w : words_.chain_words()) res.useful_words.emplace_back(w);
    }
    if (step != Step::Continue || budget.over(count)) break;
  }
  return finish(std::move(res), count, start);
}

bool FuzzEngine::CallBudget::over(std::uint64_t count) const {
  return (limit != 0 && count >= limit) || (deadline != 0 && monotonic_ns(CLOCK_MONOTONIC_COARSE) >= deadline);
}

bool FuzzEngine::replace(const rpc::FuzzParams& p, std::uint32_t value, std::size_t pos, std::size_t old_len,
                         std::string_view bytes) {
  // Input-to-state rewrites raw bytes; a value with a custom mutator is an encoding the
  // target owns, so (as in libFuzzer) only its mutator changes it. In a typed value, a
  // replacement of the same length changes one scalar or the bytes of one string and keeps
  // the structure around it.
  if (custom_mutators_.handles(value) || (structure_.handles(value) && old_len != bytes.size())) return false;
  core::InputAreaHeader& a = shm_.current();
  if (!apply(value, pos, old_len, bytes, a)) return false;
  mutator_.note_comparison_replacement();
  if (structure_.handles(value)) {  // a count may have changed: keep what is saved canonical
    structure_.make_canonical(value, core::ShmView::slot_data(a, value), &a.slots[value].len, a.slot_capacity);
  }
  if (p.only_ascii) to_ascii(a);
  return true;
}

FuzzEngine::Step FuzzEngine::input_to_state_stage(const rpc::FuzzParams& p, const CallBudget& budget,
                                                  FailureRecord* failure, std::uint64_t* count, ExecutionCheck* check,
                                                  rpc::FuzzResult& res) {
  std::uint64_t candidate_runs = 0, chained_runs = 0;
  const std::vector<CmpWords::Candidate> candidates = words_.input_to_state_candidates(shm_.base(), p.input_to_state);
  // The stage stops early (new coverage, a failure, the call's time): the next call on this
  // entry resumes after the candidate it stopped at.
  res.input_to_state_next = p.input_to_state_from;
  for (std::size_t i = p.input_to_state_from; i < candidates.size(); ++i) {
    const CmpWords::Candidate& c = candidates[i];
    if (budget.over(*count)) return Step::Continue;
    res.input_to_state_next = i + 1;
    core::copy_input_area(shm_.base(), shm_.current());
    mutator_.begin_sequence();
    words_.begin_chain();
    if (!replace(p, c.value, c.pos, c.old_len, c.bytes)) continue;
    CmpTable::Mark mark = cmp_table().mark();
    Step step = execute(failure, count, check, res);
    if (step == Step::Interesting && c.is_word && c.bytes.size() >= 2) res.useful_words.emplace_back(c.bytes);
    if (step != Step::Continue) return step;
    // Chained replacements: each of the first few follow-ups, then greedily the first
    // follow-up of each run after it (a value fixed, then the checksum over it, then the
    // next value...), while they keep coming, up to kChainDepth steps. All chains of a call
    // take at most as many executions as its candidates; past that, the follow-ups are not
    // even looked for (each look scans the input once per new comparison).
    ++candidate_runs;
    if (chained_runs >= candidate_runs + kFollowUps * kChainDepth) continue;
    CmpWords::Kept kept{c.value, c.pos, c.bytes.size()};
    std::size_t n = words_.follow_ups(shm_.current(), shm_.base(), mark, &kept, CmpWords::ByteOrder::Little,
                                      follow_ups_, kFollowUps);
    for (std::size_t k = 0; k < n && chained_runs < candidate_runs + kFollowUps * kChainDepth; ++k) {
      core::copy_input_area(shm_.base(), shm_.current());
      mutator_.begin_sequence();
      if (!replace(p, c.value, c.pos, c.old_len, c.bytes)) break;
      const CmpWords::FollowUp* f = &follow_ups_[k];
      CmpWords::ByteOrder order = CmpWords::ByteOrder::Little;
      for (std::size_t depth = 1; depth <= kChainDepth; ++depth) {
        if (budget.over(*count) || !replace(p, f->value, f->pos, f->old_len, f->replacement())) break;
        mark = cmp_table().mark();
        ++chained_runs;
        step = execute(failure, count, check, res);
        if (step == Step::Interesting) {
          if (c.is_word && c.bytes.size() >= 2) res.useful_words.emplace_back(c.bytes);
          if (f->len >= 2) res.useful_words.emplace_back(f->replacement());
        }
        if (step != Step::Continue) return step;
        // The byte order the steps have shown is tried first. The same comparison again:
        // the step before did not answer it (it wrote where the operand was not read from),
        // so the chain has lost its way.
        kept = {f->value, f->pos, f->len};
        std::uint32_t answered = f->comparison;
        if (f->order != CmpWords::ByteOrder::Unknown) order = f->order;
        if (words_.follow_ups(shm_.current(), shm_.base(), mark, &kept, order, &next_follow_up_, 1) == 0 ||
            next_follow_up_.comparison == answered) {
          break;
        }
        f = &next_follow_up_;
      }
    }
  }
  res.input_to_state_done = true;
  return Step::Continue;
}

rpc::FuzzResult FuzzEngine::finish(rpc::FuzzResult&& res, std::uint64_t count, std::uint64_t start) {
  for (const auto& w : words_.new_constants(kNewWordsPerCall)) res.new_words.emplace_back(w);
  res.execs = count;
  res.duration_ns = monotonic_ns(CLOCK_MONOTONIC) - start;
  res.exec_ns = count != 0 ? res.duration_ns / count : 0;
  return res;
}

rpc::ExecResult FuzzEngine::exec(ExecutionCheck* check, std::uint64_t count) {
  check_every_input_ = true;
  ex_.set_skip_out_of_domain(false);
  check_area(shm_.base(), "base");
  start_call();
  core::copy_input_area(shm_.base(), shm_.current());
  mutator_.begin_sequence();
  FailureRecord failure;
  bool fresh = false;
  std::uint64_t start = monotonic_ns(CLOCK_MONOTONIC);
  if (check != nullptr) check->before_execution();
  RunResult r = run_current(&failure, count, &fresh);
  if (check != nullptr) check->after_execution();
  rpc::ExecResult res;
  res.duration_ns = monotonic_ns(CLOCK_MONOTONIC) - start;
  write_snapshot();
  res.new_bits = new_bits();
  if (r == RunResult::Fail) {
    hdr_.failure = failure;
    res.status = rpc::Status::Failure;
  } else {
    res.status = r == RunResult::Skip ? rpc::Status::Skipped : rpc::Status::Ok;
  }
  return res;
}

}  // namespace fuzzer::cfuzz
