// `cfuzz cover`'s report as a reader sees it: the page's totals, file list, functions never
// entered, source lines marked reached or not, the chart of several runs; and the same
// figures as text and JSON. (test/e2e/cover_browser_test.sh opens a real page in Chromium.)
#include "libfuzzdriver/coverage/coverage_html.h"

#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "libfuzzdriver/coverage/coverage_plot.h"
#include "libfuzzdriver/coverage/coverage_report.h"
#include "test/support/files.h"
#include "test/support/temp_dir.h"

namespace cfuzz::driver {
namespace {

namespace fs = std::filesystem;

using Dir = test::TempDir;

constexpr const char* kParseSource =
    "// parse.cc\n"
    "#include <string>\n"
    "bool less(int a, int b, bool c) {\n"
    "  return a < b && c;\n"
    "}\n"
    "\n"
    "template <typename T> T never(T x) {\n"
    "  return x * 2;\n"
    "}\n";

// parse.cc, read from disk, half reached; gone.cc, whose source is missing.
CoverageReport sample_report() {
  CoverageReport r;
  r.target = "/work/build/fuzz_parse";
  r.test = "FuzzParse";
  r.method = "sancov";
  r.inputs = 42;
  r.failing = 1;
  FileCoverage parse;
  parse.path = "src/parse.cc";
  parse.lines = {{3, true}, {4, true}, {5, true}, {7, false}, {8, false}, {9, false}};
  parse.functions = {{"less(int, int, bool)", 3, true}, {"never<int>(int)", 7, false}};
  FileCoverage gone;
  gone.path = "lib/gone.cc";
  gone.lines = {{10, true}, {12, false}};
  gone.functions = {{"gone()", 10, true}};
  r.files = {gone, parse};  // sorted by path
  return r;
}

// Two runs: the first fuzzed 6 s, the second 3 s.
std::vector<StatsRecord> two_runs() {
  return {{"run-a", 1000, 0, 0, 1, 10, 12},
          {"run-a", 1003, 3, 5000, 5, 40, 60},
          {"run-a", 1006, 6, 9000, 7, 50, 80},
          {"run-b", 2000, 0, 0, 7, 50, 80},
          {"run-b", 2003, 3, 4000, 8, 55, 90}};
}

struct Written {
  Dir dir;
  std::string html;
  Written(const CoverageReport& report, const std::vector<StatsRecord>& stats) {
    fs::create_directories(dir.path() / "src");
    test::write_file(dir.path() / "src/parse.cc", kParseSource);
    fs::path out = dir.path() / "report";
    write_coverage_html(report, stats, dir.path().string(), out.string());
    html = test::read_file(out / "index.html");
  }
};

// The class of the source line with this id ("l r": reached, "l u": never, "l": no code).
std::string line_class(const std::string& html, const std::string& id) {
  std::smatch m;
  if (!std::regex_search(html, m, std::regex("<span class=\"([^\"]*)\" id=\"" + id + "\""))) return "(no such line)";
  return m[1];
}

// The text of the element that starts with `data-testid="<id>"`, up to `end`.
std::string element(const std::string& html, const std::string& testid, const std::string& end) {
  std::size_t start = html.find("data-testid=\"" + testid + "\"");
  if (start == std::string::npos) return "";
  return html.substr(start, html.find(end, start) - start);
}

// The points of each <polyline> of the chart with this class, by run.
std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> polylines(const std::string& svg,
                                                                                      const std::string& cls) {
  std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> out;
  std::regex re("<polyline class=\"" + cls + "\" data-run=\"([^\"]*)\"[^>]* points=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    std::vector<std::pair<double, double>> points;
    std::istringstream in((*it)[2].str());
    double x, y;
    char comma;
    while (in >> x >> comma >> y) points.push_back({x, y});
    out.push_back({(*it)[1].str(), points});
  }
  return out;
}

TEST(CoverageHtml, WritesOnePageWithTheElementsATestLooksFor) {
  Written w(sample_report(), two_runs());
  EXPECT_NE(w.html.find("data-testid=\"coverage-plot\""), std::string::npos);
  EXPECT_NE(w.html.find("data-testid=\"file-list\""), std::string::npos);
  EXPECT_NE(w.html.find("data-testid=\"uncovered-functions\""), std::string::npos);
  std::size_t sources = 0;
  for (std::size_t at = 0; (at = w.html.find("data-testid=\"source-view\"", at)) != std::string::npos; ++at) {
    ++sources;
  }
  EXPECT_EQ(sources, 2u);
  // Self-contained: nothing fetched from anywhere.
  EXPECT_EQ(w.html.find("<script src"), std::string::npos);
  EXPECT_EQ(w.html.find("<link"), std::string::npos);
  std::string rest = std::regex_replace(w.html, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  EXPECT_EQ(rest.find("http"), std::string::npos);
  EXPECT_EQ(rest.find("url("), std::string::npos);
}

TEST(CoverageHtml, HeaderGivesTheRunAndTheTotals) {
  Written w(sample_report(), two_runs());
  EXPECT_NE(w.html.find("<code>FuzzParse</code>"), std::string::npos);
  EXPECT_NE(w.html.find("/work/build/fuzz_parse"), std::string::npos);
  EXPECT_NE(w.html.find("42 corpus entries"), std::string::npos);
  EXPECT_NE(w.html.find("1 failed"), std::string::npos);
  // 4 of 8 lines, 2 of 3 functions.
  std::string lines = element(w.html, "total-lines", "</div>\n");
  EXPECT_NE(lines.find("50.0%"), std::string::npos) << lines;
  EXPECT_NE(lines.find("4 of 8"), std::string::npos) << lines;
  std::string functions = element(w.html, "total-functions", "</div>\n");
  EXPECT_NE(functions.find("66.6%"), std::string::npos) << functions;
  EXPECT_NE(functions.find("2 of 3"), std::string::npos) << functions;
}

TEST(CoverageHtml, FileListLinksEachFileToItsSource) {
  Written w(sample_report(), two_runs());
  std::string list = element(w.html, "file-list", "</table>");
  EXPECT_NE(list.find("<a href=\"#file-0\"><code>lib/gone.cc</code></a>"), std::string::npos) << list;
  EXPECT_NE(list.find("<a href=\"#file-1\"><code>src/parse.cc</code></a>"), std::string::npos) << list;
  std::string row = list.substr(list.find("src/parse.cc"));
  row = row.substr(0, row.find("</tr>"));
  EXPECT_NE(row.find(">3/6</td>"), std::string::npos) << row;                     // lines
  EXPECT_NE(row.find("<span style=\"width:50.0%\">"), std::string::npos) << row;  // the bar
  EXPECT_NE(row.find(">50.0%</span>"), std::string::npos) << row;
  EXPECT_NE(row.find(">1/2</td>"), std::string::npos) << row;  // functions
  EXPECT_NE(w.html.find("<section class=\"file\" id=\"file-1\" data-testid=\"source-view\">"), std::string::npos);
}

TEST(CoverageHtml, ShowsTheSourceEscaped) {
  Written w(sample_report(), two_runs());
  EXPECT_NE(w.html.find("  return a &lt; b &amp;&amp; c;"), std::string::npos);
  EXPECT_NE(w.html.find("#include &lt;string&gt;"), std::string::npos);
  EXPECT_EQ(w.html.find("a < b"), std::string::npos);
}

TEST(CoverageHtml, MarksReachedAndUnreachedLinesOfEachFile) {
  Written w(sample_report(), two_runs());
  EXPECT_EQ(line_class(w.html, "file-1-L4"), "l r");  // return a < b && c;
  EXPECT_EQ(line_class(w.html, "file-1-L8"), "l u");  // return x * 2;
  EXPECT_EQ(line_class(w.html, "file-1-L6"), "l");    // blank: no code
  EXPECT_EQ(line_class(w.html, "file-1-L1"), "l");    // a comment
  EXPECT_EQ(line_class(w.html, "file-0-L10"), "l r");
  EXPECT_EQ(line_class(w.html, "file-0-L12"), "l u");
  // Every line of the file shows, numbered; nothing past its end.
  EXPECT_NE(w.html.find("id=\"file-1-L9\"><span class=\"n\">9</span>}"), std::string::npos);
  EXPECT_EQ(w.html.find("id=\"file-1-L10\""), std::string::npos);
}

TEST(CoverageHtml, UnreadableSourceIsNamedAndItsLinesListedByNumber) {
  Written w(sample_report(), two_runs());
  std::string gone = element(w.html, "source-view", "</section>");
  EXPECT_NE(gone.find("Source not shown: cannot read " + (w.dir.path() / "lib/gone.cc").string()), std::string::npos)
      << gone;
  EXPECT_EQ(line_class(gone, "file-0-L10"), "l r");
  EXPECT_EQ(line_class(gone, "file-0-L12"), "l u");
  EXPECT_NE(gone.find("<span class=\"n\">12</span>\n</span>"), std::string::npos) << gone;  // no text
  EXPECT_EQ(gone.find("id=\"file-0-L11\""), std::string::npos) << gone;                     // no code there
}

TEST(CoverageHtml, ListsTheFunctionsNeverEnteredWithLinksToTheirLines) {
  Written w(sample_report(), two_runs());
  std::string list = element(w.html, "uncovered-functions", "</table>");
  EXPECT_NE(list.find("<code>never&lt;int&gt;(int)</code>"), std::string::npos) << list;
  EXPECT_NE(list.find("<a href=\"#file-1-L7\"><code>src/parse.cc:7</code></a>"), std::string::npos) << list;
  EXPECT_EQ(list.find("less("), std::string::npos) << list;
  EXPECT_EQ(list.find("gone()"), std::string::npos) << list;
  EXPECT_NE(w.html.find("Functions never entered (1)"), std::string::npos);
  // The line itself says which function starts there.
  EXPECT_NE(w.html.find("id=\"file-1-L7\" title=\"never&lt;int&gt;(int): never entered\""), std::string::npos);
}

TEST(CoverageHtml, PlotDrawsEachRunAfterThePreviousOne) {
  Written w(sample_report(), two_runs());
  std::string svg = element(w.html, "coverage-plot", "</svg>");
  ASSERT_FALSE(svg.empty());
  for (const char* series : {"edges", "corpus"}) {
    auto lines = polylines(svg, series);
    ASSERT_EQ(lines.size(), 2u) << series;
    EXPECT_EQ(lines[0].first, "run-a");
    EXPECT_EQ(lines[1].first, "run-b");
    ASSERT_EQ(lines[0].second.size(), 3u);
    ASSERT_EQ(lines[1].second.size(), 2u);
    // Run b's time starts where run a's ended (6 s of 9), and time runs left to right.
    EXPECT_DOUBLE_EQ(lines[1].second.front().first, lines[0].second.back().first);
    EXPECT_LT(lines[0].second.front().first, lines[0].second.back().first);
    EXPECT_LT(lines[1].second.front().first, lines[1].second.back().first);
    double x0 = lines[0].second.front().first, span = lines[1].second.back().first - x0;
    EXPECT_NEAR((lines[1].second.front().first - x0) / span, 6.0 / 9.0, 0.01);
  }
  // Edges grow up the chart (SVG's y runs down).
  auto edges = polylines(svg, "edges");
  EXPECT_GT(edges[0].second.front().second, edges[0].second.back().second);
  // One boundary between the two runs, axis numbers, and a legend.
  EXPECT_NE(svg.find("run 2 (run-b) starts"), std::string::npos);
  EXPECT_NE(svg.find(">edges reached (cov)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">corpus entries</text>"), std::string::npos);
  EXPECT_NE(svg.find("text-anchor=\"end\">60</text>"), std::string::npos);     // edges' axis: up to 55
  EXPECT_NE(svg.find("text-anchor=\"middle\">8s</text>"), std::string::npos);  // the time axis: 9 s
}

TEST(CoverageHtml, WithoutRunsThePageSaysSoInsteadOfAPlot) {
  Written w(sample_report(), {});
  EXPECT_EQ(w.html.find("data-testid=\"coverage-plot\""), std::string::npos);
  EXPECT_NE(w.html.find("No fuzzing run has been recorded yet"), std::string::npos);
  EXPECT_EQ(coverage_plot_svg({}), "");
}

TEST(CoverageHtml, AOneRecordRunIsDrawnAsAPoint) {
  std::string svg = coverage_plot_svg({{"only", 1000, 0, 0, 3, 17, 20}});
  EXPECT_EQ(polylines(svg, "edges").size(), 1u);
  EXPECT_NE(svg.find("<circle"), std::string::npos);
}

TEST(CoverageHtml, ALargeReportIsPlainMarkupWithoutScript) {
  // 50 files of 2000 lines: what a mid-sized library's report holds.
  CoverageReport r = sample_report();
  r.files.clear();
  for (int f = 0; f < 50; ++f) {
    FileCoverage fc;
    fc.path = "/nonexistent/file" + std::to_string(f) + ".cc";
    for (std::uint32_t l = 1; l <= 2000; ++l) fc.lines[l] = l % 3 != 0;
    r.files.push_back(fc);
  }
  std::string html = coverage_html(r, two_runs(), "");
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(" onclick="), std::string::npos);
  // About 80 bytes of markup a line: the page stays a few megabytes.
  EXPECT_LT(html.size(), 50u * 2000 * 100);
}

TEST(CoverageHtml, AnUnwritableDirectoryIsNamedInTheError) {
  Dir d;
  test::write_file(d.path() / "file", "not a directory");
  std::string out = (d.path() / "file" / "report").string();
  try {
    write_coverage_html(sample_report(), {}, d.path().string(), out);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(out), std::string::npos) << e.what();
  }
}

TEST(CoverageText, AlignsOneLinePerFileAndATotalAndSaysHowManyInputsFailed) {
  EXPECT_EQ(format_coverage_text(sample_report()),
            "  lib/gone.cc   1/2 lines (50.0%)  1/1 functions\n"
            "  src/parse.cc  3/6 lines (50.0%)  1/2 functions\n"
            "  total         4/8 lines (50.0%)  2/3 functions\n"
            "  (1 of 42 inputs failed; what they reached is left out)\n");
  CoverageReport none_failed = sample_report();
  none_failed.failing = 0;
  EXPECT_EQ(format_coverage_text(none_failed).find("failed"), std::string::npos);
}

TEST(CoverageText, PercentagesRoundDownSoOnlyFullCoverageReadsAHundred) {
  EXPECT_EQ(coverage_percent(1999, 2000), "99.9");
  EXPECT_EQ(coverage_percent(2000, 2000), "100.0");
  EXPECT_EQ(coverage_percent(1, 3), "33.3");
  EXPECT_EQ(coverage_percent(0, 0), "0.0");
}

TEST(CoverageJson, CarriesTheFiguresAndWhatWasMissed) {
  auto j = nlohmann::json::parse(format_coverage_json(sample_report()));
  EXPECT_EQ(j["target"], "/work/build/fuzz_parse");
  EXPECT_EQ(j["test"], "FuzzParse");
  EXPECT_EQ(j["method"], "sancov");
  EXPECT_EQ(j["inputs"], 42);
  EXPECT_EQ(j["failing"], 1);
  ASSERT_EQ(j["files"].size(), 2u);
  const auto& parse = j["files"][1];
  EXPECT_EQ(parse["path"], "src/parse.cc");
  EXPECT_EQ(parse["lines"], (nlohmann::json{{"covered", 3}, {"total", 6}}));
  EXPECT_EQ(parse["functions"], (nlohmann::json{{"covered", 1}, {"total", 2}}));
  EXPECT_EQ(parse["uncovered_lines"], (nlohmann::json{7, 8, 9}));
  EXPECT_EQ(parse["uncovered_functions"], (nlohmann::json::array({{{"name", "never<int>(int)"}, {"line", 7}}})));
  EXPECT_EQ(j["total"]["lines"], (nlohmann::json{{"covered", 4}, {"total", 8}}));
  EXPECT_EQ(j["total"]["functions"], (nlohmann::json{{"covered", 2}, {"total", 3}}));
}

}  // namespace
}  // namespace cfuzz::driver
