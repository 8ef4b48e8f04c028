#include "runtime/engine/registry.h"

#include <map>

namespace fuzzer::cfuzz {

namespace {

// A function-local static: CFUZZ_TEST registrations run during static initialization, in
// any order relative to this file's own initializers.
std::vector<RegisteredTest>& tests() {
  static std::vector<RegisteredTest> all;
  return all;
}

}  // namespace

const std::vector<RegisteredTest>& registered_tests() { return tests(); }

std::vector<std::string> duplicate_tests() {
  std::map<std::string, std::vector<const RegisteredTest*>> by_name;
  for (const auto& t : tests()) by_name[t.name].push_back(&t);
  std::vector<std::string> dups;
  for (const auto& [name, defs] : by_name) {
    if (defs.size() < 2) continue;
    std::string where;
    for (const auto* d : defs) {
      if (!where.empty()) where += " and ";
      where += d->file + ":" + std::to_string(d->line);
    }
    dups.push_back(name + " (" + where + ")");
  }
  return dups;
}

}  // namespace fuzzer::cfuzz

namespace cfuzz::detail {

void register_test(const char* name, void (*body)(F&), const char* file, int line) {
  runtime::tests().push_back(runtime::RegisteredTest{name, body, file, line});
}

}  // namespace cfuzz::detail
