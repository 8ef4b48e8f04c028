// Interoperability with the real Go 1.19 toolchain, through the module in go_interop/:
//
//   cfuzz -> Go: entries cfuzz writes load in `go test` bit for bit, and Go's own encoder
//                reproduces them byte for byte;
//   Go -> cfuzz: files written by Go's encoder (called directly, and by `go test -fuzz`
//                saving a crasher) decode in cfuzz to the same values and re-encode to the
//                same bytes;
//   differential: for thousands of candidate files, cfuzz's decoder accepts exactly what
//                Go's accepts and reads the same values.
//
// Go runs offline with its caches under the build tree. Without a Go toolchain the tests
// skip and say why; scripts/install-deps.sh installs one.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "corpus_format/go_quote.h"
#include "test/corpus_format/test_support.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz::corpus {
namespace {

namespace fs = std::filesystem;
using test::read_file;
using test::TempDir;
using test::write_file;
using testing::CommandResult;
using testing::describe_all;
using testing::to_hex;

constexpr const char* kGo = CFUZZ_GO;

class GoInterop : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string_view(kGo).empty() || ::access(kGo, X_OK) != 0) {
      GTEST_SKIP() << "Go toolchain not found (looked for /usr/lib/go-1.19/bin/go); "
                      "run scripts/install-deps.sh to install golang-1.19";
    }
    module_ = work_.path() / "gointerop";
    fs::copy(CFUZZ_GO_MODULE_DIR, module_, fs::copy_options::recursive);
  }

  // Runs `go test ARGS...` in the module copy, offline, with caches in the build tree.
  CommandResult go_test(std::vector<std::string> args, std::vector<std::pair<std::string, std::string>> env = {}) {
    const fs::path cache = CFUZZ_GO_WORK_DIR;
    env.insert(env.end(), {{"GOCACHE", (cache / "cache").string()},
                           {"GOPATH", (cache / "gopath").string()},
                           {"GOFLAGS", "-mod=mod"},
                           {"GOPROXY", "off"},
                           {"GO111MODULE", "on"},
                           {"GOWORK", "off"},
                           {"GOENV", "off"},
                           {"CGO_ENABLED", "0"}});
    args.insert(args.begin(), {kGo, "test", "-count=1"});
    return testing::run_command(args, module_, env, {"GOTOOLCHAIN", "GOROOT"});
  }

  TempDir work_;
  fs::path module_;
};

std::string failure_report(const CommandResult& r) {
  constexpr std::size_t kMax = 6000;
  std::string s = "exit " + std::to_string(r.exit_code) + "\nstdout:\n" + r.out.substr(0, kMax) + "\nstderr:\n" +
                  r.err.substr(0, kMax);
  return s;
}

// "NAME DESCRIPTION" lines.
std::vector<std::pair<std::string, std::string>> read_manifest(const fs::path& path) {
  std::vector<std::pair<std::string, std::string>> lines;
  std::istringstream in(read_file(path));
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t sp = line.find(' ');
    lines.emplace_back(line.substr(0, sp), sp == std::string::npos ? "" : line.substr(sp + 1));
  }
  return lines;
}

TEST_F(GoInterop, CfuzzWrittenEntriesLoadInGoBitForBit) {
  // Entries in the parameter order of FuzzX, which is the order of Type: value i has type i.
  std::vector<Entry> entries;
  std::size_t most = 0;
  for (int t = 0; t < kTypeCount; ++t) most = std::max(most, testing::awkward_values(Type(t)).size());
  for (std::size_t k = 0; k < most; ++k) {
    Entry e;
    for (int t = 0; t < kTypeCount; ++t) {
      const auto vals = testing::awkward_values(static_cast<Type>(t));
      e.push_back(vals[k % vals.size()]);
    }
    entries.push_back(std::move(e));
  }
  std::mt19937_64 rng(1234);
  for (int i = 0; i < 300; ++i) {
    Entry e;
    for (int t = 0; t < kTypeCount; ++t) e.push_back(testing::random_value(rng, static_cast<Type>(t)));
    entries.push_back(std::move(e));
  }

  const fs::path dir = module_ / "testdata" / "fuzz" / "FuzzX";
  fs::create_directories(dir);
  std::string manifest;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string name = "entry" + std::to_string(i);
    write_file(dir / name, encode(entries[i]));
    manifest += name + " " + describe_all(entries[i]) + "\n";
  }
  write_file(work_.path() / "manifest", manifest);

  const CommandResult r = go_test({"-run", "^FuzzX$", "."}, {{"CFUZZ_MANIFEST", (work_.path() / "manifest").string()}});
  EXPECT_EQ(r.exit_code, 0) << failure_report(r);
}

TEST_F(GoInterop, FilesWrittenByGosEncoderDecodeAndReencodeByteForByte) {
  const fs::path out = work_.path() / "from-go";
  fs::create_directories(out);
  const CommandResult r = go_test({"-run", "^TestWriteEntries$", "."}, {{"CFUZZ_GO_OUT", out.string()}});
  ASSERT_EQ(r.exit_code, 0) << failure_report(r);

  const auto manifest = read_manifest(out / "MANIFEST");
  ASSERT_GT(manifest.size(), 3000u);
  int failures = 0;
  for (const auto& [name, want] : manifest) {
    const std::string bytes = read_file(out / name);
    try {
      const Entry e = decode(bytes, name);
      EXPECT_EQ(describe_all(e), want) << name << ":\n" << bytes;
      EXPECT_EQ(encode(e), bytes) << name;
      if (describe_all(e) != want || encode(e) != bytes) ++failures;
    } catch (const std::exception& ex) {
      ADD_FAILURE() << ex.what() << "\n" << bytes;
      ++failures;
    }
    if (failures > 20) FAIL() << "giving up after 20 mismatches";
  }
}

TEST_F(GoInterop, CrasherWrittenByGoTestFuzzDecodesAndReencodes) {
  // Any input but the seed fails, so Go saves (after minimizing) the first mutant.
  const CommandResult fuzz =
      go_test({"-run", "^$", "-fuzz", "^FuzzCrash$", "-fuzztime", "120s", "-parallel", "1", "."});
  ASSERT_NE(fuzz.exit_code, 0) << "expected go test -fuzz to find the planted failure\n" << failure_report(fuzz);
  const fs::path dir = module_ / "testdata" / "fuzz" / "FuzzCrash";
  ASSERT_TRUE(fs::is_directory(dir)) << failure_report(fuzz);
  std::vector<fs::path> crashers;
  for (const auto& e : fs::directory_iterator(dir)) crashers.push_back(e.path());
  ASSERT_FALSE(crashers.empty()) << failure_report(fuzz);

  // Ask Go how it reads each crasher, then compare with cfuzz.
  const fs::path dump = work_.path() / "dump";
  const CommandResult replay = go_test({"-run", "^FuzzCrash$", "."}, {{"CFUZZ_DUMP", dump.string()}});
  ASSERT_EQ(replay.exit_code, 0) << failure_report(replay);
  std::map<std::string, std::string> go_values;
  for (const auto& [name, desc] : read_manifest(dump)) go_values[name] = desc;

  for (const fs::path& crasher : crashers) {
    const std::string bytes = read_file(crasher);
    const std::string name = crasher.filename().string();
    const Entry e = decode(bytes, crasher.string());
    EXPECT_EQ(encode(e), bytes) << name;
    ASSERT_TRUE(go_values.count(name)) << "Go did not replay " << name;
    EXPECT_EQ(describe_all(e), go_values[name]) << bytes;
  }
}

// ---- differential check of the decoders ----

std::vector<std::string> committed_candidates() {
  // decode_candidates.txt: a Go-quoted value line per line, or `file "..."` for a whole
  // file; '#' starts a comment line.
  std::vector<std::string> files;
  std::istringstream in(read_file(CFUZZ_GO_CANDIDATES));
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const bool whole = line.rfind("file ", 0) == 0;
    const auto text = go_unquote(whole ? line.substr(5) : line);
    if (!text) {
      ADD_FAILURE() << "decode_candidates.txt:" << number << ": not a Go string literal";
      continue;
    }
    files.push_back(whole ? *text : std::string(kHeader) + "\n" + *text + "\n");
  }
  return files;
}

// Every conversion the format names (and some it does not) applied to literals at the edges
// of their types and of Go's lexer.
std::vector<std::string> conversions() {
  std::vector<std::string> lines;
  const std::vector<std::string> funs = {"[]byte",
                                         "string",
                                         "bool",
                                         "byte",
                                         "rune",
                                         "int",
                                         "int8",
                                         "int16",
                                         "int32",
                                         "int64",
                                         "uint",
                                         "uint8",
                                         "uint16",
                                         "uint32",
                                         "uint64",
                                         "float32",
                                         "float64",
                                         "math.Float32frombits",
                                         "math.Float64frombits",
                                         "uintptr",
                                         "[]uint8",
                                         "[...]byte"};
  const std::vector<std::string> args = {"0",
                                         "-0",
                                         "1",
                                         "-1",
                                         "+1",
                                         "127",
                                         "128",
                                         "-128",
                                         "-129",
                                         "255",
                                         "256",
                                         "32767",
                                         "32768",
                                         "65535",
                                         "65536",
                                         "2147483647",
                                         "2147483648",
                                         "-2147483648",
                                         "-2147483649",
                                         "4294967295",
                                         "4294967296",
                                         "9223372036854775807",
                                         "9223372036854775808",
                                         "-9223372036854775808",
                                         "-9223372036854775809",
                                         "18446744073709551615",
                                         "18446744073709551616",
                                         "0x7fc00001",
                                         "0x7ff8000000000002",
                                         "0xFF",
                                         "0o377",
                                         "0377",
                                         "0b11111111",
                                         "1_0",
                                         "1.5",
                                         "-1.5",
                                         "1e3",
                                         "0x1p3",
                                         "1e39",
                                         "1e309",
                                         "1e-50",
                                         "3.4028235e38",
                                         "3.4028236e38",
                                         "1i",
                                         "NaN",
                                         "Inf",
                                         "-Inf",
                                         "+Inf",
                                         "^Inf",
                                         "-NaN",
                                         "true",
                                         "false",
                                         "x",
                                         "'a'",
                                         "'\\xff'",
                                         "'\\u0100'",
                                         "'☃'",
                                         "-'a'",
                                         "\"s\"",
                                         "`s`",
                                         "-\"s\"",
                                         "'\\''",
                                         "\"\\x80\"",
                                         "1 ...",
                                         "1,",
                                         "(1)",
                                         "1+1"};
  for (const auto& f : funs) {
    for (const auto& a : args) lines.push_back(f + "(" + a + ")");
  }
  return lines;
}

// Mutants of valid lines: insertions, deletions and replacements drawn from the characters
// and fragments that matter to Go's lexer and to the checker.
std::vector<std::string> mutants_of_valid_lines(std::mt19937_64& rng) {
  std::vector<std::string> lines;
  const std::vector<std::string> valid = {"int(5)",
                                          "[]byte(\"ab\\x00\")",
                                          "string(\"h\\u00e9\")",
                                          "byte('a')",
                                          "rune('\\U0010ffff')",
                                          "float64(1.5e-3)",
                                          "float32(-Inf)",
                                          "math.Float64frombits(0x7ff8000000000002)",
                                          "bool(true)",
                                          "uint64(0xffffffffffffffff)",
                                          "int8(-0b1)",
                                          "float64(0x1.8p1)",
                                          "rune(-1)",
                                          "string(`raw`)",
                                          "float64(NaN)"};
  const std::vector<std::string> pieces = {"(",      ")",
                                           "[",      "]",
                                           "{",      "}",
                                           ".",      ",",
                                           "-",      "+",
                                           "!",      "^",
                                           "&",      "~",
                                           "<",      ">",
                                           "*",      "/",
                                           "\"",     "'",
                                           "`",      "\\",
                                           "_",      "x",
                                           "X",      "o",
                                           "b",      "p",
                                           "P",      "e",
                                           "E",      "i",
                                           "0",      "1",
                                           "7",      "8",
                                           "9",      "a",
                                           "f",      "n",
                                           "N",      "t",
                                           "u",      "U",
                                           " ",      ";",
                                           ":",      "=",
                                           "|",      "%",
                                           "\t",     "\r",
                                           "\v",     std::string(1, '\0'),
                                           "\xff",   "é",
                                           "☃",      "\xEF\xBB\xBF",
                                           "\u00a0", "\u2028",
                                           "\x7f",   "...",
                                           "//",     "/*",
                                           "*/",     "0x",
                                           "1e",     "'a'",
                                           "\"a\"",  "`b`",
                                           "Inf",    "NaN",
                                           "byte",   "[]byte",
                                           "math.",  "Float64frombits",
                                           "\\x",    "\\u",
                                           "\\U00",  "\\4"};
  auto below = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  for (int i = 0; i < 20000; ++i) {
    std::string s = valid[below(valid.size())];
    const std::size_t edits = 1 + below(3);
    for (std::size_t k = 0; k < edits; ++k) {
      const std::size_t at = below(s.size() + 1);
      const std::string& piece = pieces[below(pieces.size())];
      switch (below(3)) {
        case 0: s.insert(at, piece); break;
        case 1:
          if (at < s.size()) s.erase(at, 1);
          break;
        default: s.replace(at, at < s.size() ? 1 : 0, piece);
      }
    }
    lines.push_back(s);
  }
  return lines;
}

std::vector<std::string> generated_candidates() {
  std::mt19937_64 rng(42);
  auto below = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  std::vector<std::string> lines = conversions();
  for (auto& s : mutants_of_valid_lines(rng)) lines.push_back(std::move(s));
  std::vector<std::string> files;
  for (const auto& l : lines) files.push_back(std::string(kHeader) + "\n" + l + "\n");
  // Canonical files of random entries, and the same with their bytes perturbed.
  for (int i = 0; i < 2000; ++i) {
    std::string f = encode(testing::random_entry(rng, 4));
    files.push_back(f);
    f[below(f.size())] = static_cast<char>(below(256));
    files.push_back(f);
  }
  return files;
}

// What cfuzz makes of a candidate, in the notation of TestDecodeVerdicts.
std::string cfuzz_verdict(const std::string& file, std::string* error) {
  try {
    const Entry e = decode(file, "candidate");
    return e.empty() ? "empty" : "ok " + to_hex(encode(e));
  } catch (const CorpusError& ex) {
    *error = ex.what();
    return "error";
  }
}

TEST_F(GoInterop, DecoderAcceptsExactlyWhatGoAcceptsAndReadsTheSameValues) {
  std::vector<std::string> candidates = committed_candidates();
  const std::vector<std::string> generated = generated_candidates();
  candidates.insert(candidates.end(), generated.begin(), generated.end());

  std::string hex_lines;
  for (const auto& c : candidates) hex_lines += to_hex(c) + "\n";
  write_file(work_.path() / "candidates", hex_lines);
  const fs::path verdicts_path = work_.path() / "verdicts";
  const CommandResult r = go_test(
      {"-run", "^TestDecodeVerdicts$", "."},
      {{"CFUZZ_CANDIDATES", (work_.path() / "candidates").string()}, {"CFUZZ_VERDICTS", verdicts_path.string()}});
  ASSERT_EQ(r.exit_code, 0) << failure_report(r);

  std::istringstream verdicts(read_file(verdicts_path));
  std::string go;
  std::size_t i = 0, accepted = 0, mismatches = 0;
  for (; i < candidates.size() && std::getline(verdicts, go); ++i) {
    std::string error;
    const std::string ours = cfuzz_verdict(candidates[i], &error);
    if (go.rfind("ok ", 0) == 0) ++accepted;
    if (ours == go) continue;
    auto show = [](const std::string& v) {
      return v.rfind("ok ", 0) == 0 ? "ok: " + go_quote(testing::from_hex(v.substr(3))) : v;
    };
    ADD_FAILURE() << "candidate " << i << ": " << go_quote(candidates[i]) << "\n  Go:    " << show(go)
                  << "\n  cfuzz: " << show(ours) << " " << error;
    if (++mismatches >= 20) break;
  }
  EXPECT_EQ(i, candidates.size()) << "Go gave fewer verdicts than there are candidates";
  // The candidates must exercise both sides of the line, or the check proves little.
  EXPECT_GT(accepted, 2000u);
  EXPECT_GT(candidates.size() - accepted, 10000u);
}

}  // namespace
}  // namespace cfuzz::corpus
