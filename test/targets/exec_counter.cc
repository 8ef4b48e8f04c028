// Appends one byte to $CFUZZ_TEST_COUNT_FILE per execution, so that a test can count
// exactly how many executions a run made across all its workers; and, to
// $CFUZZ_TEST_LENGTH_FILE, the length of each input as two bytes, little-endian.
#include <cfuzz/cfuzz.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

CFUZZ_TEST(FuzzCount, f) {
  f.add(std::vector<std::uint8_t>{'a'});
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t> input) {
    static int fd = [] {
      const char* path = std::getenv("CFUZZ_TEST_COUNT_FILE");
      return path != nullptr ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    }();
    static int length_fd = [] {
      const char* path = std::getenv("CFUZZ_TEST_LENGTH_FILE");
      return path != nullptr ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    }();
    if (fd >= 0) {
      ssize_t n = write(fd, "x", 1);
      (void)n;
    }
    if (length_fd >= 0) {
      std::size_t len = input.size() < 65535 ? input.size() : 65535;
      const std::uint8_t le[2] = {static_cast<std::uint8_t>(len), static_cast<std::uint8_t>(len >> 8)};
      ssize_t n = write(length_fd, le, 2);
      (void)n;
    }
  });
}
