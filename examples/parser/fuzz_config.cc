// Fuzz test of the config parser. Two properties:
//   - parse() never crashes, whatever the bytes (AddressSanitizer watches every read);
//   - a config that parses survives serialize() and parse() again unchanged.
#include <cfuzz/cfuzz.h>

#include <string>
#include <string_view>

#include "config.h"

CFUZZ_TEST(FuzzParseConfig, f) {
  f.add("# server\nport = 8080\nhost = example.org  # the public name\n");
  f.add("[tls]\ncert = \"/etc/ssl/cert.pem\"\nbanner = \"caf\\xc3\\xa9 \\\"open\\\"\\n\"\n");
  f.fuzz([](cfuzz::T& t, std::string_view text) {
    auto cfg = config::parse(text);
    // Most random inputs are not valid configs; that is fine, as long as parse() said so
    // without crashing. (A plain return rather than t.skip(): an invalid input that reaches
    // new code is still worth keeping in the corpus.)
    if (!cfg) return;

    std::string written = config::serialize(*cfg);
    config::ParseError err;
    auto again = config::parse(written, &err);
    if (!again) {
      t.fatalf("serialize wrote a config that does not parse (line %d: %s):\n%s", err.line, err.message.c_str(),
               written.c_str());
    }
    if (again->entries != cfg->entries) {
      t.fatalf("round trip changed the config:\n%s", written.c_str());
    }
  });
}
