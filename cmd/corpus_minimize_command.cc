// `cfuzz corpus minimize --target ./target DIR... -o OUT`: distill a corpus.
#include "cmd/subcommands.h"
#include "libfuzzdriver/budget.h"
#include "libfuzzdriver/corpus_distill.h"

namespace cfuzz::cmd {

void add_corpus_minimize_command(CLI::App& corpus, int& exit_code) {
  auto* sub = corpus.add_subcommand(
      "minimize",
      "Keep the smallest set of entries (small and fast ones first) with all the coverage of the "
      "inputs, like libFuzzer's -merge=1 or afl-cmin; failing inputs are reported and left out");
  auto o = std::make_shared<driver::DistillOptions>();
  auto timeout = std::make_shared<std::string>("10s");
  sub->add_option("inputs", o->inputs, "Directories (their files) and files to distill, e.g. the cache directory")
      ->required();
  sub->add_option("--target", o->target, "The target binary whose coverage decides")->required();
  sub->add_option("--fuzz", o->fuzz, "Regular expression selecting the fuzz test (not needed if there is one)");
  sub->add_option("-o,--output", o->output, "Directory to write the kept entries to")->required();
  sub->add_flag("--raw", o->raw,
                "The inputs are raw files (an AFL or libFuzzer corpus) for a fuzz test taking one []byte or "
                "string; the kept entries are written raw too");
  sub->add_option("--parallel,-p", o->parallel, "Number of worker processes, at most 1024 (default: number of CPUs)")
      ->check(kWorkersRange);
  sub->add_option("--timeout", *timeout, "Longest one input may run before it counts as a hang")
      ->capture_default_str();
  sub->add_option("--rss-limit-mb", o->rss_limit_mb, "Memory limit of a worker in MiB (0: none)")
      ->check(kRssLimitRange)
      ->capture_default_str();
  sub->add_flag("--json", o->json, "Print the result as JSON lines");
  sub->callback([o, timeout, &exit_code] {
    auto t = driver::parse_go_duration(*timeout);
    if (!t || t->count() <= 0) {
      throw std::runtime_error("--timeout " + *timeout + ": expected a duration such as 10s or 500ms");
    }
    o->timeout = std::chrono::duration_cast<std::chrono::milliseconds>(*t);
    exit_code = driver::distill_corpus(*o);
  });
}

}  // namespace cfuzz::cmd
