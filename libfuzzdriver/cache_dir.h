// The generated corpus ("cache"): the inputs fuzzing found, kept outside the source tree
// so that the next run starts where the last one stopped.
//
//   $CFUZZ_CACHE, else $XDG_CACHE_HOME/cfuzz, else ~/.cache/cfuzz
//     <target name>-<hash of its absolute path>/
//       <FuzzName>/
//         <content hash>        one `go test fuzz v1` file per entry
//
// `--cachedir DIR` names the target's directory itself: entries go to DIR/<FuzzName>/.
#pragma once

#include <string>
#include <vector>

#include "corpus_format/value.h"

namespace cfuzz::driver {

// The root of all targets' caches (without --cachedir).
std::string default_cache_root();

// The directory holding the target's cache for one fuzz test.
std::string cache_dir_for(const std::string& cachedir_flag, const std::string& target_abs_path,
                          const std::string& test);

// The directory holding all of one target's caches (what `cfuzz clean` removes).
std::string target_cache_dir(const std::string& cachedir_flag, const std::string& target_abs_path);

struct CachedEntry {
  std::string name;  // file name
  corpus::Entry values;
  std::string encoded;  // corpus::encode(values), when load_cache read it; else empty
};

struct CacheContents {
  std::vector<CachedEntry> entries;
  // Files that could not be used (malformed, or of other types: the fuzz function changed
  // since they were written), each as a one-line reason. They are left in place.
  std::vector<std::string> skipped;
};

// `shapes`: of the typed values (TestInfo::shapes), checked as core::check_shapes does.
CacheContents load_cache(const std::string& dir, const std::vector<corpus::Type>& types,
                         const std::vector<std::string>& shapes = {});

// Writes one entry (atomically, named by content hash) and returns its file name.
std::string save_to_cache(const std::string& dir, const corpus::Entry& entry);

}  // namespace cfuzz::driver
