// main() of a GoogleTest binary that also holds CFUZZ_TESTs: each fuzz test's seed run
// (its f.add values and testdata/fuzz/<Name>/ files) is a GoogleTest test, CfuzzSeeds.<Name>,
// next to the binary's ordinary TESTs, so ctest (gtest_discover_tests) lists and runs them.
// Given other arguments (cfuzz run's, the seed run's, libFuzzer's), it is a cfuzz target
// like any other.
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "runtime/engine/registry.h"
#include "runtime/modes/standalone_runner.h"
#include "runtime/modes/target_main.h"

namespace {

std::string g_program;

class SeedRun : public testing::Test {
 public:
  explicit SeedRun(std::string name) : name_(std::move(name)) {}
  void TestBody() override {
    cfuzz::runtime::StandaloneOptions options;
    options.program = g_program;
    options.run = cfuzz::runtime::RunPattern("^" + name_ + "$");
    EXPECT_EQ(cfuzz::runtime::run_standalone(options), 0) << "the seed run of " << name_ << " failed (see above)";
  }

 private:
  std::string name_;
};

// GoogleTest runs the binary when it gets no arguments or only its own (--gtest_list_tests,
// --gtest_filter=...: what ctest passes). Anything else is cfuzz's: the coordinator's modes,
// libFuzzer's arguments, or the seed run's flags (--run FuzzX/<file>, the re-run command
// cfuzz prints for a failure).
bool for_googletest(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (!std::string_view(argv[i]).starts_with("--gtest_")) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (!for_googletest(argc, argv)) return cfuzz::runtime::target_main(argc, argv);
  testing::InitGoogleTest(&argc, argv);
  g_program = argv[0];
  for (const auto& t : cfuzz::runtime::registered_tests()) {
    testing::RegisterTest("CfuzzSeeds", t.name.c_str(), nullptr, nullptr, t.file.c_str(), t.line,
                          [name = t.name]() -> testing::Test* { return new SeedRun(name); });
  }
  return RUN_ALL_TESTS();
}
