// The JUnit document's text: what a target prints (sanitizer colours, binary garbage, markup)
// must not make the report unreadable for a CI system's XML parser.
#include "libfuzzdriver/report/junit_report.h"

#include <gtest/gtest.h>

namespace cfuzz::driver {
namespace {

JUnitTestCase failing_case(const std::string& output) {
  JUnitTestCase tc;
  tc.classname = "./fuzz_config";
  tc.name = "FuzzParseConfig";
  FailureReport r;
  r.test = tc.name;
  r.failure.kind = static_cast<std::uint32_t>(core::FailureKind::Returned);
  core::failure_set(r.failure.message, "round trip changed <a & b>");
  r.output = output;
  r.written_to = "testdata/fuzz/FuzzParseConfig/0123456789abcdef";
  r.rerun = "./fuzz_config --run FuzzParseConfig/0123456789abcdef";
  tc.failures.push_back(r);
  return tc;
}

TEST(JUnitXml, CountsTestsAndFailuresAndNamesTheCase) {
  JUnitTestCase passed;
  passed.classname = "./fuzz_config";
  passed.name = "FuzzOther";
  std::string xml = junit_xml({failing_case(""), passed});
  EXPECT_NE(xml.find("<testsuites name=\"cfuzz\" tests=\"2\" failures=\"1\" errors=\"0\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase classname=\"./fuzz_config\" name=\"FuzzParseConfig\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"round trip changed &lt;a &amp; b&gt;\" type=\"failure\">"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("To re-run:\n    ./fuzz_config --run FuzzParseConfig/0123456789abcdef"), std::string::npos) << xml;
}

TEST(JUnitXml, BytesXmlCannotCarryBecomeReplacementCharacters) {
  std::string output = "\x1b[1mred\x1b[0m \xff\xfe ok \xc3\xa9 \x01";
  std::string xml = junit_xml({failing_case(output)});
  for (char c : xml) {
    unsigned char u = static_cast<unsigned char>(c);
    EXPECT_FALSE(u < 0x20 && c != '\n' && c != '\t') << "control byte " << int(u) << " in the report";
    EXPECT_FALSE(u == 0xff || u == 0xfe);
  }
  // Valid UTF-8 (é) is kept as it is.
  EXPECT_NE(xml.find("\xef\xbf\xbd[1mred\xef\xbf\xbd[0m \xef\xbf\xbd\xef\xbf\xbd ok \xc3\xa9 \xef\xbf\xbd"),
            std::string::npos)
      << xml;
}

}  // namespace
}  // namespace cfuzz::driver
