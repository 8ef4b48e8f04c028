// --timeout and --rss-limit-mb: the limits on one input that every subcommand running
// inputs takes (run, minimize, corpus minimize), declared and checked in one place.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace cfuzz::cmd {

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
