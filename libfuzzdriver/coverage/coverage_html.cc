#include "libfuzzdriver/coverage/coverage_html.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string_view>
#include <vector>

#include "libfuzzdriver/coverage/coverage_plot.h"
#include "libfuzzdriver/util/file_io.h"
#include "libfuzzdriver/util/html_escape.h"

namespace cfuzz::driver {

namespace {

// The whole look of the page. Plain elements and one stylesheet keep a page of 100,000
// source lines light: no per-line script, and `content-visibility` lets the browser skip
// laying out the files off screen. The "only unreached lines" switch is a checkbox read by
// :has(), so it works with scripts disabled.
constexpr std::string_view kStyle = R"css(
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f4f5f7; color: #1f2937;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
  font-size: 13px; }
a { color: #1d4ed8; text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { background: #fff; border-bottom: 1px solid #e5e7eb; padding: 22px 32px 18px; }
header.top h1 { font-size: 22px; margin: 0 0 14px; font-weight: 650; }
header.top h1 code { font-size: 21px; }
.summary { display: flex; flex-wrap: wrap; gap: 16px 40px; align-items: flex-start; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; flex: 1 1 480px; min-width: 0; }
.facts dt { color: #6b7280; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.total { min-width: 170px; }
.total .big { font-size: 28px; font-weight: 650; line-height: 1.1; font-variant-numeric: tabular-nums; }
.total .what { color: #4b5563; }
.total .bar { width: 160px; margin: 6px 0 0; }
main { padding: 4px 32px 40px; max-width: 1400px; }
section.card { background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 16px 20px; margin: 20px 0; }
section.card h2 { font-size: 17px; margin: 0 0 12px; font-weight: 650; }
.muted { color: #6b7280; }
svg.plot { display: block; width: 100%; max-width: 1100px; height: auto; }
table.list { border-collapse: collapse; width: 100%; }
table.list th { text-align: left; font-weight: 600; color: #4b5563; border-bottom: 2px solid #e5e7eb; }
table.list th, table.list td { padding: 5px 10px; vertical-align: middle; }
table.list td { border-bottom: 1px solid #f0f1f3; }
table.list tbody tr:hover { background: #f9fafb; }
table.list tfoot td { font-weight: 600; border-top: 2px solid #e5e7eb; border-bottom: none; }
table.list .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.list td.path { overflow-wrap: anywhere; }
table.list td.name { overflow-wrap: anywhere; }
table.list td.where { white-space: nowrap; }
.bar { display: inline-block; width: 96px; height: 8px; border-radius: 4px; background: #fbd5d5;
  overflow: hidden; vertical-align: middle; }
.bar > span { display: block; height: 100%; background: #22a55a; }
td .bar { margin-right: 10px; }
.pct { display: inline-block; min-width: 3.6em; text-align: right; font-variant-numeric: tabular-nums; }
.toolbar { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center; margin: 0 0 12px; }
.key { display: inline-flex; gap: 14px; color: #4b5563; font-size: 13px; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; vertical-align: -1px;
  margin-right: 4px; border: 1px solid #d1d5db; }
.swatch.r { background: #dcf3e3; } .swatch.u { background: #fde1e1; } .swatch.none { background: #fff; }
section.file { margin: 18px 0 0; content-visibility: auto; contain-intrinsic-size: auto 600px; }
section.file h3 { font-size: 14px; font-weight: 600; margin: 0; padding: 8px 12px; background: #f9fafb;
  border: 1px solid #e5e7eb; border-bottom: none; border-radius: 6px 6px 0 0;
  display: flex; flex-wrap: wrap; gap: 4px 16px; justify-content: space-between; }
section.file h3 .stats { font-weight: 400; color: #4b5563; }
.note { margin: 0; padding: 8px 12px; background: #fffbeb; border: 1px solid #e5e7eb; border-bottom: none;
  color: #92400e; font-size: 13px; }
pre.src { margin: 0; overflow-x: auto; border: 1px solid #e5e7eb; border-radius: 0 0 6px 6px; background: #fff;
  line-height: 1.5; tab-size: 8; }
pre.src > code { display: inline-block; min-width: 100%; }
.l { display: block; padding-right: 16px; scroll-margin-top: 40vh; }
.l.r { background: #e9f7ee; }
.l.u { background: #fde8e8; }
.l:target { outline: 2px solid #f59e0b; outline-offset: -2px; }
.n { display: inline-block; min-width: 6ch; padding: 0 10px 0 8px; margin-right: 12px; text-align: right;
  color: #9ca3af; background: #f9fafb; border-right: 3px solid #f9fafb; user-select: none; }
.r .n { color: #4b5563; background: #d3efdc; border-right-color: #22a55a; }
.u .n { color: #4b5563; background: #fad4d4; border-right-color: #dc2626; }
body:has(#only-unreached:checked) .l:not(.u) { display: none; }
body:has(#only-unreached:checked) section.file:not(:has(.l.u)) { display: none; }
footer { padding: 0 32px 32px; color: #9ca3af; font-size: 13px; }
)css";

std::string method_description(const std::string& method) {
  if (method == "sancov") return "sancov: SanitizerCoverage&#39;s PC table and the debug info";
  if (method == "llvm-cov") return "llvm-cov: clang&#39;s source-based coverage";
  return html_escape(method);
}

std::string file_id(std::size_t index) { return "file-" + std::to_string(index); }

std::string line_id(std::size_t index, std::uint32_t line) { return file_id(index) + "-L" + std::to_string(line); }

std::string bar(std::size_t covered, std::size_t total) {
  return "<span class=\"bar\" aria-hidden=\"true\"><span style=\"width:" + coverage_percent(covered, total) +
         "%\"></span></span>";
}

std::string fraction(std::size_t covered, std::size_t total) {
  return std::to_string(covered) + "/" + std::to_string(total);
}

// The lines of a source file, without their line ends.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

class Page {
 public:
  Page(const CoverageReport& report, const std::vector<StatsRecord>& stats, const std::string& srcdir)
      : report_(report), stats_(stats), srcdir_(srcdir) {}

  std::string html() {
    out_ += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out_ += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out_ += "<title>Coverage of " + html_escape(report_.test) + "</title>\n<style>";
    out_ += kStyle;
    out_ += "</style>\n</head>\n<body>\n";
    header();
    out_ += "<main>\n";
    history();
    file_list();
    uncovered_functions();
    sources();
    out_ += "</main>\n<footer>Written by <code>cfuzz cover</code>.</footer>\n</body>\n</html>\n";
    return std::move(out_);
  }

 private:
  void header() {
    out_ += "<header class=\"top\">\n<h1>Coverage of <code>" + html_escape(report_.test) + "</code></h1>\n";
    out_ += "<div class=\"summary\">\n<dl class=\"facts\">\n";
    fact("Target", "<code>" + html_escape(report_.target) + "</code>");
    fact("Fuzz test", "<code>" + html_escape(report_.test) + "</code>");
    fact("Method", method_description(report_.method));
    std::string inputs = std::to_string(report_.inputs) + " corpus " + (report_.inputs == 1 ? "entry" : "entries");
    if (report_.failing > 0) {
      inputs +=
          " <span class=\"muted\">(" + std::to_string(report_.failing) + " failed; their coverage is left out)</span>";
    }
    fact("Inputs replayed", inputs);
    out_ += "</dl>\n";
    total("lines", report_.lines_covered(), report_.lines_total());
    total("functions", report_.functions_covered(), report_.functions_total());
    out_ += "</div>\n</header>\n";
  }

  void fact(const std::string& name, const std::string& value_html) {
    out_ += "<dt>" + name + "</dt><dd>" + value_html + "</dd>\n";
  }

  void total(const std::string& what, std::size_t covered, std::size_t all) {
    out_ += "<div class=\"total\" data-testid=\"total-" + what + "\"><div class=\"big\">" +
            coverage_percent(covered, all) + "%</div><div class=\"what\">" + what +
            " covered: " + std::to_string(covered) + " of " + std::to_string(all) + "</div>" + bar(covered, all) +
            "</div>\n";
  }

  void history() {
    out_ += "<section class=\"card\" id=\"history\">\n<h2>Coverage over time</h2>\n";
    if (stats_.empty()) {
      out_ +=
          "<p class=\"muted\" data-testid=\"no-runs\">No fuzzing run has been recorded yet: <code>cfuzz run</code> "
          "records the coverage and corpus size of each run, and this chart shows them.</p>\n";
    } else {
      out_ += coverage_plot_svg(stats_);
    }
    out_ += "</section>\n";
  }

  void file_list() {
    out_ += "<section class=\"card\" id=\"files\">\n<h2>Files</h2>\n";
    out_ +=
        "<table class=\"list\" data-testid=\"file-list\">\n<thead><tr><th>File</th><th class=\"num\">Lines</th>"
        "<th>Lines covered</th><th class=\"num\">Functions</th></tr></thead>\n<tbody>\n";
    for (std::size_t i = 0; i < report_.files.size(); ++i) {
      const FileCoverage& f = report_.files[i];
      out_ +=
          "<tr><td class=\"path\"><a href=\"#" + file_id(i) + "\"><code>" + html_escape(f.path) + "</code></a></td>";
      row_figures(f.lines_covered(), f.lines.size(), f.functions_covered(), f.functions.size());
    }
    out_ += "</tbody>\n<tfoot><tr><td>Total</td>";
    row_figures(report_.lines_covered(), report_.lines_total(), report_.functions_covered(), report_.functions_total());
    out_ += "</tfoot>\n</table>\n</section>\n";
  }

  void row_figures(std::size_t lc, std::size_t lt, std::size_t fc, std::size_t ft) {
    out_ += "<td class=\"num\">" + fraction(lc, lt) + "</td><td>" + bar(lc, lt) + "<span class=\"pct\">" +
            coverage_percent(lc, lt) + "%</span></td><td class=\"num\">" + fraction(fc, ft) + "</td></tr>\n";
  }

  void uncovered_functions() {
    std::size_t count = report_.functions_total() - report_.functions_covered();
    out_ +=
        "<section class=\"card\" id=\"uncovered\">\n<h2>Functions never entered (" + std::to_string(count) + ")</h2>\n";
    if (count == 0) {
      out_ += "<p class=\"muted\" data-testid=\"uncovered-functions\">" +
              std::string(report_.functions_total() == 0 ? "The report names no functions."
                                                         : "Every function was entered.") +
              "</p>\n</section>\n";
      return;
    }
    out_ +=
        "<table class=\"list\" data-testid=\"uncovered-functions\">\n<thead><tr><th>Function</th><th>Where</th>"
        "</tr></thead>\n<tbody>\n";
    for (std::size_t i = 0; i < report_.files.size(); ++i) {
      const FileCoverage& f = report_.files[i];
      for (const FunctionCoverage& fn : f.functions) {
        if (fn.covered) continue;
        std::string where = html_escape(f.path) + ":" + std::to_string(fn.line);
        out_ += "<tr><td class=\"name\"><code>" + html_escape(fn.name) + "</code></td><td class=\"where\"><a href=\"#" +
                line_id(i, fn.line) + "\"><code>" + where + "</code></a></td></tr>\n";
      }
    }
    out_ += "</tbody>\n</table>\n</section>\n";
  }

  void sources() {
    out_ +=
        "<section class=\"card\" id=\"sources\">\n<h2>Sources</h2>\n<div class=\"toolbar\">"
        "<label><input type=\"checkbox\" id=\"only-unreached\"> Show only the lines never reached</label>"
        "<span class=\"key\"><span><span class=\"swatch r\"></span>reached</span>"
        "<span><span class=\"swatch u\"></span>never reached</span>"
        "<span><span class=\"swatch none\"></span>no code</span></span></div>\n";
    for (std::size_t i = 0; i < report_.files.size(); ++i) source(i);
    out_ += "</section>\n";
  }

  void source(std::size_t index) {
    const FileCoverage& f = report_.files[index];
    out_ += "<section class=\"file\" id=\"" + file_id(index) + "\" data-testid=\"source-view\">\n<h3><code>" +
            html_escape(f.path) + "</code><span class=\"stats\">" + fraction(f.lines_covered(), f.lines.size()) +
            " lines (" + coverage_percent(f.lines_covered(), f.lines.size()) + "%) &middot; " +
            fraction(f.functions_covered(), f.functions.size()) +
            " functions &middot; <a href=\"#files\">file list</a></span></h3>\n";

    std::filesystem::path path = f.path;
    if (path.is_relative() && !srcdir_.empty()) path = std::filesystem::path(srcdir_) / path;
    std::string text;
    bool readable = true;
    try {
      text = read_file_bytes(path);
    } catch (const FileError& e) {
      readable = false;
      out_ += "<p class=\"note\">Source not shown: " + html_escape(e.what()) +
              ". The lines holding code are listed by number.</p>\n";
    }
    std::vector<std::string_view> lines = split_lines(text);
    std::uint32_t last = f.lines.empty() ? 0 : f.lines.rbegin()->first;
    if (readable && last > lines.size()) {
      out_ += "<p class=\"note\">The file has " + std::to_string(lines.size()) + " lines but the coverage names line " +
              std::to_string(last) + ": it has changed since the target was built.</p>\n";
    }

    // Function starts, for a tooltip on their line.
    std::map<std::uint32_t, const FunctionCoverage*> function_at;
    for (const FunctionCoverage& fn : f.functions) function_at.emplace(fn.line, &fn);

    out_ += "<pre class=\"src\"><code>";
    auto emit = [&](std::uint32_t n, std::string_view code) {
      auto it = f.lines.find(n);
      const char* cls = it == f.lines.end() ? "l" : it->second ? "l r" : "l u";
      out_ += "<span class=\"";
      out_ += cls;
      out_ += "\" id=\"" + line_id(index, n) + "\"";
      if (auto fn = function_at.find(n); fn != function_at.end()) {
        out_ += " title=\"";
        append_html_escaped(out_, fn->second->name);
        out_ += fn->second->covered ? ": entered\"" : ": never entered\"";
      }
      out_ += "><span class=\"n\">" + std::to_string(n) + "</span>";
      append_html_escaped(out_, code);
      out_ += "\n</span>";
    };
    if (readable) {
      for (std::size_t i = 0; i < lines.size(); ++i) emit(static_cast<std::uint32_t>(i + 1), lines[i]);
    }
    // Without the text, or past its end, the lines with code still show, by number.
    for (const auto& [n, reached] : f.lines) {
      if (n > lines.size()) emit(n, "");
    }
    out_ += "</code></pre>\n</section>\n";
  }

  const CoverageReport& report_;
  const std::vector<StatsRecord>& stats_;
  const std::string& srcdir_;
  std::string out_;
};

}  // namespace

std::string coverage_html(const CoverageReport& report, const std::vector<StatsRecord>& stats,
                          const std::string& srcdir) {
  return Page(report, stats, srcdir).html();
}

void write_coverage_html(const CoverageReport& report, const std::vector<StatsRecord>& stats, const std::string& srcdir,
                         const std::string& out_dir) {
  make_directories(out_dir);
  write_file_atomic(std::filesystem::path(out_dir) / "index.html", coverage_html(report, stats, srcdir));
}

}  // namespace cfuzz::driver
