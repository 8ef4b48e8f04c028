// One reproducer per failure among runs that share a cache directory (several runs on one
// host, or hosts sharing it over NFS): the first run to find a failure claims it, the
// others report it too but point at the file the first one wrote.
//
//   <target cache>/.claims/<FuzzName>-<hash of the failure's signature>
//
// A claim is created with link(2), which is atomic on NFS as on local filesystems (no
// locks). It holds its owner ("host pid") and, once written, the reproducer's path. A
// claim made before this run started is stale, and taken over, when its owner is a process
// of this host that has ended, or when it is over a minute older than this run (another
// host, where nothing tells whether the owner still runs).
//
// Claims are written by whoever shares the cache, so they are read as hostile: through no
// symbolic link, at most kClaimFileLimit bytes, and parsed by parse_claim, which accepts
// only an owner "host pid" and an absolute path that is safe to print in a command; and
// the path is taken for the reproducer only if it is one: a file
// .../testdata/fuzz/<FuzzName>/<name> whose name is its content's hash, as cfuzz names them.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cfuzz::driver {

inline constexpr std::uint64_t kClaimFileLimit = 8192;

struct ClaimText {
  std::string host;
  pid_t pid = 0;
  std::string path;  // the reproducer; empty until it is written
};

// A claim file's text as cfuzz writes it ("host pid\n" and the path); none when it is
// anything else.
std::optional<ClaimText> parse_claim(std::string_view text);

class FailureClaim {
 public:
  // `claims_dir`: <target cache>/.claims, below the cache root `root` (no symbolic link
  // below it is followed); `key`: the fuzz test and the failure's signature.
  FailureClaim(std::string root, std::string claims_dir, const std::string& test, const std::string& signature,
               std::chrono::system_clock::time_point run_start);

  // True when this run is to write the reproducer. False when another run claimed the
  // failure first: `other_path()` is then what it wrote (waiting a little for it).
  bool acquire();
  std::string other_path() const { return other_path_; }

  // Records the reproducer this run wrote, for the others.
  void record(const std::string& path);

 private:
  // Whether `path`, from a claim, is a reproducer of this fuzz test.
  bool is_reproducer(const std::string& path) const;

  std::string root_, dir_, name_, test_;
  std::chrono::system_clock::time_point run_start_;
  std::string other_path_;
};

}  // namespace cfuzz::driver
