// The committed corpus of one fuzz test: the files of <srcdir>/testdata/fuzz/<Name>/.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "corpus_format/value.h"
#include "libfuzzdriver/worker/target_info.h"

namespace cfuzz::driver {

std::string testdata_dir(const TargetInfo& target, const TestInfo& test);

// {file name, values} of every file, in the directory's order. Committed files must be
// well-formed: a bad one throws, naming the file and line (exit 2), as in a seed run.
std::vector<std::pair<std::string, corpus::Entry>> read_testdata(const TargetInfo& target, const TestInfo& test);

}  // namespace cfuzz::driver
