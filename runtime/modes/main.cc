// What main() of every cfuzz target does (target_main.h): the seed run by default, or one
// of the modes the coordinator uses (--cfuzz-describe, --cfuzz-worker=<Name>).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "core/go_duration.h"
#include "core/rpc.h"
#include "runtime/engine/registry.h"
#include "runtime/engine/stack_depth_feature.h"
#include "runtime/engine/value_profile.h"
#include "runtime/failure/memory_sanitizer.h"
#include "runtime/failure/stack_limit.h"
#include "runtime/libfuzzer/libfuzzer_front_end.h"
#include "runtime/libfuzzer/libfuzzer_options.h"
#include "runtime/modes/describe.h"
#include "runtime/modes/pc_table.h"
#include "runtime/modes/standalone_runner.h"
#include "runtime/modes/target_main.h"
#include "runtime/worker/worker_server.h"

namespace {

const char kUsage[] =
    "usage: %s [flags]\n"
    "\n"
    "Runs every fuzz test's seed corpus once, like `go test`: the f.add values, then each\n"
    "file in testdata/fuzz/<FuzzName>/. Exit status: 0 all passed, 1 a seed failed,\n"
    "2 a usage error or an unreadable or malformed corpus file.\n"
    "To fuzz, run `cfuzz run %s`.\n"
    "\n"
    "flags:\n"
    "  --run REGEXP   run only the fuzz tests and seeds matching REGEXP, as go test -run:\n"
    "                 FuzzX runs one test, FuzzX/seed#0 or FuzzX/<file name> one input\n"
    "  --list         list the fuzz tests and exit\n"
    "  -v             print every input as it runs, and its log\n"
    "  --srcdir DIR   look for testdata/fuzz/<FuzzName>/ in DIR (default: the source\n"
    "                 directory baked in by cfuzz_add_fuzz_test, else the current directory)\n"
    "  --timeout D    fail an input that runs longer than D (a Go duration: 10s, 500ms)\n"
    "  --rss-limit-mb N  fail an input while the process uses more than N MB of memory\n"
    "  --stack-limit-kb N  fail an input that makes a fuzz test use more than N KiB of stack\n"
    "                 (default 128 for CFUZZ_TESTs, none for LLVMFuzzerTestOneInput; 0: none)\n"
    "                 (both off by default; cfuzz's re-run commands set what found the failure)\n"
    "  -h, --help     show this help\n"
    "\n"
    "Given libFuzzer's arguments (-flag=value, corpus directories, input files), a target is\n"
    "a libFuzzer binary: it fuzzes in-process, or runs the files given once each (-help=1\n"
    "lists libFuzzer's flags; docs/oss-fuzz.md).\n";

struct Args {
  cfuzz::runtime::StandaloneOptions standalone;
  std::string run_pattern;
  bool describe = false;
  bool pc_table = false;
  std::string worker_test;
  bool detect_leaks = false;
  std::optional<std::uint64_t> stack_limit_kb;
  bool help = false;
};

// Reads "--name VALUE" or "--name=VALUE"; returns false if `arg` is not --name.
bool flag_value(int argc, char** argv, int& i, std::string_view name, std::string* out) {
  std::string_view arg = argv[i];
  if (arg == name) {
    if (i + 1 >= argc) throw std::string("flag ") + std::string(name) + " needs a value";
    *out = argv[++i];
    return true;
  }
  if (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=') {
    *out = std::string(arg.substr(name.size() + 1));
    return true;
  }
  return false;
}

// A flag's value that must be a plain decimal number, else a usage error naming the flag as
// it was written (`shown`: "--rss-limit-mb 5x", "-rss_limit_mb=5x").
std::uint64_t parse_count(const std::string& shown, const std::string& text) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) {
    throw shown + ": expected a whole number";
  }
  return std::stoull(text);
}

std::chrono::nanoseconds parse_timeout(const std::string& shown, const std::string& text) {
  auto d = cfuzz::core::parse_go_duration(text);
  if (!d) throw shown + ": expected a duration such as 10s or 500ms";
  return *d;
}

Args parse(int argc, char** argv) {
  Args a;
  a.standalone.program = argv[0];
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string value;
    if (arg == "-h" || arg == "--help" || arg == "-help") {
      a.help = true;
    } else if (arg == "-v" || arg == "--v" || arg == "--verbose") {
      a.standalone.verbose = true;
    } else if (arg == "--list") {
      a.standalone.list = true;
    } else if (flag_value(argc, argv, i, "--run", &a.run_pattern) ||
               flag_value(argc, argv, i, "-run", &a.run_pattern)) {
    } else if (flag_value(argc, argv, i, "--srcdir", &a.standalone.srcdir)) {
    } else if (flag_value(argc, argv, i, "--timeout", &value)) {
      a.standalone.limits.timeout = parse_timeout("--timeout " + value, value);
    } else if (flag_value(argc, argv, i, "--rss-limit-mb", &value)) {
      a.standalone.limits.rss_limit_mb = parse_count("--rss-limit-mb " + value, value);
    } else if (arg == cfuzz::core::rpc::kDescribeFlag) {
      a.describe = true;
    } else if (arg == cfuzz::core::rpc::kPcTableFlag) {
      a.pc_table = true;
    } else if (flag_value(argc, argv, i, cfuzz::core::rpc::kWorkerFlag, &a.worker_test)) {
    } else if (flag_value(argc, argv, i, "--stack-limit-kb", &value)) {
      a.stack_limit_kb = parse_count("--stack-limit-kb " + value, value);
    } else if (flag_value(argc, argv, i, cfuzz::core::rpc::kStackLimitFlag, &value)) {
      a.stack_limit_kb = parse_count(std::string(cfuzz::core::rpc::kStackLimitFlag) + "=" + value, value);
    } else if (arg == cfuzz::core::rpc::kDetectLeaksFlag) {
      a.detect_leaks = true;
    } else {
      throw "unknown flag " + std::string(arg) + " (see --help)";
    }
  }
  return a;
}

}  // namespace

namespace fuzzer::cfuzz {
namespace {

// libFuzzer's way: `./target -runs=4 CORPUS_DIR`. --run REGEXP picks the test when the
// binary has several. In the runtime's namespace: its frame is below every crash.
int run_as_libfuzzer(int argc, char** argv) {
  namespace rt = cfuzz::runtime;
  rt::LibFuzzerOptions options;
  std::string pattern;
  try {
    options = rt::parse_libfuzzer_options(argc, argv);
    if (options.use_value_profile) rt::enable_value_profile();
    for (int i = 1; i < argc; ++i) {
      std::string_view arg = argv[i];
      if (arg == "--run" && i + 1 < argc) pattern = argv[++i];
      if (arg.starts_with("--run=")) pattern = std::string(arg.substr(6));
    }
  } catch (const std::string& e) {
    std::fprintf(stderr, "ERROR: %s\n", e.c_str());
    return 2;
  }
  if (options.help) {
    rt::print_libfuzzer_help(argv[0]);
    return 0;
  }
  std::vector<const rt::RegisteredTest*> tests;
  try {
    rt::RunPattern run(pattern);
    for (const auto& t : rt::registered_tests()) {
      if (run.matches_test(t.name)) tests.push_back(&t);
    }
  } catch (const std::regex_error& e) {
    std::fprintf(stderr, "ERROR: --run %s: invalid regular expression: %s\n", pattern.c_str(), e.what());
    return 2;
  }
  if (tests.size() != 1) {
    std::string names;
    for (const auto& t : rt::registered_tests()) names += " " + t.name;
    std::fprintf(stderr, "ERROR: libFuzzer-style runs fuzz one test; pick one with --run NAME. This binary has:%s\n",
                 names.c_str());
    return 2;
  }
  return rt::run_libfuzzer_front_end(options, *tests[0], argc, argv);
}

}  // namespace
}  // namespace fuzzer::cfuzz

namespace {

// A mode the coordinator runs the target in.
bool internal_mode(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == cfuzz::core::rpc::kDescribeFlag || arg == cfuzz::core::rpc::kPcTableFlag ||
        arg.starts_with(cfuzz::core::rpc::kWorkerFlag)) {
      return true;
    }
  }
  return false;
}

}  // namespace

int cfuzz::runtime::target_main(int argc, char** argv) {
  cfuzz::runtime::msan_disable_interceptor_checks();  // the runtime's code from here on
  cfuzz::runtime::register_stack_depth_counters();
  cfuzz::runtime::enable_value_profile_if_asked();  // last: the scan may leave it out
  cfuzz::runtime::register_libfuzzer_harness(&argc, &argv);
  if (!internal_mode(argc, argv) && cfuzz::runtime::wants_libfuzzer_front_end(argc, argv)) {
    auto dups = cfuzz::runtime::duplicate_tests();
    if (!dups.empty()) {
      for (const auto& d : dups) std::fprintf(stderr, "%s: fuzz test %s defined twice\n", argv[0], d.c_str());
      return 2;
    }
    return fuzzer::cfuzz::run_as_libfuzzer(argc, argv);
  }
  Args args;
  try {
    args = parse(argc, argv);
    args.standalone.run = cfuzz::runtime::RunPattern(args.run_pattern);
  } catch (const std::string& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.c_str());
    return 2;
  } catch (const std::regex_error& e) {
    std::fprintf(stderr, "%s: --run %s: invalid regular expression: %s\n", argv[0], args.run_pattern.c_str(), e.what());
    return 2;
  }
  if (args.help) {
    std::printf(kUsage, argv[0], argv[0]);
    return 0;
  }
  auto dups = cfuzz::runtime::duplicate_tests();
  if (!dups.empty()) {
    for (const auto& d : dups) std::fprintf(stderr, "%s: fuzz test %s defined twice\n", argv[0], d.c_str());
    return 2;
  }
  cfuzz::runtime::set_stack_limit_kb(args.stack_limit_kb);
  if (args.describe) return cfuzz::runtime::describe_target(args.standalone.srcdir);
  if (args.pc_table) return cfuzz::runtime::print_pc_table();
  if (!args.worker_test.empty()) {
    for (const auto& t : cfuzz::runtime::registered_tests()) {
      if (t.name == args.worker_test) return cfuzz::runtime::serve_worker(t, args.detect_leaks);
    }
    std::fprintf(stderr, "%s: no fuzz test named %s\n", argv[0], args.worker_test.c_str());
    return 2;
  }
  if (cfuzz::runtime::registered_tests().empty()) {
    std::fprintf(stderr, "%s: no fuzz tests in this binary (CFUZZ_TEST or LLVMFuzzerTestOneInput)\n", argv[0]);
    return 2;
  }
  return cfuzz::runtime::run_standalone(args.standalone);
}
