// `cfuzz minimize FILE --target ./target`: shrink a failing input by hand.
#include "cmd/shared_flags.h"
#include "cmd/subcommands.h"
#include "libfuzzdriver/minimize/minimize_file.h"

namespace cfuzz::cmd {

void add_minimize_command(CLI::App& app, int& exit_code) {
  auto* sub =
      app.add_subcommand("minimize",
                         "Shrink an input that makes a target fail, keeping the failure the same (exit 0: written; "
                         "1: the input does not fail)");
  auto o = std::make_shared<driver::MinimizeFileOptions>();
  auto budget = std::make_shared<std::string>("60s");
  auto limits = std::make_shared<InputLimitFlags>();
  sub->add_option("file", o->input, "The failing input: a `go test fuzz v1` file (or a raw file with --raw)")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--target", o->target, "The target binary that fails on the input")->required();
  add_fuzz_flag(sub, &o->fuzz);
  sub->add_option("-o,--output", o->output, "Where to write the result (default: FILE.min)");
  sub->add_flag("--raw", o->raw,
                "FILE holds raw bytes for a fuzz test taking one []byte or string (a libFuzzer or "
                "AFL crash file); the result is written raw too");
  sub->add_option("--fuzzminimizetime", *budget, "Time (or executions, Nx) to spend")->capture_default_str();
  limits->add_to(sub, &o->rss_limit_mb, "Memory limit of the worker in MiB (0: none)");
  add_json_flag(sub, &o->json, "Print progress and the result as JSON lines");
  sub->callback([o, budget, limits, &exit_code] {
    o->budget = driver::Budget::parse(*budget, "--fuzzminimizetime", false);
    o->timeout = limits->timeout();
    exit_code = driver::minimize_file(*o);
  });
}

}  // namespace cfuzz::cmd
