#include "libfuzzdriver/run/changed_lines.h"

#include <sys/wait.h>

#include <filesystem>
#include <iostream>
#include <iterator>
#include <stdexcept>

#include "libfuzzdriver/util/process.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

std::size_t ChangedLines::count() const {
  std::size_t n = 0;
  for (const auto& [path, lines] : files) n += lines.size();
  return n;
}

namespace {

// "b/src/x.cc\t2024-01-01 ..." -> "src/x.cc"; "/dev/null" stays.
std::string diff_path(std::string_view p) {
  if (auto tab = p.find('\t'); tab != std::string_view::npos) p = p.substr(0, tab);
  while (!p.empty() && (p.back() == '\r' || p.back() == ' ')) p.remove_suffix(1);
  if (p.size() >= 2 && p.front() == '"' && p.back() == '"') p = p.substr(1, p.size() - 2);
  if (p.starts_with("b/")) p.remove_prefix(2);
  return std::string(p);
}

// "12,3" or "12" after '+' or '-': start and count (1 when left out).
bool parse_range(std::string_view s, std::uint32_t* start, std::uint32_t* count) {
  auto number = [](std::string_view d, std::uint32_t* out) {
    if (d.empty() || d.size() > 9) return false;
    std::uint32_t v = 0;
    for (char c : d) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + static_cast<std::uint32_t>(c - '0');
    }
    *out = v;
    return true;
  };
  auto comma = s.find(',');
  if (comma == std::string_view::npos) {
    *count = 1;
    return number(s, start);
  }
  return number(s.substr(0, comma), start) && number(s.substr(comma + 1), count);
}

}  // namespace

ChangedLines parse_unified_diff(std::string_view diff, const std::string& root, const std::string& flag) {
  ChangedLines out;
  std::set<std::uint32_t>* file = nullptr;  // the file of the hunks that follow; null: deleted
  bool saw_file = false;
  std::uint32_t old_left = 0, new_left = 0, next_new = 0;
  bool pending_cut = false;  // lines were deleted and no line replaced them yet
  auto fail = [&](std::size_t line_no, const std::string& what) {
    throw std::runtime_error(flag + ": line " + std::to_string(line_no) + " of the diff: expected " + what);
  };
  auto mark_cut = [&] {
    // The lines on either side of a deletion.
    if (file != nullptr && pending_cut) {
      if (next_new > 1) file->insert(next_new - 1);
      file->insert(std::max<std::uint32_t>(next_new, 1));
    }
    pending_cut = false;
  };
  std::size_t line_no = 0;
  while (!diff.empty()) {
    auto nl = diff.find('\n');
    std::string_view line = diff.substr(0, nl);
    diff = nl == std::string_view::npos ? std::string_view() : diff.substr(nl + 1);
    ++line_no;
    if (old_left > 0 || new_left > 0) {  // in a hunk
      char c = line.empty() ? ' ' : line[0];
      if (c == '\\') continue;  // "\ No newline at end of file"
      if (c == ' ') {
        mark_cut();
        if (old_left == 0 || new_left == 0) fail(line_no, "a line of the hunk (its counts do not match)");
        --old_left, --new_left, ++next_new;
      } else if (c == '-') {
        if (old_left == 0) fail(line_no, "a line of the hunk (its counts do not match)");
        --old_left;
        pending_cut = true;
      } else if (c == '+') {
        if (new_left == 0) fail(line_no, "a line of the hunk (its counts do not match)");
        pending_cut = false;
        if (file != nullptr) file->insert(next_new);
        --new_left, ++next_new;
      } else {
        fail(line_no, "a hunk line starting with ' ', '-' or '+'");
      }
      if (old_left == 0 && new_left == 0) mark_cut();
      continue;
    }
    if (line.starts_with("+++ ")) {
      std::string path = diff_path(line.substr(4));
      saw_file = true;
      file = nullptr;
      if (path != "/dev/null") {
        fs::path p = fs::path(path).is_absolute() ? fs::path(path) : fs::path(root) / path;
        file = &out.files[fs::weakly_canonical(p).lexically_normal().string()];
      }
    } else if (line.starts_with("@@ ")) {
      if (!saw_file) fail(line_no, "a '+++ FILE' line before the first hunk");
      // "@@ -a,b +c,d @@ context"
      auto minus = line.find(" -"), plus = line.find(" +"), end = line.find(" @@", 2);
      std::uint32_t old_start = 0, new_start = 0;
      if (minus == std::string_view::npos || plus == std::string_view::npos || end == std::string_view::npos ||
          !(minus < plus && plus < end) ||
          !parse_range(line.substr(minus + 2, plus - minus - 2), &old_start, &old_left) ||
          !parse_range(line.substr(plus + 2, end - plus - 2), &new_start, &new_left)) {
        fail(line_no, "a hunk header such as '@@ -12,3 +12,4 @@'");
      }
      if (old_left == 0 && new_left == 0) fail(line_no, "a hunk header such as '@@ -12,3 +12,4 @@'");
      next_new = new_left == 0 ? new_start + 1 : new_start;  // a deletion's "+c,0" names the line before the cut
    } else if (!line.empty() && (line[0] == '+' || line[0] == '-' || line[0] == ' ') && !line.starts_with("--- ") &&
               saw_file) {
      fail(line_no, "a hunk header ('@@ ...') before the hunk's lines");
    }
    // Anything else is a header of git's ("diff --git", "index", "new file mode", ...).
  }
  if (old_left > 0 || new_left > 0) fail(line_no + 1, "the rest of the last hunk (the diff is cut short)");
  return out;
}

namespace {

std::string git(const std::string& git_path, const std::vector<std::string>& args, int* status) {
  SpawnSpec spec;
  spec.program = git_path;
  spec.args = args;
  return run_and_capture(spec, std::chrono::minutes(2), status);
}

bool succeeded(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

}  // namespace

ChangedLines changed_lines_since(const std::string& since, const std::string& dir_given) {
  const std::string flag = "--since " + since;
  if (since.empty())
    throw std::runtime_error("--since: expected a git revision (such as origin/main) or - for a diff on stdin");
  std::string dir = dir_given.empty() ? fs::current_path().string() : dir_given;
  std::string git_path = find_in_path("git");
  std::string top;
  if (!git_path.empty()) {
    int status = 0;
    top = git(git_path, {"-C", dir, "rev-parse", "--show-toplevel"}, &status);
    if (!succeeded(status)) top.clear();
    while (!top.empty() && (top.back() == '\n' || top.back() == '\r')) top.pop_back();
  }
  if (since == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    ChangedLines lines = parse_unified_diff(text, top.empty() ? dir : top, "--since - (a unified diff on stdin)");
    bool blank = text.find_first_not_of(" \t\r\n") == std::string::npos;
    if (lines.empty() && !blank && text.find("\n+++ ") == std::string::npos && !text.starts_with("+++ ") &&
        text.find("\n--- ") == std::string::npos && !text.starts_with("--- ")) {
      throw std::runtime_error(
          "--since - (a unified diff on stdin): expected a unified diff ('--- A', '+++ B', '@@' lines)");
    }
    return lines;
  }
  if (git_path.empty())
    throw std::runtime_error(flag + ": git is not installed (expected git in $PATH to diff against a revision)");
  if (top.empty()) {
    throw std::runtime_error(flag + ": " + dir + " is not in a git work tree (expected one, or - for a diff on stdin)");
  }
  int status = 0;
  git(git_path, {"-C", top, "rev-parse", "--verify", "--quiet", since + "^{commit}"}, &status);
  if (!succeeded(status) || since.starts_with("-")) {
    throw std::runtime_error(flag + ": git cannot resolve it in " + top +
                             " (expected a revision such as HEAD~1 or origin/main, or - for a diff on stdin)");
  }
  std::string text = git(git_path,
                         {"-C", top, "-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff",
                          "--no-renames", "--src-prefix=a/", "--dst-prefix=b/", since, "--"},
                         &status);
  if (!succeeded(status)) throw std::runtime_error(flag + ": git diff failed in " + top);
  return parse_unified_diff(text, top, flag);
}

}  // namespace cfuzz::driver
