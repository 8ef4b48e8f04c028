// The lines a change touched, for `cfuzz run --since` (change_focus.h): from `git diff -U0
// REV` run in the source directory, or from a unified diff on standard input (`--since -`).
//
// Only the new side counts: the lines a hunk adds or rewrites, by their numbers in the files
// as they are now. A hunk that only deletes marks the lines on either side of the cut, where
// the code that lost those lines now runs. Deleted files and binary files have no new lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace cfuzz::driver {

struct ChangedLines {
  // Absolute, normalized path of each changed file -> its changed lines (1-based).
  std::map<std::string, std::set<std::uint32_t>> files;

  std::size_t count() const;
  bool empty() const { return files.empty(); }
};

// Parses a unified diff (git's or diff -u's) whose paths are relative to `root` (git's "a/"
// and "b/" prefixes are taken off). Throws std::runtime_error naming `flag` and what was
// expected when the text is not a unified diff.
ChangedLines parse_unified_diff(std::string_view diff, const std::string& root, const std::string& flag);

// The `--since` flag's value: REV (diffs the working tree in `dir`, or the current directory,
// against git revision REV) or "-" (a unified diff on standard input, its paths relative to
// the top of the git work tree holding `dir`, else to `dir`). Throws std::runtime_error, one
// line naming --since, when git is missing, `dir` is in no git work tree, REV does not
// resolve, or the diff is malformed.
ChangedLines changed_lines_since(const std::string& since, const std::string& dir);

}  // namespace cfuzz::driver
