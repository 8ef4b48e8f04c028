// Comparison guidance: a strcmp against a keyword.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* d, size_t size) {
  std::string s(reinterpret_cast<const char*>(d), size);  // NUL-terminated copy
  if (strcmp(s.c_str(), "open-sesame!") == 0) abort();
  return 0;
}
