// The baseline an earlier run of the same binary measured, kept beside the cache.
#include "libfuzzdriver/corpus/baseline_cache.h"

#include <cerrno>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "libfuzzdriver/util/file_io.h"
#include "test/support/temp_dir.h"

namespace cfuzz::driver {
namespace {

TEST(BaselineCache, ReadsBackWhatItSavedForTheSameBinaryOnly) {
  test::TempDir dir;
  std::string path = BaselineCache::path_for((dir.path() / "FuzzX").string());
  EXPECT_EQ(path, (dir.path() / "FuzzX.baseline").string());
  std::string binary = (dir.path() / "target").string();
  write_file_atomic(binary, "one build");
  std::string id = BaselineCache::binary_identity(binary);
  ASSERT_EQ(id.size(), 32u);

  BaselineCache cache;
  cache.put(BaselineCache::key_of("go test fuzz v1\n[]byte(\"a\")\n"), {8, 9, 17});
  cache.put(BaselineCache::key_of("go test fuzz v1\n[]byte(\"b\")\n"), {});
  EXPECT_TRUE(cache.changed());
  cache.save(dir.str(), path, id);
  cache.mark_written();
  EXPECT_FALSE(cache.changed());

  BaselineCache back = BaselineCache::load(path, id);
  ASSERT_EQ(back.size(), 2u);
  const auto* a = back.find(BaselineCache::key_of("go test fuzz v1\n[]byte(\"a\")\n"));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(*a, (std::vector<std::uint32_t>{8, 9, 17}));
  EXPECT_EQ(back.find(BaselineCache::key_of("go test fuzz v1\n[]byte(\"c\")\n")), nullptr);

  write_file_atomic(binary, "another build");
  std::string other = BaselineCache::binary_identity(binary);
  EXPECT_NE(other, id);
  EXPECT_EQ(BaselineCache::load(path, other).size(), 0u) << "another binary's counters mean other things";
}

TEST(BaselineCache, ATruncatedOrForeignFileIsIgnored) {
  test::TempDir dir;
  std::string path = (dir.path() / "FuzzX.baseline").string();
  std::string id(32, 'a');
  BaselineCache cache;
  cache.put(1, {1, 2, 3, 4});
  cache.save(dir.str(), path, id);
  std::string bytes = read_file_bytes(path);
  write_file_atomic(path, bytes.substr(0, bytes.size() - 3));  // a run killed mid-write, or a full disk
  EXPECT_EQ(BaselineCache::load(path, id).size(), 0u);
  write_file_atomic(path, "go test fuzz v1\nint(1)\n");
  EXPECT_EQ(BaselineCache::load(path, id).size(), 0u);
  EXPECT_EQ(BaselineCache::load((dir.path() / "missing").string(), id).size(), 0u);
  EXPECT_EQ(BaselineCache::binary_identity((dir.path() / "missing").string()), "");
}

TEST(BaselineCache, OnlyTheWantedEntriesAreKeptAndALinkIsNeitherReadNorWrittenThrough) {
  test::TempDir dir;
  std::string path = (dir.path() / "FuzzX.baseline").string();
  std::string id(32, 'b');
  BaselineCache cache;
  cache.put(1, {8});
  cache.put(2, {9, 10});
  cache.save(dir.str(), path, id);
  BaselineCache wanted = BaselineCache::load(path, id, [](std::uint64_t key) { return key == 2; });
  EXPECT_EQ(wanted.size(), 1u);
  EXPECT_NE(wanted.find(2), nullptr);

  std::string bytes = read_file_bytes(path);
  std::filesystem::remove(path);
  write_file_atomic((dir.path() / "elsewhere").string(), bytes);
  std::filesystem::create_symlink(dir.path() / "elsewhere", path);
  EXPECT_EQ(BaselineCache::load(path, id).size(), 0u) << "read through a link";
  try {
    cache.save(dir.str(), path, id);
    ADD_FAILURE() << "written through a link";
  } catch (const FileError& e) {
    EXPECT_EQ(e.error(), ELOOP);
  }
  EXPECT_EQ(read_file_bytes(dir.path() / "elsewhere"), bytes);
}

TEST(BaselineCache, ACountLargerThanTheFileIsRejectedWithoutAllocatingIt) {
  std::string id(32, 'c');
  std::string bytes = "cfuzz-baseline-1\n" + id + "\n";
  std::uint64_t key = 7;
  std::uint32_t count = 0xffffffff;
  bytes.append(reinterpret_cast<const char*>(&key), 8);
  bytes.append(reinterpret_cast<const char*>(&count), 4);
  bytes += "abcd";
  EXPECT_EQ(BaselineCache::parse(bytes, id).size(), 0u);
}

}  // namespace
}  // namespace cfuzz::driver
