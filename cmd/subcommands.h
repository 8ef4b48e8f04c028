// The subcommands of `cfuzz`, one file each. Every add_* function declares the flags of
// one subcommand on `app` and, when that subcommand is chosen, runs it and stores its exit
// code (0 or 1) in `exit_code`. Errors the user can fix are thrown as exceptions and become
// exit code 2 in main().
#pragma once

#include <CLI/CLI.hpp>

namespace cfuzz::cmd {

void add_run_command(CLI::App& app, int& exit_code);
void add_minimize_command(CLI::App& app, int& exit_code);
void add_corpus_command(CLI::App& app, int& exit_code);
void add_clean_command(CLI::App& app, int& exit_code);
// `cfuzz corpus minimize`, added under the `corpus` subcommand.
void add_corpus_minimize_command(CLI::App& corpus, int& exit_code);

}  // namespace cfuzz::cmd
