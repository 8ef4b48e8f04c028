#include "libfuzzdriver/coverage/coverage_report.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace cfuzz::driver {

// Keys in the documented order, for people reading the file.
using json = nlohmann::ordered_json;

std::size_t FileCoverage::lines_covered() const {
  return static_cast<std::size_t>(std::count_if(lines.begin(), lines.end(), [](const auto& l) { return l.second; }));
}

std::size_t FileCoverage::functions_covered() const {
  return static_cast<std::size_t>(
      std::count_if(functions.begin(), functions.end(), [](const FunctionCoverage& f) { return f.covered; }));
}

std::size_t CoverageReport::lines_total() const {
  std::size_t n = 0;
  for (const auto& f : files) n += f.lines.size();
  return n;
}

std::size_t CoverageReport::lines_covered() const {
  std::size_t n = 0;
  for (const auto& f : files) n += f.lines_covered();
  return n;
}

std::size_t CoverageReport::functions_total() const {
  std::size_t n = 0;
  for (const auto& f : files) n += f.functions.size();
  return n;
}

std::size_t CoverageReport::functions_covered() const {
  std::size_t n = 0;
  for (const auto& f : files) n += f.functions_covered();
  return n;
}

std::string coverage_percent(std::size_t covered, std::size_t total) {
  if (total == 0) return "0.0";
  // Rounded down, in integers: 1999/2000 shows 99.9, never a 100.0 that hides a missed line.
  unsigned long long tenths = static_cast<unsigned long long>(covered) * 1000 / total;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

namespace {

struct TextRow {
  std::string path, lines, percent, functions;
};

TextRow text_row(std::string path, std::size_t lc, std::size_t lt, std::size_t fc, std::size_t ft) {
  return {std::move(path), std::to_string(lc) + "/" + std::to_string(lt), "(" + coverage_percent(lc, lt) + "%)",
          std::to_string(fc) + "/" + std::to_string(ft)};
}

std::string pad_right(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

json fraction(std::size_t covered, std::size_t total) { return json{{"covered", covered}, {"total", total}}; }

}  // namespace

std::string format_coverage_text(const CoverageReport& report) {
  std::vector<TextRow> rows;
  for (const auto& f : report.files) {
    rows.push_back(text_row(f.path, f.lines_covered(), f.lines.size(), f.functions_covered(), f.functions.size()));
  }
  rows.push_back(text_row("total", report.lines_covered(), report.lines_total(), report.functions_covered(),
                          report.functions_total()));

  std::size_t w_path = 0, w_lines = 0, w_percent = 0, w_functions = 0;
  for (const auto& r : rows) {
    w_path = std::max(w_path, r.path.size());
    w_lines = std::max(w_lines, r.lines.size());
    w_percent = std::max(w_percent, r.percent.size());
    w_functions = std::max(w_functions, r.functions.size());
  }
  std::string out;
  for (const auto& r : rows) {
    out += "  " + pad_right(r.path, w_path) + "  " + pad_left(r.lines, w_lines) + " lines " +
           pad_left(r.percent, w_percent) + "  " + pad_left(r.functions, w_functions) + " functions\n";
  }
  if (report.failing > 0) {
    out += "  (" + std::to_string(report.failing) + " of " + std::to_string(report.inputs) +
           " inputs failed; what they reached is left out)\n";
  }
  return out;
}

std::string format_coverage_json(const CoverageReport& report) {
  json files = json::array();
  for (const auto& f : report.files) {
    json covered_lines = json::array(), uncovered_lines = json::array();
    for (const auto& [line, reached] : f.lines) (reached ? covered_lines : uncovered_lines).push_back(line);
    json uncovered_functions = json::array();
    for (const auto& fn : f.functions) {
      if (!fn.covered) uncovered_functions.push_back(json{{"name", fn.name}, {"line", fn.line}});
    }
    files.push_back(json{{"path", f.path},
                         {"lines", fraction(f.lines_covered(), f.lines.size())},
                         {"functions", fraction(f.functions_covered(), f.functions.size())},
                         {"covered_lines", std::move(covered_lines)},
                         {"uncovered_lines", std::move(uncovered_lines)},
                         {"uncovered_functions", std::move(uncovered_functions)}});
  }
  json doc{{"target", report.target},
           {"test", report.test},
           {"method", report.method},
           {"inputs", report.inputs},
           {"failing", report.failing},
           {"files", std::move(files)},
           {"total",
            {{"lines", fraction(report.lines_covered(), report.lines_total())},
             {"functions", fraction(report.functions_covered(), report.functions_total())}}}};
  // Paths and demangled names come from debug info and may hold bytes that are not UTF-8:
  // replaced rather than thrown on.
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace cfuzz::driver
