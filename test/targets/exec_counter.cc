// Appends one byte to $CFUZZ_TEST_COUNT_FILE per execution, so that a test can count
// exactly how many executions a run made across all its workers.
#include <cfuzz/cfuzz.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

CFUZZ_TEST(FuzzCount, f) {
  f.add(std::vector<std::uint8_t>{'a'});
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t>) {
    static int fd = [] {
      const char* path = std::getenv("CFUZZ_TEST_COUNT_FILE");
      return path != nullptr ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    }();
    if (fd >= 0) {
      ssize_t n = write(fd, "x", 1);
      (void)n;
    }
  });
}
