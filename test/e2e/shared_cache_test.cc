// Several `cfuzz run` on one cache directory at the same time (runs on one host, or hosts
// sharing the directory): each imports what the others write while it runs, the failure
// they all find is saved once, and a run killed with SIGKILL leaves no torn or duplicate file.
#include <csignal>
#include <map>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test/support/test_support.h"

namespace cfuzz::test {
namespace {

namespace fs = std::filesystem;

TEST(SharedCache, TwoRunsImportEachOthersEntriesWhileRunningAndCombineTheHalvesOfABug) {
  // Each run can find one half alone (test/targets/shared_cache.cc); the bug needs both.
  TempDir dir;
  auto start = [&](const std::string& half) {
    return std::make_unique<Background>(
        std::vector<std::string>{cfuzz(), "run", target("shared_cache"), "--cachedir", (dir / "cache").string(),
                                 "--parallel", "1", "--fuzztime", "60s", "--fuzzminimizetime", "0s", "--json"},
        CommandOptions{.cwd = dir.str(), .env = {"CFUZZ_TEST_HALF=" + half}});
  };
  auto a = start("a");
  auto b = start("b");
  CommandResult ra = a->wait(std::chrono::seconds(120));
  CommandResult rb = b->wait(std::chrono::seconds(120));
  for (const CommandResult* r : {&ra, &rb}) {
    EXPECT_EQ(r->exit_code, 1) << r->all();
    nlohmann::json failure = last_event(r->out, "failure");
    ASSERT_FALSE(failure.is_null()) << r->all();
    EXPECT_EQ(failure["summary"], "deadly signal SIGABRT") << r->all();
    nlohmann::json done = last_event(r->out, "done");
    ASSERT_FALSE(done.is_null()) << r->all();
    // Imported while running; or, for a run that started late (a loaded machine), already
    // in the cache when it started: either way from the other run.
    nlohmann::json baseline = last_event(r->out, "baseline");
    EXPECT_TRUE(done["synced"].get<int>() > 0 || (!baseline.is_null() && baseline["total"].get<int>() > 0)) << r->all();
  }
  // Both report the failure; one reproducer is written, and the other run points at it.
  std::vector<fs::path> saved = files_in(dir / "testdata/fuzz/FuzzTwoHalves");
  EXPECT_EQ(saved.size(), 1u) << ra.out << rb.out;
  int by_other = 0;
  for (const CommandResult* r : {&ra, &rb}) {
    nlohmann::json failure = last_event(r->out, "failure");
    if (failure.contains("written_by_other_run")) {
      ++by_other;
      ASSERT_EQ(saved.size(), 1u);
      EXPECT_EQ(fs::path(failure["written_to"].get<std::string>()).filename(), saved[0].filename()) << r->out;
    }
  }
  EXPECT_EQ(by_other, 1) << ra.out << rb.out;
  // The re-run command of either report reproduces the failure.
  auto rerun = run({target("shared_cache"), "--run", "FuzzTwoHalves/" + saved[0].filename().string()},
                   {.cwd = dir.str(), .env = {"CFUZZ_TEST_HALF=a"}});
  EXPECT_EQ(rerun.exit_code, 1) << rerun.all();
}

TEST(SharedCache, AnEntryFromAnotherRunThatFailsHereIsAFindingOfThisRun) {
  // Half "a" cannot find b's value; the entry another run writes has both, and a note.
  TempDir dir;
  Background r({cfuzz(), "run", target("shared_cache"), "--cachedir", (dir / "cache").string(), "--parallel", "1",
                "--fuzztime", "60s"},
               {.cwd = dir.str(), .env = {"CFUZZ_TEST_HALF=a"}});
  std::this_thread::sleep_for(std::chrono::seconds(1));
  fs::create_directories(dir / "cache/FuzzTwoHalves");
  // Written as cfuzz writes: a temporary name, then a rename.
  write_file(dir / "cache/FuzzTwoHalves/.x.cfuzz-tmp-test",
             "go test fuzz v1\nuint64(26719232077143269)\nuint64(194269961564133)\nstring(\"from elsewhere\")\n");
  fs::rename(dir / "cache/FuzzTwoHalves/.x.cfuzz-tmp-test", dir / "cache/FuzzTwoHalves/00000000000000ab");
  CommandResult out = r.wait(std::chrono::seconds(120));
  EXPECT_EQ(out.exit_code, 1) << out.all();
  EXPECT_NE(out.out.find("deadly signal SIGABRT"), std::string::npos) << out.all();
  EXPECT_EQ(files_in(dir / "testdata/fuzz/FuzzTwoHalves").size(), 1u) << out.all();
}

TEST(SharedCache, ARunKilledMidwayLeavesNoTornOrDuplicateFilesAndTheOthersGoOn) {
  TempDir dir;
  std::vector<std::unique_ptr<Background>> runs;
  for (int i = 0; i < 3; ++i) {
    runs.push_back(std::make_unique<Background>(
        std::vector<std::string>{cfuzz(), "run", target("maze"), "--cachedir", (dir / "cache").string(), "--parallel",
                                 "1", "--fuzztime", "8s", "--json"},
        CommandOptions{.cwd = dir.str()}));
  }
  std::this_thread::sleep_for(std::chrono::seconds(3));
  runs[0]->signal(SIGKILL);
  runs[0]->wait(std::chrono::seconds(10));
  for (int i = 1; i < 3; ++i) {
    CommandResult r = runs[static_cast<std::size_t>(i)]->wait(std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.all();
    EXPECT_FALSE(last_event(r.out, "done").is_null()) << r.all();
  }
  // Every visible file is a whole corpus file, and no content is there twice.
  std::set<std::string> contents;
  std::size_t files = 0;
  for (const auto& p : fs::directory_iterator(dir / "cache/FuzzMaze")) {
    std::string name = p.path().filename().string();
    if (name.starts_with(".")) continue;  // a temporary file of the killed run's: never read
    ++files;
    std::string text = read_file(p.path());
    EXPECT_TRUE(text.starts_with("go test fuzz v1\n") && text.ends_with(")\n")) << name << ":\n" << text;
    EXPECT_TRUE(contents.insert(text).second) << "twice: " << name;
  }
  EXPECT_GT(files, 1u);
  // The cache loads cleanly in a run of its own.
  auto check = run({cfuzz(), "run", target("maze"), "--cachedir", (dir / "cache").string(), "--fuzztime", "1x"},
                   {.cwd = dir.str()});
  EXPECT_EQ(check.exit_code, 0) << check.all();
  EXPECT_EQ(check.err.find("skipped"), std::string::npos) << check.all();
}

}  // namespace
}  // namespace cfuzz::test
