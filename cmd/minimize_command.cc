// `cfuzz minimize FILE --target ./target`: shrink a failing input by hand.
#include "cmd/subcommands.h"
#include "libfuzzdriver/minimize_file.h"

namespace cfuzz::cmd {

void add_minimize_command(CLI::App& app, int& exit_code) {
  auto* sub = app.add_subcommand(
      "minimize",
      "Shrink an input that makes a target fail, keeping the failure the same (exit 0: written; "
      "1: the input does not fail)");
  auto o = std::make_shared<driver::MinimizeFileOptions>();
  auto budget = std::make_shared<std::string>("60s");
  auto timeout = std::make_shared<std::string>("10s");
  sub->add_option("file", o->input, "The failing input: a `go test fuzz v1` file (or a raw file with --raw)")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--target", o->target, "The target binary that fails on the input")->required();
  sub->add_option("--fuzz", o->fuzz, "Regular expression selecting the fuzz test (not needed if there is one)");
  sub->add_option("-o,--output", o->output, "Where to write the result (default: FILE.min)");
  sub->add_flag("--raw", o->raw,
                "FILE holds raw bytes for a fuzz test taking one []byte or string (a libFuzzer or "
                "AFL crash file); the result is written raw too");
  sub->add_option("--fuzzminimizetime", *budget, "Time (or executions, Nx) to spend")->capture_default_str();
  sub->add_option("--timeout", *timeout, "Longest one input may run before it counts as a hang")
      ->capture_default_str();
  sub->add_option("--rss-limit-mb", o->rss_limit_mb, "Memory limit of the worker in MiB (0: none)")
      ->check(kRssLimitRange)
      ->capture_default_str();
  sub->add_flag("--json", o->json, "Print progress and the result as JSON lines");
  sub->callback([o, budget, timeout, &exit_code] {
    o->budget = driver::Budget::parse(*budget, "--fuzzminimizetime", false);
    auto t = driver::parse_go_duration(*timeout);
    if (!t || t->count() <= 0) {
      throw std::runtime_error("--timeout " + *timeout + ": expected a duration such as 10s or 500ms");
    }
    o->timeout = std::chrono::duration_cast<std::chrono::milliseconds>(*t);
    exit_code = driver::minimize_file(*o);
  });
}

}  // namespace cfuzz::cmd
