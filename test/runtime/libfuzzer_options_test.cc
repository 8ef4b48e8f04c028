// The libFuzzer command line (runtime/libfuzzer/libfuzzer_options.h) read through its table of flags
// (runtime/libfuzzer/libfuzzer_flags.h): each flag parses its kind into its member, bad values are
// errors naming the argument, unknown flags are warned about as libFuzzer does, and -help=1
// lists the whole table.
#include "runtime/libfuzzer/libfuzzer_options.h"

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "core/length_control.h"
#include "runtime/libfuzzer/libfuzzer_flags.h"

namespace rt = cfuzz::runtime;
using rt::FlagEffect;
using rt::FlagKind;
using rt::LibFuzzerFlag;
using rt::LibFuzzerOptions;

namespace {

LibFuzzerOptions parse(std::vector<std::string> args) {
  args.insert(args.begin(), "./target");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return rt::parse_libfuzzer_options(static_cast<int>(argv.size()), argv.data());
}

// The error parse throws, or "" when it throws none.
std::string parse_error(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const std::string& e) {
    return e;
  }
  return "";
}

bool sets_a_member(const LibFuzzerFlag& f) { return !std::holds_alternative<std::monostate>(f.member); }

// The flag's member in `o`, as text, whatever its type.
std::string member_value(const LibFuzzerFlag& f, const LibFuzzerOptions& o) {
  if (auto m = std::get_if<std::int64_t LibFuzzerOptions::*>(&f.member)) return std::to_string(o.**m);
  if (auto m = std::get_if<int LibFuzzerOptions::*>(&f.member)) return std::to_string(o.**m);
  if (auto m = std::get_if<std::uint64_t LibFuzzerOptions::*>(&f.member)) return std::to_string(o.**m);
  if (auto m = std::get_if<bool LibFuzzerOptions::*>(&f.member)) return o.**m ? "true" : "false";
  if (auto m = std::get_if<std::string LibFuzzerOptions::*>(&f.member)) return o.**m;
  if (auto m = std::get_if<std::vector<std::string> LibFuzzerOptions::*>(&f.member)) {
    std::string all;
    for (const auto& v : o.**m) all += v + ";";
    return all;
  }
  return "(none)";
}

bool numeric(FlagKind k) { return k == FlagKind::kInt || k == FlagKind::kUint || k == FlagKind::kBool; }

}  // namespace

TEST(LibFuzzerFlags, EachNameIsOnceAndOnlyImplementedFlagsSetAMember) {
  std::set<std::string_view> names;
  for (const auto& f : rt::libfuzzer_flags()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name << " twice";
    bool implemented = f.effect == FlagEffect::kImplemented || f.effect == FlagEffect::kInternal;
    EXPECT_EQ(sets_a_member(f), implemented) << f.name;
    EXPECT_FALSE(f.help.empty()) << f.name;
    EXPECT_EQ(f.help.find('\n'), std::string_view::npos) << f.name << ": help is one line";
    EXPECT_EQ(rt::find_libfuzzer_flag(f.name), &f);
  }
  EXPECT_EQ(rt::find_libfuzzer_flag("no_such_flag"), nullptr);
}

TEST(LibFuzzerFlags, NoArgumentsGiveLibFuzzersDefaults) {
  LibFuzzerOptions o = parse({});
  for (const auto& f : rt::libfuzzer_flags()) {
    if (!sets_a_member(f)) continue;
    std::string expected = f.kind == FlagKind::kString ? std::string(f.text_default)
                           : f.kind == FlagKind::kBool ? (f.number_default != 0 ? "true" : "false")
                           : f.kind == FlagKind::kList ? ""
                                                       : std::to_string(f.number_default);
    EXPECT_EQ(member_value(f, o), expected) << f.name;
  }
  EXPECT_EQ(o.runs, -1);
  EXPECT_EQ(o.timeout, 1200);
  EXPECT_EQ(o.rss_limit_mb, 2048);
  EXPECT_EQ(o.len_control, cfuzz::core::kDefaultLenControl);
  EXPECT_EQ(o.artifact_prefix, "./");
  EXPECT_EQ(o.error_exitcode, 77);
  EXPECT_EQ(o.timeout_exitcode, 70);
  EXPECT_EQ(o.verbosity, 1);
  EXPECT_EQ(o.reload, 1);
  EXPECT_TRUE(o.detect_leaks);
  EXPECT_TRUE(o.ignore_timeouts);
  EXPECT_TRUE(o.ignore_ooms);
  EXPECT_FALSE(o.ignore_crashes);
  EXPECT_TRUE(o.dicts.empty() && o.inputs.empty() && o.ignored.empty());
}

TEST(LibFuzzerFlags, EveryFlagThatSetsAMemberParsesItsKind) {
  for (const auto& f : rt::libfuzzer_flags()) {
    if (!sets_a_member(f)) continue;
    std::string flag = "-" + std::string(f.name) + "=";
    switch (f.kind) {
      case FlagKind::kInt:
        EXPECT_EQ(member_value(f, parse({flag + "-7"})), "-7") << f.name;
        EXPECT_EQ(member_value(f, parse({flag + "12345"})), "12345") << f.name;
        break;
      case FlagKind::kUint:
        EXPECT_EQ(member_value(f, parse({flag + "18446744073709551615"})), "18446744073709551615") << f.name;
        EXPECT_EQ(member_value(f, parse({flag + "-1"})), "18446744073709551615") << f.name << ": wraps as stoul";
        break;
      case FlagKind::kBool:
        EXPECT_EQ(member_value(f, parse({flag + "1"})), "true") << f.name;
        EXPECT_EQ(member_value(f, parse({flag + "2"})), "true") << f.name;
        EXPECT_EQ(member_value(f, parse({flag + "0"})), "false") << f.name;
        break;
      case FlagKind::kString:
        EXPECT_EQ(member_value(f, parse({flag + "some/where=x"})), "some/where=x") << f.name;
        EXPECT_EQ(member_value(f, parse({flag})), "") << f.name;
        break;
      case FlagKind::kList: EXPECT_EQ(member_value(f, parse({flag + "a", flag + "b"})), "a;b;") << f.name; break;
    }
  }
}

// Each member the parser has ever set, by name: removing a member or its row fails here.
TEST(LibFuzzerFlags, EveryOptionTheParserSetsIsSetByItsFlag) {
  LibFuzzerOptions o = parse({"-runs=5",
                              "-max_total_time=6",
                              "-timeout=7",
                              "-rss_limit_mb=8",
                              "-malloc_limit_mb=9",
                              "-max_len=10",
                              "-len_control=11",
                              "-seed=12",
                              "-dict=a.dict",
                              "-dict=b.dict",
                              "-artifact_prefix=out/",
                              "-exact_artifact_path=crash",
                              "-print_final_stats=1",
                              "-only_ascii=1",
                              "-use_value_profile=1",
                              "-close_fd_mask=3",
                              "-detect_leaks=0",
                              "-error_exitcode=13",
                              "-timeout_exitcode=14",
                              "-verbosity=2",
                              "-help=1",
                              "-merge=1",
                              "-merge_inner=2",
                              "-merge_control_file=mcf",
                              "-minimize_crash=1",
                              "-minimize_crash_internal_step=1",
                              "-cleanse_crash=1",
                              "-reload=0",
                              "-jobs=15",
                              "-workers=16",
                              "-fork=17",
                              "-ignore_crashes=1",
                              "-ignore_timeouts=0",
                              "-ignore_ooms=0",
                              "corpus",
                              "seeds"});
  EXPECT_EQ(o.runs, 5);
  EXPECT_EQ(o.max_total_time, 6);
  EXPECT_EQ(o.timeout, 7);
  EXPECT_EQ(o.rss_limit_mb, 8);
  EXPECT_EQ(o.malloc_limit_mb, 9);
  EXPECT_EQ(o.max_len, 10);
  EXPECT_EQ(o.len_control, 11);
  EXPECT_EQ(o.seed, 12u);
  EXPECT_EQ(o.dicts, (std::vector<std::string>{"a.dict", "b.dict"}));
  EXPECT_EQ(o.artifact_prefix, "out/");
  EXPECT_EQ(o.exact_artifact_path, "crash");
  EXPECT_TRUE(o.print_final_stats);
  EXPECT_TRUE(o.only_ascii);
  EXPECT_TRUE(o.use_value_profile);
  EXPECT_EQ(o.close_fd_mask, 3);
  EXPECT_FALSE(o.detect_leaks);
  EXPECT_EQ(o.error_exitcode, 13);
  EXPECT_EQ(o.timeout_exitcode, 14);
  EXPECT_EQ(o.verbosity, 2);
  EXPECT_TRUE(o.help);
  EXPECT_TRUE(o.merge);
  EXPECT_EQ(o.merge_inner, 2);
  EXPECT_EQ(o.merge_control_file, "mcf");
  EXPECT_TRUE(o.minimize_crash);
  EXPECT_TRUE(o.minimize_crash_internal_step);
  EXPECT_TRUE(o.cleanse_crash);
  EXPECT_EQ(o.reload, 0);
  EXPECT_EQ(o.jobs, 15);
  EXPECT_EQ(o.workers, 16);
  EXPECT_EQ(o.fork, 17);
  EXPECT_TRUE(o.ignore_crashes);
  EXPECT_FALSE(o.ignore_timeouts);
  EXPECT_FALSE(o.ignore_ooms);
  EXPECT_EQ(o.inputs, (std::vector<std::string>{"corpus", "seeds"}));
  EXPECT_TRUE(o.ignored.empty());
}

TEST(LibFuzzerFlags, AMalformedNumberIsAnErrorNamingTheArgumentAndWhatWasExpected) {
  for (const auto& f : rt::libfuzzer_flags()) {
    if (!sets_a_member(f) || !numeric(f.kind)) continue;
    std::string flag = "-" + std::string(f.name);
    for (std::string bad : {flag + "=many", flag + "=", flag, flag + "=12x", flag + "= 1x"}) {
      EXPECT_EQ(parse_error({bad}), bad + ": expected an integer") << f.name;
    }
  }
  EXPECT_EQ(parse_error({"-verbosity=2147483648"}),
            "-verbosity=2147483648: expected an integer from -2147483648 "
            "to 2147483647");
  EXPECT_EQ(parse_error({"-runs=9223372036854775808"}),
            "-runs=9223372036854775808: expected an integer from -9223372036854775808 to 9223372036854775807");
  EXPECT_EQ(parse_error({"-seed=18446744073709551616"}), "-seed=18446744073709551616: expected an integer below 2^64");
}

TEST(LibFuzzerFlags, AnUnknownFlagIsWarnedAboutAndTheRestStillParse) {
  testing::internal::CaptureStderr();
  LibFuzzerOptions o = parse({"-no_such_flag=1", "-runs=3", "-also_unknown"});
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(o.runs, 3);
  EXPECT_EQ(err,
            "WARNING: unrecognized flag '-no_such_flag=1'; use -help=1 to list all flags\n"
            "WARNING: unrecognized flag '-also_unknown'; use -help=1 to list all flags\n");
  EXPECT_TRUE(o.inputs.empty());
  EXPECT_TRUE(o.ignored.empty());
}

TEST(LibFuzzerFlags, AnIgnoredFlagTakesAnyValueAndIsListedForTheInfoLine) {
  std::vector<std::string> args;
  for (const auto& f : rt::libfuzzer_flags()) {
    if (f.effect == FlagEffect::kIgnored) args.push_back("-" + std::string(f.name) + "=whatever");
  }
  ASSERT_FALSE(args.empty());
  LibFuzzerOptions o = parse(args);
  EXPECT_EQ(o.ignored, args);
  EXPECT_EQ(o.runs, -1);
}

TEST(LibFuzzerFlags, ARefusedFlagIsAnErrorNamingIt) {
  int refused = 0;
  for (const auto& f : rt::libfuzzer_flags()) {
    if (f.effect != FlagEffect::kRefused) continue;
    ++refused;
    std::string arg = "-" + std::string(f.name) + "=1";
    EXPECT_EQ(parse_error({arg}), arg + ": not supported by cfuzz's libFuzzer front end yet (docs/oss-fuzz.md)");
  }
  EXPECT_GT(refused, 0);
}

TEST(LibFuzzerFlags, InputsAndTheTargetsOwnArgumentsAreKeptApart) {
  LibFuzzerOptions o = parse({"--run", "FuzzX", "corpus", "--run=FuzzY", "-runs=2", "-", "crash-1"});
  EXPECT_EQ(o.inputs, (std::vector<std::string>{"corpus", "-", "crash-1"}));
  EXPECT_EQ(o.runs, 2);
}

TEST(LibFuzzerFlags, HelpListsEveryFlagOfTheTableUnderWhatCfuzzDoesWithIt) {
  std::string help = rt::libfuzzer_help("./target");
  EXPECT_EQ(help.find("Usage:\n"), 0u);
  EXPECT_NE(help.find("./target [-flag1=val1 [-flag2=val2 ...] ] [dir1 [dir2 ...] ]\n"), std::string::npos);
  auto implemented = help.find("\nFlags: (strictly in form -flag=value)\n");
  auto internal = help.find("\nInternal flags");
  auto ignored = help.find("\nAccepted and ignored");
  auto refused = help.find("\nNot supported yet");
  ASSERT_NE(implemented, std::string::npos);
  ASSERT_NE(internal, std::string::npos);
  ASSERT_NE(ignored, std::string::npos);
  ASSERT_NE(refused, std::string::npos);
  EXPECT_LT(implemented, internal);
  EXPECT_LT(internal, ignored);
  EXPECT_LT(ignored, refused);
  std::size_t width = 0;
  for (const auto& f : rt::libfuzzer_flags()) width = std::max(width, f.name.size());
  for (const auto& f : rt::libfuzzer_flags()) {
    // libFuzzer's shape: " name", padded to the longest name, TAB, default, TAB, help.
    std::string row = "\n " + std::string(f.name) + std::string(width - f.name.size(), ' ') + "\t";
    auto at = help.find(row);
    ASSERT_NE(at, std::string::npos) << f.name << " is not listed";
    auto line_end = help.find('\n', at + 1);
    EXPECT_NE(help.substr(at, line_end - at).find("\t" + std::string(f.help)), std::string::npos) << f.name;
    std::size_t heading = f.effect == FlagEffect::kImplemented ? implemented
                          : f.effect == FlagEffect::kInternal  ? internal
                          : f.effect == FlagEffect::kIgnored   ? ignored
                                                               : refused;
    EXPECT_GT(at, heading) << f.name << " is under the wrong heading";
    for (std::size_t next : {implemented, internal, ignored, refused}) {
      if (next > heading) EXPECT_LT(at, next) << f.name << " is under the wrong heading";
    }
  }
  EXPECT_NE(help.find("\n runs" + std::string(width - 4, ' ') + "\t-1\t"), std::string::npos);
  EXPECT_NE(help.find("\n use_cmp" + std::string(width - 7, ' ') + "\t1\t"), std::string::npos);
}
