// Every write a run makes in its cache directory (entries, the stats and baseline files,
// the fallback copies of reproducers), through one gate that decides what a failed write
// means for the rest of the run:
//
// - a full, read-only or forbidden cache (ENOSPC, EDQUOT, EROFS, EACCES, EPERM) stops all
//   later cache writes, with one warning: the run goes on, and keeps what it finds in
//   memory;
// - a symbolic link (or another file) where a file should be skips that write, with one
//   warning naming it: the cache may be shared, and is never written through;
// - any other error is warned about once per message.
#pragma once

#include <functional>
#include <mutex>
#include <set>
#include <string>

namespace cfuzz::driver {

class CacheWrites {
 public:
  using Warn = std::function<void(const std::string&)>;
  // `root`: the cache root (cache_root), below which writes follow no symbolic link.
  CacheWrites(std::string root, Warn warn) : root_(std::move(root)), warn_(std::move(warn)) {}

  const std::string& root() const { return root_; }

  // Runs `write`, which throws FileError when it cannot write; true when it wrote. `what`
  // says what was being written ("the cache entry"), for the warning. Any thread.
  bool attempt(const std::string& what, const std::function<void()>& write);

  // Whether an earlier failure stopped cache writes for the rest of the run.
  bool stopped() const;

 private:
  std::string root_;
  Warn warn_;
  mutable std::mutex mu_;
  bool stopped_ = false;
  std::set<std::string> warned_;  // messages already given
};

}  // namespace cfuzz::driver
