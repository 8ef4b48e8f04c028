// `cfuzz run --since REV`: the changed lines (changed_lines.h) mapped onto a target's coverage
// counters, from what every cfuzz build has: SanitizerCoverage's PC table and the debug info.
//
// Each counter's address (where its basic block begins) is symbolized with its inlining
// frames: the lines it stands for, and the functions it is in. A function is changed when a
// changed line falls between its first line and the last line any of its blocks begins at.
// The counters of changed functions are the focus: a fuzz test whose corpus reaches one is
// fuzzed (multi_run.h), and a corpus entry that reaches one is picked more often
// (core/corpus.h). A changed line "has code" when a counter's block begins on it: lines in
// the middle of a block (a statement after a call) are not counted, so the figures say how
// many of the changed lines that begin blocks were reached.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libfuzzdriver/run/changed_lines.h"
#include "libfuzzdriver/worker/pc_table.h"

namespace cfuzz::driver {

struct ChangeFocus {
  struct Line {
    std::string file;
    std::uint32_t line = 0;
    std::vector<std::size_t> counters;  // whose blocks begin on it
  };
  std::vector<Line> lines;  // the changed lines with code, by file and line
  // One flag per counter: in a changed function. Shared with every slice's coordinator.
  std::shared_ptr<const std::vector<bool>> counters;
  std::vector<std::string> functions;  // the changed functions' names

  // Whether `reached` (one flag per counter) reaches a changed function.
  bool reaches_changed_function(const std::vector<bool>& reached) const;
  // How many of `lines` the counters flagged in `reached` reach.
  std::size_t lines_reached(const std::vector<bool>& reached) const;
};

// Maps `changed` onto the counters of `table`. Throws std::runtime_error when
// llvm-symbolizer is missing or the target has no debug info (naming -g).
ChangeFocus map_changes(const PcTable& table, const ChangedLines& changed);

}  // namespace cfuzz::driver
