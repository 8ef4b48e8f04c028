// What the coordinator learns from a target before fuzzing it (`target --cfuzz-describe`):
// its fuzz tests, their parameter types and f.add seeds, where its testdata lives, and
// whether it is instrumented at all.
#pragma once

#include <string>
#include <vector>

#include "corpus_format/value.h"

namespace cfuzz::driver {

struct TestInfo {
  std::string name;
  std::vector<corpus::Type> types;
  std::vector<corpus::Entry> seeds;  // f.add values, in order (seed#0, seed#1, ...)
  std::vector<std::string> shapes;   // of typed values ("" for Go's types); empty when none
  std::string error;                 // why the test body failed before f.fuzz, if it did
};

struct TargetInfo {
  std::string path;      // as the user gave it
  std::string abs_path;  // canonical
  std::uint64_t counters = 0;
  std::uint64_t modules = 0;
  std::string srcdir;            // testdata/fuzz/<Name>/ lives under it
  bool source_coverage = false;  // also built with clang's source-based coverage
  std::vector<TestInfo> tests;

  // The one test whose name matches `pattern` (an unanchored regular expression; empty
  // matches all). Throws std::runtime_error listing the names when zero or several match.
  const TestInfo& select(const std::string& pattern) const;
  // Every test whose name matches `pattern`, in the target's order (none: empty). Throws
  // std::runtime_error when the pattern is not a regular expression.
  std::vector<const TestInfo*> matching(const std::string& pattern) const;
};

// Runs the target in describe mode. Throws std::runtime_error with a one-line reason when
// the target is missing, not executable, not a cfuzz target or not instrumented.
TargetInfo describe_target(const std::string& path, const std::string& srcdir, const std::vector<std::string>& env);

// Parses a Go type name as describe and ping report them ("[]uint8", "int32", "string").
corpus::Type type_from_go_name(const std::string& name);

}  // namespace cfuzz::driver
