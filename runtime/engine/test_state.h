// The runtime's record of a fuzz test (behind cfuzz::F) and of one input (behind
// cfuzz::T): failure and skip state, log lines, cleanups, seeds and the fuzz function.
#pragma once

#include <cfuzz/cfuzz.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corpus_format/value.h"

namespace cfuzz::detail {

struct LogLine {
  std::string where;  // "file.cc:12"
  std::string text;
};

// Shapes of encoded values (cfuzz/typed_values.h), one per value: empty for Go's types.
using Shapes = std::vector<std::string>;

// A value as the fuzz function's invoker takes it; byte values point into `v`.
ArgView view_of(const corpus::Value& v);

// "[]byte, []int32, string": the types as a user wrote them (an encoded value by its shape).
std::string format_parameter_list(const std::vector<corpus::Type>& types, const Shapes& shapes);

struct Seed {
  std::vector<corpus::Type> types;
  Shapes shapes;
  corpus::Entry values;
};

struct FuzzFunction {
  std::vector<corpus::Type> types;
  Shapes shapes;
  Shapes constraints;  // constrained shapes of values with domains (cfuzz/domains.h)
  Invoke invoke = nullptr;
  Decode decode = nullptr;  // null when no value is encoded
  void* fn = nullptr;
  Destroy destroy = nullptr;
  std::string where;

  FuzzFunction() = default;
  FuzzFunction(const FuzzFunction&) = delete;
  FuzzFunction& operator=(const FuzzFunction&) = delete;
  ~FuzzFunction() {
    if (destroy != nullptr) destroy(fn);
  }
};

// How the test body's f.fuzz call is used: in every mode the body runs up to f.fuzz, which
// records the function; what happens next is the caller's business.
class TestState {
 public:
  TestState(std::string test_name, bool is_input) : test_name_(std::move(test_name)), is_input_(is_input), f_(this) {}
  TestState(const TestState&) = delete;
  TestState& operator=(const TestState&) = delete;

  // The F handed to the test body. It lives as long as the state, so that a fuzz function
  // that captured it by reference can still use it (and be told to use T instead).
  F& f() { return f_; }

  const std::string& test_name() const { return test_name_; }
  std::string full_name() const;
  bool is_input() const { return is_input_; }

  // Prepares an input state for the next input without giving back its memory, so the
  // fuzzing loop allocates nothing for inputs that log nothing.
  void reset_for_input(std::string_view input_name);
  const std::string& input_name() const { return input_name_; }

  void record(std::string_view text, Location where, bool failure);
  // For messages the runtime writes on the test's behalf: `where` is "file.cc:12" or a
  // description of the place.
  void record_at(std::string where, std::string_view text, bool failure);
  void mark_failed(Location where);
  void mark_skipped() { skipped_ = true; }
  bool failed() const { return failed_; }
  bool skipped() const { return skipped_; }
  const std::vector<LogLine>& log() const { return log_; }
  // "file.cc:12" of the first error, fatal or fail; empty if none.
  const std::string& failure_site() const { return failure_site_; }

  void add_cleanup(std::function<void()> fn) { cleanups_.push_back(std::move(fn)); }
  // Runs cleanups, newest first. A cleanup that throws fails the test.
  void run_cleanups();
  bool has_cleanups() const { return !cleanups_.empty(); }

  // F only.
  std::vector<Seed>& seeds() { return seeds_; }
  std::optional<FuzzFunction>& fuzz_function() { return fn_; }
  // f.custom_mutator: argument index -> its mutator.
  std::vector<std::pair<std::size_t, CustomMutator>>& custom_mutators() { return custom_mutators_; }
  // Domains that make their own values (cfuzz::in_regexp): argument index, mutator, domain.
  struct OwnMutator {
    std::size_t index;
    DomainMutator fn;
    const void* domain;
  };
  std::vector<OwnMutator>& domain_mutators() { return domain_mutators_; }
  bool fuzz_called() const { return fuzz_called_; }
  void set_fuzz_called() { fuzz_called_ = true; }

  // The log as Go prints it under a FAIL line: "file.cc:12: text", one entry per line,
  // continuation lines indented by `indent` more spaces.
  std::string format_log(int indent) const;

 private:
  std::string test_name_;
  bool is_input_;
  std::string input_name_;
  bool failed_ = false;
  bool skipped_ = false;
  std::vector<LogLine> log_;
  std::string failure_site_;
  std::vector<std::function<void()>> cleanups_;
  std::vector<Seed> seeds_;
  std::optional<FuzzFunction> fn_;
  std::vector<std::pair<std::size_t, CustomMutator>> custom_mutators_;
  std::vector<OwnMutator> domain_mutators_;
  bool fuzz_called_ = false;
  F f_;
};

// The input whose fuzz function is running now, if any: F's methods called from inside
// the fuzz function are reported on it, as Go reports them.
TestState*& running_input();

// "file.cc:12" for a source location (the file's base name, as Go prints it).
std::string short_location(const Location& where);

// printf into a std::string.
std::string vformat(const char* fmt, va_list args);

// The demangled name of the exception being handled (inside a catch block).
std::string current_exception_type();

}  // namespace cfuzz::detail
