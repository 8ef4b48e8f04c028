// `cfuzz cover ./target -o DIR`: what the corpus reaches, by source line and function.
#include "cmd/shared_flags.h"
#include "cmd/subcommands.h"
#include "libfuzzdriver/coverage/cover.h"

namespace cfuzz::cmd {

void add_cover_command(CLI::App& app, int& exit_code) {
  auto* sub = app.add_subcommand("cover",
                                 "Replay a fuzz test's whole corpus (f.add seeds, testdata and the cache) and report "
                                 "the source lines and functions it reaches; -o writes an HTML page with the lines "
                                 "marked and coverage over time");
  auto o = std::make_shared<driver::CoverOptions>();
  auto limits = std::make_shared<InputLimitFlags>();
  sub->add_option("target", o->target, "The target binary (built with debug info, -g, to name lines)")->required();
  add_fuzz_flag(sub, &o->fuzz);
  add_cachedir_flag(sub, &o->cachedir,
                    "Directory of the generated corpus, as given to cfuzz run (default: the target's cache). "
                    "One owned by another user is refused unless --shared-cache says so");
  add_shared_cache_flag(sub, &o->shared_cache);
  add_srcdir_flag(sub, &o->srcdir,
                  "Directory holding testdata/fuzz/<FuzzName>/, and against which relative source paths are read "
                  "(default: what the target uses)");
  sub->add_option("-o,--output", o->output, "Directory to write index.html to");
  add_parallel_flag(sub, &o->parallel);
  limits->add_to(sub, &o->rss_limit_mb, "Memory limit of a worker in MiB (0: none)");
  add_json_flag(sub, &o->json, "Print the report as one JSON document");
  sub->callback([o, limits, &exit_code] {
    o->timeout = limits->timeout();
    exit_code = driver::cover_target(*o);
  });
}

}  // namespace cfuzz::cmd
