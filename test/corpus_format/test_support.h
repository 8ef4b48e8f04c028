// Helpers shared by the corpus tests: value descriptions for bit-exact comparison, random
// values of every type, and running programs. (Temporary directories and files are
// test/support/temp_dir.h and test/support/files.h, shared by all tests.)
#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "corpus_format/value.h"

namespace cfuzz::corpus::testing {

std::string to_hex(std::string_view bytes);
std::string from_hex(std::string_view hex);

// TYPE:VALUE, the notation shared with the Go side of the interop tests
// (go_interop/values_test.go): "bytes:00ff", "string:6869", "int8:-3", "float64:7ff8000000000001".
// Byte strings are hex, integers decimal, floats their bit pattern, so equal descriptions
// mean bit-identical values.
std::string describe(const Value& v);
// The descriptions of an entry's values, separated by single spaces.
std::string describe_all(const Entry& entry);

// A random value of type `t`, biased toward what is awkward for the format: NaNs with
// payloads, -0, subnormals, infinities, extreme integers, invalid runes, invalid UTF-8,
// non-ASCII printable and non-printable runes, quotes and backslashes.
Value random_value(std::mt19937_64& rng, Type t);
Entry random_entry(std::mt19937_64& rng, std::size_t max_values = 6);

// Fixed entries, one per kind of awkward value, covering all fifteen types.
std::vector<Value> awkward_values(Type t);

struct CommandResult {
  int exit_code = -1;  // the exit status, or 128 + signal number
  std::string out;     // standard output
  std::string err;     // standard error
};

// Runs argv[0] (looked up in PATH when it has no '/') in `cwd`, with `set_env` added to
// and `unset_env` removed from the environment, and waits for it.
CommandResult run_command(const std::vector<std::string>& argv, const std::filesystem::path& cwd = {},
                          const std::vector<std::pair<std::string, std::string>>& set_env = {},
                          const std::vector<std::string>& unset_env = {});

}  // namespace cfuzz::corpus::testing
