#include "test/corpus_format/test_support.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "corpus_format/go_utf8.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz::corpus::testing {

std::string to_hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xF]);
  }
  return out;
}

std::string from_hex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::string describe(const Value& v) {
  char buf[64];
  switch (type_of(v)) {
    case Type::Bytes: {
      const Bytes& b = std::get<Bytes>(v);
      return "bytes:" + to_hex(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
    }
    case Type::String: return "string:" + to_hex(std::get<std::string>(v));
    case Type::Bool: return std::get<bool>(v) ? "bool:true" : "bool:false";
    case Type::Byte: return "uint8:" + std::to_string(std::get<std::uint8_t>(v));
    case Type::Rune: return "int32:" + std::to_string(std::get<std::int32_t>(v));
    case Type::Int: return "int:" + std::to_string(std::get<GoInt>(v));
    case Type::Int8: return "int8:" + std::to_string(std::get<std::int8_t>(v));
    case Type::Int16: return "int16:" + std::to_string(std::get<std::int16_t>(v));
    case Type::Int64: return "int64:" + std::to_string(std::get<std::int64_t>(v));
    case Type::Uint: return "uint:" + std::to_string(std::get<GoUint>(v));
    case Type::Uint16: return "uint16:" + std::to_string(std::get<std::uint16_t>(v));
    case Type::Uint32: return "uint32:" + std::to_string(std::get<std::uint32_t>(v));
    case Type::Uint64: return "uint64:" + std::to_string(std::get<std::uint64_t>(v));
    case Type::Float32:
      std::snprintf(buf, sizeof buf, "float32:%x", std::bit_cast<std::uint32_t>(std::get<float>(v)));
      return buf;
    case Type::Float64:
      std::snprintf(buf, sizeof buf, "float64:%llx",
                    static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(std::get<double>(v))));
      return buf;
  }
  return "?";
}

std::string describe_all(const Entry& entry) {
  std::string out;
  for (const Value& v : entry) {
    if (!out.empty()) out.push_back(' ');
    out += describe(v);
  }
  return out;
}

namespace {

template <typename T>
T pick(std::mt19937_64& rng, std::initializer_list<T> choices) {
  std::uniform_int_distribution<std::size_t> d(0, choices.size() - 1);
  return *(choices.begin() + d(rng));
}

std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) {
  return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng);
}

// Bytes mixing ASCII (with quotes, backslashes and controls), raw high bytes (mostly
// invalid UTF-8), and whole encoded runes, printable or not.
std::string random_bytes(std::mt19937_64& rng) {
  std::string s;
  const std::size_t n = below(rng, 4) == 0 ? below(rng, 300) : below(rng, 16);
  while (s.size() < n) {
    switch (below(rng, 6)) {
      case 0: s.push_back(static_cast<char>(below(rng, 256))); break;
      case 1: s.push_back(static_cast<char>(0x20 + below(rng, 0x5F))); break;
      case 2: s.push_back(pick<char>(rng, {'"', '\'', '\\', '`', '\n', '\r', '\t', '\0', 0x7F})); break;
      case 3: s.push_back(static_cast<char>(0x80 + below(rng, 0x80))); break;
      case 4: append_rune(s, static_cast<char32_t>(below(rng, 0x800))); break;
      default: {
        const char32_t r = pick<char32_t>(rng, {0xA0, 0xAD, 0x2028, 0x200B, 0xFEFF, 0xFFFD, 0xFFFE, 0x1F600, 0xE0001,
                                                0x10FFFF, 0x3000, 0x0301, 0x4E16});
        append_rune(s, below(rng, 2) ? r : static_cast<char32_t>(below(rng, 0x110000)));
      }
    }
  }
  return s;
}

template <typename I>
I random_int(std::mt19937_64& rng) {
  using L = std::numeric_limits<I>;
  switch (below(rng, 4)) {
    case 0: return pick<I>(rng, {L::min(), L::max(), I(0), I(1), static_cast<I>(-1)});
    case 1: return static_cast<I>(below(rng, 300)) - (std::is_signed_v<I> ? I(150) : I(0));
    default: return static_cast<I>(rng());
  }
}

double random_double(std::mt19937_64& rng) {
  switch (below(rng, 8)) {
    case 0: return std::bit_cast<double>(rng());  // any pattern: NaN payloads, subnormals
    case 1: return std::bit_cast<double>((rng() & 0x800FFFFFFFFFFFFF) | 0x7FF0000000000001);  // NaN
    case 2: return std::bit_cast<double>(rng() & 0x800FFFFFFFFFFFFF);                         // subnormal or ±0
    case 3:
      return pick<double>(
          rng, {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                std::numeric_limits<double>::quiet_NaN(), std::bit_cast<double>(std::uint64_t{0x7ff8000000000001}),
                std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min(), 1e6, 1e-5, 123456.0, 0.1,
                1e21});
    case 4: return static_cast<double>(static_cast<std::int64_t>(rng()) >> below(rng, 63));
    default: {
      std::normal_distribution<double> d;
      return d(rng) * std::pow(10.0, static_cast<double>(below(rng, 40)) - 20);
    }
  }
}

float random_float(std::mt19937_64& rng) {
  switch (below(rng, 5)) {
    case 0: return std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    case 1: return std::bit_cast<float>((static_cast<std::uint32_t>(rng()) & 0x807FFFFF) | 0x7F800001);
    case 2: return std::bit_cast<float>(static_cast<std::uint32_t>(rng()) & 0x807FFFFF);
    case 3:
      return pick<float>(
          rng, {0.0f, -0.0f, std::numeric_limits<float>::infinity(), std::bit_cast<float>(std::uint32_t{0x7fc00000}),
                std::numeric_limits<float>::max(), 1e6f, 3.0f});
    default: return static_cast<float>(random_double(rng));
  }
}

}  // namespace

Value random_value(std::mt19937_64& rng, Type t) {
  switch (t) {
    case Type::Bytes: {
      const std::string s = random_bytes(rng);
      return Bytes(s.begin(), s.end());
    }
    case Type::String: return random_bytes(rng);
    case Type::Bool: return below(rng, 2) == 1;
    case Type::Byte: return static_cast<std::uint8_t>(below(rng, 256));
    case Type::Rune:
      switch (below(rng, 4)) {
        case 0: return random_int<std::int32_t>(rng);
        case 1: return static_cast<std::int32_t>(0xD800 + below(rng, 0x800));
        default: return static_cast<std::int32_t>(below(rng, 0x110000));
      }
    case Type::Int: return random_int<GoInt>(rng);
    case Type::Int8: return random_int<std::int8_t>(rng);
    case Type::Int16: return random_int<std::int16_t>(rng);
    case Type::Int64: return random_int<std::int64_t>(rng);
    case Type::Uint: return random_int<GoUint>(rng);
    case Type::Uint16: return random_int<std::uint16_t>(rng);
    case Type::Uint32: return random_int<std::uint32_t>(rng);
    case Type::Uint64: return random_int<std::uint64_t>(rng);
    case Type::Float32: return random_float(rng);
    case Type::Float64: return random_double(rng);
  }
  return Bytes{};
}

Entry random_entry(std::mt19937_64& rng, std::size_t max_values) {
  Entry e;
  const std::size_t n = 1 + below(rng, max_values);
  for (std::size_t i = 0; i < n; ++i) {
    e.push_back(random_value(rng, static_cast<Type>(below(rng, kTypeCount))));
  }
  return e;
}

std::vector<Value> awkward_values(Type t) {
  auto str = [](std::string_view s) { return std::string(s); };
  auto bytes = [](std::string_view s) { return Bytes(s.begin(), s.end()); };
  const double inf = std::numeric_limits<double>::infinity();
  switch (t) {
    case Type::Bytes:
      return {bytes(""),
              bytes(std::string_view("\0\x01\xff\xfe", 4)),
              bytes("\xed\xa0\x80"),
              bytes("héllo ⌘ \u00a0\u00ad \U0001F600 \U000E0001"),
              bytes("\"'\\`\a\b\f\n\r\t\v"),
              bytes("\xc0\x80\xf4\x90\x80\x80\xef\xbf\xbd")};
    case Type::String:
      return {str(""),
              str("hello\xbd\xb2=\xbc ⌘"),
              str(std::string_view("a\0b", 3)),
              str("\u2028\u3000\ufeff\U0010ffff"),
              str("\x7f\x80\x9f\xa0"),
              str("'\"")};
    case Type::Bool: return {true, false};
    case Type::Byte:
      return {std::uint8_t{0},    std::uint8_t{'\''}, std::uint8_t{'"'},  std::uint8_t{'\\'}, std::uint8_t{0x7f},
              std::uint8_t{0x80}, std::uint8_t{0xa0}, std::uint8_t{0xad}, std::uint8_t{0xff}};
    case Type::Rune:
      return {std::int32_t{-1},
              std::int32_t{0},
              std::int32_t{0xd800},
              std::int32_t{0xdfff},
              std::int32_t{0x10ffff},
              std::int32_t{0x110000},
              std::int32_t{0xfffd},
              std::int32_t{0xfeff},
              std::int32_t{0x2603},
              std::int32_t{'\''},
              std::numeric_limits<std::int32_t>::min(),
              std::numeric_limits<std::int32_t>::max()};
    case Type::Int: return {GoInt{0}, std::numeric_limits<GoInt>::min(), std::numeric_limits<GoInt>::max()};
    case Type::Int8: return {std::int8_t{-128}, std::int8_t{127}, std::int8_t{0}};
    case Type::Int16: return {std::int16_t{-32768}, std::int16_t{32767}};
    case Type::Int64: return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
    case Type::Uint: return {GoUint{0}, std::numeric_limits<GoUint>::max()};
    case Type::Uint16: return {std::uint16_t{0}, std::uint16_t{65535}};
    case Type::Uint32: return {std::uint32_t{0}, std::uint32_t{4294967295u}};
    case Type::Uint64: return {std::uint64_t{0}, std::numeric_limits<std::uint64_t>::max()};
    case Type::Float32:
      return {0.0f,
              -0.0f,
              std::numeric_limits<float>::infinity(),
              -std::numeric_limits<float>::infinity(),
              std::bit_cast<float>(std::uint32_t{0x7fc00000}),
              std::bit_cast<float>(std::uint32_t{0x7fc00001}),
              std::bit_cast<float>(std::uint32_t{0xffc00000}),
              std::bit_cast<float>(std::uint32_t{0x7f800001}),
              std::numeric_limits<float>::denorm_min(),
              std::numeric_limits<float>::max(),
              1e6f,
              0.1f};
    case Type::Float64:
      return {0.0,
              -0.0,
              inf,
              -inf,
              std::bit_cast<double>(std::uint64_t{0x7ff8000000000001}),
              std::bit_cast<double>(std::uint64_t{0x7ff8000000000000}),
              std::bit_cast<double>(std::uint64_t{0x7ff0000000000001}),
              std::bit_cast<double>(std::uint64_t{0xfff8000000000002}),
              std::numeric_limits<double>::denorm_min(),
              std::numeric_limits<double>::min(),
              std::numeric_limits<double>::max(),
              1e21,
              123456.0,
              1234567.0,
              1e-5,
              0.1};
  }
  return {};
}

CommandResult run_command(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                          const std::vector<std::pair<std::string, std::string>>& set_env,
                          const std::vector<std::string>& unset_env) {
  const test::TempDir capture;
  const std::filesystem::path out_path = capture.path() / "stdout";
  const std::filesystem::path err_path = capture.path() / "stderr";
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // In the child: only async-signal-safe work would be strictly correct after fork in a
    // threaded program; the test processes are single-threaded, so plain calls are fine.
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(out, 1);
    ::dup2(err, 2);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) _exit(126);
    for (const auto& name : unset_env) ::unsetenv(name.c_str());
    for (const auto& [name, value] : set_env) ::setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = test::read_file(out_path);
  result.err = test::read_file(err_path);
  return result;
}

}  // namespace cfuzz::corpus::testing
