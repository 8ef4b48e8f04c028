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

#include <cstdint>
#include <functional>
#include <optional>
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
  std::optional<std::uint64_t> key;  // core::entry_key(values), when load_cache read it
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

// The same, handing each entry to `take` (on this thread, in name order) as it is read, so
// that a cache of 10^5 entries is never held twice; `files` hears first how many files
// there are. Returns the unusable files' reasons.
std::vector<std::string> read_cache(const std::string& dir, const std::vector<corpus::Type>& types,
                                    const std::vector<std::string>& shapes,
                                    const std::function<void(CachedEntry&&)>& take,
                                    const std::function<void(std::size_t)>& files = {});

// Writes one entry (atomically, named by content hash) and returns its file name.
std::string save_to_cache(const std::string& dir, const corpus::Entry& entry);

}  // namespace cfuzz::driver
