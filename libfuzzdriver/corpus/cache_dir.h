// The generated corpus ("cache"): the inputs fuzzing found, kept outside the source tree
// so that the next run starts where the last one stopped.
//
//   $CFUZZ_CACHE, else $XDG_CACHE_HOME/cfuzz, else ~/.cache/cfuzz
//     <target name>-<hash of its absolute path>/
//       <FuzzName>/
//         <content hash>        one `go test fuzz v1` file per entry
//
// `--cachedir DIR` names the target's directory itself: entries go to DIR/<FuzzName>/.
//
// The cache may be shared with other users and hosts (docs/cache-layout.md), so it is
// untrusted: writes below its root follow no symbolic link (file_io.h's Directory), files
// are read with a size limit, and a root of another user's is refused unless the run is
// told the cache is shared.
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

// The root of the cache as the user named it: `--cachedir DIR` itself, else
// default_cache_root(). Links in it are followed; none below it is, when writing.
std::string cache_root(const std::string& cachedir_flag);

// The environment variable that, set to 1, says the same as --shared-cache.
inline constexpr const char* kSharedCacheEnv = "CFUZZ_SHARED_CACHE";

// Refuses (std::runtime_error, one line) a cache root that exists and belongs to another
// user, unless `shared` or $CFUZZ_SHARED_CACHE is 1: whoever owns it controls what cfuzz
// reads there.
void check_cache_root_owner(const std::string& root, bool shared);

// The largest cache entry that is read, in bytes: 64 MiB, or the worst-case encoding of a
// `max_len`-byte value (4 bytes per byte, as \xNN) and 64 KiB more when that is larger.
// Bigger files are skipped unread: one file must not take the run's memory.
std::uint64_t cache_entry_limit(std::uint64_t max_len);
inline constexpr std::uint64_t kCacheEntryLimit = std::uint64_t{64} << 20;

struct CachedEntry {
  std::string name;  // file name
  corpus::Entry values;
  std::optional<std::uint64_t> key;  // core::entry_key(values), when load_cache read it
};

// Files of the cache that were not used, each as a one-line reason. They are left in place.
struct SkippedFiles {
  // Malformed, of other types (the fuzz function changed since they were written), or
  // not regular files (a symbolic link is not followed).
  std::vector<std::string> unusable;
  // Over the size limit: not read at all.
  std::vector<std::string> too_large;
};

struct CacheContents {
  std::vector<CachedEntry> entries;
  SkippedFiles skipped;
};

// `shapes`: of the typed values (TestInfo::shapes), checked as core::check_shapes does.
// Files over `limit` bytes are skipped unread.
CacheContents load_cache(const std::string& dir, const std::vector<corpus::Type>& types,
                         const std::vector<std::string>& shapes = {}, std::uint64_t limit = kCacheEntryLimit);

// The same, handing each entry to `take` (on this thread, in name order) as it is read, so
// that a cache of 10^5 entries is never held twice; `files` hears first how many files
// there are. Returns what was skipped.
SkippedFiles read_cache(const std::string& dir, const std::vector<corpus::Type>& types,
                        const std::vector<std::string>& shapes, const std::function<void(CachedEntry&&)>& take,
                        const std::function<void(std::size_t)>& files = {}, std::uint64_t limit = kCacheEntryLimit);

// Writes one entry to `dir` below the cache root `root` (atomically, named by content hash,
// following no symbolic link below `root`) and returns its file name. Throws FileError.
std::string save_to_cache(const std::string& root, const std::string& dir, const corpus::Entry& entry);

}  // namespace cfuzz::driver
