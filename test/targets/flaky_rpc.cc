// Writes garbage on the RPC response pipe once, ever: on the 50th execution of the first
// worker, recorded by creating the file $CFUZZ_TEST_MARKER. A malformed message that no
// input reproduces: the coordinator must survive it and go on fuzzing.
#include <cfuzz/cfuzz.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

CFUZZ_TEST(FuzzFlakyRpc, f) {
  f.add(std::vector<std::uint8_t>{'a'});
  f.fuzz([](cfuzz::T&, std::span<const std::uint8_t>) {
    static int calls = 0;
    const char* marker = std::getenv("CFUZZ_TEST_MARKER");
    if (++calls == 50 && marker != nullptr) {
      int fd = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd >= 0) {
        close(fd);
        ssize_t n = write(4, "{\"not\": \"json-rpc\"}\n", 20);
        (void)n;
      }
    }
  });
}
