// Durations as Go writes them: time.ParseDuration's syntax ("30s", "1m30s", "1.5s",
// "250ms") and the short form the progress lines and re-run commands print. Shared by the
// coordinator's flags and the target's own (--timeout in a seed run).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace cfuzz::core {

// Go's time.ParseDuration; nullopt if malformed.
std::optional<std::chrono::nanoseconds> parse_go_duration(std::string_view text);

// "1m3s" style, whole seconds ("250ms" below a second): elapsed time in progress lines.
std::string format_elapsed(std::chrono::nanoseconds d);

// Exact, as Go's Duration.String writes it ("10s", "1.5s", "250ms", "1m30s"): what a flag was
// given, written back into a command line or a message.
std::string format_duration(std::chrono::nanoseconds d);

}  // namespace cfuzz::core
