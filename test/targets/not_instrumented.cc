// A cfuzz target built without SanitizerCoverage: `cfuzz run` must refuse it plainly.
#include <cfuzz/cfuzz.h>

#include <string>

CFUZZ_TEST(FuzzPlain, f) {
  f.fuzz([](cfuzz::T&, const std::string&) {});
}
