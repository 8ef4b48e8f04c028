// A failure's stack as frames, and which of them are the user's own code: the frames that
// name a bug's place in a report (--sarif) and tell one bug from another across runs.
//
// The stack comes from the sanitizer's printed report when there is one (its first stack,
// symbolized with file:line:col by the sanitizer itself), otherwise from the crash site
// the runtime recorded and llvm-symbolizer read (FailureReport::stack).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "libfuzzdriver/report/reporter.h"

namespace cfuzz::driver {

struct StackFrame {
  std::string function;  // as printed (demangled), empty when unknown
  std::string file;      // empty when the frame has no source location
  int line = 0;          // 0: unknown
  int column = 0;        // 0: unknown
  std::string module;    // "binary+0x1234" when the frame was not symbolized
  bool user = false;     // the user's code: not cfuzz's runtime or header, a sanitizer, libc or libstdc++
};

// Innermost first.
std::vector<StackFrame> failure_stack(const FailureReport& r);

// One frame as a sanitizer prints it ("    #3 0x55d0 in parse(char const*) /src/p.cc:12:5"),
// or as FailureReport::stack holds it ("parse /src/p.cc:12:5", "target+0x1234"). False if
// `line` is neither.
bool parse_sanitizer_frame(std::string_view line, StackFrame* frame);
StackFrame parse_site_frame(std::string_view text);

// The function's own name, without its scope and parameter list, as llvm-symbolizer's short
// names give it: "(anonymous namespace)::parse(char const*)" and "parse" are both "parse".
std::string short_function_name(std::string_view function);

}  // namespace cfuzz::driver
