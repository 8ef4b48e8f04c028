// `cfuzz cover ./target -o DIR`: what the corpus reaches, by source line and function.
#include "cmd/input_limit_flags.h"
#include "cmd/subcommands.h"
#include "libfuzzdriver/cover.h"

namespace cfuzz::cmd {

void add_cover_command(CLI::App& app, int& exit_code) {
  auto* sub = app.add_subcommand("cover",
                                 "Replay a fuzz test's whole corpus (f.add seeds, testdata and the cache) and report "
                                 "the source lines and functions it reaches; -o writes an HTML page with the lines "
                                 "marked and coverage over time");
  auto o = std::make_shared<driver::CoverOptions>();
  auto limits = std::make_shared<InputLimitFlags>();
  sub->add_option("target", o->target, "The target binary (built with debug info, -g, to name lines)")->required();
  sub->add_option("--fuzz", o->fuzz, "Regular expression selecting the fuzz test (not needed if there is one)");
  sub->add_option("--cachedir", o->cachedir,
                  "Directory of the generated corpus, as given to cfuzz run (default: the target's cache)");
  sub->add_option("--srcdir", o->srcdir,
                  "Directory holding testdata/fuzz/<FuzzName>/, and against which relative source paths are read "
                  "(default: what the target uses)");
  sub->add_option("-o,--output", o->output, "Directory to write index.html to");
  sub->add_option("--parallel,-p", o->parallel, "Number of worker processes, at most 1024 (default: number of CPUs)")
      ->check(kWorkersRange);
  limits->add_to(sub, &o->rss_limit_mb, "Memory limit of a worker in MiB (0: none)");
  sub->add_flag("--json", o->json, "Print the report as one JSON document");
  sub->callback([o, limits, &exit_code] {
    o->timeout = limits->timeout();
    exit_code = driver::cover_target(*o);
  });
}

}  // namespace cfuzz::cmd
