// libFuzzer's flags as one table, as FuzzerFlags.def is libFuzzer's: a row a flag with its
// name, kind, default, the LibFuzzerOptions member it sets, what cfuzz does with it and its
// help line. Parsing and validation (libfuzzer_options.cc) and -help=1 (libfuzzer_help.cc)
// read nothing else, so a flag is added, or its default changed, here and only here.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "runtime/engine/engine_namespace.h"
#include "runtime/libfuzzer/libfuzzer_options.h"

namespace fuzzer::cfuzz {

// How a flag's value is read. libFuzzer reads int, uint and bool flags alike as decimal
// integers (a bool is true when not 0), and so does cfuzz.
enum class FlagKind {
  kInt,     // a signed integer in the range of its member
  kUint,    // an unsigned 64-bit integer; "-N" wraps around, as libFuzzer's stoul does
  kBool,    // an integer: 0 is false, anything else true
  kString,  // any text, even empty
  kList,    // any text; each use of the flag adds one
};

// What cfuzz does with a flag.
enum class FlagEffect {
  kImplemented,  // sets its member of LibFuzzerOptions
  kInternal,     // the same, but only cfuzz's own processes pass it to their children
  kIgnored,      // libFuzzer's, of no use to cfuzz's engine: any value is taken and named at start
  kRefused,      // libFuzzer's, not in cfuzz yet: exit 2, since a run without it would look like success
};

// The member a flag sets; std::monostate for the ignored and refused ones, which set none.
using FlagMember = std::variant<std::monostate, std::int64_t LibFuzzerOptions::*, int LibFuzzerOptions::*,
                                std::uint64_t LibFuzzerOptions::*, bool LibFuzzerOptions::*,
                                std::string LibFuzzerOptions::*, std::vector<std::string> LibFuzzerOptions::*>;

struct LibFuzzerFlag {
  std::string_view name;
  FlagKind kind;
  FlagEffect effect;
  std::int64_t number_default;    // for int, uint and bool flags
  std::string_view text_default;  // for string flags ("" for none); lists start empty
  FlagMember member;
  std::string_view help;  // one line
};

// Every flag; -help=1 lists them in this order, under the heading of their effect.
std::span<const LibFuzzerFlag> libfuzzer_flags();

// The flag of that name, or nullptr.
const LibFuzzerFlag* find_libfuzzer_flag(std::string_view name);

}  // namespace fuzzer::cfuzz
