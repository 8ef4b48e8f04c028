#include "runtime/libfuzzer/libfuzzer_crash_tools.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/input_area.h"
#include "core/minimizer.h"
#include "runtime/libfuzzer/child_process.h"
#include "runtime/libfuzzer/libfuzzer_units.h"

namespace fuzzer::cfuzz {

namespace {

namespace fs = std::filesystem;

void say(const std::string& line) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", line.c_str());
}

std::string join(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

// The rest of the line after "DEDUP_TOKEN:" (sanitizers print it with dedup_token_length).
std::string dedup_token(const std::string& output) {
  auto at = output.find("DEDUP_TOKEN:");
  if (at == std::string::npos) return "";
  auto end = output.find('\n', at);
  return output.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::string temp_path(const std::string& what) {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/libFuzzerTemp." + what + std::to_string(getpid()) + ".repro";
}

}  // namespace

int minimize_crash(const LibFuzzerOptions& o, int argc, char** argv) {
  if (o.inputs.size() != 1 || fs::is_directory(o.inputs[0])) {
    say("ERROR: -minimize_crash should be given one input file");
    return 1;
  }
  std::vector<std::string> base = own_command(argc, argv, {"-minimize_crash", "-exact_artifact_path"}, {});
  std::erase(base, o.inputs[0]);
  if (o.runs <= 0 && o.max_total_time == 0) {
    say("INFO: you need to specify -runs=N or -max_total_time=N with -minimize_crash=1");
    say("INFO: defaulting to -max_total_time=600");
    base.emplace_back("-max_total_time=600");
  }
  std::string current = o.inputs[0];
  for (;;) {
    std::string bytes = read_unit(current);
    say("CRASH_MIN: minimizing crash input: '" + current + "' (" + std::to_string(bytes.size()) + " bytes)");
    std::vector<std::string> cmd = base;
    cmd.push_back(current);
    say("CRASH_MIN: executing: " + join(cmd));
    ChildResult first = run_child(cmd, ChildOutput::Capture);
    if (first.exit_code == 0) {
      say("ERROR: the input " + current + " did not crash");
      return 1;
    }
    say("CRASH_MIN: '" + current + "' (" + std::to_string(bytes.size()) +
        " bytes) caused a crash. Will try to minimize it further");
    std::string token = dedup_token(first.output);
    if (!token.empty()) say("CRASH_MIN: DedupToken1: " + token);

    std::string artifact = !o.exact_artifact_path.empty() ? o.exact_artifact_path
                                                          : o.artifact_prefix + "minimized-from-" + unit_name(bytes);
    cmd = base;
    cmd.insert(cmd.end(), {"-minimize_crash_internal_step=1", "-exact_artifact_path=" + artifact, current});
    say("CRASH_MIN: executing: " + join(cmd));
    ChildResult step = run_child(cmd, ChildOutput::Capture);
    std::fputs(step.output.c_str(), stderr);
    bool keep_current = false;
    if (step.exit_code == 0) {
      say("CRASH_MIN: failed to minimize beyond " + current + " (" + std::to_string(bytes.size()) + " bytes), exiting");
      keep_current = true;
    } else if (std::string token2 = dedup_token(step.output); !token2.empty()) {
      say("CRASH_MIN: DedupToken2: " + token2);
      if (!token.empty() && token2 != token) {
        say("CRASH_MIN: mismatch in dedup tokens (looks like a different bug). Won't minimize further");
        keep_current = true;
      }
    }
    if (keep_current) {
      if (!o.exact_artifact_path.empty() && current != o.exact_artifact_path) write_unit(o.exact_artifact_path, bytes);
      return 0;
    }
    current = artifact;
    say("*********************************");
  }
}

int minimize_crash_step(const corpus::Entry& input, const std::function<void(const corpus::Entry&)>& run,
                        const std::function<bool()>& out_of_time) {
  std::uint64_t size = core::entry_size(input);
  say("INFO: Starting MinimizeCrashInputInternalStep: " + std::to_string(size));
  if (size < 2) {
    say("INFO: The input is small enough, exiting");
    return 0;
  }
  core::Minimizer m(input);
  corpus::Entry candidate;
  while (!out_of_time() && m.next(&candidate)) {
    // Only shorter inputs: the first one that fails ends this process as the artifact.
    if (core::entry_size(candidate) < size) run(candidate);
    m.report(false);
  }
  say("INFO: Done MinimizeCrashInputInternalStep, no crashes found");
  return 0;
}

int cleanse_crash(const LibFuzzerOptions& o, int argc, char** argv) {
  if (o.inputs.size() != 1 || o.exact_artifact_path.empty()) {
    say("ERROR: -cleanse_crash should be given one input file and -exact_artifact_path");
    return 1;
  }
  std::string bytes = read_unit(o.inputs[0]);
  std::string tmp = temp_path("CleanseCrashInput");
  std::vector<std::string> cmd = own_command(argc, argv, {"-cleanse_crash"}, {});
  std::erase(cmd, o.inputs[0]);
  cmd.push_back(tmp);
  auto crashes = [&] {
    write_unit(tmp, bytes);
    int code = run_child(cmd, ChildOutput::Discard).exit_code;
    std::error_code ec;
    fs::remove(tmp, ec);
    return code != 0;
  };
  for (int pass = 0; pass < 5; ++pass) {
    bool changed = false;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      say("CLEANSE[" + std::to_string(pass) + "]: Trying to replace byte " + std::to_string(i) + " of " +
          std::to_string(bytes.size()));
      char original = bytes[i];
      if (original == ' ' || static_cast<unsigned char>(original) == 0xff) continue;
      for (char replacement : {' ', static_cast<char>(0xff)}) {
        bytes[i] = replacement;
        if (crashes()) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "0x%x", static_cast<unsigned char>(replacement));
          say("CLEANSE: Replaced byte " + std::to_string(i) + " with " + hex);
          write_unit(o.exact_artifact_path, bytes);
          changed = true;
          break;
        }
        bytes[i] = original;
      }
    }
    if (!changed) break;
  }
  return 0;
}

}  // namespace fuzzer::cfuzz
