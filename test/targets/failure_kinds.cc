// Every way a target can fail, one at a time: CFUZZ_TEST_FAILURE names the kind, and any
// input whose first byte is 'X' triggers it (the seed "hello" is one byte away).
#include <cfuzz/cfuzz.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <climits>

namespace {

const std::string& kind() {
  static const std::string k = [] {
    const char* e = std::getenv("CFUZZ_TEST_FAILURE");
    return std::string(e != nullptr ? e : "");
  }();
  return k;
}

__attribute__((noinline)) int recurse(int n) {
  volatile char pad[512];
  pad[0] = static_cast<char>(n);
  return recurse(n + 1) + pad[0];
}

// A recursion that ends, 4000 frames deep: about 2 MB of stack, within the real stack but
// over the stack limit.
__attribute__((noinline)) int deep(int n) {
  volatile char pad[512];
  pad[0] = static_cast<char>(n);
  if (n == 0) return 0;
  return deep(n - 1) + pad[0];
}

int shared_counter;
// Where "leak" puts its allocation, and forgets it at once (libFuzzer's LeakTest does so).
void* volatile leak_sink;

// Whether this process is a cfuzz worker (started with --cfuzz-worker=...).
bool in_worker() {
  char cmdline[4096] = {};
  FILE* f = std::fopen("/proc/self/cmdline", "r");
  if (f == nullptr) return false;
  std::size_t n = std::fread(cmdline, 1, sizeof cmdline - 1, f);
  std::fclose(f);
  for (std::size_t i = 0; i < n; i += std::strlen(cmdline + i) + 1) {
    if (std::strncmp(cmdline + i, "--cfuzz-worker", 14) == 0) return true;
  }
  return false;
}

// Puts a pipe in front of the RPC response descriptor (fd 4) and forwards what the worker
// writes with each response's "new_words" turned into invalid hex: responses stay well
// framed, with the right ids, and lie.
void forge_responses() {
  static bool forging = false;
  if (forging) return;
  forging = true;
  int real = dup(4);
  int p[2];
  if (real < 0 || pipe(p) != 0) std::abort();
  dup2(p[1], 4);
  close(p[1]);
  std::thread([real, in = p[0]] {
    std::string pending;
    char buf[4096];
    for (ssize_t n; (n = read(in, buf, sizeof buf)) > 0;) {
      pending.append(buf, static_cast<std::size_t>(n));
      for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
        std::string line = pending.substr(0, nl + 1);
        pending.erase(0, nl + 1);
        if (auto at = line.find("\"new_words\":["); at != std::string::npos) {
          line.insert(at + 13, "\"zz\",");
          if (line.compare(at + 13 + 5, 1, "]") == 0) line.erase(at + 13 + 4, 1);  // was empty
        }
        if (write(real, line.data(), line.size()) < 0) return;
      }
    }
  }).detach();
}

void fail(cfuzz::T& t, std::span<const std::uint8_t> d) {
  const std::string& k = kind();
  if (k == "fatal" || k == "two") t.fatalf("fatal failure on input of %zu bytes", d.size());
  if (k == "error") t.error("error failure");
  if (k == "exception") throw std::runtime_error("exception failure");
  if (k == "abort") std::abort();
  if (k == "assert") assert(d[0] != 'X' && "assertion failure");
  if (k == "segv") *static_cast<volatile int*>(nullptr) = 1;
  if (k == "bus") {
    // Reading a mapped page past the end of its (empty) file raises SIGBUS.
    FILE* f = std::tmpfile();
    auto* p = static_cast<volatile char*>(mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fileno(f), 0));
    (void)p[0];
  }
  if (k == "leak") {
    leak_sink = new int[16];
    leak_sink = nullptr;
  }
  if (k == "fpe") {
    volatile int zero = 0;
    volatile int r = 7 / zero;
    (void)r;
  }
  if (k == "ill") __builtin_trap();
  if (k == "stack") recurse(1);
  if (k == "deep") deep(4000);
  if (k == "exit") std::exit(3);
  if (k == "_exit") _exit(4);
  if (k == "hang") {
    for (volatile int i = 0;; i = i + 1) {
    }
  }
  if (k == "oom") {
    std::vector<char*> blocks;
    for (;;) {
      char* b = static_cast<char*>(std::malloc(64 << 20));
      std::memset(b, 1, 64 << 20);
      blocks.push_back(b);
    }
  }
  if (k == "close_rpc") {
    close(3);
    close(4);
  }
  if (k == "forged_rpc") {
    if (!in_worker()) std::abort();  // a seed run has no RPC to forge: fail there too
    forge_responses();
  }
  if (k == "garbage_rpc") {
    ssize_t n = write(4, "garbage!\n", 9);
    (void)n;
  }
  if (k == "scribble_shm") {
    // A wild write over cfuzz's shared memory (found in /proc/self/maps). A seed run has
    // none, and aborts instead, so that the saved input still fails there.
    bool wrote = false;
    if (FILE* maps = std::fopen("/proc/self/maps", "r")) {
      char line[512];
      while (std::fgets(line, sizeof line, maps) != nullptr) {
        unsigned long lo = 0, hi = 0;
        if (std::strstr(line, "memfd:cfuzz-worker") != nullptr && std::sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
          std::memset(reinterpret_cast<void*>(lo), 0xa5, hi - lo);
          wrote = true;
        }
      }
      std::fclose(maps);
    }
    if (!wrote) std::abort();
  }
  if (k == "fork_abort") {
    // A child that outlives the worker and holds its pipes open; the worker itself aborts.
    // (Only in a worker: a seed run's child exits at once.)
    if (fork() == 0) {
      close(1);
      close(2);
      if (in_worker()) sleep(30);  // keep the worker's pipes open
      _exit(0);
    }
    std::abort();
  }
  if (k == "asan") {
    auto* p = static_cast<char*>(std::malloc(d.size()));
    std::memcpy(p, d.data(), d.size());
    volatile char c = p[d.size()];  // one past the end
    (void)c;
    std::free(p);
  }
  if (k == "ubsan") {
    volatile int big = INT_MAX;
    volatile int r = big + static_cast<int>(d.size());
    (void)r;
  }
  if (k == "tsan") {
    std::thread a([] {
      for (int i = 0; i < 1000; ++i) shared_counter = shared_counter + 1;
    });
    std::thread b([] {
      for (int i = 0; i < 1000; ++i) shared_counter = shared_counter + 1;
    });
    a.join();
    b.join();
  }
}

}  // namespace

CFUZZ_TEST(FuzzFailure, f) {
  f.add(std::vector<std::uint8_t>{'h', 'e', 'l', 'l', 'o'});
  f.fuzz([](cfuzz::T& t, std::span<const std::uint8_t> d) {
    // A descriptor the test opened before starting cfuzz must not reach the worker.
    if (kind() == "inherited_fd" && fcntl(9, F_GETFD) != -1) std::abort();
    if (!d.empty() && d[0] == 'X') fail(t, d);
    // "two": a second, different failure on 'Y', for --keepfuzzing.
    if (!d.empty() && d[0] == 'Y' && kind() == "two") std::abort();
  });
}
