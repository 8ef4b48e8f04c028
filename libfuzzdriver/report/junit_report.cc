#include "libfuzzdriver/report/junit_report.h"

#include <cstdio>

#include "core/failure_record.h"
#include "libfuzzdriver/util/html_escape.h"

namespace cfuzz::driver {

namespace {

// The length of the valid UTF-8 sequence at `s[i]`, 0 if there is none.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  return n;
}

// Escaped for XML text and attribute values (HTML's escapes are XML's). What XML 1.0 cannot hold at all (control
// characters other than tab and line ends, bytes that are not UTF-8) becomes U+FFFD.
void append_xml(std::string& out, std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    std::size_t n = utf8_length(text, i);
    if (n == 0 || (n == 1 && static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
      out += "\xef\xbf\xbd";
      i += n == 0 ? 1 : n;
      continue;
    }
    append_html_escaped(out, text.substr(i, n));
    i += n;
  }
}

std::string seconds(std::chrono::nanoseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", std::chrono::duration<double>(d).count());
  return buf;
}

// The failure's one-line message: what a CI page shows in its list of failed tests.
std::string failure_message(const FailureReport& r) {
  // A returned failure's own text (t.fatal's), as go test shows it; otherwise the summary
  // the progress output prints ("AddressSanitizer: heap-buffer-overflow at ...").
  std::string message = r.failure.message;
  if (r.failure.kind != static_cast<std::uint32_t>(core::FailureKind::Returned) || message.empty()) {
    message = core::failure_summary(r.failure);
  }
  if (auto end = message.find('\n'); end != std::string::npos) message.resize(end);
  if (r.seed) return "seed corpus entry " + r.seed_name + ": " + message;
  return message;
}

std::string_view kind_name(const FailureReport& r) {
  return core::failure_kind_name(static_cast<core::FailureKind>(r.failure.kind));
}

// The failure's body: everything a developer needs to reproduce it without the log.
std::string failure_details(const FailureReport& r) {
  std::string text = failure_message(r) + "\n";
  std::string message = r.failure.message;
  if (!message.empty() && message.find('\n') != std::string::npos) text += "\n" + message + "\n";
  if (!r.stack.empty()) {
    text += "\nStack:\n";
    for (const auto& frame : r.stack) text += "    " + frame + "\n";
  }
  if (!r.input_summary.empty()) text += "\nFailing input: " + r.input_summary + "\n";
  if (!r.minimized.empty()) text += "(" + r.minimized + ")\n";
  if (!r.written_to.empty()) text += "Written to: " + r.written_to + "\n";
  if (!r.write_error.empty()) text += "Could not be saved: " + r.write_error + "\n";
  if (!r.input_v1.empty() && r.written_to.empty()) text += "\n" + r.input_v1;
  if (!r.rerun.empty()) text += "To re-run:\n    " + r.rerun + "\n";
  if (!r.output.empty()) text += "\nThe target's output:\n" + r.output;
  return text;
}

void append_test_case(std::string& out, const JUnitTestCase& c) {
  out += "    <testcase classname=\"";
  append_xml(out, c.classname);
  out += "\" name=\"";
  append_xml(out, c.name);
  out += "\" time=\"" + seconds(c.time) + "\">\n";
  for (const auto& f : c.failures) {
    out += "      <failure message=\"";
    append_xml(out, failure_message(f));
    out += "\" type=\"";
    append_xml(out, kind_name(f));
    out += "\">";
    append_xml(out, failure_details(f));
    out += "</failure>\n";
  }
  if (!c.error.empty()) {
    out += "      <error message=\"";
    append_xml(out, c.error);
    out += "\" type=\"error\"/>\n";
  }
  if (!c.system_out.empty()) {
    out += "      <system-out>";
    append_xml(out, c.system_out);
    out += "</system-out>\n";
  }
  out += "    </testcase>\n";
}

// One <testsuite> for the cases [first, last), which share their classname (the target).
void append_test_suite(std::string& out, const JUnitTestCase* first, const JUnitTestCase* last) {
  std::size_t failures = 0, errors = 0;
  std::chrono::nanoseconds time{};
  for (const auto* c = first; c != last; ++c) {
    failures += c->failures.empty() ? 0 : 1;
    errors += c->error.empty() ? 0 : 1;
    time += c->time;
  }
  out += "  <testsuite name=\"";
  append_xml(out, first->classname);
  out += "\" tests=\"" + std::to_string(last - first) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
         std::to_string(errors) + "\" skipped=\"0\" time=\"" + seconds(time) + "\">\n";
  for (const auto* c = first; c != last; ++c) append_test_case(out, *c);
  out += "  </testsuite>\n";
}

}  // namespace

std::string junit_xml(const std::vector<JUnitTestCase>& cases) {
  std::size_t failures = 0, errors = 0;
  std::chrono::nanoseconds total{};
  for (const auto& c : cases) {
    failures += c.failures.empty() ? 0 : 1;
    errors += c.error.empty() ? 0 : 1;
    total += c.time;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"cfuzz\" tests=\"" + std::to_string(cases.size()) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" time=\"" + seconds(total) + "\">\n";
  for (std::size_t i = 0; i < cases.size();) {
    std::size_t j = i + 1;
    while (j < cases.size() && cases[j].classname == cases[i].classname) ++j;
    append_test_suite(out, cases.data() + i, cases.data() + j);
    i = j;
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace cfuzz::driver
