// A disk that takes no more writes (full, over quota, read-only): `cfuzz run` says what it
// could not write and where, stops writing to the cache without stopping the run, never
// loses a failing input (printed in full on standard error when it cannot be saved), and
// leaves no torn or empty file behind. The fault is injected two ways: a small tmpfs that
// really fills up (when the tests run as root, as in CI), and everywhere the file layer's
// test switch (CFUZZ_TEST_WRITE_FAULT, libfuzzdriver/util/file_io.h).
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// No temporary file of an interrupted write, and no empty file, anywhere under `dir`.
void expect_no_torn_files(const fs::path& dir) {
  if (!fs::exists(dir)) return;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::string name = e.path().filename().string();
    EXPECT_EQ(name.find(".cfuzz-tmp-"), std::string::npos) << e.path();
    EXPECT_GT(e.file_size(), 0u) << e.path() << " is empty";
  }
}

// A tmpfs of `kib` KiB at `where`, unmounted when the object goes; mounted() is false
// where the test cannot mount (not root, or no permission in a container).
class SmallTmpfs {
 public:
  SmallTmpfs(const fs::path& where, int kib) : where_(where) {
    fs::create_directories(where);
    if (geteuid() != 0) {
      why_ = "not root";
      return;
    }
    std::string opts = "size=" + std::to_string(kib) + "k";
    if (::mount("tmpfs", where.c_str(), "tmpfs", 0, opts.c_str()) != 0) {
      why_ = std::string("mount failed: ") + std::strerror(errno);
      return;
    }
    mounted_ = true;
  }
  ~SmallTmpfs() {
    if (mounted_) ::umount2(where_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& why_not() const { return why_; }
  bool remount_read_only() { return ::mount("tmpfs", where_.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0; }
  // Writes a file until the file system is full.
  void fill() const {
    std::ofstream out(where_ / "filler", std::ios::binary);
    std::string block(4096, 'f');
    while (out.write(block.data(), static_cast<std::streamsize>(block.size()))) out.flush();
  }

 private:
  fs::path where_;
  bool mounted_ = false;
  std::string why_;
};

std::vector<std::string> fuzz_abort(const fs::path& cache) {
  return {cfuzz(),      "run", target("failure_kinds"), "--cachedir", cache.string(), "--parallel", "1",
          "--fuzztime", "60s"};
}

// The failing input of failure_kinds with CFUZZ_TEST_FAILURE=abort, minimized.
constexpr const char* kAbortInput = "go test fuzz v1\n[]byte(\"X\")\n";

TEST(FullDisk, AFullCacheStopsCacheWritesWithOneWarningAndTheRunGoesOn) {
  TempDir dir;
  for (const char* err : {"ENOSPC", "EDQUOT"}) {
    fs::remove_all(dir / "cache");
    auto r =
        run({cfuzz(), "run", target("maze"), "--cachedir", (dir / "cache").string(), "--parallel", "1", "--fuzztime",
             "20000x", "--seed", "5"},
            {.cwd = dir.str(), .env = {"CFUZZ_TEST_WRITE_FAULT=" + std::string(err) + ":" + (dir / "cache").string()}});
    EXPECT_EQ(r.exit_code, 0) << err << r.all();
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.all();
    EXPECT_GT(std::stoi(line_after(r.out, "new interesting: ")), 0) << "it found entries it could not save";
    // One line says what and where, and that the cache gets no more writes.
    EXPECT_EQ(count_of(r.err, "warning:"), 1u) << err << r.all();
    EXPECT_EQ(count_of(r.err, "nothing more is written to the cache in this run"), 1u) << r.all();
    EXPECT_NE(r.err.find((dir / "cache").string()), std::string::npos) << r.all();
    EXPECT_NE(r.err.find(std::strerror(std::string(err) == "ENOSPC" ? ENOSPC : EDQUOT)), std::string::npos) << r.all();
    expect_no_torn_files(dir / "cache");
  }
}

TEST(FullDisk, AFailingInputThatCannotBeSavedAnywhereIsPrintedInFullOnStandardError) {
  TempDir dir;
  auto r = run(fuzz_abort(dir / "cache"),
               {.cwd = dir.str(), .env = {"CFUZZ_TEST_FAILURE=abort", "CFUZZ_TEST_WRITE_FAULT=ENOSPC:" + dir.str()}});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("deadly signal SIGABRT"), std::string::npos) << r.all();
  EXPECT_EQ(r.out.find("Failing input written to"), std::string::npos) << r.all();
  EXPECT_NE(r.err.find(std::string("here it is in full:\n") + kAbortInput), std::string::npos) << r.all();
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.all();
  EXPECT_TRUE(files_in(dir / "testdata/fuzz/FuzzFailure").empty());
  expect_no_torn_files(dir.path());
}

TEST(FullDisk, ARealFullFileSystemLosesNoFailingInputAndLeavesNoTornFile) {
  TempDir dir;
  SmallTmpfs disk(dir / "disk", 256);
  if (!disk.mounted()) GTEST_SKIP() << "needs a tmpfs of its own (" << disk.why_not() << ")";
  fs::create_directories(dir / "disk/cache");
  disk.fill();
  auto r = run(fuzz_abort(dir / "disk/cache"), {.cwd = (dir / "disk").string(), .env = {"CFUZZ_TEST_FAILURE=abort"}});
  EXPECT_EQ(r.exit_code, 1) << r.all();
  EXPECT_NE(r.out.find("deadly signal SIGABRT"), std::string::npos) << r.all();
  EXPECT_NE(r.err.find(std::string("here it is in full:\n") + kAbortInput), std::string::npos) << r.all();
  fs::remove(dir / "disk/filler");
  expect_no_torn_files(dir / "disk");
}

TEST(FullDisk, AReadOnlyCacheIsReadAndTheRunGoesOnWithOneWarning) {
  TempDir dir;
  SmallTmpfs disk(dir / "disk", 4096);
  // Without a tmpfs of its own, the injected EROFS stands in for the read-only mount.
  std::vector<std::string> env;
  if (!disk.mounted()) env.push_back("CFUZZ_TEST_WRITE_FAULT=EROFS:" + (dir / "disk/cache").string());
  std::vector<std::string> argv{cfuzz(),      "run", target("maze"), "--cachedir", (dir / "disk/cache").string(),
                                "--parallel", "1",   "--fuzztime",   "3000x",      "--seed",
                                "3"};
  auto first = run(argv, {.cwd = dir.str()});
  ASSERT_EQ(first.exit_code, 0) << first.all();
  auto cached = files_in(dir / "disk/cache/FuzzMaze");
  ASSERT_FALSE(cached.empty()) << first.all();
  if (disk.mounted()) ASSERT_TRUE(disk.remount_read_only());
  // More executions and another seed: it finds entries it cannot keep.
  argv.back() = "4";
  argv[8] = "20000x";
  auto second = run(argv, {.cwd = dir.str(), .env = env});
  EXPECT_EQ(second.exit_code, 0) << second.all();
  // The cache was read: its entries are in the baseline's count (and the f.add seed).
  EXPECT_NE(second.out.find("/" + std::to_string(cached.size() + 1) + " completed"), std::string::npos) << second.all();
  EXPECT_EQ(count_of(second.err, "warning:"), 1u) << second.all();
  EXPECT_NE(second.err.find("Read-only file system; nothing more is written to the cache in this run"),
            std::string::npos)
      << second.all();
  EXPECT_EQ(files_in(dir / "disk/cache/FuzzMaze").size(), cached.size());
  expect_no_torn_files(dir / "disk/cache");
}

}  // namespace
}  // namespace cfuzz::test
