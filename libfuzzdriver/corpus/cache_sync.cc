#include "libfuzzdriver/corpus/cache_sync.h"

#include <dirent.h>
#include <sys/stat.h>

#include <memory>

#include <xxhash.h>

#include "corpus_format/codec.h"
#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {

namespace {

// A directory timestamp within this much of now may not show a change made in the same
// tick (NFS servers and some filesystems keep whole seconds).
constexpr std::chrono::seconds kTimestampSlack{2};

bool same_time(const timespec& a, const timespec& b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; }

}  // namespace

std::uint64_t CacheWatcher::hash_of(std::string_view name) { return XXH3_64bits(name.data(), name.size()); }

std::vector<CachedEntry> CacheWatcher::new_entries() {
  auto started = std::chrono::steady_clock::now();
  std::vector<CachedEntry> found;
  ++stats_.scans;
  struct stat st;
  // Not created yet (nobody has written an entry), or a link, not followed (cache_dir.h).
  if (::lstat(dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    stats_.time += std::chrono::steady_clock::now() - started;
    return found;
  }
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  bool settled = now.tv_sec - st.st_mtim.tv_sec > kTimestampSlack.count();
  if (listed_ && settled && same_time(st.st_mtim, listed_mtime_)) {
    stats_.time += std::chrono::steady_clock::now() - started;
    return found;
  }
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir_.c_str()), ::closedir);
  if (d == nullptr) {
    stats_.time += std::chrono::steady_clock::now() - started;
    return found;
  }
  ++stats_.listings;
  listed_ = true;
  listed_mtime_ = st.st_mtim;
  // Names first, under one lock (seen names are most of a big cache: no copy of those);
  // the new files are read after it, without holding it.
  std::vector<std::string> fresh;
  {
    std::lock_guard<std::mutex> lock(mu_);
    while (dirent* e = ::readdir(d.get())) {
      std::string_view name = e->d_name;
      if (name.empty() || name[0] == '.') continue;  // hidden, and write_file_atomic's temporaries
      if (e->d_type != DT_REG && e->d_type != DT_UNKNOWN) continue;
      if (!seen_.insert(hash_of(name)).second) continue;
      fresh.emplace_back(name);
    }
  }
  for (const std::string& name : fresh) {
    std::string path = dir_ + "/" + name;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    try {
      corpus::Entry values = corpus::decode(read_untrusted_file(path, limit_), path);
      corpus::check_types(values, types_, path);
      found.push_back(CachedEntry{name, std::move(values), {}});
    } catch (const std::exception&) {
      // Malformed, of other types (another build of the target), too large or not a
      // regular file: skipped, as at startup.
    }
  }
  stats_.time += std::chrono::steady_clock::now() - started;
  return found;
}

}  // namespace cfuzz::driver
