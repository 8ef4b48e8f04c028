#include "libfuzzdriver/failure_claim.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
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

// Who holds a claim: "host pid", the claim file's first line.
std::string owner() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return std::string(host) + " " + std::to_string(getpid());
}

// A claim of a process of this host that no longer runs is stale whatever its age: the
// run ended (found it, or was killed) and another run now finds the failure again.
bool owner_gone(const std::string& claim_owner) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  auto space = claim_owner.rfind(' ');
  if (space == std::string::npos || claim_owner.substr(0, space) != host) return false;
  pid_t pid = static_cast<pid_t>(std::atol(claim_owner.c_str() + space + 1));
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

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
    write_file_atomic(mine, owner() + "\n");
    int rc = ::link(mine.c_str(), file_.c_str());
    int err = errno;
    ::unlink(mine.c_str());
    if (rc == 0) return true;
    if (err != EEXIST) return true;  // no claims here (read-only, no link support): just write
    struct stat st;
    if (::stat(file_.c_str(), &st) != 0) continue;  // taken back meanwhile: try again
    std::string text;
    try {
      text = read_file_bytes(file_);
    } catch (const std::exception&) {
    }
    auto newline = text.find('\n');
    std::string claim_owner = text.substr(0, newline);
    std::string path = newline == std::string::npos ? "" : text.substr(newline + 1);
    auto claimed = std::chrono::system_clock::time_point(std::chrono::seconds(st.st_mtim.tv_sec));
    // A claim made while this run ran is honoured, even if its run has ended since. One
    // made before it started is stale if its run has ended (this host) or if it is older
    // than runs started together would make it (another host: nothing tells).
    auto started = std::chrono::floor<std::chrono::seconds>(run_start_);
    if (claimed < started && (owner_gone(claim_owner) || claimed + kStartSlack < started)) {
      ::unlink(file_.c_str());
      continue;
    }
    if (!path.empty() && fs::is_regular_file(path, ec)) {
      other_path_ = path;
      return false;
    }
    // No reproducer (yet): wait for a claiming run that may still write it, not for one
    // that has ended (killed while minimizing, or its file removed since).
    if (owner_gone(claim_owner) || std::chrono::steady_clock::now() >= deadline) {
      ::unlink(file_.c_str());
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

void FailureClaim::record(const std::string& path) {
  try {
    std::error_code ec;
    write_file_atomic(file_, owner() + "\n" + fs::absolute(path, ec).string());
  } catch (const std::exception&) {
    // Claims are a courtesy to other runs: this run's report does not depend on them.
  }
}

}  // namespace cfuzz::driver
