// The flags several subcommands take, each declared (name, help, check) in one place:
// --timeout and --rss-limit-mb, the limits on one input of every subcommand that runs
// inputs; --fuzz, --parallel, --cachedir, --shared-cache, --srcdir and --json.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace cfuzz::cmd {

// --fuzz RE: which fuzz test of the target.
void add_fuzz_flag(CLI::App* sub, std::string* fuzz);
// --parallel/-p N: worker processes.
void add_parallel_flag(CLI::App* sub, int* parallel);
// --cachedir DIR, with what this subcommand does with it.
void add_cachedir_flag(CLI::App* sub, std::string* cachedir, const std::string& help);
// --srcdir DIR, with what this subcommand reads there.
void add_srcdir_flag(CLI::App* sub, std::string* srcdir, const std::string& help);
// --shared-cache: a cache root owned by another user is used on purpose.
void add_shared_cache_flag(CLI::App* sub, bool* shared_cache);
// --json, with what this subcommand prints as JSON.
void add_json_flag(CLI::App* sub, bool* json, const std::string& help);

class InputLimitFlags {
 public:
  // Declares both flags on `sub`; the memory limit goes to `*rss_limit_mb`.
  void add_to(CLI::App* sub, std::uint64_t* rss_limit_mb, const std::string& rss_help);
  // The --timeout value, checked: call it from the subcommand's callback. Throws (exit 2)
  // for a value that is not a positive duration.
  std::chrono::milliseconds timeout() const;

 private:
  std::string timeout_text_ = "10s";
};

}  // namespace cfuzz::cmd
