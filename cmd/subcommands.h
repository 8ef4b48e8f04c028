// The subcommands of `cfuzz`, one file each. Every add_* function declares the flags of
// one subcommand on `app` and, when that subcommand is chosen, runs it and stores its exit
// code (0 or 1) in `exit_code`. Errors the user can fix are thrown as exceptions and become
// exit code 2 in main().
#pragma once

#include <cstdint>

#include <CLI/CLI.hpp>

namespace cfuzz::cmd {

// Bounds of the numeric flags, checked on the text before it is converted (so that "-5"
// cannot wrap around to 2^64 in an unsigned option).
inline const CLI::Range kWorkersRange(0, 1024);                                    // --parallel
inline const CLI::Range kRssLimitRange(std::uint64_t{0}, std::uint64_t{1} << 20);  // --rss-limit-mb: up to 1 TiB
inline const CLI::Range kMaxLenRange(std::uint64_t{1}, std::uint64_t{64} << 20);   // --max-len: up to 64 MiB

void add_run_command(CLI::App& app, int& exit_code);
void add_minimize_command(CLI::App& app, int& exit_code);
void add_corpus_command(CLI::App& app, int& exit_code);
void add_clean_command(CLI::App& app, int& exit_code);
void add_cover_command(CLI::App& app, int& exit_code);
// `cfuzz corpus minimize`, added under the `corpus` subcommand.
void add_corpus_minimize_command(CLI::App& corpus, int& exit_code);

}  // namespace cfuzz::cmd
