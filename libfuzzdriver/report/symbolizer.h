// Crash sites in reports, readable: the runtime describes a site as "module+0xoffset"
// words (it cannot symbolize inside a dying process); llvm-symbolizer, when installed,
// turns those of the target binary into "function file.cc:12:5".
#pragma once

#include <string>
#include <vector>

namespace cfuzz::driver {

// One line per frame of `site`: symbolized where possible, the raw word otherwise.
std::vector<std::string> symbolize_site(const std::string& target_abs_path, const std::string& site);

}  // namespace cfuzz::driver
