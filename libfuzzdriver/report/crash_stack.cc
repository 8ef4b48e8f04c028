#include "libfuzzdriver/report/crash_stack.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace cfuzz::driver {

namespace {

bool starts_with_any(std::string_view s, std::initializer_list<const char*> prefixes) {
  for (const char* p : prefixes) {
    if (s.starts_with(p)) return true;
  }
  return false;
}

bool contains_any(std::string_view s, std::initializer_list<const char*> parts) {
  for (const char* p : parts) {
    if (s.find(p) != std::string_view::npos) return true;
  }
  return false;
}

// "/src/p.cc:12:5" or "p.cc:12" into the frame; false if `where` is not a source place.
bool parse_file_line(std::string_view where, StackFrame* f) {
  static const std::regex file_line(R"(^(.+?):(\d+)(?::(\d+))?$)");
  std::string text(where);
  std::smatch m;
  if (!std::regex_match(text, m, file_line)) return false;
  f->file = m[1];
  f->line = std::stoi(m[2]);
  f->column = m[3].matched ? std::stoi(m[3]) : 0;
  return f->line > 0;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

bool is_user_frame(const StackFrame& f) {
  if (f.file.empty()) return false;
  // The sanitizers' runtimes and interceptors, the allocator a leak's stack starts in, libc's
  // and the loader's entry points.
  if (starts_with_any(f.function, {"__", "_start", "operator new", "operator delete", "malloc", "calloc", "realloc",
                                   "free", "aligned_alloc", "posix_memalign", "strdup", "strndup", "abort", "raise"})) {
    return false;
  }
  // cfuzz's runtime (namespace fuzzer::cfuzz) and the public header's templates that call
  // the fuzz function; the standard library.
  if (starts_with_any(f.function, {"fuzzer::", "cfuzz::", "std::", "__gnu_cxx::"}) ||
      contains_any(f.function, {"cfuzz::detail::"})) {
    return false;
  }
  if (starts_with_any(f.file, {"/usr/", "/lib", "csu/"}) ||
      contains_any(f.file, {"/include/cfuzz/", "compiler-rt", "sanitizer_common", "sysdeps/", "/c++/"})) {
    return false;
  }
  return true;
}

// The first stack of a sanitizer's report in `output` (the one of the error itself, not
// the allocation's or the free's), or nothing if `output` has no report with a stack.
std::vector<StackFrame> sanitizer_stack(const std::string& output) {
  std::size_t header = std::string::npos;
  for (const char* marker : {"ERROR: ", "WARNING: "}) {
    for (std::size_t at = output.find(marker); at != std::string::npos; at = output.find(marker, at + 1)) {
      std::size_t end = output.find('\n', at);
      if (output.substr(at, end - at).find("Sanitizer") != std::string::npos) {
        header = std::min(header, end);
        break;
      }
    }
  }
  std::vector<StackFrame> frames;
  if (header == std::string::npos) return frames;
  std::istringstream in(output.substr(header));
  for (std::string line; std::getline(in, line);) {
    StackFrame f;
    if (parse_sanitizer_frame(line, &f)) {
      frames.push_back(std::move(f));
    } else if (!frames.empty()) {
      break;  // the first stack ended
    }
  }
  return frames;
}

}  // namespace

bool parse_sanitizer_frame(std::string_view line, StackFrame* frame) {
  static const std::regex numbered(R"(^\s*#\d+ 0x[0-9a-fA-F]+ (.*)$)");
  std::string text(line);
  std::smatch m;
  if (!std::regex_match(text, m, numbered)) return false;
  std::string_view rest = trim(std::string_view(text).substr(m.position(1)));
  StackFrame f;
  // "in function place" or just "(module+0x12)"; the place is "(module+0x12)" (maybe with
  // a "(BuildId: ...)" after it), an object file's name, or "file:line:col".
  if (auto build_id = rest.rfind(" (BuildId: "); build_id != std::string_view::npos) rest = rest.substr(0, build_id);
  bool has_function = rest.starts_with("in ");
  if (has_function) rest.remove_prefix(3);
  std::string_view place = rest;
  if (rest.ends_with(")") && (rest.rfind(" (") != std::string_view::npos || !has_function)) {
    std::size_t open = rest.rfind(" (");
    open = open == std::string_view::npos ? 0 : open + 1;
    place = rest.substr(open);
    f.module = std::string(place.substr(1, place.size() - 2));
    if (auto slash = f.module.rfind('/'); slash != std::string::npos) f.module.erase(0, slash + 1);
    rest = trim(rest.substr(0, open));
  } else if (has_function) {
    std::size_t space = rest.rfind(' ');
    place = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
    if (!parse_file_line(place, &f)) f.module = std::string(place);
    rest = space == std::string_view::npos ? rest : rest.substr(0, space);
  }
  if (has_function) f.function = std::string(trim(rest));
  f.user = is_user_frame(f);
  *frame = std::move(f);
  return true;
}

StackFrame parse_site_frame(std::string_view text) {
  StackFrame f;
  text = trim(text);
  std::size_t space = text.rfind(' ');
  std::string_view where = space == std::string_view::npos ? text : text.substr(space + 1);
  if (!parse_file_line(where, &f)) f.module = std::string(where);
  if (space != std::string_view::npos) f.function = std::string(trim(text.substr(0, space)));
  f.user = is_user_frame(f);
  return f;
}

namespace {

// The place in a sanitizer's "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior
// /src/p.cc:27:14 in", which UBSan prints without a stack.
std::vector<StackFrame> summary_frame(const std::string& output) {
  static const std::regex summary(R"(SUMMARY: \S+: \S+ (\S+:\d+(?::\d+)?) in ?(.*))");
  std::smatch m;
  if (!std::regex_search(output, m, summary)) return {};
  StackFrame f = parse_site_frame(std::string(m[2]) + " " + std::string(m[1]));
  if (f.file.empty()) return {};
  return {f};
}

}  // namespace

std::vector<StackFrame> failure_stack(const FailureReport& r) {
  std::vector<StackFrame> frames = sanitizer_stack(r.output);
  if (!frames.empty()) return frames;
  for (const auto& text : r.stack) frames.push_back(parse_site_frame(text));
  // UBSan's site is "p.cc:27" (its file's name alone), and a crash site may have no frame of
  // the user's code: the sanitizer's summary, if any, has the whole path.
  if (auto summary = summary_frame(r.output); !summary.empty()) {
    auto user = std::find_if(frames.begin(), frames.end(), [](const StackFrame& f) { return f.user; });
    if (user == frames.end()) {
      frames = summary;
    } else if (!user->file.starts_with("/") && user->line == summary[0].line &&
               summary[0].file.ends_with("/" + user->file)) {
      user->file = summary[0].file;
      if (user->column == 0) user->column = summary[0].column;
    }
  }
  // A returned failure (t.error, t.fatal) knows only its "file.cc:12".
  if (frames.empty() && r.failure.kind == static_cast<std::uint32_t>(core::FailureKind::Returned) &&
      r.failure.site[0] != '\0') {
    frames.push_back(parse_site_frame(r.failure.site));
  }
  return frames;
}

std::string short_function_name(std::string_view function) {
  std::string_view s = trim(function);
  if (s.ends_with(" const")) s.remove_suffix(6);
  // The parameter list: the balanced "(...)" at the end, unless the name is "operator()".
  if (s.ends_with(")") && !s.ends_with("operator()")) {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') ++depth;
      if (s[i] == '(' && --depth == 0) {
        s = s.substr(0, i);
        break;
      }
    }
  }
  // The scope: everything up to the last "::" outside template arguments and parentheses.
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    char c = s[i];
    if (c == '<' || c == '(') ++depth;
    if ((c == '>' || c == ')') && depth > 0) --depth;
    if (depth == 0 && c == ':' && s[i + 1] == ':') start = i + 2;
  }
  return std::string(s.substr(start));
}

}  // namespace cfuzz::driver
