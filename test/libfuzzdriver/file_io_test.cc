// The file layer under faults and hostile trees: writes below a root follow no symbolic
// link, reads of untrusted files are bounded, and a write the disk refuses (injected with
// CFUZZ_TEST_WRITE_FAULT, or a real full tmpfs when the test runs as root) leaves the old
// file whole and no torn, temporary or empty file behind.
#include "libfuzzdriver/util/file_io.h"

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz::driver {
namespace {

namespace fs = std::filesystem;

// The error a call throws as FileError; 0 when it throws nothing.
template <typename F>
int error_of(F&& f) {
  try {
    f();
  } catch (const FileError& e) {
    return e.error() == 0 ? -1 : e.error();
  }
  return 0;
}

// CFUZZ_TEST_WRITE_FAULT for one test.
class InjectedFault {
 public:
  InjectedFault(const std::string& err, const fs::path& prefix) {
    ::setenv("CFUZZ_TEST_WRITE_FAULT", (err + ":" + prefix.string()).c_str(), 1);
  }
  ~InjectedFault() { ::unsetenv("CFUZZ_TEST_WRITE_FAULT"); }
};

// The names in `dir`, hidden ones included.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FileIo, AWriteBelowARootRefusesALinkWhereTheFileShouldBe) {
  test::TempDir d;
  test::write_file(d / "victim", "precious");
  fs::create_directories(d / "root/sub");
  fs::create_symlink(d / "victim", d / "root/sub/file");
  Directory dir = Directory::open_below(d / "root", d / "root/sub", false);
  EXPECT_EQ(error_of([&] { dir.write_file_atomic("file", "hostile"); }), ELOOP);
  EXPECT_EQ(error_of([&] { dir.write_file_atomic("file", "hostile", Durability::WithBatch); }), ELOOP);
  EXPECT_EQ(error_of([&] { dir.append("file", "hostile\n"); }), ELOOP);
  EXPECT_EQ(test::read_file(d / "victim"), "precious");
  EXPECT_TRUE(fs::is_symlink(d / "root/sub/file")) << "left in place, not replaced";
  EXPECT_EQ(names_in(d / "root/sub"), std::vector<std::string>{"file"}) << "no temporary file left";
}

TEST(FileIo, ALinkedDirectoryBelowTheRootIsNotFollowedNorCreatedThrough) {
  test::TempDir d;
  fs::create_directories(d / "elsewhere");
  fs::create_directories(d / "root");
  fs::create_directory_symlink(d / "elsewhere", d / "root/FuzzX");
  try {
    Directory::open_below(d / "root", d / "root/FuzzX/deeper", true);
    ADD_FAILURE() << "opened through a link";
  } catch (const FileError& e) {
    EXPECT_EQ(e.error(), ELOOP);
    EXPECT_NE(std::string(e.what()).find((d / "root/FuzzX").string() + ": it is a symbolic link"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(fs::is_empty(d / "elsewhere"));
  // The root itself is the user's choice: a link there is followed.
  fs::create_directory_symlink(d / "elsewhere", d / "root-link");
  Directory::open_below(d / "root-link", d / "root-link/FuzzY", true).write_file_atomic("f", "x");
  EXPECT_EQ(test::read_file(d / "elsewhere/FuzzY/f"), "x");
  EXPECT_EQ(error_of([&] { Directory::open_below(d / "root", d / "other", true); }), -1) << "not inside the root";
}

TEST(FileIo, AppendRefusesAFifoAndASecondNameOfAnotherFile) {
  test::TempDir d;
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  test::write_file(d / "victim", "precious");
  fs::create_hard_link(d / "victim", d / "hard");
  Directory dir = Directory::open(d.path());
  EXPECT_NE(error_of([&] { dir.append("fifo", "line\n"); }), 0) << "would block the run, or feed a reader";
  EXPECT_EQ(error_of([&] { dir.append("hard", "line\n"); }), ELOOP);
  EXPECT_EQ(test::read_file(d / "victim"), "precious");
  dir.append("new", "one\n");
  dir.append("new", "two\n");
  EXPECT_EQ(test::read_file(d / "new"), "one\ntwo\n");
}

TEST(FileIo, AnUntrustedReadStopsAtItsLimitWithoutReadingTheFile) {
  test::TempDir d;
  test::write_file(d / "small", "twelve bytes");
  EXPECT_EQ(read_untrusted_file(d / "small", 12), "twelve bytes");
  EXPECT_EQ(error_of([&] { read_untrusted_file(d / "small", 11); }), EFBIG);
  // A sparse file of a terabyte: refused by its size, never read.
  { test::write_file(d / "huge", ""); }
  fs::resize_file(d / "huge", std::uintmax_t{1} << 40);
  EXPECT_EQ(error_of([&] { read_untrusted_file(d / "huge", 1 << 20); }), EFBIG);
  fs::create_symlink(d / "small", d / "link");
  EXPECT_EQ(error_of([&] { read_untrusted_file(d / "link", 100); }), ELOOP);
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  EXPECT_NE(error_of([&] { read_untrusted_file(d / "fifo", 100); }), 0) << "and returns at once";
}

TEST(FileIo, AnInjectedFullDiskKeepsTheOldFileWholeAndLeavesNothingTorn) {
  test::TempDir d;
  test::write_file(d / "entry", "the old content\n");
  test::write_file(d / "log", "one whole line\n");
  Directory dir = Directory::open(d.path());
  for (const char* err : {"ENOSPC", "EDQUOT", "EROFS", "EACCES"}) {
    InjectedFault fault(err, d.path());
    int got = error_of([&] { dir.write_file_atomic("entry", std::string(100000, 'n')); });
    EXPECT_TRUE(got != 0 && is_storage_refusal(got)) << err << ": " << got;
    EXPECT_NE(error_of([&] { dir.write_file_atomic("fresh", "x", Durability::WithBatch); }), 0) << err;
    EXPECT_NE(error_of([&] { dir.append("log", "a second line, of which half would land\n"); }), 0) << err;
    EXPECT_NE(error_of([&] { dir.append("new-log", "a line\n"); }), 0) << err;
    EXPECT_NE(error_of([&] { Directory::open_below(d.path(), d / "sub", true); }), 0) << err;
  }
  EXPECT_EQ(test::read_file(d / "entry"), "the old content\n");
  EXPECT_EQ(test::read_file(d / "log"), "one whole line\n") << "the half line was taken back";
  EXPECT_EQ(names_in(d.path()), (std::vector<std::string>{"entry", "log"})) << "no temporary or empty file";
  // Outside the prefix, and without the switch, writes go through.
  dir.write_file_atomic("entry", "new");
  EXPECT_EQ(test::read_file(d / "entry"), "new");
}

TEST(FileIo, ARealFullFileSystemKeepsTheOldFileWholeAndLeavesNothingTorn) {
  test::TempDir d;
  fs::path mnt = d / "mnt";
  fs::create_directories(mnt);
  if (geteuid() != 0) GTEST_SKIP() << "mounting a tmpfs needs root (CI runs the tests as root)";
  if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
  }
  struct Unmount {
    fs::path p;
    ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
  } unmount{mnt};
  Directory dir = Directory::open(mnt);
  dir.write_file_atomic("entry", "the old content\n");
  // A whole page (tmpfs counts pages): the next line needs one more.
  const std::string line = std::string(4095, 'l') + "\n";
  dir.append("log", line);
  EXPECT_EQ(error_of([&] { dir.write_file_atomic("entry", std::string(1 << 20, 'n')); }), ENOSPC);
  EXPECT_EQ(error_of([&] { dir.write_file_atomic("other", std::string(1 << 20, 'n'), Durability::WithBatch); }),
            ENOSPC);
  // Fill it up to the last byte, then append: nothing of the line may stay.
  std::string fill(60 << 10, 'f');
  while (fill.size() > 16) {
    if (error_of([&] { dir.append("filler", fill); }) != 0) fill.resize(fill.size() / 2);
  }
  EXPECT_NE(error_of([&] { dir.append("log", "a second line, longer than what is left of the disk\n"); }), 0);
  EXPECT_EQ(test::read_file(mnt / "entry"), "the old content\n");
  EXPECT_EQ(test::read_file(mnt / "log"), line);
  EXPECT_EQ(names_in(mnt), (std::vector<std::string>{"entry", "filler", "log"}));
}

}  // namespace
}  // namespace cfuzz::driver
