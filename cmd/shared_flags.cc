#include "cmd/shared_flags.h"

#include <stdexcept>

#include "cmd/subcommands.h"
#include "libfuzzdriver/util/budget.h"

namespace cfuzz::cmd {

void add_fuzz_flag(CLI::App* sub, std::string* fuzz) {
  sub->add_option("--fuzz", *fuzz, "Regular expression selecting the fuzz test (not needed if the target has one)");
}

void add_parallel_flag(CLI::App* sub, int* parallel) {
  sub->add_option("--parallel,-p", *parallel, "Number of worker processes, at most 1024 (default: number of CPUs)")
      ->check(kWorkersRange);
}

void add_cachedir_flag(CLI::App* sub, std::string* cachedir, const std::string& help) {
  sub->add_option("--cachedir", *cachedir, help);
}

void add_srcdir_flag(CLI::App* sub, std::string* srcdir, const std::string& help) {
  sub->add_option("--srcdir", *srcdir, help);
}

void add_shared_cache_flag(CLI::App* sub, bool* shared_cache) {
  sub->add_flag("--shared-cache", *shared_cache,
                "The cache directory is shared with other users or hosts on purpose: use it even if "
                "another user owns it (also CFUZZ_SHARED_CACHE=1). Writes there never follow a "
                "symbolic link, and what is read there is checked either way");
}

void add_json_flag(CLI::App* sub, bool* json, const std::string& help) { sub->add_flag("--json", *json, help); }

void InputLimitFlags::add_to(CLI::App* sub, std::uint64_t* rss_limit_mb, const std::string& rss_help) {
  sub->add_option("--timeout", timeout_text_, "Longest one input may run before it counts as a hang")
      ->capture_default_str();
  sub->add_option("--rss-limit-mb", *rss_limit_mb, rss_help)->check(kRssLimitRange)->capture_default_str();
}

std::chrono::milliseconds InputLimitFlags::timeout() const {
  auto t = driver::parse_go_duration(timeout_text_);
  if (!t || t->count() <= 0) {
    throw std::runtime_error("--timeout " + timeout_text_ + ": expected a duration such as 10s or 500ms");
  }
  return std::chrono::duration_cast<std::chrono::milliseconds>(*t);
}

}  // namespace cfuzz::cmd
