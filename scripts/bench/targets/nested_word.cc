// Coverage guidance: eight nested byte checks spelling a word.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* d, size_t size) {
  if (size >= 8 && d[0] == 'F')
    if (d[1] == 'U')
      if (d[2] == 'Z')
        if (d[3] == 'Z')
          if (d[4] == 'W')
            if (d[5] == 'O')
              if (d[6] == 'R')
                if (d[7] == 'D') abort();
  return 0;
}
