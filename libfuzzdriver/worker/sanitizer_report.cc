#include "libfuzzdriver/worker/sanitizer_report.h"

#include <cstring>
#include <regex>
#include <sstream>

namespace cfuzz::driver {

namespace {

// "ThreadSanitizer: data race" from "WARNING: ThreadSanitizer: data race (pid=123)".
std::string report_headline(const std::string& output, std::size_t* header_end) {
  for (const char* marker : {"WARNING: ", "ERROR: "}) {
    std::size_t at = 0;
    while ((at = output.find(marker, at)) != std::string::npos) {
      std::size_t begin = at + std::strlen(marker);
      std::size_t end = output.find('\n', begin);
      std::string line = output.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      if (line.find("Sanitizer: ") != std::string::npos) {
        for (const char* cut : {" (pid=", " on ", " in "}) {
          if (auto c = line.find(cut); c != std::string::npos) line.resize(c);
        }
        *header_end = end;
        return line;
      }
      at = begin;
    }
  }
  return {};
}

bool runtime_function(const std::string& fn) {
  for (const char* prefix :
       {"__asan", "__interceptor", "___interceptor", "__sanitizer", "__tsan", "__ubsan", "__lsan", "__msan"}) {
    if (fn.rfind(prefix, 0) == 0) return true;
  }
  // The allocator, which a leak report's stack starts in ("operator new[](unsigned long)"
  // reads as the word "operator").
  for (const char* allocator : {"operator", "malloc", "calloc", "realloc", "reallocarray", "aligned_alloc",
                                "posix_memalign", "memalign", "valloc", "pvalloc", "strdup", "strndup"}) {
    if (fn == allocator) return true;
  }
  return false;
}

// The first frame of the report's first stack that is not in a sanitizer runtime, as
// "file.cc:12:5" (symbolized) or "module+0x1234" (not). ASan and UBSan print a frame as
// "#1 0x55c0 in fn /src/f.cc:12:5", ThreadSanitizer as "#1 fn /src/f.cc:12:5 (module+0x55c0)";
// clang 14 may add "(BuildId: ...)" to either.
std::string first_own_frame(const std::string& output, std::size_t from) {
  static const std::regex frame(R"(^\s*#\d+ (?:0x[0-9a-f]+ in )?(\S+) (.*)$)");
  static const std::regex file_line(R"(([^/\s:]+):(\d+)(:\d+)?(\s+\([^)]*\))*\s*$)");
  static const std::regex module_offset(R"(\(([^/()\s]*/)*([^/()\s]+\+0x[0-9a-f]+)\))");
  std::istringstream in(output.substr(from));
  std::string line;
  bool in_stack = false;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, frame)) {
      if (in_stack) break;  // the first stack ended
      continue;
    }
    in_stack = true;
    std::string fn = m[1], where = m[2];
    if (runtime_function(fn) || where.find("compiler-rt") != std::string::npos ||
        where.find("sanitizer_common") != std::string::npos) {
      continue;
    }
    std::smatch fl;
    if (std::regex_search(where, fl, file_line))
      return std::string(fl[1]) + ":" + std::string(fl[2]) + std::string(fl[3]);
    std::smatch mo;
    if (std::regex_search(where, mo, module_offset)) return mo[2];
    return fn;
  }
  return {};
}

}  // namespace

void refine_from_sanitizer_report(core::FailureRecord& r, const std::string& output) {
  if (r.kind != static_cast<std::uint32_t>(core::FailureKind::Sanitizer)) return;
  std::size_t header_end = 0;
  std::string headline = report_headline(output, &header_end);
  if (headline.empty()) return;
  if (std::strcmp(r.detail, "sanitizer") == 0) core::failure_set(r.detail, headline);
  // UBSan's own record already names the source line; the others are read from the stack.
  if (headline.rfind("UndefinedBehaviorSanitizer", 0) == 0) return;
  std::string site = first_own_frame(output, header_end == std::string::npos ? output.size() : header_end);
  if (!site.empty()) core::failure_set(r.site, site);
}

}  // namespace cfuzz::driver
