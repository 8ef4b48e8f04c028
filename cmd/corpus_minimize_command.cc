// `cfuzz corpus minimize --target ./target DIR... -o OUT`: distill a corpus.
#include "cmd/shared_flags.h"
#include "cmd/subcommands.h"
#include "libfuzzdriver/minimize/corpus_distill.h"
#include "libfuzzdriver/util/budget.h"

namespace cfuzz::cmd {

void add_corpus_minimize_command(CLI::App& corpus, int& exit_code) {
  auto* sub =
      corpus.add_subcommand("minimize",
                            "Keep the smallest set of entries (small and fast ones first) with all the coverage of the "
                            "inputs, like libFuzzer's -merge=1 or afl-cmin; failing inputs are reported and left out");
  auto o = std::make_shared<driver::DistillOptions>();
  auto limits = std::make_shared<InputLimitFlags>();
  sub->add_option("inputs", o->inputs, "Directories (their files) and files to distill, e.g. the cache directory")
      ->required();
  sub->add_option("--target", o->target, "The target binary whose coverage decides")->required();
  add_fuzz_flag(sub, &o->fuzz);
  sub->add_option("-o,--output", o->output, "Directory to write the kept entries to")->required();
  sub->add_flag("--raw", o->raw,
                "The inputs are raw files (an AFL or libFuzzer corpus) for a fuzz test taking one []byte or "
                "string; the kept entries are written raw too");
  add_parallel_flag(sub, &o->parallel);
  limits->add_to(sub, &o->rss_limit_mb, "Memory limit of a worker in MiB (0: none)");
  add_json_flag(sub, &o->json, "Print the result as JSON lines");
  sub->callback([o, limits, &exit_code] {
    o->timeout = limits->timeout();
    exit_code = driver::distill_corpus(*o);
  });
}

}  // namespace cfuzz::cmd
