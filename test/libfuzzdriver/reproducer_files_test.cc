// Where a failing input goes: testdata/fuzz/<Name>/ with a command that runs it again (and
// the limit that caught a hang), the fallback tree beside the cache with the input in the
// report when testdata/ refuses it, and another run's file when that run claimed the same
// failure first.
#include "libfuzzdriver/run/reproducer_files.h"

#include <filesystem>

#include <gtest/gtest.h>

#include "corpus_format/codec.h"
#include "test/libfuzzdriver/fake_worker.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz::driver {
namespace {

namespace fs = std::filesystem;
using fakes::bytes_entry;
using fakes::failure_of;

class ReproducerFilesTest : public ::testing::Test {
 protected:
  ReproducerFiles::Settings settings(const std::string& srcdir) const {
    ReproducerFiles::Settings s;
    s.test = "FuzzX";
    s.command = "./target";
    s.srcdir = (tmp / srcdir).string();
    s.cache_root = (tmp / "cache").string();
    s.cache_dir = (tmp / "cache" / "target" / "FuzzX").string();
    s.run_start = std::chrono::system_clock::now();
    s.timeout = std::chrono::milliseconds(1500);
    return s;
  }
  cfuzz::test::TempDir tmp;
};

TEST_F(ReproducerFilesTest, AFailingInputGoesUnderTestdataWithTheCommandThatRunsIt) {
  ReproducerFiles files(settings("src"));
  FailureReport r;
  r.failure = failure_of(core::FailureKind::Signal);
  files.save(bytes_entry("boom"), &r);
  std::string name = fs::path(r.written_to).filename().string();
  EXPECT_EQ(cfuzz::test::read_file(tmp / "src" / "testdata" / "fuzz" / "FuzzX" / name),
            corpus::encode(bytes_entry("boom")));
  EXPECT_EQ(r.rerun, "./target --run FuzzX/" + name);
  EXPECT_TRUE(r.write_error.empty());
  EXPECT_TRUE(r.input_v1.empty());
}

TEST_F(ReproducerFilesTest, AHangsRerunCommandCarriesTheTimeoutThatCaughtIt) {
  ReproducerFiles files(settings("src"));
  FailureReport r;
  r.failure = failure_of(core::FailureKind::Timeout);
  files.save(bytes_entry("slow"), &r);
  EXPECT_TRUE(r.rerun.ends_with(" --timeout 1.5s")) << r.rerun;
}

TEST_F(ReproducerFilesTest, WhenTestdataRefusesTheInputItGoesBesideTheCacheAndIntoTheReport) {
  cfuzz::test::write_file(tmp / "src" / "testdata", "a file where the directory should be");
  ReproducerFiles files(settings("src"));
  FailureReport r;
  r.failure = failure_of(core::FailureKind::Signal);
  files.save(bytes_entry("boom"), &r);
  EXPECT_FALSE(r.write_error.empty());
  EXPECT_EQ(r.input_v1, corpus::encode(bytes_entry("boom")));
  fs::path fallback = tmp / "cache" / "target" / "failures";
  std::string name = fs::path(r.written_to).filename().string();
  EXPECT_EQ(cfuzz::test::read_file(fallback / "testdata" / "fuzz" / "FuzzX" / name),
            corpus::encode(bytes_entry("boom")));
  EXPECT_EQ(r.rerun, "./target --run FuzzX/" + name + " --srcdir " + fallback.string());
}

TEST_F(ReproducerFilesTest, ASecondRunWithTheSameFailureNamesTheFirstRunsFile) {
  core::FailureRecord crash = failure_of(core::FailureKind::Signal);
  FailureReport first, second;
  first.failure = second.failure = crash;
  ReproducerFiles(settings("src")).save(bytes_entry("boom"), &first);
  ReproducerFiles(settings("other")).save(bytes_entry("boom!"), &second);
  EXPECT_TRUE(second.written_by_other_run);
  EXPECT_TRUE(fs::equivalent(second.written_to, first.written_to));
  EXPECT_FALSE(fs::exists(tmp / "other" / "testdata"));
  EXPECT_NE(second.rerun.find("--run FuzzX/" + fs::path(first.written_to).filename().string()), std::string::npos);
}

}  // namespace
}  // namespace cfuzz::driver
