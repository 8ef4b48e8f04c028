// -help=1: the table of flags (libfuzzer_flags.cc) printed in libFuzzer's shape, a line a
// flag, " name<padding><TAB>default<TAB>help", so that what a user or a script knows of
// libFuzzer's list reads the same here. Unlike libFuzzer, which hides its internal flags and
// lists every other one as if it worked, cfuzz lists them all, each under a heading that
// says what cfuzz does with it.
#include <algorithm>
#include <cstdio>
#include <string>

#include "runtime/libfuzzer/libfuzzer_flags.h"
#include "runtime/libfuzzer/libfuzzer_options.h"

namespace fuzzer::cfuzz {

namespace {

std::string default_text(const LibFuzzerFlag& flag) {
  switch (flag.kind) {
    case FlagKind::kString: return std::string(flag.text_default);
    case FlagKind::kList: return "";
    case FlagKind::kUint: return std::to_string(static_cast<std::uint64_t>(flag.number_default));
    default: return std::to_string(flag.number_default);
  }
}

void append_rows(std::string& out, FlagEffect effect, std::size_t name_width) {
  for (const auto& flag : libfuzzer_flags()) {
    if (flag.effect != effect) continue;
    out += " " + std::string(flag.name) + std::string(name_width - flag.name.size(), ' ');
    out += "\t" + default_text(flag) + "\t" + std::string(flag.help) + "\n";
  }
}

}  // namespace

std::string libfuzzer_help(std::string_view program) {
  std::string prog(program);
  std::size_t name_width = 0;
  for (const auto& flag : libfuzzer_flags()) name_width = std::max(name_width, flag.name.size());
  std::string out = "Usage:\n\nTo run fuzzing pass 0 or more directories.\n" + prog +
                    " [-flag1=val1 [-flag2=val2 ...] ] [dir1 [dir2 ...] ]\n\n"
                    "To run individual tests without fuzzing pass 1 or more files:\n" +
                    prog + " [-flag1=val1 [-flag2=val2 ...] ] file1 [file2 ...]\n\n" +
                    "This is cfuzz's libFuzzer-compatible front end: the same engine as `cfuzz run`.\n\n" +
                    "Flags: (strictly in form -flag=value)\n";
  append_rows(out, FlagEffect::kImplemented, name_width);
  out += "\nInternal flags (cfuzz passes them to its own child processes):\n";
  append_rows(out, FlagEffect::kInternal, name_width);
  out +=
      "\nAccepted and ignored: libFuzzer's flags that have no effect here, since cfuzz's engine decides "
      "these itself (each is named on an INFO line at start):\n";
  append_rows(out, FlagEffect::kIgnored, name_width);
  out +=
      "\nNot supported yet: libFuzzer's flags that cfuzz refuses (exit 2), since a run without them would "
      "look like success:\n";
  append_rows(out, FlagEffect::kRefused, name_width);
  out +=
      "\nFlags starting with '--' are the target's own (--run NAME picks the fuzz test of a binary that has "
      "several) and are passed on to child processes.\n";
  return out;
}

void print_libfuzzer_help(const char* program) { std::fputs(libfuzzer_help(program).c_str(), stdout); }

}  // namespace fuzzer::cfuzz
