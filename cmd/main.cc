// cfuzz: the coordinator executable. Parses the command line and decides the exit code:
// 0 success, 1 a failure was found or a check failed, 2 a usage or input error.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "cmd/subcommands.h"

int main(int argc, char** argv) {
  // Diagnostics go to standard error: standard output carries results (and, with --json,
  // nothing but JSON lines).
  spdlog::set_default_logger(spdlog::stderr_color_mt("cfuzz"));
  CLI::App app{"cfuzz: coverage-guided fuzzing for C and C++, in the manner of go test -fuzz"};
  app.set_version_flag("--version", "cfuzz " CFUZZ_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  cfuzz::cmd::add_run_command(app, exit_code);
  cfuzz::cmd::add_minimize_command(app, exit_code);
  cfuzz::cmd::add_corpus_command(app, exit_code);
  cfuzz::cmd::add_clean_command(app, exit_code);
  cfuzz::cmd::add_cover_command(app, exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message (or the help text) itself; --help is a success.
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cfuzz: %s\n", e.what());
    return 2;
  }
  return exit_code;
}
