#include "libfuzzdriver/corpus/failure_claim.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include <xxhash.h>

#include "libfuzzdriver/corpus/content_name.h"
#include "libfuzzdriver/util/file_io.h"

namespace cfuzz::driver {

namespace fs = std::filesystem;

namespace {

// How long a run waits for the claiming run to write the path of its reproducer (it may
// still be minimizing) before it writes its own.
constexpr std::chrono::seconds kWaitForOther{90};
// Runs started together find a failure at different moments; a claim made up to this long
// before this run started is still theirs.
constexpr std::chrono::seconds kStartSlack{60};
// A reproducer is read to check its name; one bigger than this is not taken for one.
constexpr std::uint64_t kReproducerLimit = std::uint64_t{256} << 20;

std::string this_host() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

// A claim of a process of this host that no longer runs is stale whatever its age: the
// run ended (found it, or was killed) and another run now finds the failure again.
bool owner_gone(const ClaimText& claim) {
  return claim.host == this_host() && ::kill(claim.pid, 0) != 0 && errno == ESRCH;
}

// Characters a path may hold to be printed in a re-run command as it is: no control
// characters, nothing a shell would act on.
bool printable_in_a_command(std::string_view s) {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || std::string_view("`$\\\"';&|<>()*?[]{}~!#").find(c) != std::string_view::npos) {
      return false;
    }
  }
  return true;
}

// Who holds a claim: "host pid", the claim file's first line.
std::string owner() { return this_host() + " " + std::to_string(getpid()); }

}  // namespace

std::optional<ClaimText> parse_claim(std::string_view text) {
  if (text.size() > kClaimFileLimit) return std::nullopt;
  auto newline = text.find('\n');
  std::string_view owner_line = text.substr(0, newline);
  std::string_view path = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  auto space = owner_line.rfind(' ');
  if (space == std::string_view::npos || space == 0 || space > 255) return std::nullopt;
  std::string_view host = owner_line.substr(0, space);
  std::string_view pid = owner_line.substr(space + 1);
  if (pid.empty() || pid.size() > 9 || !printable_in_a_command(host)) return std::nullopt;
  ClaimText c;
  for (char d : pid) {
    if (d < '0' || d > '9') return std::nullopt;
    c.pid = c.pid * 10 + (d - '0');
  }
  if (c.pid <= 0) return std::nullopt;
  if (!path.empty() && (path[0] != '/' || path.size() > 4096 || !printable_in_a_command(path))) return std::nullopt;
  c.host = host;
  c.path = path;
  return c;
}

FailureClaim::FailureClaim(std::string root, std::string claims_dir, const std::string& test,
                           const std::string& signature, std::chrono::system_clock::time_point run_start)
    : root_(std::move(root)), dir_(std::move(claims_dir)), test_(test), run_start_(run_start) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(signature.data(), signature.size())));
  name_ = test + "-" + hash;
}

bool FailureClaim::is_reproducer(const std::string& path) const {
  // Not a file elsewhere that a hostile claim points at: this run would save nothing of its own.
  fs::path p(path);
  if (p.parent_path().filename() != test_ || p.parent_path().parent_path().filename() != "fuzz" ||
      p.parent_path().parent_path().parent_path().filename() != "testdata") {
    return false;
  }
  try {
    return content_name(read_untrusted_file(p, kReproducerLimit)) == p.filename().string();
  } catch (const FileError&) {
    return false;  // missing (not written yet, or removed), a link, too big
  }
}

bool FailureClaim::acquire() {
  std::optional<Directory> dir;
  try {
    dir.emplace(Directory::open_below(root_, dir_, /*create=*/true));
  } catch (const FileError&) {
    return true;  // no claims here (read-only, full, a link in the way): just write
  }
  const int fd = dir->fd();
  std::string mine = ".cfuzz-tmp-claim-" + std::to_string(getpid());
  auto deadline = std::chrono::steady_clock::now() + kWaitForOther;
  for (;;) {
    try {
      dir->write_file_atomic(mine, owner() + "\n");
    } catch (const FileError&) {
      return true;
    }
    // linkat never replaces what is at the name, nor follows a link there.
    int rc = ::linkat(fd, mine.c_str(), fd, name_.c_str(), 0);
    int err = errno;
    ::unlinkat(fd, mine.c_str(), 0);
    if (rc == 0) return true;
    if (err != EEXIST) return true;  // no link support: just write
    struct stat st;
    if (::fstatat(fd, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // taken back meanwhile: try again
    std::optional<ClaimText> claim;
    try {
      claim = parse_claim(read_untrusted_file(dir->path() / name_, kClaimFileLimit));
    } catch (const FileError&) {
    }
    if (!claim) {  // not a claim cfuzz wrote (a link, garbage): nobody's, taken over
      ::unlinkat(fd, name_.c_str(), 0);
      continue;
    }
    auto claimed = std::chrono::system_clock::time_point(std::chrono::seconds(st.st_mtim.tv_sec));
    // A claim made while this run ran is honoured, even if its run has ended since. One
    // made before it started is stale if its run has ended (this host) or if it is older
    // than runs started together would make it (another host: nothing tells).
    auto started = std::chrono::floor<std::chrono::seconds>(run_start_);
    if (claimed < started && (owner_gone(*claim) || claimed + kStartSlack < started)) {
      ::unlinkat(fd, name_.c_str(), 0);
      continue;
    }
    if (is_reproducer(claim->path)) {
      other_path_ = claim->path;
      return false;
    }
    // No reproducer yet: wait for a claiming run that may still write it, not for one that
    // has ended (killed while minimizing), nor for a path that names no reproducer (its
    // file removed since, or a claim that was never a run's).
    if (!claim->path.empty() || owner_gone(*claim) || std::chrono::steady_clock::now() >= deadline) {
      ::unlinkat(fd, name_.c_str(), 0);
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

void FailureClaim::record(const std::string& path) {
  try {
    std::error_code ec;
    Directory::open_below(root_, dir_, /*create=*/true)
        .write_file_atomic(name_, owner() + "\n" + fs::absolute(path, ec).string());
  } catch (const std::exception&) {
    // Claims are a courtesy to other runs: this run's report does not depend on them.
  }
}

}  // namespace cfuzz::driver
