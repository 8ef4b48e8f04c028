// memcmp, strcmp and friends, for targets built without a sanitizer runtime.
//
// AddressSanitizer, ThreadSanitizer and MemorySanitizer intercept these functions and call
// the __sanitizer_weak_hook_* functions that feed comparison-guided mutation (sancov.cc).
// Without them nobody calls the hooks, so this archive (libcfuzz_interceptors.a, linked by
// cfuzz-clang++ and cfuzz_add_fuzz_test only when no such sanitizer is used) defines the
// functions itself: the real one (found with dlsym), then the hook. As libFuzzer's
// libclang_rt.fuzzer_interceptors does.
#include <dlfcn.h>

#include <cctype>
#include <cstddef>
#include <cstdint>

extern "C" {
void __sanitizer_weak_hook_memcmp(void* pc, const void* s1, const void* s2, std::size_t n, int result);
void __sanitizer_weak_hook_strncmp(void* pc, const char* s1, const char* s2, std::size_t n, int result);
void __sanitizer_weak_hook_strcmp(void* pc, const char* s1, const char* s2, int result);
void __sanitizer_weak_hook_strncasecmp(void* pc, const char* s1, const char* s2, std::size_t n, int result);
void __sanitizer_weak_hook_strcasecmp(void* pc, const char* s1, const char* s2, int result);
void __sanitizer_weak_hook_strstr(void* pc, const char* s1, const char* s2, char* result);
void __sanitizer_weak_hook_strcasestr(void* pc, const char* s1, const char* s2, char* result);
void __sanitizer_weak_hook_memmem(void* pc, const void* s1, std::size_t n1, const void* s2, std::size_t n2,
                                  void* result);
}

namespace {

using MemcmpFn = int (*)(const void*, const void*, std::size_t);
using StrcmpFn = int (*)(const char*, const char*);
using StrncmpFn = int (*)(const char*, const char*, std::size_t);
using StrstrFn = char* (*)(const char*, const char*);
using MemmemFn = void* (*)(const void*, std::size_t, const void*, std::size_t);

struct Real {
  MemcmpFn memcmp, bcmp;
  StrcmpFn strcmp, strcasecmp;
  StrncmpFn strncmp, strncasecmp;
  StrstrFn strstr, strcasestr;
  MemmemFn memmem;
};
Real real;
bool resolved = false;
bool resolving = false;

// The dynamic loader compares strings itself while it looks the real functions up: those
// comparisons use these plain versions.
int plain_memcmp(const void* a, const void* b, std::size_t n) {
  auto* x = static_cast<const unsigned char*>(a);
  auto* y = static_cast<const unsigned char*>(b);
  for (std::size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return 0;
}

int plain_strncmp(const char* a, const char* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
    if (x == 0) return 0;
  }
  return 0;
}

bool ready() {
  if (resolved) return true;
  if (resolving) return false;
  resolving = true;
  real.memcmp = reinterpret_cast<MemcmpFn>(dlsym(RTLD_NEXT, "memcmp"));
  real.bcmp = reinterpret_cast<MemcmpFn>(dlsym(RTLD_NEXT, "bcmp"));
  real.strcmp = reinterpret_cast<StrcmpFn>(dlsym(RTLD_NEXT, "strcmp"));
  real.strcasecmp = reinterpret_cast<StrcmpFn>(dlsym(RTLD_NEXT, "strcasecmp"));
  real.strncmp = reinterpret_cast<StrncmpFn>(dlsym(RTLD_NEXT, "strncmp"));
  real.strncasecmp = reinterpret_cast<StrncmpFn>(dlsym(RTLD_NEXT, "strncasecmp"));
  real.strstr = reinterpret_cast<StrstrFn>(dlsym(RTLD_NEXT, "strstr"));
  real.strcasestr = reinterpret_cast<StrstrFn>(dlsym(RTLD_NEXT, "strcasestr"));
  real.memmem = reinterpret_cast<MemmemFn>(dlsym(RTLD_NEXT, "memmem"));
  resolving = false;
  resolved = real.memcmp != nullptr && real.bcmp != nullptr && real.strcmp != nullptr && real.strcasecmp != nullptr &&
             real.strncmp != nullptr && real.strncasecmp != nullptr && real.strstr != nullptr &&
             real.strcasestr != nullptr && real.memmem != nullptr;
  return resolved;
}

#define CFUZZ_PC __builtin_return_address(0)

}  // namespace

extern "C" {

int memcmp(const void* a, const void* b, std::size_t n) {
  if (!ready()) return plain_memcmp(a, b, n);
  int r = real.memcmp(a, b, n);
  __sanitizer_weak_hook_memcmp(CFUZZ_PC, a, b, n, r);
  return r;
}

int bcmp(const void* a, const void* b, std::size_t n) {
  if (!ready()) return plain_memcmp(a, b, n);
  int r = real.bcmp(a, b, n);
  __sanitizer_weak_hook_memcmp(CFUZZ_PC, a, b, n, r);
  return r;
}

int strcmp(const char* a, const char* b) {
  if (!ready()) return plain_strncmp(a, b, SIZE_MAX);
  int r = real.strcmp(a, b);
  __sanitizer_weak_hook_strcmp(CFUZZ_PC, a, b, r);
  return r;
}

int strncmp(const char* a, const char* b, std::size_t n) {
  if (!ready()) return plain_strncmp(a, b, n);
  int r = real.strncmp(a, b, n);
  __sanitizer_weak_hook_strncmp(CFUZZ_PC, a, b, n, r);
  return r;
}

int strcasecmp(const char* a, const char* b) {
  if (!ready()) return plain_strncmp(a, b, SIZE_MAX);
  int r = real.strcasecmp(a, b);
  __sanitizer_weak_hook_strcasecmp(CFUZZ_PC, a, b, r);
  return r;
}

int strncasecmp(const char* a, const char* b, std::size_t n) {
  if (!ready()) return plain_strncmp(a, b, n);
  int r = real.strncasecmp(a, b, n);
  __sanitizer_weak_hook_strncasecmp(CFUZZ_PC, a, b, n, r);
  return r;
}

char* strstr(const char* haystack, const char* needle) {
  if (!ready()) return nullptr;  // only the loader calls it this early, and not this one
  char* r = real.strstr(haystack, needle);
  __sanitizer_weak_hook_strstr(CFUZZ_PC, haystack, needle, r);
  return r;
}

char* strcasestr(const char* haystack, const char* needle) {
  if (!ready()) return nullptr;
  char* r = real.strcasestr(haystack, needle);
  __sanitizer_weak_hook_strcasestr(CFUZZ_PC, haystack, needle, r);
  return r;
}

void* memmem(const void* haystack, std::size_t hlen, const void* needle, std::size_t nlen) {
  if (!ready()) return nullptr;
  void* r = real.memmem(haystack, hlen, needle, nlen);
  __sanitizer_weak_hook_memmem(CFUZZ_PC, haystack, hlen, needle, nlen, r);
  return r;
}

}  // extern "C"
