#include "runtime/libfuzzer/libfuzzer_options.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <variant>

#include "runtime/libfuzzer/libfuzzer_flags.h"

namespace fuzzer::cfuzz {

namespace {

// The integer in `value`, or an error naming the argument. Stricter than libFuzzer, which
// reads "12x" as 12 and "x" as 0: a typo is better reported than run with.
std::int64_t read_int(std::string_view arg, std::string_view value, std::int64_t min, std::int64_t max) {
  std::string text(value);
  char* end = nullptr;
  errno = 0;
  long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') throw std::string(arg) + ": expected an integer";
  if (errno == ERANGE || n < min || n > max) {
    throw std::string(arg) + ": expected an integer from " + std::to_string(min) + " to " + std::to_string(max);
  }
  return n;
}

// As libFuzzer's stoul: "-1" is the largest value.
std::uint64_t read_uint(std::string_view arg, std::string_view value) {
  std::string text(value);
  char* end = nullptr;
  errno = 0;
  unsigned long long n = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') throw std::string(arg) + ": expected an integer";
  if (errno == ERANGE) throw std::string(arg) + ": expected an integer below 2^64";
  return n;
}

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;  // clang 14 does not deduce an aggregate's arguments

// Sets the flag's member from `value` as its kind reads it.
void set_flag(const LibFuzzerFlag& flag, std::string_view arg, std::string_view value, LibFuzzerOptions& o) {
  using Limits64 = std::numeric_limits<std::int64_t>;
  using Limits32 = std::numeric_limits<int>;
  std::visit(
      Overloaded{
          [](std::monostate) {},
          [&](std::int64_t LibFuzzerOptions::*m) { o.*m = read_int(arg, value, Limits64::min(), Limits64::max()); },
          [&](int LibFuzzerOptions::*m) {
            o.*m = static_cast<int>(read_int(arg, value, Limits32::min(), Limits32::max()));
          },
          [&](std::uint64_t LibFuzzerOptions::*m) { o.*m = read_uint(arg, value); },
          [&](bool LibFuzzerOptions::*m) { o.*m = read_int(arg, value, Limits64::min(), Limits64::max()) != 0; },
          [&](std::string LibFuzzerOptions::*m) { o.*m = value; },
          [&](std::vector<std::string> LibFuzzerOptions::*m) { (o.*m).emplace_back(value); },
      },
      flag.member);
}

void set_default(const LibFuzzerFlag& flag, LibFuzzerOptions& o) {
  std::visit(Overloaded{
                 [](std::monostate) {},
                 [&](std::int64_t LibFuzzerOptions::*m) { o.*m = flag.number_default; },
                 [&](int LibFuzzerOptions::*m) { o.*m = static_cast<int>(flag.number_default); },
                 [&](std::uint64_t LibFuzzerOptions::*m) { o.*m = static_cast<std::uint64_t>(flag.number_default); },
                 [&](bool LibFuzzerOptions::*m) { o.*m = flag.number_default != 0; },
                 [&](std::string LibFuzzerOptions::*m) { o.*m = flag.text_default; },
                 [&](std::vector<std::string> LibFuzzerOptions::*m) { (o.*m).clear(); },
             },
             flag.member);
}

bool is_flag(std::string_view arg) { return arg.size() > 1 && arg[0] == '-' && arg[1] != '-'; }

// The seed run's flags that take their value as the next argument.
bool takes_next_argument(std::string_view arg) {
  return arg == "--run" || arg == "-run" || arg == "--srcdir" || arg == "--timeout" || arg == "--rss-limit-mb" ||
         arg == "--stack-limit-kb";
}

}  // namespace

bool wants_libfuzzer_front_end(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (takes_next_argument(arg)) {
      ++i;
    } else if (arg.starts_with("-run=")) {
      // go test's spelling of the seed run's --run (libFuzzer has no -run flag)
    } else if ((is_flag(arg) && arg.find('=') != std::string_view::npos) || !arg.starts_with("-")) {
      return true;
    }
  }
  return false;
}

LibFuzzerOptions parse_libfuzzer_options(int argc, char** argv) {
  LibFuzzerOptions o;
  for (const auto& flag : libfuzzer_flags()) set_default(flag, o);
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (takes_next_argument(arg)) {
      ++i;
      continue;
    }
    if (!is_flag(arg)) {
      if (arg.starts_with("--")) continue;  // the target's own (--run=NAME)
      o.inputs.emplace_back(arg);
      continue;
    }
    auto eq = arg.find('=');
    std::string_view name = arg.substr(1, eq == std::string_view::npos ? std::string_view::npos : eq - 1);
    std::string_view value = eq == std::string_view::npos ? std::string_view() : arg.substr(eq + 1);
    const LibFuzzerFlag* flag = find_libfuzzer_flag(name);
    if (flag == nullptr) {
      std::fprintf(stderr, "WARNING: unrecognized flag '%s'; use -help=1 to list all flags\n", argv[i]);
    } else if (flag->effect == FlagEffect::kRefused) {
      throw std::string(arg) + ": not supported by cfuzz's libFuzzer front end yet (docs/oss-fuzz.md)";
    } else if (flag->effect == FlagEffect::kIgnored) {
      o.ignored.emplace_back(arg);  // any value: cfuzz does nothing with it
    } else {
      set_flag(*flag, arg, value, o);
    }
  }
  return o;
}

}  // namespace fuzzer::cfuzz
