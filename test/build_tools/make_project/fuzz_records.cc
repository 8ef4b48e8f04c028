// The harness of the make-built project: it reaches code in a static library (adler32) and
// in a shared library (record_weight), both compiled by the cfuzz wrappers.
#include <cfuzz/cfuzz.h>

#include <string_view>

#include "checksum.h"
#include "record.h"

CFUZZ_TEST(FuzzRecords, f) {
  f.add("id:7;name:widget;size:10;");
  f.fuzz([](cfuzz::T& t, std::string_view text) {
    int weight = record_weight(text.data(), text.size());
    if (weight < 0) return;
    auto sum = adler32(reinterpret_cast<const unsigned char*>(text.data()), text.size());
    t.logf("weight %d, adler32 %08x", weight, sum);
  });
}
