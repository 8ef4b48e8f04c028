#include "libfuzzdriver/failure_claim.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <thread>

#include <xxhash.h>

#include "libfuzzdriver/file_io.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

namespace {

// How long a run waits for the claiming run to write the path of its reproducer (it may
// still be minimizing) before it writes its own.
constexpr std::chrono::seconds kWaitForOther{90};
// Runs started together find a failure at different moments; a claim made up to this long
// before this run started is still theirs.
constexpr std::chrono::seconds kStartSlack{60};

}  // namespace

FailureClaim::FailureClaim(std::string claims_dir, const std::string& test, const std::string& signature,
                           std::chrono::system_clock::time_point run_start)
    : dir_(std::move(claims_dir)), run_start_(run_start) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(signature.data(), signature.size())));
  file_ = dir_ + "/" + test + "-" + hash;
}

bool FailureClaim::acquire() {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  std::string mine = dir_ + "/.cfuzz-tmp-claim-" + std::to_string(getpid());
  auto deadline = std::chrono::steady_clock::now() + kWaitForOther;
  for (;;) {
    write_file_atomic(mine, "");
    int rc = ::link(mine.c_str(), file_.c_str());
    int err = errno;
    ::unlink(mine.c_str());
    if (rc == 0) return true;
    if (err != EEXIST) return true;  // no claims here (read-only, no link support): just write
    struct stat st;
    if (::stat(file_.c_str(), &st) != 0) continue;  // taken back meanwhile: try again
    auto claimed = std::chrono::system_clock::time_point(std::chrono::seconds(st.st_mtim.tv_sec));
    if (claimed + kStartSlack < run_start_) {
      ::unlink(file_.c_str());  // stale: from an earlier run
      continue;
    }
    std::string path;
    try {
      path = read_file_bytes(file_);
    } catch (const std::exception&) {
    }
    if (!path.empty() && fs::exists(path, ec)) {
      other_path_ = path;
      return false;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::unlink(file_.c_str());  // the claiming run never wrote it (killed while minimizing)
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

void FailureClaim::record(const std::string& path) {
  try {
    std::error_code ec;
    write_file_atomic(file_, fs::absolute(path, ec).string());
  } catch (const std::exception&) {
    // Claims are a courtesy to other runs: this run's report does not depend on them.
  }
}

}  // namespace cfuzz::driver
