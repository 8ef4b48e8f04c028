// A cache directory shared with other runs (on this host, or on others over NFS): the
// entries they write while this run goes on, found without rereading what was seen.
//
// Other runs write entries the same way this one does: to a temporary name in the
// directory, then a rename, so a name that is listed is a complete file. No locks.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "libfuzzdriver/corpus/cache_dir.h"

namespace cfuzz::driver {

class CacheWatcher {
 public:
  // Files over `limit` bytes are skipped unread (cache_entry_limit).
  CacheWatcher(std::string dir, std::vector<corpus::Type> types, std::uint64_t limit = kCacheEntryLimit)
      : dir_(std::move(dir)), types_(std::move(types)), limit_(limit) {}

  // A name this run loaded or wrote itself: never reported as new. Any thread.
  void note_known(std::string_view name) {
    std::uint64_t h = hash_of(name);
    std::lock_guard<std::mutex> lock(mu_);
    seen_.insert(h);
  }

  // Entries that appeared since the last call. The directory is listed only when its
  // modification time moved (or is too recent to trust: coarse NFS timestamps), and only
  // unseen names are read. Unusable files (malformed, other types) are skipped for good.
  std::vector<CachedEntry> new_entries();

  struct Stats {
    std::uint64_t scans = 0;     // calls
    std::uint64_t listings = 0;  // calls that listed the directory
    std::chrono::nanoseconds time{};
  };
  const Stats& stats() const { return stats_; }

 private:
  std::string dir_;
  std::vector<corpus::Type> types_;
  std::uint64_t limit_;
  std::mutex mu_;  // for seen_: workers' threads note what they write
  // Names are kept as 64-bit hashes (XXH3): 10^5 names cost a third of their strings. Two
  // names alike by chance (about one in 10^9 for a cache of 10^5) would hide the second.
  static std::uint64_t hash_of(std::string_view name);
  std::unordered_set<std::uint64_t> seen_;
  timespec listed_mtime_{};  // of the directory, at the last listing
  bool listed_ = false;
  Stats stats_;
};

}  // namespace cfuzz::driver
