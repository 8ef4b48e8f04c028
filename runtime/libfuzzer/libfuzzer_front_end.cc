#include "runtime/libfuzzer/libfuzzer_front_end.h"

#include <cstdio>
#include <string>

#include "runtime/libfuzzer/front_end.h"
#include "runtime/libfuzzer/libfuzzer_crash_tools.h"
#include "runtime/libfuzzer/libfuzzer_merge.h"
#include "runtime/libfuzzer/libfuzzer_parallel.h"

namespace fuzzer::cfuzz {

int run_libfuzzer_front_end(const LibFuzzerOptions& options, const RegisteredTest& test, int argc, char** argv) {
  try {
    // The outer process of a merge runs no input itself.
    if (options.merge && options.merge_inner == 0) return merge_outer(options, argc, argv);
    if (options.minimize_crash && !options.minimize_crash_internal_step) return minimize_crash(options, argc, argv);
    if (options.cleanse_crash) return cleanse_crash(options, argc, argv);
    if (options.fork > 0) return run_fork(options, argc, argv);
    if (options.jobs > 0) {
      if (int status = run_jobs(options, argc, argv); status >= 0) return status;
    }
    // Never destroyed, as libFuzzer's own: LeakSanitizer's check at exit reports through it
    // (the final stats), after this returns.
    return (new FrontEnd(options, test, argv[0]))->run();
  } catch (const std::string& e) {
    std::fprintf(stderr, "ERROR: %s\n", e.c_str());
    return 1;
  }
}

}  // namespace fuzzer::cfuzz
