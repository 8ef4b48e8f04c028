#include "cmd/input_limit_flags.h"

#include <stdexcept>

#include "cmd/subcommands.h"
#include "libfuzzdriver/budget.h"

namespace cfuzz::cmd {

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
