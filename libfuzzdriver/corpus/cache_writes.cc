#include "libfuzzdriver/corpus/cache_writes.h"

#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {

bool CacheWrites::attempt(const std::string& what, const std::function<void()>& write) {
  if (stopped()) return false;
  std::string message;
  try {
    write();
    return true;
  } catch (const FileError& e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (is_storage_refusal(e.error())) {
      if (stopped_) return false;  // another thread's write was refused first, and said so
      stopped_ = true;
      message =
          "cannot write " + what + " to the cache: " + e.what() + "; nothing more is written to the cache in this run";
    } else if (warned_.insert(e.what()).second) {
      message = "skipped writing " + what + ": " + e.what();
    }
  }
  if (!message.empty()) warn_(message);
  return false;
}

bool CacheWrites::stopped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stopped_;
}

}  // namespace cfuzz::driver
