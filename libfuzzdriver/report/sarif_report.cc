#include "libfuzzdriver/report/sarif_report.h"

#include <cstdio>
#include <map>
#include <set>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "core/failure_record.h"
#include "libfuzzdriver/report/crash_stack.h"

namespace cfuzz::driver {

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr const char* kSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char* kFingerprintKey = "cfuzzStack/v1";
constexpr std::size_t kFingerprintFrames = 3;

core::FailureKind kind_of(const FailureReport& r) { return static_cast<core::FailureKind>(r.failure.kind); }

// Lower case, words joined by '-': "heap-buffer-overflow", "data-race".
std::string slug(std::string_view text) {
  std::string out;
  for (char c : text) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum) {
      out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string first_line(std::string text) {
  if (auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
  return text;
}

// The report's "SUMMARY: AddressSanitizer: heap-buffer-overflow /src/p.cc:12:5 in parse", if any.
std::string sanitizer_summary(const std::string& output) {
  auto at = output.find("SUMMARY: ");
  if (at == std::string::npos) return {};
  return first_line(output.substr(at));
}

// A URI reference for `path` (RFC 3986): everything but unreserved characters and '/' escaped.
std::string uri_escape(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                c == '_' || c == '~' || c == '/';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// An artifactLocation: relative to SRCROOT when the file is below the root, otherwise an
// absolute file URI. A relative path that is not below the root (a bare "p.cc" from a
// returned failure's site) stays as it is, without a base.
Json artifact_location(const std::string& file, const fs::path& root) {
  fs::path path(file);
  if (path.is_relative() && !root.empty() && fs::exists(root / path)) path = root / path;
  if (path.is_absolute()) {
    path = path.lexically_normal();
    fs::path rel = path.lexically_relative(root);
    if (!root.empty() && !rel.empty() && *rel.begin() != "..") {
      return {{"uri", uri_escape(rel.generic_string())}, {"uriBaseId", "SRCROOT"}};
    }
    return {{"uri", "file://" + uri_escape(path.generic_string())}};
  }
  return {{"uri", uri_escape(path.generic_string())}};
}

Json frame_location(const StackFrame& f, const fs::path& root) {
  Json physical = {{"artifactLocation", artifact_location(f.file, root)}};
  Json region = {{"startLine", f.line}};
  if (f.column > 0) region["startColumn"] = f.column;
  physical["region"] = region;
  Json location = {{"physicalLocation", physical}};
  if (!f.function.empty()) location["message"] = {{"text", f.function}};
  return location;
}

std::string describe_frame(const StackFrame& f) {
  std::string text = f.function.empty() ? "??" : f.function;
  if (!f.file.empty()) {
    text += " " + f.file + ":" + std::to_string(f.line);
    if (f.column > 0) text += ":" + std::to_string(f.column);
  } else if (!f.module.empty()) {
    text += " (" + f.module + ")";
  }
  return text;
}

const StackFrame* innermost_user_frame(const std::vector<StackFrame>& frames) {
  for (const auto& f : frames) {
    if (f.user) return &f;
  }
  return nullptr;
}

std::string rule_description(const std::string& rule, const FailureReport& r) {
  switch (kind_of(r)) {
    case core::FailureKind::Sanitizer: return "Sanitizer report: " + rule;
    case core::FailureKind::Signal: return "Deadly signal: " + rule;
    case core::FailureKind::Returned: return "The fuzz test failed (t.error, t.fatal)";
    case core::FailureKind::Exception: return "An uncaught C++ exception";
    case core::FailureKind::Exit: return "The target called exit()";
    case core::FailureKind::Timeout: return "An input ran past the per-input timeout";
    case core::FailureKind::OutOfMemory: return "The target used more memory than the limit";
    case core::FailureKind::RpcCorrupted: return "The target damaged cfuzz's RPC descriptors or shared memory";
    case core::FailureKind::StackLimit: return "The fuzz function used more stack than the limit";
    case core::FailureKind::None: break;
  }
  return rule;
}

// The result's text: the failure's one line, the sanitizer's summary, and how to run it again.
std::string result_message(const FailureReport& r, const std::string& test) {
  std::string text = first_line(r.failure.kind == static_cast<std::uint32_t>(core::FailureKind::Returned) &&
                                        r.failure.message[0] != '\0'
                                    ? std::string(r.failure.message)
                                    : core::failure_summary(r.failure));
  text = test + ": " + text;
  if (r.seed) text += " (seed corpus entry " + r.seed_name + ")";
  if (std::string summary = sanitizer_summary(r.output); !summary.empty()) text += "\n" + summary;
  if (!r.written_to.empty()) text += "\nFailing input: " + r.written_to;
  if (!r.rerun.empty()) text += "\nTo re-run: " + r.rerun;
  return text;
}

Json result_json(const FailureReport& r, const SarifTest& test, const fs::path& root, const std::string& rule,
                 std::size_t rule_index) {
  std::vector<StackFrame> frames = failure_stack(r);
  Json result = {{"ruleId", rule},
                 {"ruleIndex", rule_index},
                 {"level", "error"},
                 {"kind", "fail"},
                 {"message", {{"text", result_message(r, test.test)}}}};

  Json locations = Json::array();
  if (const StackFrame* top = innermost_user_frame(frames)) {
    locations.push_back(frame_location(*top, root));
  } else if (!r.written_to.empty()) {
    // Nothing of the user's code on the stack (a timeout, an exit, memory): the failing
    // input is where the finding is, as code scanning needs one location.
    locations.push_back({{"physicalLocation", {{"artifactLocation", artifact_location(r.written_to, root)}}}});
  }
  if (!locations.empty()) result["locations"] = locations;

  if (!frames.empty()) {
    // The stack as it was, innermost first, every frame.
    Json stack_frames = Json::array();
    for (const auto& f : frames) {
      Json frame = Json::object();
      frame["location"] = f.file.empty() ? Json{{"message", {{"text", describe_frame(f)}}}} : frame_location(f, root);
      if (!f.module.empty()) frame["module"] = f.module.substr(0, f.module.find("+0x"));
      stack_frames.push_back(frame);
    }
    result["stacks"] = Json::array({{{"message", {{"text", "Stack of the failure"}}}, {"frames", stack_frames}}});
    // The path through the user's code, from the outermost call to the failure, as viewers
    // step through a code flow (cfuzz's and the libraries' frames are in the stack above).
    Json flow = Json::array();
    for (auto f = frames.rbegin(); f != frames.rend(); ++f) {
      if (!f->user) continue;
      flow.push_back({{"location", frame_location(*f, root)}, {"executionOrder", flow.size()}});
    }
    if (!flow.empty()) {
      result["codeFlows"] = Json::array({{{"threadFlows", Json::array({{{"locations", flow}}})}}});
    }
  }

  if (!r.written_to.empty()) {
    Json where = artifact_location(r.written_to, root);
    std::string about = "The failing input" + (r.rerun.empty() ? std::string() : "; to re-run it: " + r.rerun);
    result["relatedLocations"] =
        Json::array({{{"id", 1}, {"physicalLocation", {{"artifactLocation", where}}}, {"message", {{"text", about}}}}});
    result["attachments"] = Json::array({{{"artifactLocation", where}, {"description", {{"text", about}}}}});
  }
  result["partialFingerprints"] = {{kFingerprintKey, failure_fingerprint(r)}};

  Json properties = {
      {"fuzzTest", test.test}, {"target", test.target}, {"failureKind", core::failure_kind_name(kind_of(r))}};
  if (!r.written_to.empty()) properties["reproducer"] = r.written_to;
  if (!r.rerun.empty()) properties["rerunCommand"] = r.rerun;
  if (!r.input_summary.empty()) properties["input"] = r.input_summary;
  if (r.seed) properties["seedCorpusEntry"] = r.seed_name;
  result["properties"] = properties;
  return result;
}

}  // namespace

std::string failure_rule_id(const FailureReport& r) {
  std::string detail = r.failure.detail;
  switch (kind_of(r)) {
    case core::FailureKind::Sanitizer: {
      if (detail.starts_with("LeakSanitizer")) return "leak";
      auto colon = detail.find(": ");
      std::string rule = slug(colon == std::string::npos ? detail : detail.substr(colon + 2));
      return rule.empty() ? "sanitizer" : rule;
    }
    case core::FailureKind::Signal: return detail.empty() ? "signal" : slug(detail);
    case core::FailureKind::Returned: return "returned-error";
    case core::FailureKind::Exception: return "uncaught-exception";
    default: return std::string(core::failure_kind_name(kind_of(r)));
  }
}

std::string failure_fingerprint(const FailureReport& r) {
  std::string key = failure_rule_id(r);
  std::size_t named = 0;
  std::vector<StackFrame> frames = failure_stack(r);
  for (const auto& f : frames) {
    if (!f.user || f.function.empty()) continue;
    key += "|" + short_function_name(f.function);
    if (++named == kFingerprintFrames) break;
  }
  if (named == 0) {
    // No function names (a returned failure's "p.cc:12", a timeout): the files of the
    // user's frames, without their lines, and the fuzz test.
    for (const auto& f : frames) {
      if (f.user) key += "|" + fs::path(f.file).filename().string();
    }
    key += "|test " + r.test;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits(key.data(), key.size())));
  return hex;
}

std::string sarif_log(const SarifRun& run) {
  Json rules = Json::array();
  std::map<std::string, std::size_t> rule_index;
  Json results = Json::array();
  std::set<std::string> fingerprints;  // one result per bug, even if it was saved twice
  Json notifications = Json::array();
  for (const auto& test : run.tests) {
    if (!test.error.empty()) {
      std::string text = test.test.empty() ? test.target + ": " + test.error : test.test + ": " + test.error;
      notifications.push_back({{"level", "error"}, {"message", {{"text", text}}}});
    }
    for (const auto& r : test.failures) {
      if (!fingerprints.insert(failure_fingerprint(r)).second) continue;
      std::string rule = failure_rule_id(r);
      auto [it, added] = rule_index.emplace(rule, rules.size());
      if (added) {
        rules.push_back({{"id", rule},
                         {"name", rule},
                         {"shortDescription", {{"text", rule_description(rule, r)}}},
                         {"defaultConfiguration", {{"level", "error"}}},
                         {"properties", {{"tags", {"fuzzing", std::string(core::failure_kind_name(kind_of(r)))}}}}});
      }
      results.push_back(result_json(r, test, run.root, rule, it->second));
    }
  }

  Json driver = {{"name", "cfuzz"}, {"version", run.version}, {"rules", rules}};
  Json invocation = {{"executionSuccessful", notifications.empty()}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = notifications;
  Json sarif_run = {{"tool", {{"driver", driver}}}, {"invocations", Json::array({invocation})}};
  if (!run.root.empty()) {
    std::string root = run.root.lexically_normal().generic_string();
    if (!root.ends_with("/")) root += "/";
    sarif_run["originalUriBaseIds"] = {{"SRCROOT", {{"uri", "file://" + uri_escape(root)}}}};
  }
  sarif_run["results"] = results;
  Json log = {{"$schema", kSchema}, {"version", "2.1.0"}, {"runs", Json::array({sarif_run})}};
  // Invalid UTF-8 in the target's text (a message, a function name) is replaced, not fatal.
  return log.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace cfuzz::driver
